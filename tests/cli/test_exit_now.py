"""A command ends with its exit code, its atexit handlers run and its output flushed, without the interpreter's
object-by-object teardown; a thread still running is waited for as by an ordinary exit."""

from __future__ import annotations

import subprocess
import sys


def _exit(body: str) -> subprocess.CompletedProcess[str]:
    code = "import atexit, sys, threading, time\nfrom clarq_bench.cli.main import exit_now\n" + body
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60)


def test_the_code_the_handlers_and_the_buffered_output_survive() -> None:
    done = _exit(
        "atexit.register(lambda: print('handler ran'))\n"
        "class Torn:\n"
        "    def __del__(self):\n"
        "        print('torn down')\n"
        "kept = Torn()\n"
        "print('out', end='')\n"
        "sys.stderr.write('err')\n"
        "exit_now(3)\n"
    )
    assert done.returncode == 3
    assert done.stdout == "outhandler ran\n" and done.stderr == "err"  # (no teardown: `kept` is never finalized)


def test_a_running_thread_is_waited_for() -> None:
    done = _exit(
        "def late():\n"
        "    time.sleep(0.3)\n"
        "    print('thread finished', flush=True)\n"
        "threading.Thread(target=late).start()\n"
        "exit_now(4)\n"
    )
    assert done.returncode == 4 and done.stdout == "thread finished\n"
