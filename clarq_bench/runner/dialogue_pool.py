"""Whole dialogues played in forked worker processes, when neither side of the run calls a model.

Why: a run of a built-in seeker against the offline provider is pure CPU on the event loop, one core, while the
machine may have several. Deciding only the provider's turns elsewhere (provider_pool.py) pays a round trip a turn
and was slower on 2 cores; here a worker plays a whole dialogue and sends back its Transcript, one round trip a
dialogue. The parent still does everything else as before (order of starts, the breaker, the stats, and writing each
record as its dialogue ends), so resume and kill -9 behave as without workers.

A worker is forked from the parent once the run is ready (the tasks, both agents' specs and the prepared task
readers are inherited, nothing is imported or loaded again), and builds each dialogue's agents exactly as the parent
would. Workers are forked only where core/workers.py says fork is safe (this process has one thread); they are
started before a progress display starts its thread. Agents play the same in a worker as in the parent: built-in
seekers and the offline provider depend on the task, the seed and the turns only (plug-in seekers, which may keep
state between dialogues, stay in the parent). A dialogue that ends with an error, or any failure of the pool itself
(a worker killed), is played again in the parent, so errors reach the breaker with their tracebacks as before.
`CLARQ_DIALOGUE_WORKERS=N` sets the number of workers (0: none).
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..core.transcript import AgentInfo, EndReason, Transcript
from ..core.workers import worker_context
from .provider_pool import poolable

#: Below this many dialogues a run plays in this process (starting workers costs more than it saves).
PARALLEL_MIN = 32
#: Most worker processes a run starts (never more than the machine's CPUs).
MAX_WORKERS = 8
ENV_WORKERS = "CLARQ_DIALOGUE_WORKERS"

_RUN: dict[str, Any] = {}  # the run being played, set before the fork: a worker reads its copy


def dialogue_workers(run: Any, dialogues: int) -> int:
    """How many worker processes play this run's dialogues: none unless both sides are in-process code that calls
    no model (no LLM client, a built-in seeker that is not a person, the offline provider), several dialogues are
    in flight, there are enough of them, this machine has several CPUs and this process may fork;
    CLARQ_DIALOGUE_WORKERS=N chooses the number (still only where allowed)."""
    chosen = os.environ.get(ENV_WORKERS, "").strip()
    if chosen.isdigit() and int(chosen) == 0:
        return 0
    if run.client is not None or run.seeker.model or not poolable(run.provider) or run.config.concurrency < 2:
        return 0  # (one dialogue at a time, as a person plays, gains nothing from workers)
    if getattr(run.seeker.factory, "person", False):  # a person's turns arrive in this process (terminal, page)
        return 0
    if not str(getattr(run.seeker.factory, "__module__", "")).startswith("clarq_bench."):
        return 0
    context = worker_context()
    if context is None or context.get_start_method() != "fork":
        return 0
    if chosen.isdigit():
        return int(chosen)
    cpus = os.cpu_count() or 1
    return min(MAX_WORKERS, cpus) if cpus > 1 and dialogues >= PARALLEL_MIN else 0


class DialoguePool:
    """`workers` forked processes, each playing whole dialogues of `run` (see the module docstring), their
    providers built by `build_provider` (runner/batch.py's, called as the run calls it)."""

    def __init__(self, run: Any, workers: int, build_provider: Callable[..., Any]) -> None:
        _RUN.clear()
        _RUN.update(run=run, tasks={task.id: task for task in run.tasks}, build_provider=build_provider)
        context = worker_context()
        if context is None or context.get_start_method() != "fork" or workers < 1:
            raise ValueError("a dialogue pool needs a process that may fork and at least one worker")
        from ..provider.offline import provider  # noqa: F401 - its code loaded once, here, not again in each worker

        self._executor: ProcessPoolExecutor | None = ProcessPoolExecutor(
            workers, mp_context=context, initializer=_start, initargs=(os.getpid(),)
        )
        self._executor.submit(int).result()  # fork every worker now, while this process has one thread

    async def play(
        self, task_id: str, trial: int, seed: int, seeker_info: AgentInfo, provider_info: AgentInfo
    ) -> Transcript | None:
        """The dialogue as a worker played it, or None: it ended with an error, or the pool failed (the caller
        then plays it itself)."""
        if self._executor is None:
            return None
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, _play, task_id, trial, seed, seeker_info, provider_info)
        except (BrokenProcessPool, OSError, RuntimeError):  # a worker died, or the pool is shut down
            return None

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def _start(parent: int) -> None:
    """In a new worker: signals are the parent's business (Ctrl-C reaches the whole process group; the parent stops
    the workers), and the worker leaves when the parent is gone (kill -9), instead of waiting for work forever."""
    signal.set_wakeup_fd(-1)  # inherited from the parent's event loop: never write into it from here
    for name in ("SIGINT", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    _RUN["loop"] = asyncio.new_event_loop()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _play(task_id: str, trial: int, seed: int, seeker_info: AgentInfo, provider_info: AgentInfo) -> Transcript | None:
    """In a worker: one dialogue, its agents built as runner/batch.py builds them; None when anything failed."""
    from .dialogue import play_dialogue

    run, task, build_provider = _RUN["run"], _RUN["tasks"][task_id], _RUN["build_provider"]
    failed: list[str] = []
    try:
        seeker = run.seeker.build(task)
        provider = build_provider(run.provider, run.config.provider, task, None, seed=seed, trial=trial)
        transcript = _RUN["loop"].run_until_complete(
            play_dialogue(
                task,
                seeker,
                provider,
                max_turns=run.config.max_turns,
                trial=trial,
                seed=seed,
                seeker_info=seeker_info,
                provider_info=provider_info,
                turn_timeout=run.config.turn_timeout,
                on_error=lambda role, exc: failed.append(role),
            )
        )
    except Exception:  # noqa: BLE001 - the parent plays it again and meets the error itself
        return None
    return None if failed or transcript.end_reason == EndReason.error else transcript


def open_pool(run: Any, build_provider: Callable[..., Any], provider_workers: int = 0) -> DialoguePool | None:
    """The pool that plays `run`'s dialogues, or None where they are played in this process (dialogue_workers;
    never beside a provider pool, which `--provider-workers` asked for)."""
    workers = 0 if provider_workers > 0 else dialogue_workers(run, len(run.tasks) * run.config.trials)
    if workers < 1:
        return None
    try:
        return DialoguePool(run, workers, build_provider)
    except (BrokenProcessPool, OSError, ValueError):  # no processes to be had: played here
        return None
