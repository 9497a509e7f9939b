"""What kind of thing a question asks for: its interrogative classes (place, person, time, quantity, manner,
identity), per language.

Why apart from question_words.py: the classes are read of every question a seeker asks, by the reader's rules and the
screen alike, and one question may have several ("How do I get to the study?" asks a way and a place).
"""

from __future__ import annotations

import re

from .caseblind import TextPattern, case_blind

#: (zh) Measure words a which takes before its kind ("哪家酒馆", "哪颗宝石", "哪双跑鞋", "哪片森林").
MEASURE_ZH = "个种家座条位所间把件只首款张部台辆本类颗双套份瓶盏匹头艘架枚块根支扇棵朵封袋桶箱罐栋层片段项幅篇口名"

#: Interrogative classes of a question (what kind of thing it asks for), per language.
CLASSES: dict[str, dict[str, TextPattern]] = {
    "en": {
        "quantity": case_blind(r"\bhow\s+(many|much|long|far|often)\b"),
        # ("How do I get to the study?", "How can I find Henry?" ask where, as "Where is the study?" does)
        "place": case_blind(
            r"\b(?:where|whereabouts)\b|\bwhich\s+(place|location|spot|area|one)\b|\bwhat\s+(place|location)\b"
            r"|\bhow\s+(?:do|can|could|should|would|will|shall|to)\s+(?:(?:i|we|you|they)\s+)?"
            r"(?:get|go|travel|walk)\s+(?:to|into)\b|\bhow\s+(?:do|can|could|should|would|will|shall|to)\s+"
            r"(?:(?:i|we|you|they)\s+)?find\b(?!\s+out\b)"
        ),
        "person": case_blind(r"\b(who|whom)\b"),
        "time": case_blind(
            r"\bwhen\b|\b(time|times|timing|day|days|date|hour|hours|schedule|o'clock|noon|midnight|"
            r"morning|evening|afternoon|night)\b"
        ),
        "manner": case_blind(r"\bhow\b(?!\s+(many|much|long|far|often|about)\b)|\b(way|ways|method|steps?)\b"),
        "identity": case_blind(
            r"\b(which|what|whether|whose)\b|\b(specify|recommend|suggest|advise|tell me|let me know|"
            r"clarify|explain|identify|name|inform me|confirm|provide|guide me|describe)\b"
            r"|\bor\b[^?]*\?"
        ),
    },
    "zh": {
        "quantity": re.compile(r"多少|(?<!好)几(?!乎)[个种条家位次天点]?|多久|多长"),
        "place": re.compile(
            r"哪里|哪儿|在哪|去哪|上哪|到哪|从哪|往哪|何处|什么地方|哪个地方|哪家|哪座|哪间|哪所|地点|位置|(?:怎么|怎样|如何)(?:才能|能|可以)?(?:去|到|走到|找到)"
        ),
        "person": re.compile(r"谁|哪位|什么人"),
        "time": re.compile(r"什么时候|何时|几点|时间|时候|哪天|哪一天|几号|日期|时刻|早上|晚上|中午|上午|下午"),
        "manner": re.compile(r"怎么|怎样|如何|方法|办法"),
        # (a bare 哪 after 在 / 去 / 到 asks where, "去哪找亨利", not which; "去哪个酒馆" asks which too)
        "identity": re.compile(
            r"(?<![在去到从上往])哪(?!里|儿)|(?<=[在去到从上往])哪(?=[一个些家座条所间位种样把件只本颗张片台辆])|"
            r"什么(?!时候|地方|人)|是否|还是|具体|告诉|说明|建议|推荐|指点|确认|怎么办|该怎么做|如何是好|怎样的|怎么样"
        ),
    },
}


__all__ = ["CLASSES", "MEASURE_ZH"]
