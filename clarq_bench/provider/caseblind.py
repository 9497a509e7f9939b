"""Case-blind patterns that first look for a match in the lower-cased text, where matching is several times cheaper.

re's case-blind matching (re.IGNORECASE) folds the case of every character it tries: the provider's rules search
each turn with dozens of such patterns, most of which find nothing, and that folding was a tenth of a turn's CPU.
A pattern whose letters are all lower-case ASCII matches a text case-blind exactly where its case-sensitive twin
matches the lower-cased text, at the same positions (str.lower keeps every other character's length), unless the
text holds one of the four characters re folds to an ASCII letter (lexical.lowered_for_search): so the case-sensitive
twin decides whether there is any match and where the first one starts, and the real pattern runs only from there.
Results are always the real pattern's own (match objects, groups, substitutions), so nothing a rule reads changes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any, Protocol

from .lexical import TEXT_CACHE, lowered_for_search

#: A backslash escape (\b, \W, \u4e00, \\): no letter of the text's.
_ESCAPE = re.compile(r"\\.")


class TextPattern(Protocol):
    """What the rules use of a compiled pattern: re.Pattern[str] and CaseBlind alike."""

    @property
    def pattern(self) -> str: ...

    @property
    def flags(self) -> int: ...

    def search(self, text: str, pos: int = ..., endpos: int = ...) -> re.Match[str] | None: ...

    def match(self, text: str, pos: int = ..., endpos: int = ...) -> re.Match[str] | None: ...

    def fullmatch(self, text: str, pos: int = ..., endpos: int = ...) -> re.Match[str] | None: ...

    def finditer(self, text: str, pos: int = ..., endpos: int = ...) -> Iterator[re.Match[str]]: ...

    def findall(self, text: str, pos: int = ..., endpos: int = ...) -> list[Any]: ...

    def split(self, text: str, maxsplit: int = ...) -> list[str | Any]: ...

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = ...) -> str: ...


@lru_cache(maxsize=TEXT_CACHE)
def _lowered(text: str) -> str | None:
    return lowered_for_search(text)


class CaseBlind:
    """A compiled re.IGNORECASE pattern (lower-case ASCII letters only: checked here) with the same methods, each
    answered by the real pattern, which runs only where the lower-cased text has a match."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        letters = _ESCAPE.sub("", pattern.pattern)
        if not pattern.flags & re.IGNORECASE or any(
            c != c.lower() or (not c.isascii() and c.upper() != c) for c in letters
        ):
            raise ValueError(f"not a case-blind pattern of lower-case ASCII letters: {pattern.pattern!r}")
        self.real = pattern
        self.twin = re.compile(pattern.pattern, pattern.flags & ~re.IGNORECASE)

    @property
    def pattern(self) -> str:
        return self.real.pattern

    @property
    def flags(self) -> int:
        return self.real.flags

    def _start(self, text: str, pos: int, endpos: int) -> int | None:
        """Where the first match can start (pos when unknown), or None when there is none."""
        lowered = _lowered(text)
        if lowered is None:
            return pos
        found = self.twin.search(lowered, pos, endpos)
        return None if found is None else found.start()

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        start = self._start(text, pos, endpos)
        return None if start is None else self.real.search(text, start, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        lowered = _lowered(text)
        if lowered is not None and self.twin.match(lowered, pos, endpos) is None:
            return None
        return self.real.match(text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        lowered = _lowered(text)
        if lowered is not None and self.twin.fullmatch(lowered, pos, endpos) is None:
            return None
        return self.real.fullmatch(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        start = self._start(text, pos, endpos)
        return iter(()) if start is None else self.real.finditer(text, start, endpos)

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        start = self._start(text, pos, endpos)
        return [] if start is None else self.real.findall(text, start, endpos)

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        return [text] if self._start(text, 0, sys.maxsize) is None else self.real.split(text, maxsplit)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return text if self._start(text, 0, sys.maxsize) is None else self.real.sub(repl, text, count)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def case_blind(pattern: str, flags: int = 0) -> CaseBlind:
    """re.compile(pattern, flags | re.IGNORECASE), searched through its lower-case twin (see CaseBlind)."""
    return CaseBlind(re.compile(pattern, flags | re.IGNORECASE))
