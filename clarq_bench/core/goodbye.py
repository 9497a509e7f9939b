"""When does a seeker turn end the dialogue? One rule, shared by the dialogue loop and the judge.

English: "goodbye", "good-bye" or "good bye", in any case, as a whole word: "Goodbye!", "GOODBYE.", "ok...goodbye",
"谢谢goodbye" count; "goodbyes", "goodbyeing", "goodbye-party", "say-goodbye" do not. Word boundaries are ASCII
letters, digits, "_" and "-" (not Python's Unicode \\w, under which a Chinese character next to the word would
hide it). Chinese: 再见 / 再見 (or 再会 / 再會), except where the characters start a longer word: 再见到 / 再见面 /
再见过 / 再见识 / 再见证 ("see again", "experience again") and 再会议 / 再会合 / 再会面 / 再会见 / 再会谈 ("meet
again"). Plain "bye" does not end a dialogue. Both languages are checked whatever the task language.

A conditional goodbye does not end the dialogue: one whose sentence opens with a condition or an alternative
("If not, goodbye, Jax.", "If that's all, I'll say goodbye", "Otherwise, thank you, and goodbye", "For now, goodbye"
after "If I encounter any issues, I'll seek further guidance."), or in Chinese one preceded in its sentence by 如果 /
要是 / 若是 / 否则 / 不然 ("如果没有别的了，再见"). The seeker has asked something and is still waiting for the answer;
the released dialogues continued after every such turn (tests/core/test_goodbye_replay.py replays all of them). A goodbye
that leads its sentence or follows thanks ("Goodbye for now!", "Thanks, goodbye Jax.") ends the dialogue.

The released code looked for "Goodbye" case-sensitively (missing "goodbye", "GOODBYE", "good-bye") and for 再见
only (missing 再見 and 再会).
"""

from __future__ import annotations

import re

ENGLISH_GOODBYE = re.compile(r"(?<![A-Za-z0-9_-])good(?:\s*-\s*|\s+)?bye(?![A-Za-z0-9_-])", re.IGNORECASE)
CHINESE_GOODBYE = re.compile(r"再(?:[见見](?![到面过過识識证證])|[会會](?![议議合面见見谈談]))")
#: Where a sentence ends: the goodbye's sentence starts after the last of these before it.
SENTENCE_END = re.compile(r"[.!?;。！？；\n]")
#: A sentence opening that makes what follows conditional (English, case-insensitive).
ENGLISH_CONDITION = re.compile(
    r"^[\W_]*(?:(?:and|but|so|then)\s+)?(?:if|otherwise|unless|else|or\s+else|in\s+that\s+case|in\s+which\s+case|"
    r"for\s+now)\b",
    re.IGNORECASE,
)
CHINESE_CONDITION = re.compile(r"如果|要是|若是|假如|倘若|否则|否則|不然")


def _sentence_before(text: str, position: int) -> str:
    """The part of the sentence that precedes `position` (from the last sentence end before it)."""
    ends = [match.end() for match in SENTENCE_END.finditer(text, 0, position)]
    return text[ends[-1] if ends else 0 : position]


def _conditional(text: str, position: int) -> bool:
    opening = _sentence_before(text, position)
    return bool(ENGLISH_CONDITION.match(opening.strip()) or CHINESE_CONDITION.search(opening))


def is_goodbye(text: str) -> bool:
    """Does this seeker turn say goodbye (and so end the dialogue)? See the module docstring for the rule."""
    # A turn without "bye" (any case: only ASCII letters match b, y, e case-insensitively) or without 再 cannot
    # match that pattern; its scan, most of the cost of a turn's check, is skipped.
    english = "bye" in text.lower()
    for pattern in (ENGLISH_GOODBYE, CHINESE_GOODBYE) if english else (CHINESE_GOODBYE,):
        if pattern is CHINESE_GOODBYE and "再" not in text:
            continue
        for match in pattern.finditer(text):
            if not _conditional(text, match.start()):
                return True
    return False
