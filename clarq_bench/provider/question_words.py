"""The words questions and explanations are read by, per language: what a question asks for (its interrogative
class), what an explanation says is missing, and the small patterns of lists, clauses and governed kinds. Data
for focus.py (what a question asks about), kept apart so the rule reads as a rule.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import Any

from .caseblind import TextPattern, case_blind
from .lexical import FOCUS_STOP_EN, tokens
from .question_classes import CLASSES, MEASURE_ZH


class Prefiltered:
    """A pattern that first looks for the words one of which every match of it contains, so a text without any costs
    one quick scan: CHOOSER_AFTER tries up to eight words before its which at every position of a question (about
    half a millisecond a question), yet most questions have no "which one". Matches are exactly the pattern's: a
    case-blind pattern is prefiltered on lower-cased ASCII text only (re's case folding of other scripts is its own)."""

    def __init__(self, pattern: TextPattern, words: tuple[str, ...]) -> None:
        self.pattern, self.words = pattern, words
        self.folds = bool(pattern.flags & re.IGNORECASE)

    def _may_match(self, text: str, pos: int, endpos: int) -> bool:
        window = text[pos:endpos] if pos or endpos < len(text) else text
        if self.folds:
            if not window.isascii():
                return True
            window = window.lower()
        return any(word in window for word in self.words)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        if not self._may_match(text, pos, endpos):
            return iter(())
        return self.pattern.finditer(text, pos, endpos)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        if not self._may_match(text, pos, endpos):
            return None
        return self.pattern.search(text, pos, endpos)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pattern, name)


class WordsBefore(Prefiltered):
    """CHOOSER_AFTER (en): up to `words` words, then `tail` (a which phrase, lower-case). re tries every start position
    and, at each, up to that many words before giving up; here each search starts at the first position from which the
    next tail is within reach (the start of the `words`-th run of word characters before it), so the matches, found
    left to right, are exactly re's, and a text without the tail (many have a "which", few a "which one") costs one
    quick search. ASCII text only; anything else goes to re as is."""

    def __init__(self, tail: str, words: int) -> None:
        super().__init__(case_blind(rf"((?:\w+\W+){{0,{words}}})" + tail), ("which",))
        self.tail, self.reach = re.compile(tail), words

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        if pos or endpos < len(text) or not text.isascii():
            return self.pattern.finditer(text, pos, endpos)
        return self._scan(text)

    def _scan(self, text: str) -> Iterator[re.Match[str]]:
        lowered, at = text.lower(), 0
        while (found := self.tail.search(lowered, at)) is not None:
            start = found.start()
            for _ in range(self.reach):  # back over a run of non-word characters, then a run of word characters
                while start > 0 and not _is_word(text[start - 1]):
                    start -= 1
                while start > 0 and _is_word(text[start - 1]):
                    start -= 1
            match = self.pattern.search(text, max(at, start))
            if match is None:
                return
            yield match
            at = match.end()

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return next(iter(self.finditer(text, pos, endpos)), None)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


