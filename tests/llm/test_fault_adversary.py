"""Issue 28, a second adversary round against real servers on 127.0.0.1: a reply body larger than any model reply
(said in Content-Length, or chunked without end) is not read whole and not retried; a paid reply that cannot be a
turn still counts in its dialogue; a reply that arrives after the turn timeout gave up on it is counted and cached,
so --retry-errors does not pay for it again."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clarq_bench.cli.main import main
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.llm.transports import MAX_REPLY_BYTES
from clarq_bench.testing.fake_agents import both_agents
from clarq_bench.testing.fake_openai import FakeOpenAIServer, reply

REPO = Path(__file__).resolve().parents[2]
SEEKER = "openai/adversary-seeker"


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-adversary-test-0123456789")
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)


def run_argv(tmp_path: Path, base_url: str, *extra: str) -> list[str]:
    return [
        "run",
        "--seeker",
        SEEKER,
        "--provider",
        "offline",
        "--api-base",
        base_url,
        "--tasks",
        str(REPO / "tasks"),
        "--runs-dir",
        str(tmp_path / "runs"),
        "--cache",
        str(tmp_path / "cache.sqlite"),
        "--no-progress",
        *extra,
    ]


def records(tmp_path: Path) -> list:
    (run_dir,) = (tmp_path / "runs").iterdir()
    return read_transcripts(run_dir / "transcripts.jsonl")


def cached_rows(tmp_path: Path) -> int:
    path = tmp_path / "cache.sqlite"
    return sqlite3.connect(path).execute("SELECT COUNT(*) FROM responses").fetchone()[0] if path.exists() else 0


# ---- replies larger than any model reply ---------------------------------------------------------------------------


def test_a_reply_body_past_the_cap_ends_its_dialogue_unread_unretried_uncached(tmp_path: Path) -> None:
    huge = "y" * (MAX_REPLY_BYTES + 1024)
    with FakeOpenAIServer([reply(huge)], responder=both_agents(SEEKER, None)) as server:
        main(run_argv(tmp_path, server.base_url, "--limit", "1", "--max-turns", "2"))
        asked = server.hits
    (record,) = records(tmp_path)
    assert record.end_reason == "error" and "larger than 8 MB" in (record.error or "")
    assert asked == 1  # never retried: every attempt would be paid
    assert cached_rows(tmp_path) == 0


ENDLESS = """
import asyncio, sys

