"""Verify by replay: play a submission's seeker turns through the installed deterministic provider.

Why: the offline providers are pure in the dialogue (provider/base.py: state is recomputed from the turns so far), so
given the recorded turns up to a seeker turn they must say exactly what the submission records next. Any edit of a
seeker turn (a word, the order), of a provider turn (text, kind, intent, revealed ids) or of the provider's mode
shows up as the first turn where the replay disagrees. It is only meaningful with the very provider that played the
run, hence the fingerprint check first (provider/identity.py).
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..core.errors import ClarqError
from ..core.tasks import Task
from ..core.transcript import Transcript, Turn
from ..core.workers import worker_context
from ..provider.factory import ProviderMode, make_provider
from ..provider.identity import provider_fingerprint
from ..provider.registry import resolve_provider
from .schema import Manifest, dialogue_key

FIELDS = ("text", "kind", "intent", "revealed")


def provider_mode(manifest: Manifest) -> str:
    settings = manifest.run_config.get("provider")
    mode = settings.get("mode") if isinstance(settings, dict) else None
    return str(mode or ProviderMode.single.value)


def fingerprint_problem(manifest: Manifest) -> str | None:
    """Why this clarq cannot replay the submission's provider, or None when its fingerprint is the installed one."""
    name, mode = manifest.provider.name, provider_mode(manifest)
    try:
        installed = provider_fingerprint(name, mode)
    except ValueError:
        return f"provider mode {mode!r} is not a provider mode"
    if manifest.provider_fingerprint != installed:
        return (
            f"provider fingerprint {str(manifest.provider_fingerprint)[:12]}... is not this clarq's {name} provider "
            f"({str(installed)[:12]}...): verify with the clarq that packed it (clarq {manifest.clarq_version}) "
            "and the same provider build"
        )
    return None


def _show(turn: Any) -> str:
    text = turn.text if len(turn.text) <= 60 else turn.text[:57] + "..."
    kind = getattr(turn.kind, "value", turn.kind)
    return f"{kind} {list(turn.revealed)} {text!r}"


def replay_dialogue(transcript: Transcript, task: Task, name: str, mode: str, provider: Any = None) -> str | None:
    """The first provider turn the replay disagrees with, as one line; None when every turn matches. `provider` is
    one already built for this task and mode (a provider is pure in the dialogue, so the trials of a task share it)."""
    if provider is None:
        provider = make_provider(name, task, mode)
    key = dialogue_key(transcript.task_id, transcript.trial)
    turns: list[Turn] = transcript.turns
    for index in range(0, len(turns), 2):
        expected = provider.greeting() if index == 0 else provider.decide(turns[:index])
        recorded = turns[index]
        differs = [field for field in FIELDS if getattr(expected, field) != getattr(recorded, field)]
        if differs:
            return (
                f"dialogue {key} turn {index}: the {name} provider replays {_show(expected)}, the submission "
                f"records {_show(recorded)} ({', '.join(differs)} differ)"
            )
    return None


#: Below this many dialogues the replay stays in this process (starting workers costs more than it saves).
PARALLEL_MIN = 64
#: Most worker processes a replay starts (never more than the machine's CPUs).
MAX_WORKERS = 8

#: One dialogue's replay: (None, None) when it matches, (line, None) at its first disagreement, (None, error) when
#: the provider could not be built (a ClarqError's text).
Outcome = tuple[str | None, str | None]


def _outcome(transcript: Transcript, task: Task, name: str, mode: str, built: dict[str, Any]) -> Outcome:
    try:
        provider = built.get(task.id)
        if provider is None:
            provider = built[task.id] = make_provider(name, task, mode)
        return replay_dialogue(transcript, task, name, mode, provider), None
    except ClarqError as exc:  # e.g. offline-e5 without its extra
        return None, str(exc)


def _replay_chunk(items: list[tuple[Transcript, Task]], name: str, mode: str) -> list[Outcome]:
    """In a worker process: the outcomes of a chunk of dialogues (a task's dialogues share a chunk, so its provider
    is built once)."""
    built: dict[str, Any] = {}
    return [_outcome(transcript, task, name, mode, built) for transcript, task in items]


#: The dialogues of the replays under way in this process, by replay: forked workers find theirs here (inherited)
#: instead of receiving them pickled (~0.5 s of CPU for 260 dialogues, both ends).
_FORKED: dict[int, list[tuple[Transcript, Task | None]]] = {}


def _replay_inherited(replay: int, chunk: list[int], name: str, mode: str) -> list[Outcome]:
    """In a forked worker: `_replay_chunk` of the dialogues at `chunk` of the replay it was forked for."""
    items = _FORKED[replay]
    return _replay_chunk([(items[i][0], items[i][1]) for i in chunk], name, mode)  # type: ignore[misc]


