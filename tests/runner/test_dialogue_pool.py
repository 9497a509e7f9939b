"""Whole dialogues played in forked workers are the dialogues the run's own loop plays, and anything that goes wrong
there is played again in the run's process."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from upstream_paths import REPO

from clarq_bench.core.run_config import AgentSettings, RunConfig
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.core.transcript import AgentInfo
from clarq_bench.data.loader import load_tasks
from clarq_bench.runner import dialogue_pool
from clarq_bench.runner.batch import build_provider, play_run
from clarq_bench.runner.dialogue_pool import DialoguePool, dialogue_workers, open_pool
from clarq_bench.runner.prepared import PreparedRun, ready
from clarq_bench.seekers.baselines import HeuristicSeeker
from clarq_bench.seekers.registry import resolve_seeker


def played_in_one_thread(request: pytest.FixtureRequest) -> bool:
    """Workers fork only from a process of one thread (core/workers.py). Where earlier tests left threads in this
    process, the test runs again in a fresh one (and its outcome is that run's); False: run it here."""
    if threading.active_count() == 1:
        return False
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", request.node.nodeid],
        cwd=request.config.rootpath,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    return True


def _run(run_dir: Path, seeker: str = "heuristic", mode: str = "single") -> PreparedRun:
    tasks = load_tasks(REPO / "tasks", ["en", "zh"])
    config = RunConfig(
        seeker=AgentSettings(name=seeker),
        provider=AgentSettings(name="offline", mode=mode),
        concurrency=16,
        progress=False,
    )
    return ready(config, tasks, None, run_dir)


def _played(run: PreparedRun, workers: int) -> list[Any]:
    pool = DialoguePool(run, workers, build_provider) if workers else None
    try:
        stats = asyncio.run(play_run(run, dialogue_pool=pool))
    finally:
        if pool is not None:
            pool.close()
    assert stats.done == len(run.tasks) > 10
    records = sorted(read_transcripts(run.run_dir / "transcripts.jsonl"), key=lambda r: r.key)
    return [r.model_dump(exclude={"started_at", "finished_at"}) | {"turns": _turns(r)} for r in records]


def _turns(record: Any) -> list[Any]:
    return [turn.model_dump(exclude={"latency_s"}) for turn in record.turns]


def test_pooled_dialogues_equal_in_process_dialogues(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if played_in_one_thread(request):
        return
    for mode in ("single", "multi-info"):
        here = _played(_run(tmp_path / f"{mode}-loop", mode=mode), 0)
        assert _played(_run(tmp_path / f"{mode}-pool", mode=mode), 2) == here
        assert not any(record["error"] for record in here)


def test_a_dialogue_that_fails_in_a_worker_is_played_again_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    if played_in_one_thread(request):
        return
    respond = HeuristicSeeker.respond
    failing = "en/01/0"

    async def fails_once_asked(self: Any, view: Any) -> str:
        if view.task_id == failing and len(view.turns) > 2:
            raise RuntimeError(f"seeker broke in process {'here' if os.getpid() == parent else 'a worker'}")
        return await respond(self, view)

    parent = os.getpid()
    monkeypatch.setattr(HeuristicSeeker, "respond", fails_once_asked)  # (the workers fork with it)
    pooled = {(r["task_id"], r["trial"]): r for r in _played(_run(tmp_path / "p"), 2)}
    broken = pooled[(failing, 0)]
    assert broken["end_reason"] == "error" and broken["error"] == "seeker: RuntimeError: seeker broke in process here"
    assert sum(record["end_reason"] == "error" for record in pooled.values()) == 1


def test_a_killed_worker_leaves_the_dialogues_to_this_process(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if played_in_one_thread(request):
        return
    run = _run(tmp_path / "k")
    pool = DialoguePool(run, 1, build_provider)
    try:
        for process in list(pool._executor._processes.values()):  # type: ignore[union-attr]
            os.kill(process.pid, signal.SIGKILL)
            process.join()
        info = AgentInfo(name="heuristic")
        assert asyncio.run(pool.play(run.tasks[0].id, 0, 1, info, info)) is None
    finally:
        pool.close()
    assert asyncio.run(pool.play(run.tasks[0].id, 0, 1, info, info)) is None  # closed: played here too


def test_workers_only_where_both_sides_call_no_model_and_fork_is_safe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    if played_in_one_thread(request):
        return
    monkeypatch.delenv(dialogue_pool.ENV_WORKERS, raising=False)
    run = _run(tmp_path / "w")
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    assert dialogue_workers(run, 260) == 4
    assert dialogue_workers(run, dialogue_pool.PARALLEL_MIN - 1) == 0  # too few to be worth starting them
    assert dialogue_workers(run._replace(client=object()), 260) == 0  # a model is called
    plug_in = run.seeker._replace(factory=type("Plugin", (), {"__module__": "my_seekers"}))
    assert dialogue_workers(run._replace(seeker=plug_in), 260) == 0  # may keep state between dialogues
    for person in ("human", "human-web"):  # a person answers at this process's terminal or page
        assert dialogue_workers(run._replace(seeker=resolve_seeker(person)), 260) == 0
    one_at_a_time = run.config.model_copy(update={"concurrency": 1})
    assert dialogue_workers(run._replace(config=one_at_a_time), 260) == 0
    monkeypatch.setenv(dialogue_pool.ENV_WORKERS, "0")
    assert dialogue_workers(run, 260) == 0 and open_pool(run, build_provider) is None
    monkeypatch.setenv(dialogue_pool.ENV_WORKERS, "3")
    assert dialogue_workers(run, 5) == 3
    assert open_pool(run, build_provider, provider_workers=2) is None  # the provider pool was asked for instead
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    monkeypatch.delenv(dialogue_pool.ENV_WORKERS)
    assert dialogue_workers(run, 260) == 0
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    ready_to_fork = threading.Event()
    other = threading.Thread(target=ready_to_fork.wait)
    other.start()
    try:
        assert dialogue_workers(run, 260) == 0  # a second thread: no fork (core/workers.py)
    finally:
        ready_to_fork.set()
        other.join()


def test_a_run_through_the_api_plays_in_workers_and_leaves_no_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    if played_in_one_thread(request):
        return
    import clarq_bench as clarq

    opened: list[Any] = []
    real = dialogue_pool.DialoguePool

    def counted(*args: Any) -> Any:
        opened.append(real(*args))
        return opened[-1]

    monkeypatch.setattr(dialogue_pool, "DialoguePool", counted)
    monkeypatch.setenv(dialogue_pool.ENV_WORKERS, "2")
    threads = threading.active_count()
    result = clarq.run(seeker="heuristic", provider="offline", tasks=REPO / "tasks", lang="en", runs_dir=tmp_path)
    assert len(opened) == 1 and opened[0]._executor is None  # opened, used and closed
    assert result.stats.done == result.summary.dialogues > 5 and threading.active_count() == threads


def test_the_workers_inherit_the_offline_provider_loaded_before_the_fork(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from test_dialogue_pool import _run\n"
        "from clarq_bench.runner.batch import build_provider\n"
        "from clarq_bench.runner.dialogue_pool import DialoguePool\n"
        "name = 'clarq_bench.provider.offline.provider'\n"
        "assert name not in sys.modules, 'loaded already'\n"
        f"pool = DialoguePool(_run(Path({str(tmp_path)!r})), 1, build_provider)\n"
        "assert name in sys.modules, 'not loaded before the fork'\n"
        "pool.close()\n"
    )
    here = Path(__file__).resolve().parent
    path = os.pathsep.join([str(here), str(here.parent), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert done.returncode == 0, done.stderr
