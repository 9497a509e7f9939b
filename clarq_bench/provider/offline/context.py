"""Dialogue-context features for the offline provider's linear model (linear_model.py): what the dialogue so far says about each node.

The lexical features (linear_model.node_features) look at the latest seeker turn alone. The reference provider also
reacts to the dialogue: a turn that mostly recaps what was already revealed tends to get nothing new; the first turn
after the root is usually a broad opening; a node whose topic the seeker already raised earlier (and that was
not revealed then) behaves differently; deeper nodes and children of the node just revealed are followed up at
different rates. These features are computed from the teacher-forced dialogue prefix only (seeker turns and the
provider turns' `revealed` ids), so they work the same in live play and in `clarq provider-eval`.
Fitted together with the lexical features (tools/provider_weights.py, types 1-13 only).
"""

from __future__ import annotations

import math

from ...core.tasks import ROOT_ID
from ...core.transcript import ReplyKind, Speaker, Turn
from ..lexical import TaskIndex, token_set
from .covers import term_cover

#: prevf: best focus cover of the node in an earlier seeker turn; recap / fresh: IDF share of the turn's terms
#: found only in already-revealed node texts / in no revealed text; first: first seeker turn after the root;
#: nrev: nodes revealed so far; depth: node depth; childlast: child of the node revealed last; rank / gap: the
#: node's rank among the frontier by question BM25 and its BM25 margin over the best other node.
CONTEXT_FEATURES = ("prevf", "recap", "first", "nrev", "depth", "childlast", "fresh", "rank", "gap")


def context_features(
    index: TaskIndex, history: list[Turn], frontier: list[str], lexical: list[dict[str, float]]
) -> list[dict[str, float]]:
    """One dict of CONTEXT_FEATURES per frontier node; `history` ends with the seeker turn being answered and
    `lexical` holds linear_model.node_features' rows for it (their `bq` is reused for rank and gap)."""
    language, tree = index.language, index.tree
    seekers = [t.text for t in history if t.speaker == Speaker.seeker]
    earlier = [token_set(text, language) for text in seekers[:-1]]
    turn_set = token_set(seekers[-1], language) if seekers else frozenset()
    revealed: list[str] = []
    after_root = 0
    root_seen = False
    for turn in history:
        if turn.speaker == Speaker.provider:
            if turn.kind == ReplyKind.root:
                root_seen, after_root = True, 0
            revealed.extend(i for i in turn.revealed if i != ROOT_ID and i in tree)
        elif root_seen:
            after_root += 1
    last = revealed[-1] if revealed else None
    revealed_terms = set().union(*(index.text_terms[i] for i in [ROOT_ID, *revealed] if i in index.text_terms))
    frontier_terms = set().union(*(index.doc_sets[i] for i in frontier)) if frontier else set()
    weight = index.idf.__getitem__  # (0.0 for a term without weight, as index.weight)
    total = math.fsum(map(weight, turn_set)) or 1.0
    recap = math.fsum(map(weight, turn_set.intersection(revealed_terms).difference(frontier_terms))) / total
    fresh = math.fsum(map(weight, turn_set.difference(revealed_terms))) / total
    bq = [row["bq"] for row in lexical]
    order = sorted(range(len(bq)), key=lambda k: -bq[k])
    rank = {position: r for r, position in enumerate(order)}
    ranked = sorted(bq, reverse=True) + [0.0, 0.0]
    cover = term_cover(index)  # (index.cover of these frozensets)
    first, nrev = float(after_root == 1), float(len(revealed))
    rows = []
    for position, node_id in enumerate(frontier):
        focus = index.focus_terms[node_id]
        rows.append(
            {
                "prevf": max([cover(focus, terms) for terms in earlier], default=0.0),
                "recap": recap,
                "first": first,
                "nrev": nrev,
                "depth": float(tree[node_id].depth),
                "childlast": float(last is not None and tree[node_id].parent == last),
                "fresh": fresh,
                "rank": float(rank[position]),
                "gap": bq[position] - (ranked[1] if rank[position] == 0 else ranked[0]),
            }
        )
    return rows
