"""Which of the brief's names a choice node chooses among, and by which part of its name a question names each.

Why apart: the focus reading takes a choice's options from the kind its explanation names ("multiple stores": the
names with "store" in them, kind_members). A person's kinds are wider than the words of the names: the supermarkets
are stores too. Two readings widen the options, both from the tree itself, never from a question: the answer's own
option (the node says "the XYZ Supermarket") and the other nodes that choose the same kind among overlapping options.
And a person names an option by what sets it apart from the others of its kind (own_parts): "汽车" of 乘坐汽车.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .brief_options import COUNT_ZH, BriefOption
from .lexical import tokens
from .question_words import WHICH_KIND

CJK = re.compile(r"[\u4e00-\u9fff]")


def shared_terms(members: Sequence[BriefOption]) -> set[str]:
    """Terms that two or more options share: the heads their kind goes by ("shop", "store", "bicycle")."""
    seen: dict[str, int] = {}
    for option in members:
        for term in option.terms:
            seen[term] = seen.get(term, 0) + 1
    return {term for term, count in seen.items() if count >= 2}


def kind_members(every: Sequence[BriefOption], kind: set[str], language: str) -> tuple[BriefOption, ...]:
    """The brief's names a kind the explanation names ("multiple castles", "哪个湖泊") chooses among: the groups of
    the names whose head is the kind. (zh) Also a head of one character: "龙息湖" is a lake (湖泊); and a kind said
    around the name's own part ("制作刀" of "制作普通折叠刀"). A group joins names by any shared term, a verb too
    ("制作" of the knives and of the wings; "cast" of the magics and of the binding spells), so the kind's own names
    are the choice when two or more carry it and two or more do not (one name apart is no kind of its own: "画一幅素描"
    among the paintings, the "Electronics Mall" among the electronics stores)."""
    groups = {o.group for o in every if o.head & kind}
    pairs = [term for term in kind if len(term) == 2]
    firsts = {term[0] for term in pairs} if language == "zh" else set()
    if not groups and language == "zh":
        groups = {o.group for o in every if o.name[-1:] in firsts or _around(o.name, pairs)}
    if not groups and language == "zh":  # "哪种总线": the names that all say 总线, wherever in the name
        groups = {g for g in {o.group for o in every} if _all_carry([o for o in every if o.group == g], every, kind)}
    if not groups and language == "zh":  # "哪个变身魔法": the names of a group that say 变身, two or more apart
        carried = _carried_apart(every, pairs)
        if carried:
            return carried
    members = tuple(o for o in every if o.group in groups)
    carrying = tuple(o for o in members if o.head & kind or o.name[-1:] in firsts or _around(o.name, pairs))
    if len(carrying) >= 2 and len(members) - len(carrying) >= 2:  # (the rest: a kind of its own, two names)
        return carrying
    return members


def _all_carry(members: Sequence[BriefOption], every: Sequence[BriefOption], kind: set[str]) -> bool:
    """(zh) Do the two or more names of a group all carry a pair of the kind that no other name carries, the kind
    naming none of them apart ("摄像头模块" is one of "将摄像头模块连接…" and "将电源模块连接…", not their kind)?"""
    if len(members) < 2:
        return False
    shared = shared_terms(members)
    if any((o.terms - shared) & kind for o in members):
        return False
    others = [o for o in every if o not in members]
    pairs = [term for term in kind if len(term) == 2]
    return any(all(p in o.terms for o in members) and not any(p in o.terms for o in others) for p in pairs)


def _carried_apart(every: Sequence[BriefOption], pairs: Sequence[str]) -> tuple[BriefOption, ...]:
    """(zh) The names of one group that carry every pair of the kind where two or more of the group do not: the
    kind sets them apart as a choice of their own ("使用变身魔法变成…" among the attack magics and the transformations)."""
    if not pairs:
        return ()
    for group in dict.fromkeys(o.group for o in every):
        members = [o for o in every if o.group == group]
        carrying = tuple(o for o in members if all(p in o.terms for p in pairs))
        if len(carrying) >= 2 and len(members) - len(carrying) >= 2:
            return carrying
    return ()


def _around(name: str, pairs: Sequence[str]) -> bool:
    """(zh) Does a kind's pair sit around the name's own part: its first character inside, its last ending it?"""
    return any(name.endswith(pair[1]) and pair[0] in name[:-1] for pair in pairs)


def own_parts(
    options: Sequence[BriefOption], language: str
) -> tuple[dict[BriefOption, frozenset[str]], dict[BriefOption, frozenset[str]]]:
    """Each option's terms that set it apart from the rest of its group (the group's shared heads left out), and
    (zh) its own part's pairs (core_terms): what a question names it by."""
    distinct: dict[BriefOption, frozenset[str]] = {}
    core: dict[BriefOption, frozenset[str]] = {}
    for group in {o.group for o in options}:
        members = tuple(o for o in options if o.group == group)
        shared = shared_terms(members) if len(members) > 1 else set()
        distinct.update((o, o.terms - shared) for o in members)
        if language == "zh":
            core.update(core_terms(members))
    return distinct, core


