"""TaskIndex.cover and gram_cover for node_features' loop, with the index's lookups bound once per turn.

Why: node_features asks a dozen covers of every frontier node on every turn, each of a node's own term or n-gram set
against one of the turn's sets (frozensets both), whose totals TaskIndex counted when it was built. These are the
same sums in the same order, so every feature value stays the same float: a set whose total is not counted yet goes
to TaskIndex itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..lexical import TaskIndex

Cover = Callable[[frozenset[str], frozenset[str]], float]


def term_cover(index: TaskIndex) -> Cover:
    """index.cover for frozensets: IDF-weighted share of `terms` found in `present` (0 when none is)."""
    weight, totals, fsum = index.idf.__getitem__, index._term_totals, math.fsum

    def cover(terms: frozenset[str], present: frozenset[str]) -> float:
        found = terms & present
        if not found:
            return 0.0
        total = totals.get(terms)
        if total is None:
            return index.cover(terms, present)
        return fsum(map(weight, found)) / total if total else 0.0

    return cover


def gram_cover(index: TaskIndex) -> Cover:
    """index.gram_cover: IDF-weighted share of a node's n-grams found in `present` (0 when none is)."""
    weight, totals, fsum = index.gram_idf.__getitem__, index._gram_totals, math.fsum

    def cover(grams: frozenset[str], present: frozenset[str]) -> float:
        total = totals.get(grams)
        if total is None:
            return index.gram_cover(grams, present)
        found = grams & present
        return fsum(map(weight, found)) / total if total and found else 0.0

    return cover
