"""Fast paths of lexical.py's tokeniser for the common case of plain ASCII text (same results as its patterns).

Why: tokenising every new text of a turn (the turn, its sentences, the texts the rules cut from them) was a tenth of a
turn's CPU, and most of that was the regular expressions' scan. An ASCII text's words ([a-z0-9]+ of the lower-cased
text) are its pieces between the other characters, which str.translate and str.split cut at C speed; a text with a
character outside ASCII keeps the pattern (lower() may turn such a character into an ASCII letter).
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+")
_NON_WORD = re.compile(r"[^a-z0-9]+")
#: Every ASCII character but a-z and 0-9, as a space: a bytes table (bytes.translate reads one byte a character
#: through it, about twice as fast as str.translate through a mapping).
_APART = bytes(c if 97 <= c <= 122 or 48 <= c <= 57 else 32 for c in range(256))
#: A sentence's end followed by whitespace: where lexical._PIECE_BREAK cuts a text (a text without one is one piece).
PIECE_BREAK_AT = re.compile(r"[.?!。？！;；]\s")


def words_en(lowered: str) -> list[str]:
    """_WORD.findall(lowered): the runs of a-z and 0-9 of a lower-cased text, in order."""
    if lowered.isascii():
        return lowered.encode().translate(_APART).decode().split()
    return _WORD.findall(lowered)


def joined_words_en(lowered: str) -> str:
    """_NON_WORD.sub(" ", lowered).strip(): the words of a lower-cased text, one space between each two (no run of
    other characters is left in an ASCII text to strip but the spaces at its ends)."""
    if lowered.isascii():
        return " ".join(lowered.encode().translate(_APART).decode().split())
    return _NON_WORD.sub(" ", lowered).strip()
