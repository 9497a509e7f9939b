"""The brief's options and their kinds: one owner of "which names of the brief are alternatives of one kind".

A brief lists items, skills and scenes, some with a note in parentheses ("Castle (entry requires a permit)"). The
provider reads a question's choice against these: options of one kind are names of one list joined by a shared
content term ("Lithium Battery" / "Lead Acid Battery", "Summon the divine tiger" / "... horse"), the connected
components of that relation; every scene is a place, so scenes of different heads are still one choice of where to
go. The screen (spray rules) and the focus rule (what a question asks) both count kinds with this, so a real choice
question is never one kind to one rule and five kinds to the other.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from ..core.tasks import Task
from .lexical import tokens

#: (zh) A count before a name ("一根长撑杆" is a long pole, "两把钥匙" keys): no part of what the name names.
COUNT_ZH = re.compile(
    r"^[一二两三四五六七八九十几数]+[个根支把块张本条只匹头颗粒件瓶盒袋包盘串片座间台辆艘枚封份双对套桶罐捆卷束]"
)
#: A note in parentheses after a brief's name, with the spaces around it.
PARENTHESES = re.compile(r"\s*[(（][^()（）]*[)）]\s*")
#: The text of such a note.
NOTE = re.compile(r"[(（]([^()（）]*)[)）]")


def names_of(entries: Iterable[str]) -> list[str]:
    """Names of one brief list, notes in parentheses removed, in order, without repeats."""
    names = (PARENTHESES.sub(" ", entry).strip() for entry in entries)
    return list(dict.fromkeys(name for name in names if name))


def notes_of(task: Task) -> list[str]:
    """Every note of the brief's lists ("requires a permit")."""
    brief = task.brief
    return [note for entry in (*brief.items, *brief.skills, *brief.scenes) for note in NOTE.findall(entry)]


def names_entity(present: set[str] | frozenset[str], terms: set[str] | frozenset[str]) -> bool:
    """Do the content terms `present` name the entity of `terms`: all of a name of one or two terms, two thirds of a
    longer one?"""
    needed = len(terms) if len(terms) <= 2 else -(-2 * len(terms) // 3)
    return len(terms & present) >= needed


def kind_groups(names: list[str], language: str) -> list[int]:
    """For each name of one list, the index of its kind's first member: names joined by a shared content term, the
    connected components of that relation."""
    terms = [set(name_terms(name, language)) for name in names]
    parent = list(range(len(names)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            if terms[i] & terms[j]:
                parent[root(j)] = root(i)
    return [root(i) for i in range(len(names))]


class BriefOption(NamedTuple):
    """One name of the brief: its content terms, the kind (group of alternatives) it belongs to, whether it is a
    scene (a place), and its head (what the name is a name of)."""

    name: str
    terms: frozenset[str]
    group: int
    scene: bool
    head: frozenset[str] = frozenset()


#: English names put their head last, or before an "of"/"for" phrase ("Castle of Light", "Permit for the Castle").
_HEAD_CUT_EN = re.compile(r"\s+(?:of|for|from|with|at|in|on)\s+.*$", re.IGNORECASE)


def name_terms(name: str, language: str) -> list[str]:
    """The content terms of a brief's name, a Chinese count before it left out."""
    return tokens(COUNT_ZH.sub("", name) if language == "zh" else name, language)


def head_of(name: str, language: str) -> frozenset[str]:
    """The head of a name: the thing it names ("Night Sky Gem Store" is a store, not a gem; "星辉宝石店" is a 石店
    bigram, not a 宝石), so an explanation's "which gem" is a choice of gems, never of gem stores."""
    if language == "zh":
        found = name_terms(name, language)
        return frozenset(found[-1:])
    found = tokens(_HEAD_CUT_EN.sub("", name), language)
    return frozenset(found[-1:])


def brief_options(task: Task, language: str) -> list[BriefOption]:
    """Every name of the brief's items, skills and scenes (those with content terms), with its kind: kinds are
    numbered across the three lists, so an item and a skill are never one kind."""
    brief = task.brief
    options: list[BriefOption] = []
    for listed, scene in ((brief.items, False), (brief.skills, False), (brief.scenes, True)):
        names = [name for name in names_of(listed) if name_terms(name, language)]
        offset = len(options)
        for name, group in zip(names, kind_groups(names, language)):
            options.append(
                BriefOption(name, frozenset(name_terms(name, language)), offset + group, scene, head_of(name, language))
            )
    return options


def kind_of(option: BriefOption) -> int:
    """The kind a spray rule counts: every scene is one kind (a place), other names their group."""
    return -1 if option.scene else option.group


__all__ = [
    "NOTE",
    "PARENTHESES",
    "BriefOption",
    "brief_options",
    "head_of",
    "kind_groups",
    "kind_of",
    "names_entity",
    "name_terms",
    "names_of",
    "notes_of",
]
