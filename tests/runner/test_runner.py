"""The runner: run directory, concurrency, trials and seeds, resume (incl. after SIGKILL), config changes, budget."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from runner_helpers import make_task, write_task_folder

from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError
from clarq_bench.core.run_config import AgentSettings, RunConfig, describe_diff, diff_configs
from clarq_bench.core.run_folder import RunDir, read_transcripts, repair_tail, tasks_digest
from clarq_bench.core.transcript import EndReason
from clarq_bench.runner.batch import run_dialogues
from clarq_bench.scoring.sources import score_finished_run as score_finished

TESTS = Path(__file__).resolve().parents[1]  # tests/, where the helper modules are
REPO = TESTS.parent


def config(**changes: Any) -> RunConfig:
    fields: dict[str, Any] = {
        "seeker": AgentSettings(name="runner_helpers:ScriptedSeeker", options={"lines": "How?|Which?|And?|More?"}),
        "provider": AgentSettings(name="runner_helpers:TreeWalkingProvider"),
        "concurrency": 4,
        "progress": False,
    }
    fields.update(changes)
    return RunConfig(**fields)


def tasks(count: int = 6) -> list:
    return [make_task(index) for index in range(count)]


async def test_run_writes_config_and_one_line_per_dialogue(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    cfg = config(trials=2)
    stats = await run_dialogues(cfg, tasks(), run_dir)
    assert (stats.done, stats.total, stats.errors, stats.successes) == (12, 12, 0, 12)
    saved = json.loads((run_dir / "config.json").read_text())
    assert saved["run_id"] == "run" and "api_key" not in str(saved)
    assert saved["task_ids"] == [task.id for task in tasks()] and saved["tasks_digest"] == tasks_digest(tasks())
    assert saved["config_hash"] == cfg.model_copy(update={"tasks_digest": tasks_digest(tasks())}).config_hash()
    records = read_transcripts(run_dir / "transcripts.jsonl")
    assert sorted(r.key for r in records) == sorted((f"en/01/{i}", t) for i in range(6) for t in range(2))
    assert {r.seed for r in records if r.trial == 0} == {8848} and {r.seed for r in records if r.trial == 1} == {8849}
    assert records[0].seeker.name == "runner_helpers:ScriptedSeeker"
    assert RunDir(run_dir).state(records, 12) == "scoring unfinished"
    assert (await score_finished(run_dir, tasks(), "none", "test", None)).dialogues == 12
    assert RunDir(run_dir).summary_path.is_file() and RunDir(run_dir).state(records, 12) == "finished"


async def test_resume_runs_only_what_is_missing_and_fresh_run_refuses_old_dir(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    await run_dialogues(config(), tasks(3), run_dir)
    again = await run_dialogues(config(), tasks(5), run_dir, resume=True, force=True)  # tasks changed: forced
    assert (again.skipped, again.done) == (3, 2)
    nothing = await run_dialogues(config(), tasks(5), run_dir, resume=True, force=True)
    assert nothing.done == 0 and nothing.skipped == 5
    assert len(read_transcripts(run_dir / "transcripts.jsonl")) == 5
    with pytest.raises(ClarqError, match="already holds transcripts"):
        await run_dialogues(config(), tasks(3), run_dir)


async def test_resume_refuses_changed_config_naming_fields(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    await run_dialogues(config(), tasks(2), run_dir)
    changed = config(max_turns=5, concurrency=1)  # concurrency is execution-only: not a change
    with pytest.raises(ClarqError) as caught:
        await run_dialogues(changed, tasks(2), run_dir, resume=True)
    assert "max_turns: 12 -> 5" in str(caught.value) and "--force" in str(caught.value)
    assert "concurrency" not in str(caught.value)
    await run_dialogues(changed, tasks(2), run_dir, resume=True, force=True)
    assert json.loads((run_dir / "config.json").read_text())["max_turns"] == 5


def test_config_hash_and_diff() -> None:
    a, b = config(), config(seeker=AgentSettings(name="oracle"), trials=3, concurrency=64)
    assert a.config_hash() == config(concurrency=1, max_cost=5.0).config_hash()
    assert a.config_hash() != b.config_hash()
    changes = diff_configs(a, b)
    assert [key for key, _, _ in changes] == ["trials", "seeker.name", "seeker.options.lines", "seeker.options"]
    assert 'seeker.name: "runner_helpers:ScriptedSeeker" -> "oracle"' in describe_diff(changes)
    assert a.trial_seed(0) != a.trial_seed(1)


def test_partial_last_line_is_cut_and_ignored(tmp_path: Path) -> None:
    path = tmp_path / "transcripts.jsonl"
    path.write_text("")
    assert repair_tail(path) == 0
    whole = asyncio.run(_one_transcript()).model_dump_json() + "\n"
    path.write_text(whole + whole[:40], encoding="utf-8")
    assert len(read_transcripts(path)) == 1
    assert repair_tail(path) == 40 and path.read_text(encoding="utf-8") == whole
    path.write_text(whole[:30], encoding="utf-8")
    assert repair_tail(path) == 30 and path.read_text() == ""


async def _one_transcript() -> Any:
    from runner_helpers import ScriptedSeeker, TreeWalkingProvider

    from clarq_bench.runner.dialogue import play_dialogue

    task = make_task()
    return await play_dialogue(task, ScriptedSeeker(task, AgentSettings(name="x")), TreeWalkingProvider(task))


async def test_concurrency_is_real_and_bounded(tmp_path: Path) -> None:
    cfg = config(
        concurrency=5,
        seeker=AgentSettings(name="runner_helpers:ScriptedSeeker", options={"lines": "a|b", "delay": 0.02}),
    )
    started = time.perf_counter()
    stats = await run_dialogues(cfg, tasks(20), tmp_path / "run")
    elapsed = time.perf_counter() - started
    # each dialogue: 3 seeker turns x 20 ms = 60 ms; 20 of them 5 at a time ~ 0.24 s, sequentially 1.2 s
    assert stats.done == 20 and elapsed < 0.8


async def test_failures_are_recorded_per_dialogue_and_never_stop_the_run(tmp_path: Path) -> None:
    cfg = config(provider=AgentSettings(name="runner_helpers:TreeWalkingProvider", options={"fail_on": 2}))
    stats = await run_dialogues(cfg, tasks(4), tmp_path / "run")
    records = read_transcripts(tmp_path / "run" / "transcripts.jsonl")
    assert stats.errors == 4 and all(r.end_reason == EndReason.error for r in records)
    bad = config(seeker=AgentSettings(name="replay"))  # no --replay file: every build fails, recorded
    stats = await run_dialogues(bad, tasks(2), tmp_path / "run2")
    records = read_transcripts(tmp_path / "run2" / "transcripts.jsonl")
    assert stats.errors == 2 and all("seeker: ClarqError" in (r.error or "") for r in records)


async def test_unknown_seeker_fails_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(ClarqError, match="unknown seeker 'heuristc'"):
        await run_dialogues(config(seeker=AgentSettings(name="heuristc")), tasks(1), tmp_path / "run")
    assert not (tmp_path / "run").exists()


async def test_budget_stops_new_dialogues_cleanly(tmp_path: Path) -> None:
    class Client:
        def __init__(self) -> None:
            self.started = 0

        @property
        def budget_exhausted(self) -> bool:
            self.started += 1
            return self.started > 3  # three polls' worth of budget

    stats = await run_dialogues(config(concurrency=1), tasks(5), tmp_path / "run", client=Client())
    assert stats.stopped_for_budget
    records = read_transcripts(tmp_path / "run" / "transcripts.jsonl")
    assert 0 < len(records) < 5 and not any(r.end_reason == EndReason.error for r in records)
    resumed = await run_dialogues(config(concurrency=1), tasks(5), tmp_path / "run", resume=True)
    assert resumed.done + resumed.skipped == 5


class PollBudget:
    """A client whose budget is spent from the `limit`-th poll on (the runner and the dialogue loop both poll)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.polls = 0

    @property
    def budget_exhausted(self) -> bool:
        self.polls += 1
        return self.polls >= self.limit


