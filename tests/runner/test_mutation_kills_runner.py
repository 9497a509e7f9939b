"""Runner bugs a mutation audit slipped past the suite: resume keyed on the task id alone (trials 1+ of a
`--trials 3` run silently dropped on resume) and the concurrency limit removed (a fast run proves parallelism, not
the bound). Each test fails on that one-line bug and passes on the real code."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from runner_helpers import make_task
from test_runner import config

from clarq_bench.core.run_config import AgentSettings
from clarq_bench.core.run_folder import read_transcripts, rewrite_transcripts
from clarq_bench.runner.batch import run_dialogues


async def test_resume_with_three_trials_plays_exactly_the_missing_task_trial_pairs(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    tasks = [make_task(index) for index in range(3)]
    first = await run_dialogues(config(trials=3), tasks, run_dir)
    assert first.done == 9
    path = run_dir / "transcripts.jsonl"
    records = read_transcripts(path)
    # lose trials 1 and 2 of task 0 and trial 2 of task 1; trial 0 of every task stays
    lost = {("en/01/0", 1), ("en/01/0", 2), ("en/01/1", 2)}
    rewrite_transcripts(path, [r for r in records if r.key not in lost])
    resumed = await run_dialogues(config(trials=3), tasks, run_dir, resume=True)
    assert (resumed.done, resumed.skipped, resumed.total) == (3, 6, 9)
    after = read_transcripts(path)
    assert sorted(r.key for r in after) == sorted((f"en/01/{i}", t) for i in range(3) for t in range(3))
    assert {(r.key, r.seed) for r in after if r.key in lost} == {(k, config().trial_seed(k[1])) for k in lost}


class CountingSeeker:
    """Counts how many dialogues are in flight at once (class-level, one run at a time)."""

    inside = 0
    most = 0

    def __init__(self, task: Any, settings: Any) -> None:
        self.asked = 0

    async def respond(self, view: Any) -> str:
        cls = CountingSeeker
        cls.inside += 1
        cls.most = max(cls.most, cls.inside)
        try:
            await asyncio.sleep(0.01)
        finally:
            cls.inside -= 1
        self.asked += 1
        return "Which mine?" if self.asked < 3 else "Thanks. Goodbye!"


async def test_concurrency_limit_is_never_exceeded_and_is_reached(tmp_path: Path) -> None:
    CountingSeeker.inside = CountingSeeker.most = 0
    cfg = config(concurrency=3, seeker=AgentSettings(name="test_mutation_kills_runner:CountingSeeker"))
    stats = await run_dialogues(cfg, [make_task(index) for index in range(12)], tmp_path / "run")
    assert stats.done == 12
    assert CountingSeeker.most == 3  # bounded by the limit, and the limit is really used


async def test_an_unknown_provider_stops_the_library_run_before_anything_is_written(tmp_path: Path) -> None:
    import pytest

    from clarq_bench.core.errors import ClarqError

    with pytest.raises(ClarqError, match="unknown provider 'gtp-4o'"):
        await run_dialogues(config(provider=AgentSettings(name="gtp-4o")), [make_task()], tmp_path / "run")
    assert not (tmp_path / "run" / "transcripts.jsonl").exists()
