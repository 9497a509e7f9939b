"""How many things one turn asks: a person answers one thing at a time.

A thing is asked by each interrogative (which, what, where, how, who, when, why, whether; 哪, 什么, 怎么, 如何, 谁 ...)
and by each further object coordinated under it ("Where do I get the A, the B and the C?" asks three things;
"Where and how and from whom do I get it?" three), whatever joins them: commas, "and", semicolons, slashes,
ampersands, plus signs, line breaks, bullets, 和 / 以及 / 与 / 、 / ，. Alternatives joined by "or" / 还是 / 或 are
the options of one choice and count once ("Should I use the kerosene or the whale oil?" asks one thing). A question
with no interrogative (a yes/no question, a request) asks one thing, plus its coordinated objects. Statements ask
nothing. Names of the brief that contain a joint ("the Salt and Pepper Shop") are one thing, and an aside in brackets
(examples, options) adds none.

The count does not depend on punctuation or length tricks: the whole turn is read, not its sentences, so packing
asks into one sentence, one clause or one line costs the same as asking them apart. The bound on what one turn may
ask (`MAX_THINGS`) is set from the released GPT-4o seekers' turns (benchmarks/asks_bound.py prints the distribution):
a turn over it is answered "one thing at a time, please" and reveals nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from .caseblind import TextPattern, case_blind
from .question_words import WH_JOINED

#: Things one turn may ask before it is answered "one thing at a time" (released seekers' turns: see
#: benchmarks/asks_bound.py; at most 1% of them ask more).
MAX_THINGS = {"en": 9, "zh": 10}

_WH_EN = r"(?:which|what|where|how|who|whom|whose|when|why|whether)"
#: (The look-ahead holds every first character of a joint: re has no prefix to scan for in a branch that opens with
#: \b, and tried every branch at every position; a position it rules out now costs one test.)
_JOINT_EN = r"(?=[,;/&+\napb•·|])(?:,|;|/|&|\+|\n|\band\b|\bplus\b|\bas well as\b|\balso\b|•|·|\|)"
#: A joint: what coordinates two things. "or", "versus" join options of one choice and are no joint.
JOINT: dict[str, TextPattern] = {
    "en": case_blind(_JOINT_EN),
    "zh": re.compile(r"[，,、；;／/&＋+\n•·|]|以及|并且|而且|还有|和|与|及|跟|同时|另外"),
}
#: An interrogative. zh: 哪 (哪里, 哪个), 什么, 怎么 / 怎样 / 如何, 谁, 几 / 多少, 是否, 为什么, 何时 / 何处.
WH: dict[str, TextPattern] = {
    "en": case_blind(rf"\b{_WH_EN}\b"),
    "zh": re.compile(
        r"哪|什么|怎么|怎样|如何|谁|多少|(?<!好)几[个种条家位次件样把只座处天]|是否|为什么|为何|何时|何处|何地"
    ),
}
#: A piece after a joint that starts with an interrogative (possibly after a preposition or a helper word: "and
#: from whom", "and also where") is counted once, by its interrogative.
_OPENS_WH: dict[str, TextPattern] = {
    "en": case_blind(rf"\s*(?:[a-z']+\s+){{0,2}}{_WH_EN}\b"),
    "zh": re.compile(
        r"\s*[\u4e00-\u9fff]{0,3}?"
        r"(?:哪|什么|怎么|怎样|如何|谁|多少|(?<!好)几(?!乎)|是否|为什么|为何|何时|何处|何地)"
    ),
}
_CJK = re.compile(r"[\u4e00-\u9fff]")
#: A run of a turn in the other script: Chinese characters with what punctuates and joins them (an English turn),
#: English words with theirs (a Chinese turn).
_CJK_RUN = re.compile(r"[\u4e00-\u9fff][\u4e00-\u9fff，、；：“”‘’（）《》0-9\s]*[。！？?]?")
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9' ,;/&+-]*[?]?")
_SENTENCE = {"en": re.compile(r"[^.!?\n]+[.!?]*"), "zh": re.compile(r"[^。！？!?\n]+[。！？!?]*")}
#: A comma inside a run of alternatives ("my agate, my diamond or my sapphire", "A、B还是C") joins options, not things.
_ALTERNATIVES_AHEAD: dict[str, TextPattern] = {
    "en": case_blind(r"^[^,;/&+\n]*?(?:,[^,;/&+\n]*?)*\b(?:or|versus|vs)\b"),
    "zh": re.compile(r"^[^；;／/&＋+\n和与及]*?(?:还是|或者|或是|或)"),
}
_COMMA = {"en": re.compile(r","), "zh": re.compile(r"[，,、]")}
_POLAR_EN = case_blind(
    r"^\s*(?:and\s+|so\s+|also\s+|but\s+)?(?:do|does|did|should|shall|can|could|will|would|must|may|might|is|are|"
    r"was|were|have|has|need|tell me|please tell|let me know|i wonder|i'm wondering|i am wondering|"
    r"i'd like to know|i would like to know|any idea)\b"
)
_POLAR_ZH = re.compile(r"吗|呢|请问|告诉我|想知道|是不是|要不要|能不能|可不可以|有没有|不确定|不清楚")


#: An aside in brackets lists examples or options of what is asked ("(12-page, 8-page or 4-page)"): no thing of its own.
_ASIDE = re.compile(r"\([^()\n]{0,200}\)|（[^（）\n]{0,200}）|\[[^\[\]\n]{0,200}\]")


def _mask_names(text: str, names: Iterable[str]) -> str:
    """The brief's names that hold a joint become one token, so "the Salt and Pepper Shop" is one thing."""
    for name in names:
        if name and name in text:
            text = text.replace(name, "\u2062N\u2062")
    return text


