"""The kinds of detail a question may ask besides which thing: a place, a person, a time, a number.

Why apart: the reader's rules (focus.py, answering.py) ask the same two things of a question, whether it asks such a
kind ("where", "what time", its class) and whether its which / what governs only a word for one ("which place"), and
must agree on what the kinds are.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .caseblind import TextPattern, case_blind
from .lexical import tokens
from .question_words import ASKS_FOR, NEEDS

#: The question classes (question_words.CLASSES) that ask a kind of detail.
ASKED_KINDS = frozenset({"place", "person", "time", "quantity"})
#: Words for such a kind that a which / what may govern ("which place", "what time", "哪个地方").
KIND_WORDS = {
    "en": frozenset(
        tokens("place places location spot address time times date day hour moment person people amount number", "en")
    ),
    "zh": frozenset(tokens("地方 地点 位置 时间 时候 日子 人 数量", "zh")),
}
#: An explanation whose missing detail is the way to get a thing ("how to obtain the map", "如何获得玄幻森林的地图"):
#: that way is asked by who gives it too ("Who can give me the map?", "谁能给我地图？"), as by where it is found.
SAYS_GETTING: dict[str, TextPattern] = {
    "en": case_blind(
        r"\bhow (?:to|can|could|do|does|should|would)\b(?:\s+\w+){0,2}\s+(?:get|gain|obtain|acquire|buy|purchase)\b"
    ),
    "zh": re.compile(r"(?:如何|怎么|怎样|怎么样)(?:才能|可以|能|去)?(?:获得|获取|得到|购买|买到|拿到|取得|弄到)"),
}

#: A choice that is the means of making its thing ("which furnace to use for refining ... into a Fire Spirit Stone",
#: "应该使用黄色熔炉来炼成火灵石"), and a question of how to get a thing ("How do I get a fire spirit stone?",
#: "火灵石怎么得到？"): such a question asks that choice, as a person answers it with the means.
MAKES: dict[str, TextPattern] = {
    "en": case_blind(r"\b(?:to|for) (?:make|making|craft\w*|refin\w*|forg(?:e|ing)|brew\w*|smelt\w*|produc\w*)\b"),
    "zh": re.compile(r"(?:炼成|炼化|炼制|制作|做成|制成|合成|打造|锻造|酿造|熔炼)"),
}
ASKS_GETTING: dict[str, TextPattern] = {
    "en": case_blind(r"\bhow\b(?:\s+\w+){0,3}\s+(?:get|obtain|acquire|make|craft)\b"),
    "zh": re.compile(r"(?:怎么|如何|怎样)(?:才能|可以|能|去)?(?:得到|获得|弄到|拿到|搞到|做出|炼出)"),
}
#: The question an explanation says its node answers ("addresses the question of when it is safe to enter"): where
#: its missing detail was put another way first ("did not explain how to avoid the monsters"), this names its kind too.
QUESTION_OF: dict[str, TextPattern] = {
    "en": case_blind(r"\b(?:addresses|answers) the question of ([^.;]{0,120})"),
    "zh": re.compile(r"用于(?:回答|解答)([^。；]{0,60}?)的疑问"),
}


#: An answer that states a clock time ("only during the hour of 12 to 1 pm", "中午12点到1点"): when asks it too.
STATES_TIME: dict[str, TextPattern] = {
    "en": case_blind(r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o'clock)(?!\w)|\b(?:noon|midnight)\b"),
    "zh": re.compile(r"[0-9０-９一二三四五六七八九十两]+点|中午|午夜|凌晨|黄昏|黎明|傍晚"),
}


@lru_cache(maxsize=4096)
def kinds_asking(needs: str | None, explanation: str, language: str, answer: str = "") -> frozenset[str]:
    """The question classes that ask a missing detail of this kind (`needs`), given the node's explanation: a way
    of getting a thing is asked by who as well, and a detail the explanation's own question puts another way by the
    kind that question asks ("how to avoid the monsters" / "the question of when it is safe": when, too); a way the
    answer gives as a clock time ("You can avoid monsters only during the hour of 12 to 1 pm") by when too."""
    kinds = frozenset(ASKS_FOR[needs])
    if needs != "time" and STATES_TIME[language].search(answer):
        kinds |= {"time"}
    if needs == "manner" and SAYS_GETTING[language].search(explanation):
        kinds |= {"person"}
    asked = QUESTION_OF[language].search(explanation)
    also = next((name for name, pattern in NEEDS[language] if asked and pattern.search(asked.group(1))), None)
    return kinds | {also} if also is not None else kinds


@lru_cache(maxsize=4096)  # (asked of every choice node for every question of a turn)
def asks_making(question: str, explanation: str, language: str) -> frozenset[str]:
    """{"manner"} when the question asks how to get the thing the explanation says its choice makes (MAKES)."""
    found = ASKS_GETTING[language].search(question) and MAKES[language].search(explanation)
    return frozenset({"manner"}) if found else frozenset()


def other_wording(explanation: str, needs: str | None, language: str) -> str:
    """(en) The explanation's own question where it asks another kind of detail than its gap said ("did not explain
    how to avoid the monsters ... the question of when it is safe to enter the house", up to its first comma): its
    words name the thing too. Empty otherwise (the same kind asked twice adds only its verbs: "where to buy")."""
    said = QUESTION_OF[language].search(explanation) if language == "en" and needs is not None else None
    kind = next((name for name, pattern in NEEDS[language] if said and pattern.search(said.group(1))), needs)
    return said.group(1).split(",")[0] if said and kind != needs else ""


__all__ = [
    "ASKED_KINDS",
    "KIND_WORDS",
    "QUESTION_OF",
    "SAYS_GETTING",
    "asks_making",
    "kinds_asking",
    "other_wording",
]
