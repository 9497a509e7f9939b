"""`clarq runs`, the identical-run warning, `clarq run --dry-run`, and the resume command on Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from upstream_paths import SAMPLE_TASKS

from clarq_bench.api import estimate_run, list_runs
from clarq_bench.cli.main import main
from clarq_bench.data.loader import load_tasks
from clarq_bench.runner.estimate import REPLY_TOKENS

REPO = Path(__file__).resolve().parents[2]
OFFLINE = ["run", "--seeker", "heuristic", "--provider", "offline", "--tasks", str(SAMPLE_TASKS), "--no-progress"]


def test_runs_lists_finished_and_unfinished_with_the_resume_command(tmp_path: Path, capsys) -> None:
    runs = tmp_path / "runs"
    assert main([*OFFLINE, "--lang", "en", "--runs-dir", str(runs)]) == 0
    first = capsys.readouterr()
    assert "warning: an identical run" not in first.err
    folder = next(runs.iterdir())
    assert f"run folder: {folder}" in first.err and f"clarq run --resume {folder}" in first.err
    # the same command again: a second folder, and a warning naming the first one
    assert main([*OFFLINE, "--lang", "en", "--runs-dir", str(runs)]) == 0
    second = capsys.readouterr().err
    assert f"warning: an identical run already exists: {folder} (8/8 dialogues, finished)" in second
    assert f"clarq view {folder}" in second
    # cut the second run short by hand: 3 of its 8 dialogues left
    later = sorted(p for p in runs.iterdir() if p != folder)[0]
    lines = (later / "transcripts.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (later / "transcripts.jsonl").write_text("".join(lines[:3]), encoding="utf-8")
    rows = {Path(row.run_dir).name: row for row in list_runs(runs)}
    assert [rows[folder.name].done, rows[folder.name].total, rows[folder.name].state] == [8, 8, "finished"]
    assert [rows[later.name].done, rows[later.name].total, rows[later.name].state] == [3, 8, "unfinished"]
    assert rows[folder.name].resume_command is None
    assert rows[later.name].resume_command == f"clarq run --resume {later}"
    assert rows[folder.name].seeker == "heuristic" and rows[folder.name].languages == ["en"]
    assert main(["runs", "--dir", str(runs)]) == 0
    out = capsys.readouterr().out
    assert folder.name in out and "8/8" in out and "3/8" in out and "unfinished" in out
    assert f"{later.name}: unfinished; continue with: clarq run --resume {later}" in out
    assert main(["runs", "--dir", str(runs), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [row["state"] for row in payload] == ["finished", "unfinished"]


def test_runs_skips_folders_that_are_not_runs(tmp_path: Path, capsys) -> None:
    (tmp_path / "runs" / "junk").mkdir(parents=True)
    (tmp_path / "runs" / "junk" / "config.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "runs" / "other").mkdir()
    assert list_runs(tmp_path / "runs") == [] and list_runs(tmp_path / "absent") == []
    assert main(["runs", "--dir", str(tmp_path / "runs")]) == 0
    assert "no runs in" in capsys.readouterr().out


def test_dry_run_counts_calls_and_prices_them_without_playing(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # no key needed to estimate
    tasks = load_tasks(SAMPLE_TASKS, ["en"], split="test")
    _config, chosen, plan = estimate_run(
        seeker="gpt-4o",
        tasks=str(SAMPLE_TASKS),
        lang="en",
        max_turns=5,
        trials=2,
        judge_model="gpt-4o-mini",
        runs_dir=str(tmp_path / "runs"),
    )
    assert len(chosen) == len(tasks) == 8 and plan.dialogues == 16
    roles = {row.role: row for row in plan.roles}
    assert roles["seeker"].calls == (16, 16 * 5)  # 1 to max_turns calls per dialogue
    assert roles["provider"].calls == (16, 16 * 2 * 5)  # 1 to 2 per seeker turn
    required = sum(len(t.tree.required) for t in tasks)
    assert roles["judge"].calls == (0, 2 * required)
    low, high = plan.usd
    assert 0 < low < high
    # the low end: each seeker call's tokens priced at gpt-4o-2024-05-13's litellm rates ($5 / $15 per M)
    seeker = roles["seeker"]
    replies = seeker.calls[0] * REPLY_TOKENS["seeker"][0]
    assert seeker.usd[0] == pytest.approx((seeker.tokens[0] - replies) * 5e-6 + replies * 15e-6, rel=1e-6)
    assert not (tmp_path / "runs").exists()  # nothing played, no folder made
    assert (
        main(
            [
                "run",
                "--seeker",
                "gpt-4o",
                "--tasks",
                str(SAMPLE_TASKS),
                "--dry-run",
                "--runs-dir",
                str(tmp_path / "runs"),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "dry run: 8 tasks (en, split test" in out and "gpt-4o-2024-05-13" in out and "total: expected $" in out
    assert not (tmp_path / "runs").exists()


def test_dry_run_of_an_offline_run_says_nothing_to_pay(capsys) -> None:
    assert main([*OFFLINE, "--dry-run"]) == 0
    assert "no model calls: nothing to pay" in capsys.readouterr().out


def test_dry_run_names_unpriced_models(tmp_path: Path, capsys) -> None:
    assert (
        main(
            [
                "run",
                "--seeker",
                "openai/no-such-model-xyz",
                "--provider",
                "offline",
                "--tasks",
                str(SAMPLE_TASKS),
                "--dry-run",
            ]
        )
        == 0
    )
    assert "unknown (no price known)" in capsys.readouterr().out


SLOW_SEEKER = '''
import asyncio

class Slow:
    """Asks one question a turn, slowly, so a test can interrupt the run mid-way."""
    def __init__(self, task, config=None):
        self.count = 0
    async def respond(self, view):
        await asyncio.sleep(0.1)
        self.count += 1
        return "What should I do first?" if self.count < 4 else "Thank you, goodbye."
'''


def test_ctrl_c_prints_the_run_folder_and_resume_command_and_resume_finishes(tmp_path: Path) -> None:
    (tmp_path / "slow_seeker.py").write_text(SLOW_SEEKER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{tmp_path}"}
    runs = tmp_path / "runs"
    command = [
        sys.executable,
        "-m",
        "clarq_bench",
        *OFFLINE,
        "--seeker",
        "slow_seeker:Slow",
        "--lang",
        "all",
        "--concurrency",
        "1",
        "--runs-dir",
        str(runs),
    ]
    proc = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        written = list(runs.glob("*/transcripts.jsonl"))
        if written and written[0].read_bytes().count(b"\n") >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    folder = next(runs.iterdir())
    saved = (folder / "transcripts.jsonl").read_bytes().count(b"\n")
    assert 2 <= saved < 16
    assert f"run folder: {folder}" in err  # printed at the start
    assert err.strip().splitlines()[-1] == (
        f"clarq: interrupted; {saved} dialogues are saved in {folder}; continue with: clarq run --resume {folder}"
    )
    assert "Traceback" not in err
    done = subprocess.run(
        [sys.executable, "-m", "clarq_bench", "run", "--resume", str(folder), "--no-progress"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(rf"{16 - saved}/{16 - saved} dialogues .*\({saved} already done\)", done.stderr)
    assert (folder / "transcripts.jsonl").read_bytes().count(b"\n") == 16
