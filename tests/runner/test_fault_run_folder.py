"""Issue 28, the run folder under faults, with real processes: one writer at a time (two resumes racing, a lock left
by kill -9, a lock held by another process); duplicate and out-of-range records refused on resume and in scoring;
--max-cost capping the total over resumes; the printed resume command calling the same endpoint with the same
cache, and --force never moving calls silently; a full disk, a read-only runs folder and a transcripts.jsonl that is
a folder each one line with exit 2, with no partial line and no config.tmp left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clarq_bench.cli.main import main
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.testing.fake_openai import FakeOpenAIServer

REPO = Path(__file__).resolve().parents[2]
TASKS = str(REPO / "tasks")

SLOW_SEEKER = """
import asyncio


class SlowSeeker:
    def __init__(self, task, config):
        pass

    async def respond(self, view):
        await asyncio.sleep(0.3)
        return "Thanks, goodbye!" if len(view.turns) > 4 else "What should I do next?"
"""


@pytest.fixture
def env(tmp_path: Path) -> dict:
    (tmp_path / "slow_seekers.py").write_text(SLOW_SEEKER, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE"):
        environment.pop(name, None)
    return environment


def clarq(*argv: str) -> list[str]:
    return [sys.executable, "-m", "clarq_bench.cli.main", *argv]


def new_run(tmp_path: Path, *extra: str) -> list[str]:
    return clarq(
        "run",
        "--seeker",
        "slow_seekers:SlowSeeker",
        "--provider",
        "offline",
        "--tasks",
        TASKS,
        "--lang",
        "all",
        "--runs-dir",
        str(tmp_path / "runs"),
        "--no-progress",
        *extra,
    )


def start_then_kill(argv: list[str], env: dict, tmp_path: Path, lines: int = 1) -> Path:
    """Start a run, kill -9 it once `lines` dialogues are written; its folder."""
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    first = process.stderr.readline()
    run_dir = Path(first.split("run folder: ", 1)[1].split("  (", 1)[0].strip())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and count(run_dir) < lines:
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    return run_dir


def count(run_dir: Path) -> int:
    path = run_dir / "transcripts.jsonl"
    return path.read_bytes().count(b"\n") if path.is_file() else 0


# ---- (1) one writer ------------------------------------------------------------------------------------------------


def test_two_resumes_racing_play_each_dialogue_once(tmp_path: Path, env: dict) -> None:
    run_dir = start_then_kill(new_run(tmp_path), env, tmp_path)  # leaves run.lock naming a dead pid
    racers = [
        subprocess.Popen(
            clarq("run", "--resume", str(run_dir), "--concurrency", "4", "--no-progress"),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = [(racer.wait(120), racer.stderr.read()) for racer in racers]
    codes = sorted(code for code, _ in results)
    assert codes == [0, 2], results
    refused = next(err for code, err in results if code == 2)
    assert len(refused.strip().splitlines()) == 1 and "another clarq process (pid " in refused
    records = read_transcripts(run_dir / "transcripts.jsonl")
    keys = [r.key for r in records]
    assert len(keys) == len(set(keys)) == 16  # was: 392 records for 260 tasks


def test_a_lock_held_by_another_process_is_named(tmp_path: Path, env: dict) -> None:
    run_dir = start_then_kill(new_run(tmp_path), env, tmp_path)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys\nfd = os.open(sys.argv[1], os.O_RDWR)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('held', flush=True)\nsys.stdin.read()",
            str(run_dir / "run.lock"),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        before = count(run_dir)
        done = subprocess.run(
            clarq("run", "--resume", str(run_dir), "--no-progress"), env=env, capture_output=True, text=True, timeout=60
        )
    finally:
        holder.stdin.close()
        holder.wait(10)
    assert done.returncode == 2 and "being played by another clarq process" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and count(run_dir) == before


@pytest.fixture
def finished_run(tmp_path: Path, the_run) -> Path:
    assert (
        main(
            [
                "run",
                "--seeker",
                "heuristic",
                "--provider",
                "offline",
                "--tasks",
                TASKS,
                "--runs-dir",
                str(tmp_path / "runs"),
                "--no-progress",
            ]
        )
        == 0
    )
    run_dir = the_run()
    return run_dir


@pytest.mark.parametrize("damage", ["duplicate", "trial"])
def test_duplicate_and_out_of_range_records_are_refused_on_resume_and_in_scoring(damage, finished_run, capsys):
    path = finished_run / "transcripts.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    if damage == "duplicate":
        lines.append(lines[2])
    else:
        record = json.loads(lines[3])
        record["trial"] = 5
        lines[3] = json.dumps(record) + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    capsys.readouterr()
    assert main(["run", "--resume", str(finished_run), "--no-progress"]) == 2
    assert main(["score", str(finished_run)]) == 2
    err = capsys.readouterr().err
    words = "repeats dialogue" if damage == "duplicate" else "outside the run's"
    assert err.count(words) == 2 and "Traceback" not in err


# ---- (2) the budget over resumes -----------------------------------------------------------------------------------


def test_max_cost_caps_the_total_over_resumes(tmp_path: Path, keyed_openai, the_run, capsys) -> None:
    from clarq_bench.llm.accounting import call_cost
    from clarq_bench.llm.models import resolve_model

    model = resolve_model("gpt-4o-mini")
    server = keyed_openai
    argv = [
        "run",
        "--seeker",
        "gpt-4o-mini",
        "--provider",
        "offline",
        "--api-base",
        server.base_url,
        "--tasks",
        TASKS,
        "--lang",
        "all",
        "--concurrency",
        "1",
        "--max-turns",
        "3",
        "--max-cost",
        "0.002",
        "--no-cache",
        "--runs-dir",
        str(tmp_path / "runs"),
        "--no-progress",
    ]
    main(argv)
    run_dir = the_run()
    first = server.hits
    for _ in range(2):
        main(["run", "--resume", str(run_dir), "--no-progress"])
    bodies = server.requests
    assert first > 0 and len(bodies) == first  # the resumes started nothing: the budget was already spent
    ledger = json.loads((run_dir / "spending.json").read_text())["spent_usd"]
    records = read_transcripts(run_dir / "transcripts.jsonl")
    assert ledger == pytest.approx(sum(u.cost_usd for r in records for u in r.usage.values()))
    one_call = max(u.cost_usd / max(u.calls, 1) for r in records for u in r.usage.values() if u.calls)
    assert 0.002 <= ledger <= 0.002 + 3 * one_call  # at most the turns of the dialogue in flight go over
    assert call_cost(model, 1000, 1000) > 0


# ---- (3) the resume command calls where the run called -------------------------------------------------------------


def test_the_printed_resume_command_keeps_endpoint_and_cache(tmp_path: Path, env: dict) -> None:
    env = {**env, "OPENAI_API_KEY": "sk-resume-test-0123456789"}
    cache = tmp_path / "cache.sqlite"
    with FakeOpenAIServer(latency_s=0.05) as server:
        argv = clarq(
            "run",
            "--seeker",
            "openai/fake-seeker",
            "--provider",
            "offline",
            "--api-base",
            server.base_url,
            "--cache",
            str(cache),
            "--tasks",
            TASKS,
            "--lang",
            "all",
            "--max-turns",
            "4",
            "--concurrency",
            "2",
            "--runs-dir",
            str(tmp_path / "runs"),
            "--no-progress",
        )
        process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        line = process.stderr.readline()
        command = line.split("continue with: ", 1)[1].rstrip(")\n").split()
        run_dir = Path(command[-1])
        while count(run_dir) < 3:
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        paid = {json.dumps(b, sort_keys=True) for b in server.requests}
        done = subprocess.run(
            [sys.executable, "-m", "clarq_bench.cli.main", *command[1:], "--no-progress"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        again = [json.dumps(b, sort_keys=True) for b in server.requests[len(paid) :]]
    assert command[:3] == ["clarq", "run", "--resume"]
    assert done.returncode == 0, done.stderr
    assert count(run_dir) == 16
    repaid = sum(body in paid for body in again)
    assert repaid <= 2  # only the calls in flight at the kill (concurrency 2); was: every call again, or none at all
    config = json.loads((run_dir / "config.json").read_text())
    assert config["cache_path"] == str(cache.resolve()) and config["api_base"] == server.base_url


def test_force_does_not_move_calls_to_the_default_endpoint(tmp_path: Path, keyed_openai, capsys) -> None:
    server = keyed_openai
    base = [
        "--seeker",
        "openai/fake-seeker",
        "--provider",
        "offline",
        "--tasks",
        TASKS,
        "--no-progress",
        "--no-cache",
        "--max-turns",
        "2",
    ]
    assert main(["run", *base, "--api-base", server.base_url, "--limit", "2", "--runs-dir", str(tmp_path)]) == 0
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    hits = server.hits
    code = main(["run", "--resume", str(run_dir), "--trials", "2", "--force", "--no-progress"])
    assert code == 0 and server.hits > hits  # the new trials were played at the run's own endpoint
    assert "resumed with a changed config (--force): trials" in capsys.readouterr().err


# ---- (9) file errors -----------------------------------------------------------------------------------------------


@pytest.fixture
def mount(tmp_path: Path):
    """mount(size, read_only) -> a fresh tmpfs folder, where the platform lets us mount one."""
    mounted: list[Path] = []

    def make(size: str = "64k", read_only: bool = False) -> Path:
        point = tmp_path / f"mnt{len(mounted)}"
        point.mkdir()
        options = f"size={size}" + (",ro" if read_only else "")
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
        mounted.append(point)
        return point

    yield make
    for point in mounted:
        subprocess.run(["umount", "-l", str(point)], check=False)


def heuristic_run(runs: Path, *extra: str) -> list[str]:
    return [
        "run",
        "--seeker",
        "heuristic",
        "--provider",
        "offline",
        "--tasks",
        TASKS,
        "--lang",
        "all",
        "--runs-dir",
        str(runs),
        "--no-progress",
        *extra,
    ]


def test_a_disk_that_fills_during_the_run_is_one_line_and_no_partial_line(mount, capsys) -> None:
    runs = mount("48k")
    code = main(heuristic_run(runs))
    err = capsys.readouterr().err
    assert code == 2 and "No space left on device" in err and "Traceback" not in err
    (run_dir,) = runs.iterdir()
    data = (run_dir / "transcripts.jsonl").read_bytes()
    assert data and data.endswith(b"\n") and len(read_transcripts(run_dir / "transcripts.jsonl")) < 16
    assert not any(path.name.endswith(".tmp") for path in run_dir.iterdir())


def test_a_full_disk_at_start_leaves_no_empty_config_tmp(mount, capsys) -> None:
    runs = mount("16k")
    try:
        with open(runs / "filler", "wb") as handle:
            handle.write(b"\0" * 64 * 1024)
    except OSError:
        pass
    code = main(heuristic_run(runs))
    captured = capsys.readouterr()
    err = captured.err
    assert code == 2 and err.count("clarq: error:") == 1 and "No space left" in err and "Traceback" not in err
    assert not list(runs.rglob("*.tmp"))
    # the error is the one line: no "run folder: ... continue with: clarq run --resume" for a folder with no config
    assert len(err.strip().splitlines()) == 1 and "run folder:" not in captured.out + err


def test_a_disk_that_fills_before_scoring_is_one_line_and_no_partial_report(mount, capsys) -> None:
    runs = mount("1m")
    assert main(heuristic_run(runs, "--limit", "2", "--lang", "en")) == 0
    (run_dir,) = runs.iterdir()
    for name in ("summary.json", "report.md", "success_by_required.png", "success_by_type.png"):
        (run_dir / name).unlink()
    try:  # leave a few kB: less than the plots and the summary need
        with open(runs / "filler", "wb") as handle:
            handle.write(b"\0" * (os.statvfs(runs).f_bavail * os.statvfs(runs).f_frsize - 6 * 1024))
    except OSError:
        pass
    capsys.readouterr()
    code = main(["score", str(run_dir)])
    err = capsys.readouterr().err
    assert code == 2 and "No space left" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not list(run_dir.glob("*.tmp")) and not (run_dir / "summary.json").exists()
    for image in run_dir.glob("*.png"):  # a plot is whole or absent
        assert image.read_bytes().endswith(b"IEND\xaeB`\x82"), image
    assert len(read_transcripts(run_dir / "transcripts.jsonl")) == 2


def test_a_read_only_runs_folder_is_one_line(mount, capsys) -> None:
    runs = mount("1m", read_only=True)
    code = main(heuristic_run(runs / "runs"))
    err = capsys.readouterr().err
    assert code == 2 and "Read-only file system" in err and len(err.strip().splitlines()) == 1
    assert "run folder:" not in err


def test_transcripts_being_a_folder_is_one_line(finished_run: Path, capsys) -> None:
    (finished_run / "transcripts.jsonl").rename(finished_run / "kept.jsonl")
    (finished_run / "transcripts.jsonl").mkdir()
    capsys.readouterr()
    assert main(["run", "--resume", str(finished_run), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "folder" in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