async def test_budget_cuts_a_dialogue_in_flight_with_end_reason_budget_and_resume_replays_it(tmp_path: Path) -> None:
    # poll 1: the runner starts dialogue 0; poll 2: its first seeker turn; poll 3: its second -> spent
    stats = await run_dialogues(config(concurrency=1), tasks(3), tmp_path / "run", client=PollBudget(3))
    assert stats.stopped_for_budget and stats.done == 1
    [record] = read_transcripts(tmp_path / "run" / "transcripts.jsonl")
    assert record.end_reason == EndReason.budget and len(record.turns) == 3 and record.error is None
    resumed = await run_dialogues(config(concurrency=1), tasks(3), tmp_path / "run", resume=True)
    records = read_transcripts(tmp_path / "run" / "transcripts.jsonl")
    assert (resumed.done, resumed.skipped) == (3, 0) and not resumed.stopped_for_budget
    assert sorted(r.key for r in records) == [(f"en/01/{i}", 0) for i in range(3)]
    assert all(r.end_reason == EndReason.goodbye for r in records)


def test_cli_max_cost_stops_starting_dialogues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import clarq_bench.runner.prepare as run_progress

    monkeypatch.setattr(run_progress, "open_client", lambda models, options: PollBudget(4))
    data = write_task_folder(tmp_path / "data", 4)
    argv = [
        "run",
        "--tasks",
        str(data),
        "--seeker",
        "heuristic",
        "--provider",
        "runner_helpers:TreeWalkingProvider",
        "--runs-dir",
        str(tmp_path / "runs"),
        "--no-progress",
        "--concurrency",
        "1",
        "--max-cost",
        "0.01",
    ]
    assert main(argv) == 0
    assert "budget reached: stopped starting dialogues" in capsys.readouterr().err
    [run_dir] = list((tmp_path / "runs").iterdir())
    assert 1 <= len(read_transcripts(run_dir / "transcripts.jsonl")) < 4


