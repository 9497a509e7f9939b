"""A small Okapi BM25 (k1 = 1.5, b = 0.75, the non-negative idf ln(1 + (N - df + .5) / (df + .5))) over one
state's candidate pool: English words, Chinese character pairs. Small enough that a dependency is not worth it."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

WORD = re.compile(r"[a-z0-9]+")
HAN = re.compile(r"[\u4e00-\u9fff]+")
K1, B = 1.5, 0.75


def tokens(text: str, language: str) -> list[str]:
    """Lower-cased words (en); character pairs of each run of Han characters, plus any Latin words (zh)."""
    lowered = text.lower()
    if language == "en":
        return WORD.findall(lowered)
    pairs = [run[i : i + 2] for run in HAN.findall(lowered) for i in range(max(1, len(run) - 1))]
    return pairs + WORD.findall(lowered)


@lru_cache(maxsize=65536)
def _counted(text: str, language: str) -> Counter[str]:
    return Counter(tokens(text, language))  # bank questions recur in many pools: counted once


@lru_cache(maxsize=256)
def _collection(documents: tuple[str, ...], language: str) -> tuple[Counter[str], float]:
    """Document frequencies and mean length of a collection (the states of one task type share their pool)."""
    docs = [_counted(doc, language) for doc in documents]
    return Counter(term for doc in docs for term in doc), sum(sum(doc.values()) for doc in docs) / len(docs) or 1.0


def bm25_scores(query: str, documents: Sequence[str], language: str) -> list[float]:
    """The BM25 score of every document for the query (idf taken over these documents)."""
    docs = [_counted(doc, language) for doc in documents]
    if not docs:
        return []
    lengths = [sum(doc.values()) for doc in docs]
    frequency, average = _collection(tuple(sorted(documents)), language)
    query_terms = Counter(tokens(query, language))
    scores = []
    for doc, length in zip(docs, lengths):
        score = 0.0
        for term, tf in doc.items():  # documents are short questions: walk their terms, not the query's
            weight = query_terms.get(term, 0)
            if weight:
                idf = math.log(1 + (len(docs) - frequency[term] + 0.5) / (frequency[term] + 0.5))
                score += weight * idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average))
        scores.append(score)
    return scores