#: The kind of thing a detail node's explanation says was missing, read from its "noticed" clause and first sentence.
NEEDS: dict[str, list[tuple[str, TextPattern]]] = {
    "en": [
        ("place", case_blind(r"\b(where|location|locations|located|place to|places to|whereabouts)\b")),
        ("person", case_blind(r"\b(who|whom|which person|which people)\b")),
        (
            "time",
            case_blind(r"\b(when|what time|timing|(?:best|right|exact|specific|proper|meeting) time|time to)\b"),
        ),
        ("quantity", case_blind(r"\b(how many|how much|how long|amount|quantity|number of|duration)\b")),
        ("manner", case_blind(r"\b(how to|how he|how she|how they|how you|method|way to)\b")),
    ],
    "zh": [
        ("place", re.compile(r"哪里|在哪|去哪|哪儿|地点|位置|何处|什么地方")),
        ("person", re.compile(r"谁|哪位|什么人")),
        ("time", re.compile(r"什么时候|何时|时间")),
        ("quantity", re.compile(r"多少|数量|几个")),
        ("manner", re.compile(r"如何|怎么|怎样|方法|办法")),
    ],
}
#: Question classes that may ask for each kind of missing detail ("which shop sells it?" asks a place too).
ASKS_FOR = {
    "place": {"place", "identity", "manner", "person"},  # "who can give me the map?" asks where it comes from
    "person": {"person", "identity", "place"},  # "where will I find someone to ...?" asks who
    "time": {"time", "quantity", "manner", "identity"},  # ("which movement?" asks no time: _asks_other_thing)
    "quantity": {"quantity", "identity"},
    "manner": {"manner", "identity", "place"},
    None: {"place", "person", "time", "quantity", "manner", "identity", "polar"},
}
#: An interrogative that governs a kind: the kind is the first word or two after it, past "of the", "kind of", "of my"
#: and the like ("which castle", "which of the two castles", "what kind of gem", "which of my gems", "哪家酒馆", "什么宝石"): "which step needs the
#: crystal" governs a step, and "what complete, exchanging, crystal or magic" governs no crystal. "The right / best
#: screen", "合适的屏幕" pick one of a kind as a which does.
CHOOSER = {
    "en": Prefiltered(
        case_blind(
            r"\b(?:which|what|specific|particular|exact|right|correct|best)\b"
            r"(?:\s+(?:is|are|was|were|the|a|an|of|kind|type|sort|kinds|types|specific|particular|exact|one|ones|"
            r"two|three|four|several|other|this|that|these|those|my|your|our|his|her|their))*"
            r"\s+([\w'-]+(?:\s+[\w'-]+)?)"
        ),
        ("which", "what", "specific", "particular", "exact", "right", "correct", "best"),
    ),
    "zh": Prefiltered(
        re.compile(
            rf"(?:(?:哪|什么)(?:一)?[{MEASURE_ZH}]?(?:样的|类型的|种类的|种)?|"
            r"(?:合适|特定|正确|最好|最佳)的)([\u4e00-\u9fffA-Za-z]{1,2})"
        ),
        ("哪", "什么", "合适", "特定", "正确", "最好", "最佳"),
    ),
}
#: A list going on right after the governed word ("what crystal, magic or release", "什么宝石、晶石还是魔法").
LIST_FOLLOWS: dict[str, TextPattern] = {
    "en": case_blind(
        r"\s*(?:,|\bor\b|\band\b|/)\s*(?!(?:and|or|which|what|where|how|when|who|why|should|do|does|did|can|could|"
        r"is|are|was|were|will|would|must|may|might|shall|i|we|you)\b)\w"
    ),
    "zh": re.compile(
        r"\s*(?:[、，,/]|还是|或者|或|和|与)(?!哪|什么|怎么|如何|多少|谁|几|是否|为什么|何时)"
        r"|[\u4e00-\u9fff]{1,2}(?:、|还是|或者|或是)(?!哪|什么|怎么|如何|多少|谁|几|是否|为什么|何时)"
    ),
}
#: ... or come before it within a few characters ("酒馆是哪一家", "castle is it, which one"; 哪里 / 哪儿 ask where, not which).
CHOOSER_AFTER = {
    "en": WordsBefore(r"\b(which one|which ones|which of (?:them|these|those)|which (?:type|kind|sort))\b", 8),
    "zh": Prefiltered(re.compile(r"(.{0,6})(哪)(?!里|儿)"), ("哪",)),
}
#: Abbreviations whose full stop ends no sentence ("A vs. B", "e.g. the X").
ABBREVIATION = case_blind(r"\b(vs|etc|e\.g|i\.e|approx|mr|ms|mrs|dr|prof|st)\.|\b(no)\.(?=\s*\d)")
#: A which / what and the word it governs ("which movement", "what specific magic", "哪首曲子").
GOVERNS: dict[str, TextPattern] = {
    "en": case_blind(
        r"\b(?:which|what)\s+(?:specific\s+|particular\s+|kind of\s+|type of\s+|sort of\s+)?"
        r"([a-z]+)"
    ),
    "zh": re.compile(rf"哪一?[{MEASURE_ZH}]([\u4e00-\u9fff])"),
}
#: A which / what governing a part of the job, not a thing ("which step involves the A or the B?" asks for a step).
FRAME_WHICH: dict[str, TextPattern] = {
    "en": case_blind(
        r"\b(?:which|what)\s+(?:exact\s+|specific\s+|particular\s+)?(?:steps?|stages?|parts?|"
        r"phases?|points?|moments?|order|roles?|purposes?|aspects?)\b"
    ),
    "zh": re.compile(r"(?:哪|什么)(?:一)?(?:步|个步骤|个阶段|个环节|个部分|阶段|环节|步骤)"),
}
#: Question words that say what kind of thing is asked (a place, a person, a time, a way, an order): with them a
#: question around copied words asks something of its own ("Where can I purchase a badminton racket?", "the specific
#: time I should enter the castle").
SPECIFIC_WH: dict[str, TextPattern] = {
    "en": case_blind(
        r"\b(where|when|who|whom|whose|how)\b|\b(time|times|timing|date|day|hour|moment|place|location|address|"
        r"sequence)\b|(?<!in )\border\b"
    ),
    "zh": re.compile(r"哪里|哪儿|在哪|去哪|何处|什么地方|谁|哪位|什么时候|何时|几点|多少|多久|多长|怎么|如何|怎样"),
}
#: A question frame that does not take the words after it: "I" / "we" straight before a word no verb phrase starts
#: with ("How should I the house is ...?", "How do I you first need ...?"), or "to" before another "to" or a
#: subject ("Where should I go to you just need ...?"), a question word whose clause a colon or a dash closes before
#: his words ("How should I handle this: <his sentence>?"), or a "this" / "that" standing for a sentence that follows
#: ("How should I handle this, the house is ...?"), or a subject and its verb right after "I" / "to" ("Where should
#: I go to george will appear ...?"). Such a frame is pasted before a clause, not asking about it, so its question
#: word does not make the question one of its own.
UNJOINED_FRAME: dict[str, TextPattern] = {
    "en": case_blind(
        r"\b(?:i|we)\s+(?:the|a|an|you|your|he|she|it|they|his|her|their|its|this|these|those|to|which|who|whom|"
        r"whose|what|where|when|while|because|before|after|since|if|though|although|whether|that|there|all|each|"
        r"in|on|from|for|with|of|by)\b|\bto\s+(?:to|you|i|we|they|he|she|which|while|before|after)\b"
        r"|\b(?:where|when|who|whom|whose|how)\b[^?!]*?(?:[:;]|\s--?\s)"
        r"|\b(?:this|that|these|those)\s*,?\s+(?:the|a|an|you|your|he|she|it|they|his|her|their|its|we|i)\b"
        r"|\b(?:i|we|to)\s+[a-z]+\s+(?:will|would|is|are|was|were|has|have|had|must|can|could|may|might)\b"
    ),
}
#: A plurality the seeker noticed ("there are multiple wind power stations", "two cars"): with a word of the task
#: right after it, the question asks a choice among them of its own.
NOTICED_MANY: dict[str, TextPattern] = {
    "en": case_blind(
        r"\b(?:multiple|several|various|different|two|three|four|five|both|more than one)\s+((?:[\w'-]+\s+){0,2}[\w'-]+)"
    ),
    "zh": re.compile(r"(?:多个|几个|好几|两个|三个|不止一)(.{1,4})"),
}
#: Words after a which / what that are no thing asked for ("what should I do", "what exactly", "哪个时候").
NOT_A_THING = frozenset(
    "should do does did can could would will is are was were exactly about else i we you he she they it to if "
    "happens happened time times day days date hour hours moment point stage o'clock 时".split()
)
#: What Jax mentioned before the gap ("Jax mentioned the need for herbicide but did not ..."), and the pronoun in
#: the gap that stands for it ("... where to buy it").
MENTIONED: dict[str, TextPattern] = {
    "en": case_blind(r"\bmentioned\s+(.*?)\s+but\b"),
    "zh": re.compile(r"提到(?:了)?(.+?)(?:，|,)?但"),
}
PRONOUN: dict[str, TextPattern] = {
    "en": case_blind(r"\b(it|them|they|one|these|those|him|her)\b"),
    "zh": re.compile(r"它|它们|他|她|这些|其"),
}
#: Missing details that no choice among the brief's options settles, when the gap does not say "which".
NOT_A_CHOICE = frozenset({"time", "quantity", "person"})
WHICH: dict[str, TextPattern] = {"en": case_blind(r"\bwhich\b"), "zh": re.compile(r"哪")}
#: (zh) Where an explanation's "仅当对方询问A，或者B" lists several questions.
ASK_PIECES = re.compile(r"[，,、；;]|或者|还是|或")
#: A decimal point ends no sentence ("a 14.2-inch screen"): read as one number.
DECIMAL = re.compile(r"(\d)\.(\d)")
#: Where a sentence may hold a second question, and the question words that make each side one.
CLAUSE_BREAK: dict[str, TextPattern] = {
    "en": case_blind(r"(?=[\s,;])\s*[,;]\s*(?:and\s+|also\s+|plus\s+)?"),  # (look-ahead: LIST_JOINT)
    "zh": re.compile(r"\s*[，；,;]\s*"),
}
#: A second interrogative joined to the first by "and" / "or" / a slash or plus ("which X and which Y", "where and
#: how", "哪个A和哪个B"): the joint starts a question of its own, however the turn is punctuated.
WH_JOINED: dict[str, TextPattern] = {
    "en": case_blind(
        r"\s+(?:and|or|plus|&|/|\+)\s+(?=(?:(?:from|to|with|for|at|in|on|by|also|then)\s+)?"
        r"(?:which|what|where|how|who|whom|when|why|whether)\b)|\s*[/+&]\s*(?=(?:which|what|"
        r"where|how|who|whom|when|why)\b)"
    ),
    "zh": re.compile(
        r"(?:和|与|及|以及|还有|、|/|＋|\+)(?=[\u4e00-\u9fff]{0,2}(?:哪|什么|怎么|怎样|如何|谁|多少|何时))"
    ),
}
ASKS: dict[str, TextPattern] = {
    "en": case_blind(r"\b(which|what|where|how|who|whom|when|why|whether)\b"),
    "zh": re.compile(
        r"哪|什么|怎么|如何|怎样|多少|谁|(?<!好)几(?!乎)|是否|为什么|何时"
    ),  # (好几: several; 几乎: almost)
}
#: A word that stands for a thing the turn named just before ("I have no horse. Where can I find one?").
STANDS_FOR: dict[str, TextPattern] = {
    "en": case_blind(r"\b(one|ones|it|them|some|any|that|those|these|there|him|her)\b"),
    "zh": re.compile(r"它|它们|这个|那个|这些|那些|一个|一些|那里|那儿|他|她"),
}
#: "which one", "which of them", "哪一个": a choice whose kind was named just before.
ANAPHORIC: dict[str, TextPattern] = {
    "en": case_blind(r"\bwhich (one|ones|of them|of these|of those|(?=(is|are|do|does|should|would|will|can)\b))"),
    "zh": re.compile(rf"哪一?[{MEASURE_ZH}]|哪一"),
}
#: Question classes that ask for a thing (a choice's option): not a yes/no, how many, when or who question.
ASKS_THING = frozenset({"identity", "place", "manner"})
#: What asks a choice of a thing by its kind or its thing (no kind of detail said: which gem, which line type).
CHOICE_OF_A_THING = frozenset({"identity"})
#: Words that join alternatives: "A or B", "A还是B", "A或B".
ALTERNATIVE: dict[str, TextPattern] = {
    "en": case_blind(r"\b(or|either|versus|vs)\b"),
    "zh": re.compile(r"还是|或者|或|哪"),
}
CHOICE_WORDS: dict[str, TextPattern] = {
    "en": case_blind(r"\b(which|whether|among|between|choose|choosing|choice)\b"),
    "zh": re.compile(r"哪|还是|是否|选择|之间|之中"),
}
#: Generic heads that name no kind of their own ("which one", "what option").
GENERIC_KIND_EN = frozenset({"one", "option", "choic", "choice", "thing", "way", "step", "kind", "type", "sort"})
GENERIC_KIND_ZH = frozenset(
    {"一个", "一种", "选择", "方式", "东西", "步骤", "种类", "类型", "询问", "时", "种时", "样时", "个时"}
)
#: "which gem Henry needs" / "哪一种宝石": a kind named right after an interrogative in the explanation.
WHICH_KIND: dict[str, TextPattern] = {
    "en": case_blind(
        r"\bwhich\s+(?:specific\s+|particular\s+|kind of\s+|type of\s+)?([a-z][a-z-]+"
        r"(?:\s+[a-z][a-z-]+(?=\s+(?:to|should|would|is|are|was|were|that|for)\b))?)"
    ),
    "zh": re.compile(rf"(?:哪(?!里|儿)(?:一)?[{MEASURE_ZH}]?|什么(?!时候|地方|人|样))(.{{2}})"),
}


