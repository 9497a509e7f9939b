"""The leakage guard: does a generated reply (Response II) give away a node the seeker has not obtained yet?

A generated reply must never carry unrevealed tree content, or a seeker would get information without asking the
right question. The check is lexical and deterministic: the share of a node's *distinctive* n-grams found in the
reply, where distinctive means not already said by the provider (root and revealed nodes) - restating what the
seeker already has is allowed and common ("just go to the modern tavern ..."). English uses word trigrams, Chinese
character trigrams (Latin words inside Chinese count as one unit). No model, no corpus: pure functions.

A flagged reply is repaired without another model call (`redact_leaks`): the sentences carrying the leaked n-grams
are dropped and the rest is checked again; the provider falls back to its safe template when nothing clean is left.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from ..core.tasks import ResponseTree

#: Share of a node's distinctive n-grams that makes a reply a leak.
DEFAULT_THRESHOLD = 0.3
#: ... or this many distinctive n-grams in common, whatever the share (long nodes).
DEFAULT_MIN_SHARED = 6
NGRAM = 3

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_ZH_UNIT = re.compile(r"[\u4e00-\u9fff]|[A-Za-z0-9]+")
_SENTENCE_END = re.compile(r"(?<=[.!?\u3002\uff01\uff1f\uff1b;])\s*")


class LeakHit(NamedTuple):
    """One unrevealed node found in a reply: its id, the share of its distinctive n-grams, and those n-grams."""

    node_id: str
    score: float
    shared: list[str]


def units(text: str, language: str) -> list[str]:
    """Words (English, lower-cased) or characters (Chinese; Latin runs stay whole)."""
    if language == "zh":
        return [unit.lower() for unit in _ZH_UNIT.findall(text)]
    return _WORD.findall(text.lower())


def ngrams(text: str, language: str, n: int = NGRAM) -> set[str]:
    """The set of n-grams of `text`; a text shorter than n gives its whole unit sequence as one gram."""
    seq = units(text, language)
    joiner = "" if language == "zh" else " "
    if not seq:
        return set()
    if len(seq) < n:
        return {joiner.join(seq)}
    return {joiner.join(seq[i : i + n]) for i in range(len(seq) - n + 1)}


def leak_score(reply: str, node_text: str, known: set[str], language: str) -> tuple[float, list[str]]:
    """Share of the node's n-grams not in `known` that also occur in `reply`, and those shared n-grams."""
    distinctive = ngrams(node_text, language) - known
    if not distinctive:
        return 0.0, []
    shared = sorted(distinctive & ngrams(reply, language))
    return len(shared) / len(distinctive), shared


def find_leaks(
    reply: str,
    tree: ResponseTree,
    revealed: Iterable[str],
    language: str,
    *,
    said: Iterable[str] = (),
    threshold: float = DEFAULT_THRESHOLD,
    min_shared: int = DEFAULT_MIN_SHARED,
) -> list[LeakHit]:
    """Every unrevealed non-root node whose distinctive n-grams the reply carries above the threshold.

    `revealed` are the ids the seeker has obtained (their text, with the root's, counts as known); `said` adds
    other provider text already in the dialogue.
    """
    done = set(revealed)
    known: set[str] = set(ngrams(tree.root.text, language))
    for node_id in done:
        if node_id in tree:
            known |= ngrams(tree[node_id].text, language)
    for text in said:
        known |= ngrams(text, language)
    hits: list[LeakHit] = []
    for node in tree.required:
        if node.id in done:
            continue
        score, shared = leak_score(reply, node.text, known, language)
        if shared and (score >= threshold or len(shared) >= min_shared):
            hits.append(LeakHit(node.id, round(score, 3), shared))
    return hits


def sentences(text: str) -> list[str]:
    """The reply cut after sentence-final punctuation (English and Chinese), blanks dropped."""
    return [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]


def redact_leaks(
    reply: str,
    hits: list[LeakHit],
    tree: ResponseTree,
    revealed: Iterable[str],
    language: str,
    *,
    said: Iterable[str] = (),
    threshold: float = DEFAULT_THRESHOLD,
    min_shared: int = DEFAULT_MIN_SHARED,
) -> tuple[str, list[str]]:
    """(repaired reply, dropped sentences): the reply without every sentence that carries a leaked n-gram.

    The repaired reply is "" when nothing is left or when what is left still leaks (the n-grams can straddle
    sentences); the caller then uses its safe template.
    """
    leaked = {gram for hit in hits for gram in hit.shared}
    kept: list[str] = []
    dropped: list[str] = []
    for sentence in sentences(reply):
        (dropped if ngrams(sentence, language) & leaked else kept).append(sentence)
    repaired = ("" if language == "zh" else " ").join(kept).strip()
    if not units(repaired, language):
        return "", dropped
    said = list(said)
    if find_leaks(repaired, tree, revealed, language, said=said, threshold=threshold, min_shared=min_shared):
        return "", dropped
    return repaired, dropped
