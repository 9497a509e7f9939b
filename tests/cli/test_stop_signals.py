"""SIGTERM and SIGHUP end any command like Ctrl-C at any point, not only while a run's or a scoring's loop runs:
the loop takes them over and gives back the command's handler (asyncio alone left the default, sudden death)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
import asyncio, os, signal, sys
from clarq_bench.cli.main import stop_like_ctrl_c
from clarq_bench.core.loop import run_to_end

stop_like_ctrl_c()
run_to_end(asyncio.sleep(0))  # a command's loop came and went (scoring's judging, a run)
try:
    os.kill(os.getpid(), getattr(signal, sys.argv[1]))
    import time; time.sleep(5)
except KeyboardInterrupt:
    print("interrupted like ctrl-c")
"""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_stop_signal_after_the_loop_is_still_ctrl_c(name: str) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT, name], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "interrupted like ctrl-c", (done.returncode, done.stderr)
    assert done.returncode != -getattr(signal, name)
