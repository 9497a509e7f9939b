"""The ledger follows every paid call, in real `clarq run` processes against the fake server with gpt-4o's prices:
after kill -9, spending.json holds the endpoint's bill within one call per dialogue in flight; a disk that fills
mid-run stops new calls at once, and the resume re-pays no call the first session paid."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from clarq_bench.llm.accounting import call_cost
from clarq_bench.llm.models import resolve_model
from clarq_bench.testing.fake_openai import FakeOpenAIServer, estimate_tokens

REPO = Path(__file__).resolve().parents[2]
REPLY = "Could you tell me which step comes first, and what I need for it? " * 6
CONCURRENCY = 8


class Bill:
    """What the endpoint computed (and so bills), delivered or not, and the prompts it was asked."""

    def __init__(self) -> None:
        self.usd, self.calls, self.largest = 0.0, 0, 0.0
        self.prompts: list[str] = []
        self._lock = threading.Lock()
        self._resolved = resolve_model("gpt-4o")

    def __call__(self, body: dict, kind: str, delivered: bool, asked_at: float) -> None:
        if kind != "reply":
            return
        prompt = "".join(str(m.get("content", "")) for m in body.get("messages", []))
        cost = call_cost(self._resolved, estimate_tokens(prompt), estimate_tokens(REPLY))
        with self._lock:
            self.usd, self.calls, self.largest = self.usd + cost, self.calls + 1, max(self.largest, cost)
            self.prompts.append(json.dumps(body, sort_keys=True))  # messages, seed and parameters: one request


def argv(server: FakeOpenAIServer, runs: Path, cache: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "clarq_bench",
        "run",
        "--seeker",
        "gpt-4o",
        "--provider",
        "offline",
        "--api-base",
        server.base_url,
        "--tasks",
        str(REPO / "tasks"),
        "--lang",
        "all",
        "--max-turns",
        "12",
        "--concurrency",
        str(CONCURRENCY),
        "--runs-dir",
        str(runs),
        "--cache",
        str(cache),
        "--no-progress",
        *extra,
    ]


ENV = {**os.environ, "PYTHONPATH": str(REPO), "OPENAI_API_KEY": "sk-ledger-test-000000000"}


def test_kill_9_loses_no_dollar_from_spending_json(tmp_path: Path) -> None:
    bill = Bill()
    with FakeOpenAIServer(responder=lambda body: REPLY, latency_s=0.1, on_answer=bill) as server:
        process = subprocess.Popen(
            argv(server, tmp_path / "runs", tmp_path / "c.sqlite3", "--trials", "20"),
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while bill.calls < 60 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        process.communicate()
        time.sleep(0.5)  # the killed process's calls are answered (and billed) all the same
    (run_dir,) = (tmp_path / "runs").iterdir()
    ledger = json.loads((run_dir / "spending.json").read_text(encoding="utf-8"))["spent_usd"]
    assert bill.calls >= 60
    # spending.json was written when each dialogue ended: it lost every dollar of the dialogues in flight
    assert abs(bill.usd - ledger) <= CONCURRENCY * bill.largest, (bill.usd, ledger, bill.largest)


@pytest.fixture
def tmpfs(tmp_path: Path):
    point = tmp_path / "small"
    point.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(point)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    yield point
    subprocess.run(["umount", "-l", str(point)], check=False)


def test_a_full_disk_stops_calls_at_once_and_the_resume_repays_nothing(tmpfs: Path, tmp_path: Path) -> None:
    bill = Bill()
    filler = tmpfs / "filler"
    filler.write_bytes(b"\0" * 1900 * 1024)  # about 150 kB left: the run fills it mid-way
    with FakeOpenAIServer(responder=lambda body: REPLY, latency_s=0.05, on_answer=bill) as server:
        cache = tmp_path / "cache.sqlite3"  # the cache on another disk: what was paid is kept
        first = subprocess.run(
            argv(server, tmpfs / "runs", cache, "--trials", "8"), env=ENV, capture_output=True, text=True, timeout=300
        )
        assert first.returncode == 2 and "No space left" in first.stderr and "Traceback" not in first.stderr, (
            first.stderr[-2000:]
        )
        paid = set(bill.prompts)
        calls = bill.calls
        filler.unlink()
        (run_dir,) = (tmpfs / "runs").iterdir()
        second = subprocess.run(
            [sys.executable, "-m", "clarq_bench", "run", "--resume", str(run_dir), "--no-progress"],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert second.returncode == 0, second.stderr[-2000:]
    repaid = [prompt for prompt in bill.prompts[calls:] if prompt in paid]
    assert calls > 0 and bill.calls > calls
    assert repaid == []
