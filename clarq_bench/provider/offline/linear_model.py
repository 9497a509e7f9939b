"""Which frontier nodes does a seeker turn ask about? A small linear model over lexical and context features.

Decision rule (it mirrors how the reference provider selects: the first frontier node judged answerable):
single-info mode reveals the first frontier node, in numeric order, whose score reaches the threshold;
multi-info mode reveals every such node. Weights and thresholds were fitted (logistic regression, then a
threshold sweep) on released dialogues of task types 1-13 only (tools/provider_weights.py); types 14-26 stay
held out for `clarq provider-eval`. Features are scale-sensitive, so any change to provider/lexical.py (the text
matcher: tokens, BM25, n-grams) means refitting.

Feature groups: BM25 / term cover of the node document against the question sentences (bq ba bs qc xc tc rel ismax);
turn cues (hasq conf vague ntok pos nfr nspec); what the node's explanation says must have been NOTICED (fq ft fx fs
fkey fall sf hasf) and the "multiple X" options it resolves (fo, and over the whole turn: hasopt omiss fot -- a node
settling "multiple X" whose X the seeker never names is rarely revealed); which question sentence each node wins (win
wfirst); terms only this node has, over the specific (not open / not confirmation) questions (sx); character n-gram
cover of the node text, focus phrase and explanation by the question / the turn (gtq gfq gta gfa geq: robust to
inflection and Chinese segmentation); and the dialogue context (context.py: recap share, first turn after the
root, earlier mentions, depth, rank among the frontier).
Checked with `tools/provider_weights.py --cv` (leave-one-task-type-out over types 1-13) before adoption.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, NamedTuple, TypedDict, cast

from ...core.transcript import Speaker, Turn
from ..copies import CopiedRuns, copied_share, heard_grams
from ..intents import asks_confirmation, is_vague
from ..lexical import TaskIndex, char_grams, is_question, sentences, token_set, tokens
from ..question_words import ANAPHORIC, STANDS_FOR
from .context import CONTEXT_FEATURES, context_features
from .covers import gram_cover, term_cover
from .weights import MODELS

if TYPE_CHECKING:
    from .embeddings import Embedder

LEXICAL_FEATURES = (
    "bq",
    "ba",
    "bs",
    "qc",
    "xc",
    "tc",
    "rel",
    "ismax",
    "hasq",
    "conf",
    "vague",
    "ntok",
    "pos",
    "nfr",
    "fq",
    "ft",
    "fx",
    "fs",
    "fo",
    "hasf",
    "win",
    "wfirst",
    "fkey",
    "fall",
    "sx",
    "sf",
    "nspec",
    "hasopt",
    "omiss",
    "fot",
    "gtq",
    "gfq",
    "gta",
    "gfa",
    "geq",
)
#: Lexical features of the latest turn, then dialogue-context features (context.py).
FEATURES = LEXICAL_FEATURES + CONTEXT_FEATURES


#: BM25 below this never counts as a strong relative match (a lone weak hit is not "the best of the frontier").
REL_FLOOR = 6.0


class _Fitted(TypedDict):
    """One model as weights.py stores it."""

    weights: dict[str, float]
    bias: float
    threshold: float


#: weights.py's models, typed: the generated file holds exactly these keys.
_FITTED = cast("dict[str, _Fitted]", MODELS)


class LinearModel(NamedTuple):
    weights: dict[str, float]
    bias: float
    threshold: float


#: Both models are fitted by tools/provider_weights.py on released dialogues of types 1-13 only and stored in
#: weights.py (generated, never edited by hand): single-info on the three single-info files (en + zh
#: pooled), multi-info on the multi-info file (English; used for both languages).
SINGLE_INFO = LinearModel(**_FITTED["single"])
MULTI_INFO = LinearModel(**_FITTED["multi"])
#: Single-info with embedding features too (provider offline-e5; fitted with `tools/provider_weights.py --embeddings`).
SINGLE_INFO_E5 = LinearModel(**_FITTED["single-e5"])


def all_features(
    index: TaskIndex,
    turn: str,
    frontier: list[str],
    history: list[Turn] | None = None,
    embedder: Embedder | None = None,
) -> list[dict[str, float]]:
    """Lexical plus context features per frontier node, plus EMBEDDING_FEATURES when an embedder is given.
    `history` is the dialogue ending with `turn` (without it the turn is read as the whole dialogue: nothing
    revealed, not the first turn after the root)."""
    heard = [t.text for t in (history or [])[1:-1] if t.speaker == Speaker.provider]  # Jax, past the greeting
    lexical = node_features(index, turn, frontier, heard)
    context = context_features(index, history or [Turn(speaker=Speaker.seeker, text=turn)], frontier, lexical)
    for row, more in zip(lexical, context):
        row.update(more)  # (the same keys in the same order as {**row, **more}; each row is this call's own)
    rows = lexical
    if embedder is not None:
        from .embeddings import embedding_features

        extra = embedding_features(embedder, index.tree, index.language, turn, frontier)
        rows = [{**a, **b} for a, b in zip(rows, extra)]
    return rows


def node_features(
    index: TaskIndex, turn: str, frontier: list[str], heard: Sequence[str] = ()
) -> list[dict[str, float]]:
    """One dict of LEXICAL_FEATURES per frontier node (in frontier order) for this seeker turn. Each text of the turn
    is tokenised once (token_set) and each per-sentence score counted once, then shared by the features reading it."""
    language = index.language
    asked = asked_in_context(turn, language, heard)
    asked_set = token_set(" ".join(asked), language)  # (= question_text's terms)
    turn_set = token_set(turn, language)
    sentence_sets = [token_set(s, language) for s in asked]
    bq = [index.bm25(asked_set, node_id) for node_id in frontier]
    top = max(bq, default=0.0)
    confirm, vague = float(asks_confirmation(turn, language)), float(is_vague(turn, language))
    # Specific questions: asked sentences that are neither an open "anything else?" nor a "correct?" check.
    specific = [s for s in asked if not is_vague(s, language) and not asks_confirmation(s, language)]
    specific_set = token_set(" ".join(specific), language)
    # Each question sentence's BM25 and focus cover of each node (frontier order within a sentence).
    # (a turn's one question's set is the asked set itself, token_set's same object: its scores are bq and fq)
    sentence_bm25 = [
        bq if present is asked_set else [index.bm25(present, node_id) for node_id in frontier]
        for present in sentence_sets
    ]
    cover, grams = term_cover(index), gram_cover(index)  # (index.cover / gram_cover of these frozensets)
    focus_terms = index.focus_terms
    fq = [cover(focus_terms[node_id], asked_set) for node_id in frontier]
    sentence_focus = [
        fq if present is asked_set else [cover(focus_terms[node_id], present) for node_id in frontier]
        for present in sentence_sets
    ]
    # Which node each question sentence is most about (by BM25 + focus cover); its order among the questions.
    winners: list[str] = []
    for bm25s, covers in zip(sentence_bm25, sentence_focus):
        best, best_score = "", 0.0
        for node_id, bm25, focus_cover in zip(frontier, bm25s, covers):
            value = bm25 + 3.0 * focus_cover
            if value > best_score:
                best, best_score = node_id, value
        winners.append(best)
    # (a turn's n-grams are read by this one call: not kept in char_grams' table, where the collector walks them)
    asked_grams = char_grams.__wrapped__(" ".join(asked), language)
    turn_grams = char_grams.__wrapped__(turn, language)
    apart = index.frontier(frontier)
    # (the same values for every node, counted once)
    hasq, ntok, nfr, nspec = float(bool(asked)), math.log1p(len(turn_set)), float(len(frontier)), float(len(specific))
    rel_top = max(top, REL_FLOOR)
    rows = []
    for position, node_id in enumerate(frontier):
        doc = index.doc_sets[node_id]
        focus = focus_terms[node_id]
        exclusive = apart.exclusive_focus[position]
        exclusive_doc = apart.exclusive_docs[position]
        options = index.option_terms[node_id]
        option_cover = cover(options, turn_set)
        text_grams_of, focus_grams = index.text_grams[node_id], index.focus_grams[node_id]
        rows.append(
            {
                "bq": bq[position],
                "ba": index.bm25(turn_set, node_id),
                "bs": max((scores[position] for scores in sentence_bm25), default=0.0),
                "qc": cover(doc, asked_set),
                "xc": cover(exclusive_doc, asked_set),
                "tc": cover(index.text_terms[node_id], turn_set),
                "rel": bq[position] / rel_top,
                "ismax": float(top > 0 and bq[position] == top),
                "hasq": hasq,
                "conf": confirm,
                "vague": vague,
                "ntok": ntok,
                "pos": float(position),
                "nfr": nfr,
                "fq": fq[position],
                "ft": cover(focus, turn_set),
                "fx": cover(exclusive, asked_set),
                "fs": max((covers[position] for covers in sentence_focus), default=0.0),
                "fo": cover(options, asked_set),
                "hasf": float(bool(focus)),
                "sx": cover(exclusive_doc, specific_set),
                "sf": cover(focus, specific_set),
                "nspec": nspec,
                "fkey": float(bool(focus) and index.focus_keys[node_id] in asked_set),
                "fall": float(bool(focus) and focus <= turn_set),
                "win": float(winners.count(node_id)),
                "wfirst": 1.0 / (1 + winners.index(node_id)) if node_id in winners else 0.0,
                "hasopt": float(bool(options)),
                "omiss": float(bool(options) and option_cover == 0.0),
                "fot": option_cover,
                "gtq": grams(text_grams_of, asked_grams),
                "gfq": grams(focus_grams, asked_grams),
                "gta": grams(text_grams_of, turn_grams),
                "gfa": grams(focus_grams, turn_grams),
                "geq": grams(index.explanation_grams[node_id], asked_grams),
            }
        )
    return rows


#: Content words of the statement before a question that its "one" / "it" / "there" may stand for, at most.
CONTEXT_TERMS = 8


def asked_in_context(turn: str, language: str, heard: Sequence[str] = ()) -> list[str]:
    """The turn's question sentences, each read with the statement just before it when it only points at what that
    statement names ("There are two fords. Which one do you mean?", "I don't have a horse. Where can I find one?").
    A statement copied from Jax's replies (`heard`) is his, not something the seeker noticed: it is not read so."""
    asked: list[str] = []
    before = ""
    runs: CopiedRuns | None = None  # (read last, and only for a statement a question may be read with)
    for sentence in sentences(turn, language):
        if not is_question(sentence, language):
            before = "" if sentence.rstrip().endswith((":", "\uff1a")) else sentence
            continue
        if (
            before
            and len(tokens(before, language)) <= CONTEXT_TERMS
            and (
                ANAPHORIC[language].search(sentence)
                or (
                    (STANDS_FOR[language].search(sentence) or len(tokens(sentence, language)) <= 1)
                    and len(tokens(sentence, language)) <= 2
                )
            )
        ):
            runs = runs or CopiedRuns(heard_grams(heard, language))
            if copied_share(before, runs, language) < 0.5:
                sentence = f"{before} {sentence}"
        asked.append(sentence)
        before = ""
    return asked


