"""Which frontier nodes does a seeker turn ask about? A small linear model over lexical features, per node.

Decision rule (it mirrors how the reference provider selects: the first frontier node judged answerable):
single-info mode reveals the first frontier node, in numeric order, whose score reaches the threshold;
multi-info mode reveals every such node. Weights and thresholds were fitted (logistic regression, then a
threshold sweep) on released dialogues of task types 1-13 only (benchmarks/provider_tune.py); types 14-26 stay
held out for `clarq provider-eval`. Features are scale-sensitive, so any change to lexical.py means refitting.

Feature groups: BM25 / term cover of the node document against the question sentences (bq ba bs qc xc tc rel ismax);
turn cues (hasq conf vague ntok pos nfr nspec); what the node's explanation says must have been NOTICED (fq ft fx fs
fkey fall sf hasf) and the "multiple X" options it resolves (fo); which question sentence each node wins (win wfirst);
terms only this node has, over the specific (not open / not confirmation) questions (sx).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .intents import asks_confirmation, is_vague
from .lexical import TaskIndex, is_question, sentences, tokens

FEATURES = ("bq", "ba", "bs", "qc", "xc", "tc", "rel", "ismax", "hasq", "conf", "vague", "ntok", "pos", "nfr",
            "fq", "ft", "fx", "fs", "fo", "hasf", "win", "wfirst", "fkey", "fall",
            "sx", "sf", "nspec")


#: BM25 below this never counts as a strong relative match (a lone weak hit is not "the best of the frontier").
REL_FLOOR = 6.0


class LinearModel(NamedTuple):
    weights: dict[str, float]
    bias: float
    threshold: float


#: Fitted on types 1-13 of the three single-info released files (en + zh pooled).
SINGLE_INFO = LinearModel(
    weights={"bq": -0.0646, "ba": 0.0831, "bs": 0.0679, "qc": -1.5103, "xc": -0.1432, "tc": -0.3728, "rel": 2.3784,
             "ismax": 0.0939, "hasq": -0.4754, "conf": -0.093, "vague": -0.757, "ntok": -0.3136, "pos": -0.1495,
             "nfr": 0.0675, "fq": 0.1991, "ft": 0.9074, "fx": 0.4862, "fs": 1.179, "fo": -0.1937, "hasf": 0.0,
             "win": 0.3232, "wfirst": 0.5821, "fkey": -0.3445, "fall": -0.4248, "sx": 1.7813, "sf": -0.0983,
             "nspec": 0.1318},
    bias=-0.7108,
    threshold=0.45,
)  # fmt: skip
#: Fitted on types 1-13 of the released multi-info file (English only; used for both languages).
MULTI_INFO = LinearModel(
    weights={"bq": -0.3143, "ba": 0.1913, "bs": 0.245, "qc": 1.0516, "xc": 0.7498, "tc": 0.2793, "rel": 1.2096,
             "ismax": -0.3731, "hasq": 0.0, "conf": 0.6125, "vague": -0.5227, "ntok": -0.3457, "pos": -0.4126,
             "nfr": 0.2358, "fq": 1.6088, "ft": 1.1365, "fx": 0.5407, "fs": -0.768, "fo": -0.0792, "hasf": 0.0,
             "win": 0.3707, "wfirst": 0.9639, "fkey": -0.1972, "fall": -0.9264, "sx": 0.4715, "sf": 0.294,
             "nspec": 0.3665},
    bias=-2.7621,
    threshold=0.475,
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
    asked_set, turn_set = set(asked_terms), set(turn_terms)
    # Specific questions: asked sentences that are neither an open "anything else?" nor a "correct?" check.
    specific = [
        s for s in asked if not is_vague(s, language) and not asks_confirmation(s, language)
    ]
    specific_set = set(tokens(" ".join(specific), language))
    # Which node each question sentence is most about (by BM25 + focus cover); its order among the questions.
    winners: list[str] = []
    for terms in per_sentence:
        present = set(terms)
        best, best_score = "", 0.0
        for node_id in frontier:
            value = index.bm25(terms, node_id) + 3.0 * index.cover(index.focus_terms[node_id], present)
            if value > best_score:
                best, best_score = node_id, value
        winners.append(best)
    sentence_sets = [set(terms) for terms in per_sentence]
    rows = []
    for position, node_id in enumerate(frontier):
        match = matches[position]
        focus = index.focus_terms[node_id]
        others = set().union(*(index.focus_terms[o] for o in frontier if o != node_id))
        exclusive = focus - others
        rows.append(
            {
                "bq": bq[position],
                "ba": index.bm25(turn_terms, node_id),
                "bs": max((index.bm25(terms, node_id) for terms in per_sentence), default=0.0),
                "qc": match.question_cover,
                "xc": match.exclusive_cover,
                "tc": match.text_cover,
                "rel": bq[position] / max(top, REL_FLOOR),
                "ismax": float(top > 0 and bq[position] == top),
                "hasq": float(bool(asked)),
                "conf": confirm,
                "vague": vague,
                "ntok": math.log1p(len(turn_terms)),
                "pos": float(position),
                "nfr": float(len(frontier)),
                "fq": index.cover(focus, asked_set),
                "ft": index.cover(focus, turn_set),
                "fx": index.cover(exclusive, asked_set),
                "fs": max((index.cover(focus, terms) for terms in sentence_sets), default=0.0),
                "fo": index.cover(index.option_terms[node_id], asked_set),
                "hasf": float(bool(focus)),
                "sx": index.cover(match_exclusive(index, node_id, frontier), specific_set),
                "sf": index.cover(focus, specific_set),
                "nspec": float(len(specific)),
                "fkey": float(bool(focus) and max(focus, key=lambda t: (index.weight(t), t)) in asked_set),
                "fall": float(bool(focus) and focus <= turn_set),
                "win": float(winners.count(node_id)),
                "wfirst": 1.0 / (1 + winners.index(node_id)) if node_id in winners else 0.0,
            }
        )
    return rows


def match_exclusive(index: TaskIndex, node_id: str, frontier: list[str]) -> list[str]:
    """The node's document terms no other frontier node's document has."""
    others: set[str] = set()
    for other in frontier:
        if other != node_id:
            others.update(index.doc_terms[other])
    return [t for t in index.doc_terms[node_id] if t not in others]


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