def _asks_at_all(sentence: str, language: str) -> bool:
    if WH[language].search(sentence):
        return True
    if language == "en":
        return sentence.rstrip().endswith("?") or bool(_POLAR_EN.search(sentence))
    return sentence.rstrip().endswith(("？", "?")) or bool(_POLAR_ZH.search(sentence))


def _things_in(sentence: str, language: str) -> int:
    """Things one sentence asks: its interrogatives, plus every joint after the first that opens no interrogative
    of its own ("and which", "and from whom" are counted by their interrogative) and is not the sentence's end."""
    wh = WH[language]
    found = list(wh.finditer(sentence))
    things = max(1, len(found))
    joints = list(JOINT[language].finditer(sentence, found[0].start() if found else 0))
    for index, joint in enumerate(joints):
        # (the next joint is the one a search from this joint's end finds: a joint is never empty, so finditer goes
        # on from there)
        nxt = joints[index + 1] if index + 1 < len(joints) else None
        piece = sentence[joint.end() : nxt.start()] if nxt else sentence[joint.end() :]
        if not piece.strip(" \t?？.。!！:："):
            continue  # a joint closing the sentence, or two joints in a row
        if _OPENS_WH[language].match(piece):
            continue
        if _COMMA[language].fullmatch(joint.group(0)) and _alternatives_follow(sentence[joint.end() :], language):
            continue
        things += 1
    return things


#: Where a comma's run of alternatives ends (_alternatives_follow), compiled once: re's own cache of patterns
#: thrashes over a run's brief names.
_RUN_END = {"en": re.compile(r"\band\b|[;/&+]"), "zh": re.compile(r"[；;／/&＋+]|和|与|及|以及")}


def _alternatives_follow(after: str, language: str) -> bool:
    """The comma's run goes on, through commas only, to an "or": the items are one choice's options."""
    run = _RUN_END[language].split(after, maxsplit=1)[0]
    return bool(_ALTERNATIVES_AHEAD[language].search(run)) and not WH[language].search(run)


def count_asks(text: str, language: str, joint_names: tuple[str, ...] = ()) -> int:
    """The number of things `text` asks (module doc). `joint_names`: the brief's names that hold a joint. A turn
    that mixes scripts is read in both: the asks worded in the other language count too (a Chinese run in an
    English turn, an English question in a Chinese one; the brief's Latin names in a Chinese turn are no question)."""
    language = "zh" if language == "zh" else "en"
    total = _count(text, language, joint_names)
    if language == "en" and _CJK.search(text):
        total += _count("。".join(_CJK_RUN.findall(text)), "zh", joint_names)
    elif language == "zh":
        english = [run for run in _LATIN_RUN.findall(text) if WH["en"].search(run)]
        total += _count(". ".join(english), "en", joint_names) if english else 0
    return total


@lru_cache(maxsize=4096)
def _count(text: str, language: str, joint_names: tuple[str, ...]) -> int:
    masked = _ASIDE.sub(" ", _mask_names(text, joint_names))
    total = 0
    for sentence in _SENTENCE[language].findall(masked):
        if sentence.strip() and _asks_at_all(sentence, language):
            total += _things_in(sentence, language)
    return total


def names_with_joints(names: Iterable[str], language: str) -> tuple[str, ...]:
    """The names of a brief that hold a joint ("the Salt and Pepper Shop", "油和盐铺"), longest first."""
    language = "zh" if language == "zh" else "en"
    found = {name.strip() for name in names if name.strip() and JOINT[language].search(name.strip())}
    return tuple(sorted(found, key=len, reverse=True))


#: A piece that is only an interrogative ("where", "and how"): it shares the question that follows.
_ONLY_WH: dict[str, TextPattern] = {
    "en": case_blind(
        r"^\W*(?:(?:from|to|with|for|at|in|on|by)\s+)?(?:which|what|where|how|who|whom|when|why)"
        r"\W*$"
    ),
    "zh": re.compile(r"^\W*[\u4e00-\u9fff]{0,1}(?:哪里|哪儿|什么时候|怎么|怎样|如何|谁)\W*$"),
}


def wh_pieces(part: str, language: str) -> list[str]:
    """A clause cut before every interrogative joined to an earlier one ("which X and which Y"), keeping a bare
    interrogative with the question it shares ("where and how do I get it" stays one question)."""
    pieces: list[str] = []
    carried = ""
    for piece in WH_JOINED[language].split(part):
        if _ONLY_WH[language].match(piece):
            carried = f"{carried}{piece} and " if language == "en" else f"{carried}{piece}、"
            continue
        pieces.append(carried + piece)
        carried = ""
    if carried:
        pieces.append(carried.rstrip(" and、"))
    return pieces
