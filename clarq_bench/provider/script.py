"""Which script a turn is written in (S002: a turn in the other language than the task's is refused).

Why a rule of its own: the count is the judge's language rule, and a brief may write its names in the other script
("SMD封装的PNP晶体管"): a Chinese question that offers "PNP还是NPN？" is written in the task's language.
"""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
_WORD = re.compile(r"[A-Za-z0-9]+|[\u4e00-\u9fff]+")


def written_in(text: str) -> str:
    """The script a turn is written in: zh when CJK characters are at least as many as Latin letters (the
    judge's language rule), else en."""
    if text.isascii():
        return "en"  # (no CJK character: fewer than max(1, Latin letters))
    return "zh" if len(_CJK.findall(text)) >= max(1, len(_LATIN.findall(text))) else "en"


def in_other_script(text: str, language: str, brief: str) -> bool:
    """Is the turn written in the other script than the task's `language`, the words its `brief` writes too left
    out?"""
    if not text.strip() or written_in(text) == language:
        return False
    return written_in(_WORD.sub(lambda word: "" if word.group(0) in brief else word.group(0), text)) != language