#: Words of the explanations' boilerplate that name no thing ("unable to", "the appropriate", "is unsure").
BOILERPLATE = (
    FOCUS_STOP_EN
    | frozenset(
        tokens(
            "unable able appropriate suitable available due choose chose choosing proper correct right best exact specific "
            "lack lacking information issue issues concern concerns problem need needs needed necessary unsure sure "
            "explain explained specify specified mention mentioned previous previously response responses jax provide "
            "provided detail details regarding required require requirement clarify clarified indicate indicated "
            "whether should safely successfully first next know knowing known game scenario player location locations "
            "located ask asks asked asking wonder wonders noticed notice notices",
            "en",
        )
    )
    | frozenset(
        "回复 之前 没有 说明 指出 明确 具体 信息 问题 不知 知道 确定 应该 需要 哪个 哪里 如何 怎么 什么 时候 选择 使用 可以 "
        "询问 并询 不止 止一 注意 对方 回答 最初 默认".split()
    )
)
#: Characters that make a Chinese bigram a piece of grammar rather than a name ("的弱", "才需", "厂且").
FUNCTION_ZH = frozenset(
    "的了且才需要该应在到个是有和与或及对不能会把被就也都还只而则从向给让使用于为以之其这那哪些什么怎如何吗呢吧啊"
)
#: Where an explanation says what Jax left out: "did not specify where to buy the power supply", "没有介绍如何进入".
GAP: dict[str, TextPattern] = {
    "en": case_blind(
        r"did not (?:specify|explain|mention|clarify|say|provide|indicate|tell|state|give)\s+(.*?)(?:\.|,|$)"
    ),
    "zh": re.compile(r"没有(?:明确)?(?:指出|给出|说明|提到|提及|解释|介绍|提供|告诉)(.+?)(?:[。，,]|$)"),
}
#: ... or what the seeker must ask: "only if the other party asks where to ...", "仅当对方询问...时".
ASKED: dict[str, TextPattern] = {
    "en": case_blind(r"only if the other party\b[^.]*?\basks (.+?)(?:\.|$)"),
    "zh": re.compile(r"仅当对方[^。]*?(?:询问|问到|问)(.+?)(?:时|$)"),
}
FIRST_SENTENCE = re.compile(r"^[^.。]*[.。]?")
#: Words around a bare "which X" that say nothing of their own ("exactly", "do you mean", "具体是哪个", "你说的").
BARE_FILLER_EN = frozenset(
    tokens(
        "exactly precisely mean meant specifically specific particular exact kind type sort "
        "please tell know refer referring talking choose chose pick select use go take need "
        "get want prefer best right correct proper",
        "en",
    )
)
BARE_SCAFFOLD_ZH = re.compile(
    rf"具体|到底|究竟|你说的|你指的|指的|说的|是|哪一?[{MEASURE_ZH}]?|什么|的|吗|呢|呀|啊|请问|"
    r"我|应该|应当|需要|要|选择|挑选|选|使用|用|去|拿|买|最好|合适"
)
BARE_WHICH_EN = case_blind(
    r"\b(?:which|what)\s+(?:(?:the|a|an|kind of|type of|sort of|specific|particular|exact)\s+)*([\w'-]+)"
)
CJK_WORD = re.compile(r"[\u4e00-\u9fff]")
#: What joins the items of one list ("A, B or C", "A、B还是C"; "交易 亨利": Chinese puts no spaces between words).
#: (en: the look-ahead holds every first character of a match, so re rules out most positions with one test
#: instead of trying \s* and every branch there; the matches are the same.)
LIST_JOINT: dict[str, TextPattern] = {
    "en": case_blind(r"(?=[\s,;/aeov])\s*(?:[,;/]|\b(?:or|and|either|versus|vs)\b)\s*"),
    "zh": re.compile(
        r"\s*(?:[，,、;；/]|还是|或者|或是|或|以及|和|与|及)\s*|(?<=[\u4e00-\u9fff])[ \t\u3000]+(?=[\u4e00-\u9fff])"
    ),
}
#: A which / what that governs a list of alternatives, the names of the brief masked to commas ("Which A, B or C
#: exactly?", "哪个A、B还是C？") or a list that a which / what closes ("A、B还是C具体是哪个？"); the question offers
#: alternatives ("or", 还是) and asks which of them.
WHICH_OF_LIST: dict[str, TextPattern] = {
    "en": case_blind(
        r"\b(?:which|what)\b(?:\s+(?:of|the|a|an|these|those|kind|type|sort|specific|particular|exact|"
        r"exactly|one|ones))*\s*(?:[\w'-]+\s*){0,2}?(?:,|/|\bor\b)"
    ),
    "zh": re.compile(
        rf"(?:哪|什么)一?[{MEASURE_ZH}]?(?:样的|类型的|种类的|种)?"
        r"[\u4e00-\u9fffA-Za-z0-9]{0,3}?\s*(?:[、，,/]|还是)(?!哪|什么|怎么|如何|多少|谁|几|是否|为什么|何时)"
        r"|还是[^、，,/？?。！!]{0,6}?(?:具体|到底|究竟)?是?(?:哪|什么)"
    ),
}
OFFERS: dict[str, TextPattern] = {"en": case_blind(r"\b(?:or|versus|vs)\b"), "zh": re.compile(r"还是|或者|或是|或")}
#: The "or" that asks which (en "or"; zh 还是, where 或 / 或者 join a set: "什么型号或颜色的键帽" asks a keycap).
ASKS_WHICH_OR = {"en": OFFERS["en"], "zh": re.compile(r"还是")}
#: (en) An item after "or" that opens a clause of its own ("..., or do I need to find it elsewhere?"): no alternative.
CLAUSE_START = case_blind(
    r"\s*(?:do|does|did|should|shall|can|could|will|would|must|may|might|is|are|was|were|have|"
    r"has|had|i|you|we|he|she|they|it|there|if)\b"
)
#: (en) Words that make a list piece a clause, not a thing ("if you rush it", "asks where to get some").
CLAUSE_WORDS = case_blind(
    r"\b(?:i|you|we|he|she|they|it|me|us|him|them|do|does|did|should|shall|can|could|will|would|"
    r"must|may|might|is|are|was|were|have|has|had|if|where|how|who|whom|when|why|what|which|"
    r"whether|asks?|need|needs)\b"
)
#: The most content terms (en) / bigrams (zh) the last alternative of "A or B?" has: a name, not a purpose after it
#: ("... or magic to unlock the gate?" names magic and says what for).
ALTERNATIVE_TERMS = {"en": 2, "zh": 4}
#: A question that points back at what the question before it named ("Where can I find those?", "它们在哪里？").
REFERS_BACK: dict[str, TextPattern] = {
    "en": case_blind(r"\b(those|these|them|they)\b"),
    "zh": re.compile(r"它们|这些|那些|它"),
}
#: Words that name the kind of detail missing, not the thing it is missing for ("the exact time to meet Henry": the
#: thing is the meeting): kept out of a detail node's anchor.
NEEDS_WORDS = {
    "en": {
        "time": frozenset(tokens("time times timing day days hour hours date", "en")),
        "place": frozenset(tokens("place places location locations where whereabouts", "en")),
        "quantity": frozenset(tokens("amount number quantity", "en")),
        "manner": frozenset(tokens("way ways method methods", "en")),
    },
    "zh": {
        "time": frozenset({"时间", "时候", "时刻"}),
        "place": frozenset({"地点", "位置", "地方"}),
        "quantity": frozenset({"数量"}),
        "manner": frozenset({"方法", "办法", "方式"}),
    },
}
#: Things listed in one question that make it a list of everything (lists_things), and the content terms (en) /
#: bigrams (zh) a listed thing has at most.
LISTED_THINGS = 3
TAG_WORDS = frozenset(tokens("right correct ok okay true yes please thanks exactly", "en")) | {
    "对吧",
    "对吗",
    "是吧",
    "好吗",
}
LIST_ITEM_TERMS = {"en": 3, "zh": 4}
#: Words (en) / bigrams (zh) of its own a list item may carry besides its name and still be one of the list.
LIST_ITEM_OWN = {"en": 2, "zh": 3}
#: An item of a list that names a phrase of the brief which is no option (a note, the task name, the role).
PASTED = -1

