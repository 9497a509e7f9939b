"""Issue 28, hostile submissions: records are counted before any is built (a 120 MB file of 40 million empty records
is refused quickly, in bounded memory, by a real `clarq leaderboard verify` process), and every figure is checked
whatever token unit the bundle claims (a re-sealed bundle naming another unit no longer skips the AQL-token check)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from leaderboard_runs import edit_submission, sample_tasks
from upstream_paths import SAMPLE_TASKS

from clarq_bench.core.errors import ClarqError
from clarq_bench.core.run_config import AgentSettings, RunConfig
from clarq_bench.leaderboard import build_submission, verify_file, write_submission
from clarq_bench.leaderboard.bundle import MAX_RECORDS, read_submission
from clarq_bench.runner.batch import run_dialogues
from clarq_bench.scoring.lengths import FALLBACK_UNIT, token_counter

DATA = str(SAMPLE_TASKS)
TESTS = Path(__file__).resolve().parents[1]  # tests/, where the helper modules are


@pytest.fixture(autouse=True)
def helpers_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS))


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run_dir = tmp_path_factory.mktemp("units") / "run"
    config = RunConfig(
        data_dir=DATA,
        languages=["en", "zh"],
        seeker=AgentSettings(name="heuristic"),
        provider=AgentSettings(name="offline"),
        progress=False,
    )
    asyncio.run(run_dialogues(config, sample_tasks(), run_dir))
    return write_submission(build_submission(run_dir), run_dir.parent / "honest.json")


PEAK = """
import resource, subprocess, sys, time
def cap():  # a regression must fail here, not take the shared machine's memory (it used to reach 10.9 GB)
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
started = time.perf_counter()
try:
    done = subprocess.run(sys.argv[1:], capture_output=True, text=True, preexec_fn=cap, timeout=120)
except subprocess.TimeoutExpired:
    print(-1, 999, 0); sys.exit()
print(done.returncode, round(time.perf_counter() - started, 2),
      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, flush=True)
print(done.stderr[-2000:] + done.stdout[-2000:])
"""


def test_forty_million_empty_records_are_refused_quickly_in_bounded_memory(honest: Path, tmp_path: Path) -> None:
    manifest = json.loads(honest.read_text(encoding="utf-8"))["manifest"]
    bomb = tmp_path / "bomb.json"
    with open(bomb, "w", encoding="utf-8") as handle:
        handle.write('{"manifest": ' + json.dumps(manifest) + ', "verdicts": [], "transcripts": [')
        block = "{}," * 1_000_000
        for _ in range(40):
            handle.write(block)
        handle.write("{}]}")
    assert bomb.stat().st_size > 120_000_000
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PEAK,
            sys.executable,
            "-m",
            "clarq_bench.cli.main",
            "leaderboard",
            "verify",
            str(bomb),
            "--data",
            DATA,
        ],
        capture_output=True,
        text=True,
        timeout=200,
    )
    code, seconds, peak_mb = done.stdout.split("\n", 1)[0].split()
    assert int(code) != 0 and "40,000," in done.stdout and "limit" in done.stdout, done.stdout
    assert float(seconds) < 30 and int(peak_mb) < 700, (seconds, peak_mb)  # was: 10.9 GB and an abort


def test_a_jsonl_member_is_counted_before_it_is_split(honest: Path, tmp_path: Path) -> None:
    payload = json.loads(honest.read_text(encoding="utf-8"))
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("manifest.json", json.dumps(payload["manifest"]))
        archive.writestr("transcripts.jsonl", "{}\n" * (MAX_RECORDS + 1))
        archive.writestr("verdicts.jsonl", "")
    with pytest.raises(ClarqError, match="limit"):
        read_submission(bomb)


def test_a_single_json_with_more_records_than_allowed_is_refused_before_validation(honest: Path, tmp_path) -> None:
    def pad(payload: dict) -> None:
        payload["verdicts"] = payload["verdicts"] + [1] * MAX_RECORDS

    with pytest.raises(ClarqError, match="verdicts holds"):
        read_submission(edit_submission(honest, tmp_path, pad, reseal=False))


def test_a_honest_submission_still_reads_and_verifies(honest: Path) -> None:
    _sub, outcome = verify_file(honest, DATA)
    assert outcome.ok, outcome.problems


def _claim_unit(unit: str, aql: float):
    def edit(payload: dict) -> None:
        summary = payload["manifest"]["metrics"]["summary"]
        summary["token_unit"] = unit
        summary["aql_tokens"]["value"] = aql
        summary["aql_tokens"]["low"], summary["aql_tokens"]["high"] = -5.0, 0.0
        for verdict in payload["verdicts"]:
            verdict["token_unit"] = unit

    return edit


@pytest.mark.parametrize("unit", [FALLBACK_UNIT, "bytes-per-fortnight"])
def test_a_resealed_bundle_naming_another_unit_is_still_checked(unit: str, honest: Path, tmp_path: Path) -> None:
    if unit == token_counter().unit:
        pytest.skip("this machine counts in the fallback unit: the case is the ordinary one")
    problems = verify_file(edit_submission(honest, tmp_path, _claim_unit(unit, -1.0)), DATA)[1].problems
    assert any("aql_tokens" in line or "unit" in line for line in problems), problems


def test_a_bundle_honestly_recorded_in_the_fallback_unit_verifies(honest: Path, tmp_path: Path) -> None:
    """Counted in the unit it claims, an honest figure in the other unit agrees (the unit is checked, not trusted)."""
    from clarq_bench.leaderboard.figures import compute_metrics
    from clarq_bench.scoring.judge import judge_deterministic
    from clarq_bench.scoring.lengths import counter_for, counting_in

    payload = json.loads(honest.read_text(encoding="utf-8"))
    tasks = {task.id: task for task in sample_tasks()}
    from clarq_bench.core.transcript import Transcript

    transcripts = [Transcript.model_validate(t) for t in payload["transcripts"]]
    with counting_in(counter_for(FALLBACK_UNIT)):
        verdicts = [judge_deterministic(t, tasks[t.task_id]) for t in transcripts]
        metrics = compute_metrics(transcripts, verdicts)

    def honest_fallback(p: dict) -> None:
        p["manifest"]["metrics"] = json.loads(json.dumps(metrics))
        p["verdicts"] = [json.loads(v.model_dump_json()) for v in verdicts]

    outcome = verify_file(edit_submission(honest, tmp_path, honest_fallback), DATA)[1]
    assert outcome.ok, outcome.problems
