"""The names a brief lists and the kinds it lists several of, read off the names alone (what a seeker that never
reads the tree can know of the choices: the red team and the enumeration walkers share it)."""

from __future__ import annotations

import re

from .baselines import PARENTHESES
from .registry import SeekerTask


def listed_options(task: SeekerTask) -> list[str]:
    """Every listed option (item, skill, scene), without the parenthesised notes."""
    brief = task.brief
    names = (PARENTHESES.sub(" ", entry).strip() for entry in (*brief.items, *brief.skills, *brief.scenes))
    return list(dict.fromkeys(name for name in names if name))


#: English name parts after which the head has been said ("Castle of Light": a castle).
_EN_HEAD_CUT = re.compile(r"\s+(?:of|for|from|with|at|in|on)\s+.*$", re.IGNORECASE)


def brief_kinds(task: SeekerTask) -> list[str]:
    """The kinds the brief lists two or more of, in brief order, read off the names alone: an English name's last
    word before any "of"/"for" phrase ("East Market", "West Market": market), a Chinese name's longest ending of up to
    three characters that another name shares ("东门", "北门": 门)."""
    names = listed_options(task)
    if task.language == "zh":
        heads = [[name[-k:] for k in (3, 2, 1) if len(name) > k] for name in names]
    else:
        heads = [[_EN_HEAD_CUT.sub("", name).split()[-1].lower().rstrip("s")] for name in names if name.split()]
    counts: dict[str, int] = {}
    for candidates in heads:
        for head in candidates:
            counts[head] = counts.get(head, 0) + 1
    kinds = [next((h for h in candidates if counts[h] >= 2), "") for candidates in heads]
    return list(dict.fromkeys(kind for kind in kinds if len(kind) >= (1 if task.language == "zh" else 3)))


__all__ = ["brief_kinds", "listed_options"]
