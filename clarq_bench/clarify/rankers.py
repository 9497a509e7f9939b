"""What a system returns for one state (a Selection), and the shipped offline rankers.

Every ranker answers `async select(item) -> Selection`: a need score 1-4, a ranking of pool candidates (candidates it
leaves out count as never found; an id named twice fails the state) and the variable-length list it would show (0-5
questions). Baselines named after ClariQ's (whose oracles pick by document retrieval; these by the state's relevant
questions): `best-question` (oracle: the relevant questions first, returns the best one, gold need), `worst-question`
(the least relevant first, returns it, the need farthest from gold), `no-question` (never asks: need 1, nothing
ranked); plus `random` (seeded shuffle, a random list length 1-5 and a random need) and `bm25` (the pool ranked by
BM25 against the brief and everything the provider said, questions already asked last; need 4, as a seeker that
always asks; returns the candidates scoring within 80% of the best, at most five). Only the two oracle baselines
read the gold (`item.relevant`, `item.state.need`).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from typing import NamedTuple, Protocol

from pydantic import BaseModel, Field

from ..core.defaults import DEFAULT_SEED
from ..core.tasks import Task
from ..core.transcript import Speaker
from ..seekers import DialogueView
from .bank import BankEntry
from .bm25 import bm25_scores
from .states import ClarifyState

MAX_LIST = 5


class Selection(BaseModel):
    """A system's answer for one state."""

    need: int = Field(ge=1, le=4)
    ranking: list[str] = Field(default_factory=list, description="Candidate ids, best first.")
    returned: list[str] = Field(default_factory=list, max_length=MAX_LIST, description="The list shown, 0-5 ids.")
    error: str | None = Field(default=None, description="Why the system failed on this state (scored as no answer).")
    note: str | None = Field(default=None, description="What was dropped from an answer that was otherwise used.")


class Item(NamedTuple):
    """One state as rankers get it. Only oracle baselines may read `relevant` or the task's tree."""

    state: ClarifyState
    task: Task
    view: DialogueView
    pool: list[BankEntry]
    relevant: frozenset[str]


class Ranker(Protocol):
    name: str

    async def select(self, item: Item) -> Selection: ...


class BestQuestion:
    name = "best-question"

    async def select(self, item: Item) -> Selection:
        good = [e.id for e in item.pool if e.id in item.relevant]
        ranking = good + [e.id for e in item.pool if e.id not in item.relevant]
        return Selection(need=item.state.need, ranking=ranking, returned=good[:1])


class WorstQuestion:
    name = "worst-question"

    async def select(self, item: Item) -> Selection:
        ranking = [e.id for e in item.pool if e.id not in item.relevant] + [
            e.id for e in item.pool if e.id in item.relevant
        ]
        return Selection(need=1 if item.state.need >= 3 else 4, ranking=ranking, returned=ranking[:1])


class NoQuestion:
    name = "no-question"

    async def select(self, item: Item) -> Selection:
        return Selection(need=1)


class RandomRanker:
    name = "random"

    def __init__(self, seed: int = DEFAULT_SEED) -> None:
        self.seed = seed

    async def select(self, item: Item) -> Selection:
        rng = random.Random(zlib.crc32(f"{self.seed}:{item.state.id}".encode()))
        ranking = [e.id for e in item.pool]
        rng.shuffle(ranking)
        return Selection(need=rng.randint(1, 4), ranking=ranking, returned=ranking[: rng.randint(1, MAX_LIST)])


def asked_texts(view: DialogueView) -> set[str]:
    return {turn.text.strip() for turn in view.turns if turn.speaker == Speaker.seeker}


def bm25_order(query: str, pool: list[BankEntry], view: DialogueView) -> tuple[list[str], list[float]]:
    """Pool ids by BM25 against `query`, questions already asked in the dialogue moved last; and their scores."""
    scores = bm25_scores(query, [e.text for e in pool], view.language)
    asked = asked_texts(view)
    order = sorted(range(len(pool)), key=lambda i: (pool[i].text.strip() in asked, -scores[i]))
    return [pool[i].id for i in order], [scores[i] for i in order]


def dialogue_query(view: DialogueView) -> str:
    """The brief and every provider turn: what the seeker knows, without its own questions."""
    brief = view.brief
    parts = [brief.role, brief.task_name, *brief.items, *brief.skills, *brief.scenes, brief.background]
    parts += [turn.text for turn in view.turns if turn.speaker == Speaker.provider]
    return "\n".join(parts)


class BM25Ranker:
    name = "bm25"

    async def select(self, item: Item) -> Selection:
        ranking, scores = bm25_order(dialogue_query(item.view), item.pool, item.view)
        top = scores[0] if scores else 0.0
        returned = [i for i, s in zip(ranking, scores) if top > 0 and s >= 0.8 * top][:MAX_LIST] or ranking[:1]
        return Selection(need=4, ranking=ranking, returned=returned)


OFFLINE_RANKERS: dict[str, Callable[..., Ranker]] = {
    "best-question": BestQuestion,
    "worst-question": WorstQuestion,
    "no-question": NoQuestion,
    "random": RandomRanker,
    "bm25": BM25Ranker,
}
