"""Which frontier nodes does a seeker turn ask about? A small linear model over lexical features, per node.

Decision rule (it mirrors how the reference provider selects: the first frontier node judged answerable):
single-info mode reveals the first frontier node, in numeric order, whose score reaches the threshold;
multi-info mode reveals every such node. Weights and thresholds were fitted (logistic regression, then a
threshold sweep) on released dialogues of task types 1-13 only (benchmarks/provider_tune.py); types 14-26 stay
held out for `clarq provider-eval`. Features are scale-sensitive, so any change to lexical.py means refitting.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .intents import asks_confirmation, is_vague
from .lexical import TaskIndex, is_question, sentences, tokens

FEATURES = ("bq", "ba", "bs", "qc", "xc", "tc", "rel", "ismax", "hasq", "conf", "vague", "ntok", "pos", "nfr")


class LinearModel(NamedTuple):
    weights: dict[str, float]
    bias: float
    threshold: float


#: Fitted on types 1-13 of the three single-info released files (en + zh pooled).
SINGLE_INFO = LinearModel(
    weights={"bq": 0.067, "ba": 0.0991, "bs": 0.0842, "qc": 0.6548, "xc": 2.2443, "tc": -0.0985, "rel": 2.2669,
             "ismax": -0.1933, "hasq": -1.6249, "conf": -0.2183, "vague": -1.0601, "ntok": -0.3262,
             "pos": -0.2101, "nfr": 0.1056},
    bias=0.7248,
    threshold=0.4,
)  # fmt: skip
#: Fitted on types 1-13 of the released multi-info file (English only; used for both languages).
MULTI_INFO = LinearModel(
    weights={"bq": 0.0369, "ba": 0.1564, "bs": 0.1277, "qc": 1.3992, "xc": 1.9287, "tc": 0.3439, "rel": 1.4884,
             "ismax": -0.3135, "hasq": 0.0, "conf": 0.085, "vague": -0.7133, "ntok": 0.0213, "pos": -0.4413,
             "nfr": 0.2864},
    bias=-2.6593,
    threshold=0.425,
)  # fmt: skip


def node_features(index: TaskIndex, turn: str, frontier: list[str]) -> list[dict[str, float]]:
    """One feature dict per frontier node (in frontier order) for this seeker turn."""
    language = index.language
    asked = [s for s in sentences(turn, language) if is_question(s, language)]
    asked_terms = list(set(tokens(" ".join(asked), language)))
    turn_terms = list(set(tokens(turn, language)))
    per_sentence = [list(set(tokens(s, language))) for s in asked]
    matches = index.match(turn, frontier)
    bq = [index.bm25(asked_terms, node_id) for node_id in frontier]
    top = max(bq, default=0.0)
    confirm, vague = float(asks_confirmation(turn, language)), float(is_vague(turn, language))
    rows = []
    for position, node_id in enumerate(frontier):
        match = matches[position]
        rows.append(
            {
                "bq": bq[position],
                "ba": index.bm25(turn_terms, node_id),
                "bs": max((index.bm25(terms, node_id) for terms in per_sentence), default=0.0),
                "qc": match.question_cover,
                "xc": match.exclusive_cover,
                "tc": match.text_cover,
                "rel": bq[position] / top if top > 0 else 0.0,
                "ismax": float(top > 0 and bq[position] == top),
                "hasq": float(bool(asked)),
                "conf": confirm,
                "vague": vague,
                "ntok": math.log1p(len(turn_terms)),
                "pos": float(position),
                "nfr": float(len(frontier)),
            }
        )
    return rows


def score(features: dict[str, float], model: LinearModel) -> float:
    """Probability-like score in (0, 1) that the turn asks about this node."""
    z = model.bias + sum(model.weights[name] * features[name] for name in FEATURES)
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


class Selection(NamedTuple):
    chosen: list[str]
    scores: dict[str, float]


def select(index: TaskIndex, turn: str, frontier: list[str], *, multi_info: bool = False) -> Selection:
    """Frontier nodes the turn asks about: the first one (single-info) or all of them (multi-info)."""
    model = MULTI_INFO if multi_info else SINGLE_INFO
    scores = {
        node_id: score(features, model)
        for node_id, features in zip(frontier, node_features(index, turn, frontier))
    }
    chosen = [node_id for node_id in frontier if scores[node_id] >= model.threshold]
    return Selection(chosen=chosen if multi_info else chosen[:1], scores=scores)