def match_exclusive(index: TaskIndex, node_id: str, frontier: list[str]) -> list[str]:
    """The node's document terms no other frontier node's document has."""
    others: set[str] = set()
    for other in frontier:
        if other != node_id:
            others.update(index.doc_terms[other])
    return [t for t in index.doc_terms[node_id] if t not in others]


def score(features: dict[str, float], model: LinearModel) -> float:
    """Probability-like score in (0, 1) that the turn asks about this node."""
    weights = model.weights  # (the same products, summed in the same order, without a Python loop)
    z = model.bias + sum(map(operator.mul, weights.values(), map(features.__getitem__, weights)))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


class Selection(NamedTuple):
    chosen: list[str]
    scores: dict[str, float]
    passed: list[str] = []  # noqa: RUF012 - a NamedTuple field's default (never mutated); every frontier node over the threshold, in frontier order (chosen is a prefix of it)
    #: The frontier nodes the single-info model passes (multi-info mode; else `passed`): a turn of one question is
    #: read alike in both modes, so multi-info never answers a lone question less than single-info does.
    lone: list[str] = []  # noqa: RUF012 - a NamedTuple field's default (never mutated)
    lone_scores: dict[str, float] = {}  # noqa: RUF012 - the single-info model's scores (multi-info; else `scores`)