async def test_resume_keeps_error_records_unless_retry_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_dir, path = tmp_path / "run", tmp_path / "run" / "transcripts.jsonl"
    monkeypatch.setenv("RUNNER_HELPERS_FAIL_TASKS", "1,3")
    first = await run_dialogues(config(), tasks(5), run_dir)
    assert first.errors == 2 and first.done == 5
    kept = await run_dialogues(config(), tasks(5), run_dir, resume=True)  # errors kept, reported, not replayed
    assert (kept.done, kept.skipped, kept.skipped_errors) == (0, 5, 2)
    assert len(read_transcripts(path)) == 5
    still = await run_dialogues(config(), tasks(5), run_dir, resume=True, retry_errors=True)  # still failing
    assert (still.done, still.errors, still.skipped, still.skipped_errors) == (2, 2, 3, 0)
    assert len(read_transcripts(path)) == 5
    monkeypatch.delenv("RUNNER_HELPERS_FAIL_TASKS")
    before = {r.key: r for r in read_transcripts(path) if r.end_reason != EndReason.error}
    fixed = await run_dialogues(config(), tasks(5), run_dir, resume=True, retry_errors=True)
    assert (fixed.done, fixed.errors, fixed.skipped) == (2, 0, 3)
    records = read_transcripts(path)
    assert len(records) == 5 and len({r.key for r in records}) == 5  # replaced, never duplicated
    assert all(r.end_reason == EndReason.goodbye for r in records)
    assert all(before[r.key] == r for r in records if r.key in before)  # finished ones untouched


def test_cli_retry_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_task_folder(tmp_path / "data", 3)
    monkeypatch.setenv("RUNNER_HELPERS_FAIL_TASKS", "0")
    argv = [
        "run",
        "--tasks",
        str(data),
        "--seeker",
        "heuristic",
        "--provider",
        "runner_helpers:TreeWalkingProvider",
        "--runs-dir",
        str(tmp_path / "runs"),
        "--no-progress",
    ]
    assert main(argv) == 1  # written and scored, but a run with an errored dialogue is not a clean result
    [run_dir] = list((tmp_path / "runs").iterdir())
    assert "clarq: 1 dialogues ended with an error (played this session: error 1, goodbye 2)" in capsys.readouterr().err
    monkeypatch.delenv("RUNNER_HELPERS_FAIL_TASKS")
    assert main(["run", "--resume", str(run_dir), "--no-progress"]) == 1
    assert "1 of the dialogues already done ended with an error and were kept" in capsys.readouterr().err
    assert main(["run", "--resume", str(run_dir), "--retry-errors", "--no-progress"]) == 0
    assert "(2 already done)" in capsys.readouterr().err
    records = read_transcripts(run_dir / "transcripts.jsonl")
    assert len(records) == 3 and not any(r.error for r in records)
    assert main(["run", "--tasks", str(data), "--retry-errors", "--provider", "offline"]) == 2
    assert "--retry-errors only applies to a resumed run" in capsys.readouterr().err


