"""Issue 28, real `clarq run` processes: a seeker that swallows CancelledError cannot keep the process alive after
the results are written, one that calls loop.stop() cannot crash the run, and SIGTERM / SIGHUP stop a run the way
Ctrl-C does (what finished is saved, one line with the resume command, exit 130)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SEEKERS = '''
import asyncio


class StubbornSeeker:
    """Ignores every cancellation: its timed-out calls live on."""

    def __init__(self, task, config):
        pass

    async def respond(self, view):
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                pass


class LoopStopper:
    """Stops the event loop under the run's feet, then says goodbye."""

    def __init__(self, task, config):
        pass

    async def respond(self, view):
        asyncio.get_running_loop().stop()
        await asyncio.sleep(0)
        return "Thanks, goodbye!"


class SlowSeeker:
    """Half the tasks end at once, the others ask slowly: a run with dialogues saved and dialogues in flight."""

    def __init__(self, task, config):
        self.quick = task.id.endswith(("/0", "/2"))

    async def respond(self, view):
        await asyncio.sleep(0.05 if self.quick else 0.4)
        return "Thanks, goodbye!" if self.quick else "What should I do next?"
'''


def start(tmp_path: Path, seeker: str, *extra: str) -> subprocess.Popen:
    (tmp_path / "hostile_seekers.py").write_text(SEEKERS, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    argv = [
        sys.executable,
        "-m",
        "clarq_bench.cli.main",
        "run",
        "--seeker",
        f"hostile_seekers:{seeker}",
        "--provider",
        "offline",
        "--tasks",
        str(REPO / "tasks"),
        "--lang",
        "all",
        "--runs-dir",
        str(tmp_path / "runs"),
        "--no-progress",
        *extra,
    ]
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def lines_in(tmp_path: Path) -> int:
    (run_dir,) = (tmp_path / "runs").iterdir()
    return (run_dir / "transcripts.jsonl").read_bytes().count(b"\n")


def test_a_seeker_swallowing_cancellation_cannot_keep_the_process_alive(tmp_path: Path) -> None:
    started = time.perf_counter()
    process = start(tmp_path, "StubbornSeeker", "--turn-timeout", "0.5", "--max-turns", "2")
    try:
        _out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("the run did not exit: it waited for the seeker's abandoned calls")
    assert process.returncode == 1 and "Traceback" not in err, err
    assert lines_in(tmp_path) == 16 and time.perf_counter() - started < 45


def test_a_seeker_stopping_the_loop_does_not_crash_the_run(tmp_path: Path) -> None:
    process = start(tmp_path, "LoopStopper")
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 0 and "Traceback" not in err, err
    assert lines_in(tmp_path) == 16


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_stop_signal_ends_the_run_like_ctrl_c(signum: int, tmp_path: Path) -> None:
    process = start(tmp_path, "SlowSeeker")
    try:
        assert "run folder:" in process.stderr.readline()
        time.sleep(1.5)
        process.send_signal(signum)
        _out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "interrupted;" in err and "continue with: clarq run --resume" in err and "Traceback" not in err
    saved = lines_in(tmp_path)
    assert 0 < saved < 16 and f"{saved} dialogues are saved" in err