def select(
    index: TaskIndex,
    turn: str,
    frontier: list[str],
    *,
    multi_info: bool = False,
    history: list[Turn] | None = None,
    embedder: Embedder | None = None,
    exclude: Collection[str] = (),
) -> Selection:
    """Frontier nodes the turn asks about: the first one (single-info) or all of them (multi-info). `history`:
    the dialogue so far, ending with `turn` (see all_features); `exclude`: nodes never chosen. With an embedder, single-info mode uses the model
    fitted with embedding features; multi-info mode keeps the lexical one (embeddings did not help it in CV)."""
    use_embeddings = embedder is not None and not multi_info
    model = MULTI_INFO if multi_info else SINGLE_INFO_E5 if use_embeddings else SINGLE_INFO
    rows = all_features(index, turn, frontier, history, embedder if use_embeddings else None)
    scores = {node_id: score(features, model) for node_id, features in zip(frontier, rows)}
    # Evidence floor: context alone (e.g. "first turn after the root") never reveals a node the turn shares no
    # weighted term with; costs nothing on the tuning types and keeps content-free turns from getting a reveal.
    chosen = [
        node_id
        for node_id, features in zip(frontier, rows)
        if scores[node_id] >= model.threshold and features["ba"] > 0 and node_id not in exclude
    ]
    lone, lone_scores = chosen, scores
    if multi_info:
        single = {node_id: score(features, SINGLE_INFO) for node_id, features in zip(frontier, rows)}
        lone = [
            node_id
            for node_id, features in zip(frontier, rows)
            if single[node_id] >= SINGLE_INFO.threshold and features["ba"] > 0 and node_id not in exclude
        ]
        lone_scores = single
    return Selection(
        chosen=chosen if multi_info else chosen[:1], scores=scores, passed=chosen, lone=lone, lone_scores=lone_scores
    )
