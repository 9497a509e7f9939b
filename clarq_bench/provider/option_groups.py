"""Which of the brief's names a choice node chooses among, where its kind alone misses some of them.

Why apart: the focus reading takes a choice's options from the kind its explanation names ("multiple stores": the
names with "store" in them). A person's kinds are wider than the words of the names: the supermarkets are stores too.
Two readings widen the options, both from the tree itself, never from a question: the answer's own option (the
node says "the XYZ Supermarket") and the other nodes that choose the same kind among overlapping options.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .brief_options import BriefOption


def shared_terms(members: Sequence[BriefOption]) -> set[str]:
    """Terms that two or more options share: the heads their kind goes by ("shop", "store", "bicycle")."""
    seen: dict[str, int] = {}
    for option in members:
        for term in option.terms:
            seen[term] = seen.get(term, 0) + 1
    return {term for term, count in seen.items() if count >= 2}


def answer_group(
    options: tuple[BriefOption, ...],
    named: Sequence[BriefOption],
    every: Sequence[BriefOption],
    list_of: Mapping[str, int],
) -> tuple[BriefOption, ...]:
    """The options a choice's own answer names when the kind missed them ("multiple stores", answered "the XYZ
    Supermarket"): the one group of the options' list of the brief (items, skills, scenes) that the answer
    (`named`: the names the node's text names) names besides them, or nothing. `every`: all the brief's options."""
    lists = {list_of[o.name] for o in options}
    groups = {o.group for o in named if list_of[o.name] in lists} - {o.group for o in options}
    return tuple(o for o in every if o.group in groups) if len(groups) == 1 else ()


def place_group(named: Sequence[BriefOption], every: Sequence[BriefOption]) -> tuple[BriefOption, ...]:
    """The places a node that says where to go chooses among: the one group of two or more of the brief's scenes
    of which its answer names exactly one ("去亨利肥料厂" of three fertiliser factories), or nothing. `named`: the
    names the node's text names; `every`: all the brief's options."""
    groups = {o.group for o in named if o.scene}
    if len(groups) != 1:
        return ()
    members = tuple(o for o in every if o.group in groups)
    return members if len(members) >= 2 and sum(o in named for o in members) == 1 else ()


def one_choice_per_kind(nodes: Mapping[str, Any]) -> dict[str, Any]:
    """Nodes (id -> focus.NodeFocus) whose explanations name the same kind of choice among overlapping options choose
    among all of them: "multiple stores" for the spices (answered "the Everyday Grocery Store") and for the coconut
    water (answered "the XYZ Supermarket", which widened its options to the supermarkets) is one choice of store."""
    merged = dict(nodes)
    for node_id, focus in nodes.items():
        if not focus.options or not focus.said_kind:
            continue
        options = list(focus.options)
        for other in nodes.values():
            if other.said_kind == focus.said_kind and set(other.options) & set(focus.options):
                options += [o for o in other.options if o not in options]
        if len(options) > len(focus.options):
            merged[node_id] = focus._replace(options=tuple(options))
    return merged


__all__ = ["answer_group", "one_choice_per_kind", "place_group", "shared_terms"]