def core_terms(members: Sequence[BriefOption]) -> dict[BriefOption, frozenset[str]]:
    """(zh) Each name's own part, the characters its kind's names do not all begin or end with ("乘坐汽车" among
    "乘坐火车" and "乘坐飞机": "汽车"), as its character pairs: a person names such an option by that part alone
    ("坐火车、汽车还是飞机"). Empty where the own part is one character or the kind has one name."""
    names = [COUNT_ZH.sub("", o.name) for o in members]
    if len(names) < 2:
        return dict.fromkeys(members, frozenset())
    start = len(_common_start(names))
    end = len(_common_start([name[::-1] for name in names]))
    found: dict[BriefOption, frozenset[str]] = {}
    for option, name in zip(members, names):
        own = name[start : len(name) - end] if start + end < len(name) else ""
        core = frozenset(tokens(own, "zh")) if len(own) >= 2 else frozenset()
        found[option] = core if core <= option.terms else frozenset()  # (pairs of the name itself, and no other)
    return found


def _common_start(texts: Sequence[str]) -> str:
    """The longest start every text shares."""
    first = min(texts)
    last = max(texts)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


def shared_ending(members: Sequence[BriefOption], language: str) -> set[str]:
    """(zh) The character every name of a choice ends with, its head ("刀" of 折叠刀, 厨房用刀 and 战术刀): "哪种刀"
    asks among them."""
    endings = {o.name[-1:] for o in members}
    return endings if language == "zh" and len(endings) == 1 and CJK.match(next(iter(endings))) else set()


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


#: (zh) A thing the explanation counts, up to the end of its clause: "存在四个太阳城的门，" counts a 门.
COUNTED_ZH = re.compile(
    r"[两三四五六七八九十几多]+[个种家座条位所间把件只扇道](?P<thing>[^，。；、：！？,.;]{1,10})(?=[，。；、：！？,.;]|$)"
)


def which_kinds(explanation: str, language: str) -> list[str]:
    """The kinds the explanation's which-phrases name ("which route", "哪条道路"). (zh) A which is read with the two
    characters after it, so "哪个门进入" would read a kind "门进": where the explanation also counts a thing whose last
    character is the which's first ("存在四个太阳城的门"), that one character is the kind."""
    kinds = [m.group(1) for m in WHICH_KIND[language].finditer(explanation)]
    if language != "zh":
        return kinds
    counted = {m.group("thing")[-1] for m in COUNTED_ZH.finditer(explanation)}
    return [kind[0] if kind[0] in counted and kind[1] not in counted else kind for kind in kinds]


def route_ends(explanation: str, named: Sequence[BriefOption], language: str) -> set[BriefOption]:
    """(en) The names the explanation puts at the two ends of one way ("to travel from Sun City to Moon City"): both
    are taken, so neither is an option the node chooses, though its answer names both. (Chinese explanations say
    "从A到B" of the routes that tell one node from its twin, "从风力发电站到海洋城变电站": the reading lost agreement.)"""
    ends: set[BriefOption] = set()
    if language != "en":
        return ends
    text = explanation.lower()
    for start in named:
        for end in named:
            if start is end or start.group != end.group:
                continue
            a, b = (re.escape(o.name.lower()) for o in (start, end))
            if re.search(rf"\bfrom (?:the )?{a}\b.{{0,12}}?\bto (?:the )?{b}\b", text):
                ends |= {start, end}
    return ends


def named_by_own_part(
    present: set[str],
    every: Sequence[BriefOption],
    distinct: Mapping[BriefOption, frozenset[str]],
    list_of: Mapping[str, int],
    listed: set[str] | frozenset[str] = frozenset(),
) -> tuple[BriefOption, ...]:
    """The options of a kind no name carries ("several modes of transportation", answered "travel by car ... a plane or
    a train is too risky"): where the answer, or the explanation (`listed`: "three colors of spray paint: Pink, Blue,
    and Green"), names two or more names of one list of the brief by the part that sets each apart ("car" of "Drive a
    car", "train" of "Take a train"), the groups of those names. A list's names may be split into groups by their
    verbs ("Take ...", "Drive ..."): the kind takes them all. A name the answer says whole is no option named by its
    part (the answer's "from Sun City to Moon City" are the way's two ends)."""
    said = present | listed
    spoken = [o for o in every if distinct.get(o) and distinct[o] <= said and not o.terms <= present]
    lists = {list_of[o.name] for o in spoken}
    if len(spoken) < 2 or len(lists) != 1:
        return ()
    groups = {o.group for o in spoken}
    return tuple(o for o in every if o.group in groups)


def unspoken(members: Sequence[BriefOption], explanation: str, language: str) -> bool:
    """Does the explanation speak of none of these options, by any word of their names?"""
    spoken = set(tokens(explanation, language))
    return not any(o.terms & spoken for o in members)


__all__ = [
    "COUNTED_ZH",
    "answer_group",
    "core_terms",
    "kind_members",
    "named_by_own_part",
    "one_choice_per_kind",
    "own_parts",
    "place_group",
    "route_ends",
    "shared_ending",
    "shared_terms",
    "unspoken",
    "which_kinds",
]
