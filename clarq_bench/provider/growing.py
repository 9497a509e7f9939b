"""Readings of a dialogue's earlier texts that grow by a text a turn instead of being read again whole.

Why: every turn hands the provider the whole dialogue again, and several rules fold all Jax has said into one
reading (his sentences' terms, his word runs and pairs, his sentences to echo). The reading of n texts is the reading
of the first n - 1 plus the last, so a table keyed by the texts extends the previous turn's reading (a copy made at C
speed) rather than folding every reply again. Bounded: emptied when full, like the other memo tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")

#: Readings kept per table: a few dialogues' states in flight at once (a table is emptied when full).
GROWING_SIZE = 512


class Growing(Generic[T]):
    """`empty(context)` is the reading of no text, `add(reading, text, context)` a new reading with one more text
    (never changing `reading`): calling the table on texts gives the fold of `add` over them. `context` (the
    language, say) is part of the key. Callers never mutate what it returns."""

    def __init__(self, empty: Callable[[str], T], add: Callable[[T, str, str], T], size: int = GROWING_SIZE) -> None:
        self.empty, self.add, self.size = empty, add, size
        self._table: dict[tuple[str, tuple[str, ...]], T] = {}

    def __call__(self, texts: Sequence[str], context: str) -> T:
        key = (context, tuple(texts))
        table = self._table
        found = table.get(key)
        if found is not None:
            return found
        texts = key[1]
        before = table.get((context, texts[:-1])) if texts else None  # (the last turn's reading, most often)
        if before is None:
            found = self.empty(context)
            for text in texts:
                found = self.add(found, text, context)
        else:
            found = self.add(before, texts[-1], context)
        if len(table) >= self.size:
            table.clear()
        table[key] = found
        return found
