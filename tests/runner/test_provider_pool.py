"""Offline provider replies decided in worker processes are the replies decided on the run's own loop."""

from __future__ import annotations

import asyncio
from pathlib import Path

from upstream_paths import REPO

from clarq_bench.core.run_config import AgentSettings, RunConfig
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.data.loader import load_tasks
from clarq_bench.provider.registry import resolve_provider
from clarq_bench.runner.batch import run_dialogues
from clarq_bench.runner.provider_pool import ProviderPool, poolable


def _play(run_dir: Path, workers: int, mode: str) -> list:
    tasks = load_tasks(REPO / "tasks", ["en", "zh"])
    config = RunConfig(
        seeker=AgentSettings(name="heuristic"),
        provider=AgentSettings(name="offline", mode=mode),
        concurrency=16,
        progress=False,
    )
    asyncio.run(run_dialogues(config, tasks, run_dir, provider_workers=workers))
    records = sorted(read_transcripts(run_dir / "transcripts.jsonl"), key=lambda r: r.key)
    assert len(records) == len(tasks) > 10 and not any(r.error for r in records)
    return [(r.key, [(t.speaker, t.text, t.revealed, t.kind) for t in r.turns], r.end_reason) for r in records]


def test_pooled_replies_equal_in_process_replies(tmp_path: Path) -> None:
    for mode in ("single", "multi-info"):
        here = _play(tmp_path / f"{mode}-loop", 0, mode)
        assert _play(tmp_path / f"{mode}-pool", 2, mode) == here
        assert any(turn[2] for _, turns, _ in here for turn in turns)  # nodes were revealed: the replies say things


def test_only_the_offline_provider_is_pooled() -> None:
    assert poolable(resolve_provider("offline", None))
    assert not poolable(resolve_provider("offline-e5", None))
    assert not poolable(resolve_provider("gpt-4o", None))


def test_a_worker_answers_for_the_task_it_is_asked_about() -> None:
    tasks = load_tasks(REPO / "tasks", ["en"])
    spec = resolve_provider("offline", None)

    async def replies() -> list:
        pool = ProviderPool(spec, "single", tasks, 1)
        try:
            return [(await pool.open(task)).greeting().text for task in tasks[:2]]
        finally:
            pool.close()

    assert asyncio.run(replies()) == [spec.build(task, "single").greeting().text for task in tasks[:2]]
