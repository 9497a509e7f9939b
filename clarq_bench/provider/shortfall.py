"""A shortfall: not enough of something (money, most often) to do the job.

Why apart: a node whose explanation names a shortfall ("insufficient funds", "does not have enough gold coins",
"金币不足", "如何获得足够的金币") is asked by a question about whether there is enough ("Will my 300 gold coins be
enough?", "金币不够该怎么办？", "500个金币够用吗？"), and the two sides say it in words that share no stem and no
character pair (enough / insufficient / short on / run out; 够 / 不足 / 足够). The reader matches a question to a
node's missing detail by shared terms, so both sides are read into one notion here.

What this does not do: it does not say what is short. A question about enough-ness asks a node only where the node's
explanation names a shortfall; a task with no such node answers it with nothing.
"""

from __future__ import annotations

import re

from .caseblind import TextPattern, case_blind

#: An explanation that names a shortfall of something the seeker must have (not "sharp enough to cut", nor "enough
#: authority": a quality, no quantity the seeker is short of).
NAMES_SHORTFALL: dict[str, TextPattern] = {
    "en": case_blind(
        r"\binsufficient\b|\bshort (?:on|of)\b|\brun(?:s|ning)? out of\b|\bnot (?:have )?enough\b"
        r"|\b(?:have|obtain|get|gather|raise|saving|save|earn) enough\b|\benough (?:gold|coins?|money|funds|silver)\b"
    ),
    "zh": re.compile(r"不足|不够|足够|凑够|凑齐"),
}
#: A question whether there is enough of something: "be / have / not enough", "is that enough", "enough money",
#: "short on", "run out", "afford"; "够用", "够吗", "不够", "足够", "不足". Never "sharp enough" or "够锋利吗": enough of
#: a quality is no shortfall.
ASKS_SHORTFALL: dict[str, TextPattern] = {
    "en": case_blind(
        r"\b(?:be|is|are|was|were|have|has|had|got|get|not)\s+enough\b|\benough\s+(?:money|gold|coins?|funds|silver|cash)\b"
        r"|\b(?:is|was|will)\s+(?:that|it|this|they|these)\s+(?:be\s+)?enough\b"
        r"|\bshort\s+(?:on|of)\b|\brun(?:s|ning)?\s+out\b|\binsufficient\b|\bafford\b"
    ),
    "zh": re.compile(r"够用|够吗|够不够|不够|足够|不足|够了"),
}


def names_shortfall(explanation: str, language: str) -> bool:
    """Does a node's explanation name a shortfall the seeker may notice?"""
    return bool(NAMES_SHORTFALL[language].search(explanation))


def asks_shortfall(text: str, language: str) -> bool:
    """Does a question ask whether there is enough (or what to do when there is not)?"""
    return bool(ASKS_SHORTFALL[language].search(text))
