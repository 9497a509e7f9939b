"""Case-blind patterns that first look for a match in the lower-cased text, where matching is several times cheaper.

re's case-blind matching (re.IGNORECASE) folds the case of every character it tries: the provider's rules search
each turn with dozens of such patterns, most of which find nothing, and that folding was a tenth of a turn's CPU.
A pattern whose letters are all lower-case ASCII matches a text case-blind exactly where its case-sensitive twin
matches the lower-cased text, at the same positions (str.lower keeps every other character's length), unless the
text holds one of the four characters re folds to an ASCII letter (lexical.lowered_for_search): so the case-sensitive
twin decides whether there is any match and where the first one starts, and the real pattern runs only from there.
Match objects are always the real pattern's own; the strings of findall, split and a plain sub are cut from the text
at the twin's spans, which are the real pattern's (a case-blind pass over the rest of the text was the dearest part of
splitting every question into its lists and clauses), so nothing a rule reads changes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from functools import cached_property, lru_cache
from typing import Any, Protocol

from .lexical import TEXT_CACHE, lowered_for_search

#: A backslash escape: one that stands for a character (\x41, \u00e9, \N{...}, octal) or any other (\b, \W, \\).
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|0[0-7]{0,2}|[1-7][0-7]{2}|.)")


def _written(escape: re.Match[str]) -> str:
    r"""The character an escape stands for ("" for one that stands for none: \b, \W, \s ...)."""
    code = escape.group(1)
    if code[0] in "xuU" and len(code) > 1:
        return chr(int(code[1:], 16))
    if code[0] == "N" and len(code) > 1:
        return "\u0130"  # (a named character: refused, whatever it is)
    if code[0].isdigit() and (code[0] == "0" or len(code) == 3):
        return chr(int(code, 8))
    return ""


def _folds(char: str) -> bool:
    """Does re's case-blind matching of this pattern character differ from matching lower-cased text with it?"""
    return char != char.lower() or (not char.isascii() and char.upper() != char)


def _lower_case_only(source: str) -> bool:
    """Every character the pattern writes (escapes decoded, each range "a-b" in full) is lower-case ASCII or without
    case."""
    written = _ESCAPE.sub(_written, source)
    if any(map(_folds, written)):
        return False
    ranges = ((written[i], written[i + 2]) for i in range(len(written) - 2) if written[i + 1] == "-")
    return not any(
        _folds(chr(code))
        for low, high in ranges
        if low <= high and not (low.isascii() and high.isascii())
        for code in range(ord(low), ord(high) + 1)
    )


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
        if not pattern.flags & re.IGNORECASE or not _lower_case_only(pattern.pattern):
            raise ValueError(f"not a case-blind pattern of lower-case ASCII letters: {pattern.pattern!r}")
        self.real = pattern

    @cached_property
    def twin(self) -> re.Pattern[str]:
        """The case-sensitive twin, compiled on first use (most tables are never searched in a short run)."""
        return re.compile(self.real.pattern, self.real.flags & ~re.IGNORECASE)

    @cached_property
    def lead(self) -> re.Pattern[str] | None:
        r"""The twin without its leading \b, when re scans that one for its first characters and the twin not (a
        leading assertion leaves re no prefix to look for, so it tries every position): it matches wherever the
        twin does, so where it finds nothing the twin has nothing, and the twin's first match starts at or after
        its first. None when the twin has no leading \b or it would not help."""
        source = self.twin.pattern
        if not source.startswith("\\b"):
            return None
        try:
            lead = re.compile(source[2:], self.twin.flags)
        except re.error:
            return None
        return lead if _scanned(source[2:], self.twin.flags) else None

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
        lead = self.lead
        if lead is not None:
            hint = lead.search(lowered, pos, endpos)
            if hint is None:
                return None
            pos = hint.start()
        found = self.twin.search(lowered, pos, endpos)
        return None if found is None else found.start()

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        lowered = _lowered(text)  # (_start inlined: the hottest call of a turn's reading)
        if lowered is not None:
            lead = self.lead
            if lead is not None:
                hint = lead.search(lowered, pos, endpos)
                if hint is None:
                    return None
                pos = hint.start()
            found = self.twin.search(lowered, pos, endpos)
            if found is None:
                return None
            pos = found.start()
        return self.real.search(text, pos, endpos)

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
        start = self._start(text, pos, endpos)  # (most often no match, found by the lead: nothing to read)
        lowered = _lowered(text)
        if start is None or lowered is None:
            return [] if start is None else self.real.findall(text, start, endpos)
        # (strings cut from the text at the twin's spans, as findall gives them: '' for a group that took no part)
        groups, found = self.real.groups, self.twin.finditer(lowered, start, endpos)
        if groups == 0:
            return [text[m.start() : m.end()] for m in found]
        if groups == 1:
            return [text[m.start(1) : m.end(1)] for m in found]
        return [tuple(text[a:b] for a, b in map(m.span, range(1, groups + 1))) for m in found]

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        start = self._start(text, 0, sys.maxsize)
        lowered = _lowered(text)
        if start is None or lowered is None:
            return [text] if start is None else self.real.split(text, maxsplit)
        # (the pieces between the twin's matches and its groups, cut from the text: None for a group that took no part)
        pieces: list[str | Any] = []
        groups, last = range(1, self.real.groups + 1), 0
        for count, match in enumerate(self.twin.finditer(lowered, start), 1):
            pieces.append(text[last : match.start()])
            pieces.extend(None if a < 0 else text[a:b] for a, b in map(match.span, groups))
            last = match.end()
            if count == maxsplit:
                break
        pieces.append(text[last:])
        return pieces

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        start = self._start(text, 0, sys.maxsize)
        lowered = _lowered(text)
        if start is None or lowered is None or not isinstance(repl, str) or "\\" in repl:
            return text if start is None else self.real.sub(repl, text, count)
        # (a plain replacement: the text between the twin's matches, joined by it)
        pieces, last = [], 0
        for done, match in enumerate(self.twin.finditer(lowered, start), 1):
            pieces.append(text[last : match.start()])
            last = match.end()
            if done == count:
                break
        pieces.append(text[last:])
        return repl.join(pieces)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def _scanned(source: str, flags: int) -> bool:
    """Does re look for a literal prefix or a set of first characters before trying a position of this pattern (its
    own compiler's reading; False where that is not available)?"""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(source, flags)
        return bool(_compiler._get_literal_prefix(parsed, flags)[0] or _compiler._get_charset_prefix(parsed, flags))
    except Exception:  # noqa: BLE001 - a private reading: any failure means no prefilter
        return False


def case_blind(pattern: str, flags: int = 0) -> CaseBlind:
    """re.compile(pattern, flags | re.IGNORECASE), searched through its lower-case twin (see CaseBlind)."""
    return CaseBlind(re.compile(pattern, flags | re.IGNORECASE))
