"""The kinds of detail a question may ask besides which thing: a place, a person, a time, a number.

Why apart: the reader's rules (focus.py, answering.py) ask the same two things of a question, whether it asks such a
kind ("where", "what time", its class) and whether its which / what governs only a word for one ("which place"), and
must agree on what the kinds are.
"""

from __future__ import annotations

from .lexical import tokens

#: The question classes (question_words.CLASSES) that ask a kind of detail.
ASKED_KINDS = frozenset({"place", "person", "time", "quantity"})
#: Words for such a kind that a which / what may govern ("which place", "what time", "哪个地方").
KIND_WORDS = {
    "en": frozenset(
        tokens("place places location spot address time times date day hour moment person people amount number", "en")
    ),
    "zh": frozenset(tokens("地方 地点 位置 时间 时候 日子 人 数量", "zh")),
}

__all__ = ["ASKED_KINDS", "KIND_WORDS"]
