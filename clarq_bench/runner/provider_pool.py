"""Provider decisions in worker processes, so a run with many dialogues in flight is not held up by them.

With the offline provider every reply is CPU work on the event loop: at a few hundred dialogues in flight the loop
is busy deciding and the model calls of the other side wait for it. Here each worker process builds, once per task,
the very provider the run would build (ProviderSpec.build with the run's mode) and answers `respond(turns)` for it;
the loop only pickles a dialogue's turns and awaits the reply. Nothing here knows a provider's internals: a provider
is what ProviderSpec.build returns, with greeting() and an async respond(turns). Replies are the same as in-process
ones (a provider's reply depends on its task, mode and the turns, never on which process computed it).

Only providers that call no model are pooled (the LLM provider awaits its client, which lives on the run's loop).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import zlib
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..core.tasks import Task
from ..core.transcript import Turn

#: Providers a worker keeps built (least recently used dropped first): building one costs ~40 ms, and a worker
#: answers for its share of the run's tasks only.
KEPT_PER_WORKER = 512

_WORKER: dict[str, Any] = {}  # in a worker process: the spec, mode, the run's tasks, built providers, an event loop


def _start(spec: Any, mode: str, tasks: list[Task]) -> None:
    _WORKER.update(
        spec=spec,
        mode=mode,
        tasks={task.id: task for task in tasks},
        built=OrderedDict(),
        loop=asyncio.new_event_loop(),
    )


def _provider(task_id: str) -> Any:
    built: OrderedDict[str, Any] = _WORKER["built"]
    provider = built.get(task_id)
    if provider is None:
        provider = built[task_id] = _WORKER["spec"].build(_WORKER["tasks"][task_id], _WORKER["mode"])
        if len(built) > KEPT_PER_WORKER:
            built.popitem(last=False)
    else:
        built.move_to_end(task_id)
    return provider


def _greeting(task_id: str) -> Any:
    return _provider(task_id).greeting()


def _respond(task_id: str, turns: list[Turn]) -> Any:
    return _WORKER["loop"].run_until_complete(_provider(task_id).respond(turns))


def poolable(spec: Any) -> bool:
    """Whether a provider of this spec can decide in another process: the offline provider, which calls no model.
    Not offline-e5 (it embeds in a thread already, and each worker would load the model), not a plug-in (its class
    may keep state between turns, which replies spread over workers could not keep)."""
    return bool(getattr(spec, "offline", False)) and not getattr(spec, "embeddings", False)


class ProviderPool:
    """`workers` processes answering provider turns for the run's tasks; open(task) gives a dialogue its provider.

    A task's turns always go to the same worker (chosen by its id), so each provider is built once, in one process;
    with a few hundred tasks in flight the work spreads evenly enough."""

    def __init__(self, spec: Any, mode: str, tasks: list[Task], workers: int) -> None:
        if workers < 1:
            raise ValueError("a provider pool needs at least one worker")
        by_worker: list[list[Task]] = [[] for _ in range(workers)]
        for task in tasks:
            by_worker[_worker_of(task.id, workers)].append(task)
        # spawn, not fork: the run's loop, threads and open sockets must not be copied into the workers
        context = multiprocessing.get_context("spawn")
        self._executors = [
            ProcessPoolExecutor(1, mp_context=context, initializer=_start, initargs=(spec, mode, own))
            for own in by_worker
        ]

    async def open(self, task: Task) -> PooledProvider:
        """The provider of one dialogue: its greeting is asked of its worker now, its replies when they are due."""
        executor = self._executors[_worker_of(task.id, len(self._executors))]
        greeting = await asyncio.get_running_loop().run_in_executor(executor, _greeting, task.id)
        return PooledProvider(executor, task.id, greeting)

    def close(self) -> None:
        for executor in self._executors:
            executor.shutdown(wait=True, cancel_futures=True)


def _worker_of(task_id: str, workers: int) -> int:
    return zlib.crc32(task_id.encode("utf-8")) % workers


class PooledProvider:
    """A dialogue's provider whose replies are decided in a worker process (see ProviderPool)."""

    def __init__(self, executor: ProcessPoolExecutor, task_id: str, greeting: Any) -> None:
        self._executor, self._task_id, self._greeting = executor, task_id, greeting

    def greeting(self) -> Any:
        return self._greeting

    async def respond(self, turns: list[Turn]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._executor, _respond, self._task_id, list(turns))