async def handle(reader, writer):
    await reader.readuntil(b"\\r\\n\\r\\n")
    writer.write(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n")
    chunk = b"z" * 65536
    try:
        while True:
            writer.write(b"%x\\r\\n" % len(chunk) + chunk + b"\\r\\n")
            await writer.drain()
    except ConnectionError:
        pass

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()

asyncio.run(main())
"""


def test_an_endless_chunked_body_is_cut_at_the_cap_in_a_memory_bound_process(tmp_path: Path) -> None:
    """A real `clarq run` process under a 3 GB address-space cap against a server that streams a body forever:
    it ends the dialogue in seconds, instead of reading until the per-attempt timeout (gigabytes on 127.0.0.1)."""
    server = subprocess.Popen([sys.executable, "-c", ENDLESS], stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline())
        env = {**os.environ, "PYTHONPATH": str(REPO)}

        def cap() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

        started = time.monotonic()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "clarq_bench.cli.main",
                *run_argv(tmp_path, f"http://127.0.0.1:{port}/v1", "--limit", "1", "--max-turns", "2"),
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
            preexec_fn=cap,
        )
        seconds = time.monotonic() - started
    finally:
        server.kill()
        server.wait()
    (record,) = records(tmp_path)
    assert "larger than 8 MB" in (record.error or ""), (done.returncode, done.stderr[-2000:])
    assert done.returncode == 1 and "Traceback" not in done.stderr and seconds < 60


def test_a_paid_reply_that_cannot_be_a_turn_still_counts_in_its_dialogue(tmp_path: Path) -> None:
    long = "w" * 200_000  # under the body cap, over the longest turn (play/dialogue.MAX_TURN_CHARS)
    with FakeOpenAIServer([reply(long)], responder=both_agents(SEEKER, None)) as server:
        main(run_argv(tmp_path, server.base_url, "--limit", "1", "--max-turns", "2"))
    (record,) = records(tmp_path)
    assert record.end_reason == "error" and "characters (limit" in (record.error or "")
    assert record.usage["seeker"].calls == 1 and record.usage["seeker"].completion_tokens > 0


# ---- a reply that arrives after the turn timeout -------------------------------------------------------------------


def test_a_reply_after_the_turn_timeout_is_kept_so_retry_errors_does_not_pay_it_again(tmp_path: Path, the_run) -> None:
    """The first request is answered after 1.2 s, the turn timeout is 0.7 s: its dialogue ends in error, but the
    reply (sent and billed anyway) lands in the cache while the run goes on (4 more dialogues, one at a time, of
    0.15 s calls); --retry-errors finds it there."""
    with FakeOpenAIServer([reply(delay_s=1.2)], responder=both_agents(SEEKER, None), latency_s=0.15) as server:
        main(
            run_argv(
                tmp_path,
                server.base_url,
                "--limit",
                "5",
                "--concurrency",
                "1",
                "--max-turns",
                "4",
                "--turn-timeout",
                "0.7",
            )
        )
        timed_out = [r for r in records(tmp_path) if r.end_reason == "error"]
        assert len(timed_out) == 1 and "turn timeout" in (timed_out[0].error or "")
        first = json.dumps(server.requests[0]["messages"], sort_keys=True)
        run_dir = the_run()
        spent = json.loads((run_dir / "spending.json").read_text())
        main(["run", "--resume", str(run_dir), "--retry-errors", "--no-progress"])
        asked = [json.dumps(body["messages"], sort_keys=True) for body in server.requests]
    assert asked.count(first) == 1  # paid once: the late reply was kept
    assert not any(r.end_reason == "error" for r in records(tmp_path))
    assert spent["spent_usd"] >= 0  # (an unpriced fake model: the figure is there, its value 0)


# ---- SIGTERM while the judge is being paid -------------------------------------------------------------------------


def test_sigterm_during_scoring_stops_like_ctrl_c_and_keeps_what_the_judge_was_paid(tmp_path: Path) -> None:
    """A real `clarq score RUN --judge MODEL` process: one judge reply comes at once, the others are slow; SIGTERM
    then stops it like Ctrl-C (exit 130, one line), the paid reply is in spending.json and no report is half
    written. Before, SIGTERM killed the process outright and the judge's spending was nowhere."""
    from clarq_bench.llm.accounting import call_cost
    from clarq_bench.llm.models import resolve_model

    assert call_cost(resolve_model("gpt-4o-mini"), 1000, 1000) > 0
    runs = tmp_path / "runs"
    assert (
        main(
            [
                "run",
                "--seeker",
                "heuristic",
                "--provider",
                "offline",
                "--tasks",
                str(REPO / "tasks"),
                "--lang",
                "en",
                "--limit",
                "6",
                "--runs-dir",
                str(runs),
                "--no-progress",
            ]
        )
        == 0
    )
    (run_dir,) = runs.iterdir()
    for name in ("summary.json", "report.md"):
        (run_dir / name).unlink()
    verdict = json.dumps({"carried": False, "turn": None, "reason": "not said"})
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "XDG_CACHE_HOME": str(tmp_path / "xdg"),
        "OPENAI_API_KEY": "sk-adversary-test-0123456789",
    }
    with FakeOpenAIServer([reply(delay_s=0.05)], responder=lambda body: verdict, latency_s=20.0) as server:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "clarq_bench.cli.main",
                "score",
                str(run_dir),
                "--judge",
                "gpt-4o-mini",
                "--api-base",
                server.base_url,
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while server.served < 1 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        time.sleep(0.5)  # the reply reaches the client
        process.send_signal(15)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "interrupted" in err
    ledger = json.loads((run_dir / "spending.json").read_text())
    assert ledger["scoring_usd"] > 0 and ledger["spent_usd"] == pytest.approx(ledger["scoring_usd"])
    assert not (run_dir / "summary.json").exists() and not list(run_dir.glob("*.tmp"))


def test_a_reply_due_after_the_last_dialogue_gave_up_is_waited_for_and_kept(tmp_path: Path, capsys, the_run) -> None:
    """The run's only dialogue gives up on its first call at the 0.5 s turn timeout; the reply comes at 1.5 s, after
    every dialogue has ended. The run waits for it (briefly, said in one line), so --retry-errors finds it cached."""
    with FakeOpenAIServer([reply(delay_s=1.5)], responder=both_agents(SEEKER, None), latency_s=0.05) as server:
        main(run_argv(tmp_path, server.base_url, "--limit", "1", "--max-turns", "3", "--turn-timeout", "0.5"))
        assert "had given up on: their replies are paid" in capsys.readouterr().err
        (record,) = records(tmp_path)
        assert record.end_reason == "error" and "turn timeout" in (record.error or "")
        first = json.dumps(server.requests[0]["messages"], sort_keys=True)
        run_dir = the_run()
        main(["run", "--resume", str(run_dir), "--retry-errors", "--no-progress"])
        asked = [json.dumps(body["messages"], sort_keys=True) for body in server.requests]
    assert asked.count(first) == 1
    (record,) = records(tmp_path)
    assert record.end_reason != "error"


# ---- the cache's write path ----------------------------------------------------------------------------------------


def test_cache_puts_are_queued_written_in_batches_and_kept_at_close(tmp_path: Path) -> None:
    from clarq_bench.llm.cache import ResponseCache

    cache = ResponseCache(tmp_path / "cache.sqlite")

    async def fill() -> tuple[dict | None, dict | None]:
        await asyncio.gather(*(cache.aput(f"k{i}", "m", {"text": f"reply {i}"}) for i in range(300)))
        await cache.aput("blank", "m", {"text": "  "})
        return await cache.aget("k299"), await cache.aget("blank")  # just queued, or written: a hit either way

    hit, blank = asyncio.run(fill())
    cache.close()
    assert hit == {"text": "reply 299"} and blank is None
    rows = sqlite3.connect(tmp_path / "cache.sqlite").execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    assert rows == 300
