"""The offline track on one ranker: every state ranked (concurrently, one call per state), then scored.

A state's need is scored on every state; its selection figures only where a question is needed (ClariQ scores
question selection on requests that need clarification). A ranker that raises on a state is recorded with the
error and scored as asking nothing, so one bad state never stops the track.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from pydantic import BaseModel, Field

from ..core.redact import redact
from ..core.tasks import Task
from .bank import Bank
from .metrics import ranking_metrics
from .pool import pool_for, relevant_ids
from .rankers import Item, Ranker, Selection
from .states import ClarifyState, view_of


class StateResult(BaseModel):
    """One state's answer and its figures (empty when the state needs no question)."""

    state_id: str
    task_id: str
    type_number: int
    step: int
    need_gold: int
    need_pred: int
    pool: int
    relevant: int
    returned: list[str] = Field(default_factory=list)
    figures: dict[str, float] = Field(default_factory=dict)
    error: str | None = None
    note: str | None = None


def score_state(state: ClarifyState, pool_size: int, relevant: set[str], selection: Selection) -> StateResult:
    figures = {}
    if state.needed:
        flags = [i in relevant for i in selection.ranking]
        figures = ranking_metrics(flags, [i in relevant for i in selection.returned], len(relevant))
    return StateResult(
        state_id=state.id,
        task_id=state.task_id,
        type_number=state.type_number,
        step=state.step,
        need_gold=state.need,
        need_pred=selection.need,
        pool=pool_size,
        relevant=len(relevant),
        returned=selection.returned,
        figures=figures,
        error=selection.error,
        note=selection.note,
    )


async def run_states(
    ranker: Ranker,
    states: list[ClarifyState],
    tasks: dict[str, Task],
    bank: Bank,
    *,
    concurrency: int = 32,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
    on_done: Callable[[int], None] | None = None,
) -> list[StateResult]:
    """Every state's result, in state order. Once `stop()` is true (a spent --max-cost), no further state is asked:
    the rest are recorded as not run (errors)."""
    gate = asyncio.Semaphore(concurrency)
    done = 0

    async def one(state: ClarifyState) -> StateResult:
        nonlocal done
        pool = pool_for(state, bank)
        relevant = relevant_ids(pool, state)
        item = Item(
            state, tasks[state.task_id], view_of(state, tasks[state.task_id], seed=seed), pool, frozenset(relevant)
        )
        async with gate:
            try:
                if stop is not None and stop():
                    raise RuntimeError("not run: the --max-cost budget was spent")
                selection = await ranker.select(item)
                known = {entry.id for entry in pool}
                if not set(selection.ranking) <= known or not set(selection.returned) <= known:
                    raise ValueError("the selection names questions outside the state's pool")
                if len(set(selection.ranking)) != len(selection.ranking) or len(set(selection.returned)) != len(
                    selection.returned
                ):
                    raise ValueError("the selection names a question twice")  # would count it twice in Recall@k
            except Exception as exc:  # noqa: BLE001 - a failing state is recorded, the track goes on
                selection = Selection(need=1, error=redact(f"{type(exc).__name__}: {exc}")[:500])
        done += 1
        if on_done is not None:
            on_done(done)
        return score_state(state, len(pool), relevant, selection)

    return list(await asyncio.gather(*(one(state) for state in states)))