def _load_provider(name: str) -> None:
    """Import the offline provider's modules (about 0.2 s), when `name` is one."""
    try:
        offline = resolve_provider(name, check_import=False).offline
    except ClarqError:
        return
    if offline:
        from ..provider.offline import provider  # noqa: F401


def replay_workers(dialogues: int) -> int:
    """Worker processes for replaying `dialogues` dialogues: none for a few (or when this process should not start
    workers, core/workers.py), else one per CPU (at most MAX_WORKERS); CLARQ_REPLAY_WORKERS=N sets the number (0:
    replay in this process)."""
    chosen = os.environ.get("CLARQ_REPLAY_WORKERS", "").strip()
    if chosen.isdigit():
        return int(chosen)
    if dialogues < PARALLEL_MIN or worker_context() is None:
        return 0
    return min(MAX_WORKERS, os.cpu_count() or 1)


class Replay:
    """A replay of a submission's dialogues, started now and read with `problems(skip)` once the other checks know
    which dialogues they failed.

    With workers, every dialogue is replayed in worker processes while this process goes on with the other checks
    (the replay is pure CPU in the provider: on a machine with several cores the two overlap); the lines are the
    same, in the same order, as replaying one dialogue after another here, which is what happens without workers
    (and then a dialogue in `skip` is not replayed at all)."""

    def __init__(self, transcripts: list[Transcript], tasks: dict[str, Task], manifest: Manifest, workers: int = 0):
        self.name, self.mode = manifest.provider.name, provider_mode(manifest)
        self.items = [(transcript, tasks.get(transcript.task_id)) for transcript in transcripts]
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._futures: list[tuple[list[int], Future[list[Outcome]]]] = []
        if workers > 0:
            self._start(workers)

    def _start(self, workers: int) -> None:
        by_task: dict[str, list[int]] = {}
        known: dict[int, Task] = {}
        for index, (_, task) in enumerate(self.items):
            if task is not None:
                known[index] = task
                by_task.setdefault(task.id, []).append(index)
        groups = list(by_task.values())
        if not groups:
            return
        per_chunk = max(1, -(-len(self.items) // (workers * 4)))  # ~4 chunks a worker: an even finish
        chunks: list[list[int]] = [[]]
        for group in groups:
            if len(chunks[-1]) >= per_chunk:
                chunks.append([])
            chunks[-1].extend(group)
        context = worker_context() or multiprocessing.get_context("spawn")  # spawn when asked for by number
        forked = context.get_start_method() == "fork"
        if forked:  # the provider's code loaded once, here, and the dialogues inherited, not sent
            _load_provider(self.name)
            _FORKED[id(self)] = self.items
        try:
            self._executor = ProcessPoolExecutor(min(workers, len(chunks)), mp_context=context)
            for chunk in chunks:
                if forked:
                    future = self._executor.submit(_replay_inherited, id(self), chunk, self.name, self.mode)
                else:
                    items = [(self.items[i][0], known[i]) for i in chunk]
                    future = self._executor.submit(_replay_chunk, items, self.name, self.mode)
                self._futures.append((chunk, future))
        except (BrokenProcessPool, OSError):
            self.close()
            self._futures = []

    def problems(self, skip: set[str]) -> list[str]:
        """One line per disagreement, dialogues in `skip` (keys other checks already failed) left out."""
        outcomes: dict[int, Outcome] = {}
        try:
            for chunk, future in self._futures:
                outcomes.update(zip(chunk, future.result(), strict=True))
        except (BrokenProcessPool, OSError):  # workers could not start (e.g. a script without a __main__ guard):
            outcomes = {}  # every dialogue is replayed here instead
        finally:
            self.close()
        built: dict[str, Any] = {}
        problems = []
        for index, (transcript, task) in enumerate(self.items):
            key = dialogue_key(transcript.task_id, transcript.trial)
            if key in skip or task is None:
                continue
            line, error = (
                outcomes[index] if index in outcomes else _outcome(transcript, task, self.name, self.mode, built)
            )
            if error is not None:
                return [f"cannot replay the {self.name} provider: {error}"]
            if line:
                problems.append(line)
        return problems

    def close(self, wait: bool = True) -> None:
        """Stop the workers: after the chunk each is on (`wait`), or at once, a replay that will not be read."""
        if self._executor is not None:
            if not wait:
                for process in list(getattr(self._executor, "_processes", {}).values()):
                    process.terminate()
            self._executor.shutdown(wait=wait, cancel_futures=True)
            self._executor = None
        _FORKED.pop(id(self), None)


def replay_all(
    transcripts: list[Transcript], tasks: dict[str, Task], manifest: Manifest, skip: set[str], workers: int = 0
) -> list[str]:
    """Replay every dialogue not in `skip` (keys already failed by other checks); one line per disagreement."""
    return Replay(transcripts, tasks, manifest, workers).problems(skip)