#: (zh) Who a yes / no question is about ("我需要X吗？"): no word of the question's own.
_PERSONS_ZH = frozenset("我你您他她它们咱")


def asks_yes_or_no(rest: str) -> bool:
    """(zh) A 吗 question with a word of its own besides the names ("要先过海关吗？": whether to pass it first), not a
    name thrown in ("海关吗？", "我需要海关吗？": only function characters and persons around it)."""
    own = [c for c in CJK_WORD.findall(rest.rstrip("？?！! ")[:-1]) if c not in FUNCTION_ZH and c not in _PERSONS_ZH]
    return rest.rstrip("？?！! ").endswith("吗") and bool(own)


__all__ = [
    "asks_yes_or_no",
    "ABBREVIATION",
    "ALTERNATIVE",
    "ANAPHORIC",
    "ASKED",
    "ASKS",
    "ASKS_FOR",
    "ASKS_THING",
    "ASK_PIECES",
    "CHOICE_OF_A_THING",
    "BARE_FILLER_EN",
    "BARE_SCAFFOLD_ZH",
    "BARE_WHICH_EN",
    "BOILERPLATE",
    "CHOICE_WORDS",
    "CHOOSER",
    "CHOOSER_AFTER",
    "CJK_WORD",
    "CLASSES",
    "CLAUSE_BREAK",
    "NOTICED_MANY",
    "SPECIFIC_WH",
    "UNJOINED_FRAME",
    "WH_JOINED",
    "STANDS_FOR",
    "DECIMAL",
    "FIRST_SENTENCE",
    "FUNCTION_ZH",
    "GAP",
    "GENERIC_KIND_EN",
    "GENERIC_KIND_ZH",
    "GOVERNS",
    "LISTED_THINGS",
    "LIST_FOLLOWS",
    "LIST_ITEM_OWN",
    "LIST_ITEM_TERMS",
    "LIST_JOINT",
    "MENTIONED",
    "NEEDS",
    "NOT_A_CHOICE",
    "NOT_A_THING",
    "OFFERS",
    "ASKS_WHICH_OR",
    "CLAUSE_START",
    "CLAUSE_WORDS",
    "ALTERNATIVE_TERMS",
    "PASTED",
    "PRONOUN",
    "REFERS_BACK",
    "NEEDS_WORDS",
    "TAG_WORDS",
    "WHICH",
    "WHICH_KIND",
    "WHICH_OF_LIST",
]
