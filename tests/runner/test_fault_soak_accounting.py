"""Issue 28, the soak's accounting of re-pays (benchmarks/soak_faults.py): the fake server tells what it answered
and whether the client was still there; a blank (null or empty) reply asked again is not a usable reply paid twice,
while a usable reply asked again is, sorted by what became of the first one (in flight at a kill, abandoned, or a
fault of clarq). The first soak counted a null reply as an answer, which made its 5 "unexplained" re-pays."""

from __future__ import annotations

import importlib.util
import json
import socket
import time
from pathlib import Path

import pytest

from clarq_bench.cli.main import main
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.testing.fake_openai import Behaviour, FakeOpenAIServer, error, garbage, reply

REPO = Path(__file__).resolve().parents[2]


def soak_module():
    spec = importlib.util.spec_from_file_location("soak_faults", REPO / "benchmarks" / "soak_faults.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-soak-accounting-test-0123")
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)


def post(port: int, body: dict, *, hang_up: bool = False) -> bytes:
    """One raw HTTP request; with hang_up, close the connection at once instead of reading the answer."""
    payload = json.dumps(body).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(
            b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(payload) + payload
        )
        if hang_up:
            return b""
        return sock.recv(65536)


def test_the_fake_server_tells_each_answer_its_kind_and_whether_the_client_got_it() -> None:
    told: list[tuple[str, str, bool, float]] = []
    script = [reply("hi"), Behaviour("null"), reply(""), error(500), garbage(), reply("late", delay_s=0.3)]
    message = [{"role": "user", "content": "x"}]
    with FakeOpenAIServer(
        script, on_answer=lambda body, kind, got, asked: told.append((body["n"], kind, got, asked))
    ) as server:
        started = time.monotonic()
        for n in range(5):
            assert post(server.port, {"n": str(n), "messages": message}).startswith(b"HTTP/1.1")
        post(server.port, {"n": "5", "messages": message}, hang_up=True)
        deadline = time.monotonic() + 5
        while len(told) < 6 and time.monotonic() < deadline:
            time.sleep(0.02)
    assert [entry[:3] for entry in told] == [
        ("0", "reply", True),
        ("1", "null", True),
        ("2", "empty", True),
        ("3", "error500", True),
        ("4", "garbage", True),
        ("5", "reply", False),
    ]
    assert all(started <= entry[3] <= time.monotonic() for entry in told)


def test_a_blank_reply_asked_again_is_not_a_re_pay_but_a_usable_one_is() -> None:
    classify = soak_module().classify
    kill = 100.0

    def answered(*askings: tuple[float, float, str, bool]) -> list[tuple[float, float, str, bool]]:
        return list(askings)

    answers = {
        "null then reply": answered((1, 1.1, "null", True), (2, 2.1, "reply", True)),  # a re-pay to the first soak
        "empty then reply": answered((1, 1.1, "empty", True), (2, 2.1, "reply", True)),
        "500 then reply": answered((1, 1.1, "error500", True), (2, 2.1, "reply", True)),
        "reply kept": answered((1, 1.1, "reply", True)),
        "in flight at the kill": answered(
            (kill - 0.1, kill - 0.02, "reply", True), (kill + 5, kill + 5.1, "reply", True)
        ),
        "due to a dead process": answered(
            (kill - 0.5, kill + 0.5, "reply", False), (kill + 5, kill + 5.1, "reply", True)
        ),
        # a slow reply to the killed session lands after the next session asked and got it: still the kill's
        "slow, answered after the resume asked": answered(
            (kill + 3, kill + 3.1, "reply", True), (kill - 0.5, kill + 7.5, "reply", False)
        ),
        # written by the process just before it died, arriving a moment after the signal was sent
        "sent as the kill came": answered(
            (kill + 0.01, kill + 0.03, "reply", True), (kill + 5, kill + 5.1, "reply", True)
        ),
        "abandoned": answered((3, 3.5, "reply", False), (4, 4.1, "reply", True)),
        "received long before the kill, asked again": answered(
            (kill - 30, kill - 29.9, "reply", True), (kill + 5, kill + 5.1, "reply", True)
        ),
        "received, then a blank to the same request": answered((1, 1.1, "reply", True), (2, 2.1, "null", True)),
    }
    found = classify(answers, [(0.0, kill)])
    assert found["blank_reasked"] == 2
    assert found["in_flight"] == 4 and found["abandoned"] == 1
    assert found["others"] == [(kill - 30, kill - 29.9, kill + 5), (1, 1.1, 2)]


def test_a_run_resumed_with_retry_errors_pays_no_usable_reply_twice(tmp_path: Path) -> None:
    """A real run: the seeker's second call gets a null reply, the dialogue ends in error; --retry-errors plays it
    again. The first call comes from the cache; only the blank one is asked again."""
    soak = soak_module()
    answers, respond, observe = soak.paid_counter()
    seeker = soak.SEEKER
    with FakeOpenAIServer([reply(), Behaviour("null")], responder=respond, on_answer=observe) as server:
        argv = [
            "run",
            "--seeker",
            seeker,
            "--provider",
            "offline",
            "--api-base",
            server.base_url,
            "--tasks",
            str(REPO / "tasks"),
            "--limit",
            "1",
            "--runs-dir",
            str(tmp_path / "runs"),
            "--cache",
            str(tmp_path / "cache.sqlite"),
            "--no-progress",
        ]
        main(argv)
        (run_dir,) = (tmp_path / "runs").iterdir()
        (first,) = read_transcripts(run_dir / "transcripts.jsonl")
        assert first.end_reason == "error" and "empty reply" in (first.error or "")
        main(["run", "--resume", str(run_dir), "--retry-errors", "--no-progress"])
    (again,) = read_transcripts(run_dir / "transcripts.jsonl")
    assert again.end_reason != "error"
    found = soak.classify(answers, [])
    assert found == {"in_flight": 0, "abandoned": 0, "others": [], "blank_reasked": 1}
    assert all(sum(kind == "reply" for _, _, kind, _ in history) <= 1 for history in answers.values())