def test_default_provider_is_gpt4o_and_a_missing_key_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_task_folder(tmp_path / "data", 2)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    argv = ["run", "--tasks", str(data), "--seeker", "heuristic", "--runs-dir", str(tmp_path / "runs"), "--no-progress"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "provider model gpt-4o needs OPENAI_API_KEY" in err and "--provider offline" in err
    assert not (tmp_path / "runs").exists()  # nothing started
    assert main(argv[:-1] + ["--seeker", "gpt-4o", "--provider", "offline", "--no-progress"]) == 2
    assert "seeker model gpt-4o needs OPENAI_API_KEY" in capsys.readouterr().err
    assert main(argv + ["--provider", "offline", "--judge-model", "gpt-4o"]) == 2
    assert "judge model gpt-4o needs OPENAI_API_KEY" in capsys.readouterr().err
    assert main(argv + ["--provider", "offline"]) == 0


def test_api_base_lets_the_default_provider_run_without_a_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clarq_bench.runner.prepare import check_keys

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    check_keys([("provider", "openai/local-model")], api_base="http://127.0.0.1:9/v1")  # no error: local endpoint
    with pytest.raises(ClarqError, match="provider model gpt-4o needs OPENAI_API_KEY"):
        check_keys([("provider", "gpt-4o")])


def test_cli_run_end_to_end_and_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_task_folder(tmp_path / "data", 4)
    argv = [
        "run",
        "--tasks",
        str(data),
        "--seeker",
        "heuristic",
        "--provider",
        "runner_helpers:TreeWalkingProvider",
        "--runs-dir",
        str(tmp_path / "runs"),
        "--no-progress",
    ]
    assert main(argv) == 0
    [run_dir] = list((tmp_path / "runs").iterdir())
    assert len(read_transcripts(run_dir / "transcripts.jsonl")) == 4
    assert (run_dir / "summary.json").is_file()
    assert main(["run", "--resume", str(run_dir), "--no-progress"]) == 0
    assert "(4 already done)" in capsys.readouterr().err
    assert main(["run", "--resume", str(run_dir), "--max-turns", "3"]) == 2
    assert "max_turns: 12 -> 3" in capsys.readouterr().err
    assert main(["run", "--tasks", str(data), "--seeker", "nope", "--runs-dir", str(tmp_path / "r2")]) == 2
    assert "unknown seeker 'nope'" in capsys.readouterr().err


def test_sigkill_mid_run_then_resume_loses_nothing_and_repeats_nothing(tmp_path: Path) -> None:
    data = write_task_folder(tmp_path / "data", 24)
    run_dir = tmp_path / "runs" / "killed"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    base = [
        sys.executable,
        "-m",
        "clarq_bench",
        "run",
        "--tasks",
        str(data),
        "--no-progress",
        "--concurrency",
        "3",
        "--seeker",
        "runner_helpers:SlowSeeker",
        "--seeker-option",
        "delay=0.04",
        "--provider",
        "runner_helpers:TreeWalkingProvider",
    ]
    # a fixed run dir through --resume needs a config first: start fresh into runs/, then find the folder
    process = subprocess.Popen(
        [*base, "--runs-dir", str(tmp_path / "runs")],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 20
    written: list[Path] = []
    while time.monotonic() < deadline:
        written = list((tmp_path / "runs").glob("*/transcripts.jsonl"))
        if written and len(written[0].read_bytes().splitlines()) >= 4:
            break
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert written, process.stderr.read().decode() if process.stderr else "no run started"
    run_dir = written[0].parent
    before = {r.key for r in read_transcripts(run_dir / "transcripts.jsonl")}
    assert 4 <= len(before) < 24, "the kill came too late to test anything"
    finished = subprocess.run([*base, "--resume", str(run_dir)], cwd=REPO, env=env, capture_output=True, timeout=60)
    assert finished.returncode == 0, finished.stderr.decode()
    keys = [r.key for r in read_transcripts(run_dir / "transcripts.jsonl")]
    assert len(keys) == len(set(keys)) == 24
    assert before <= set(keys)
    assert f"({len(before)} already done)" in finished.stderr.decode()


def test_collector_thresholds_are_raised_during_a_run_and_restored():
    import gc

    from clarq_bench.runner.batch import fewer_collections

    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold() == (100_000, 50, 1_000)
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError("a run that crashes still restores the collector")
    assert gc.get_threshold() == before
