"""Soak: 1,024 dialogues (16 sample tasks x 64 trials) of an LLM seeker against the LLM provider on the fake
OpenAI server, with mixed faults (500s, garbage bodies, empty and null replies, hangs), interrupted twice by kill -9
and resumed each time with the exact command clarq printed, then once with --retry-errors. Prints what a user
would fear to lose: dialogues lost, (task, trial) pairs written twice, requests paid twice, and each session's peak
memory.

Every `clarq run` is a real process; the fake server runs on a thread of this one and notes every answer it gave
(kind, and whether the client was still there to receive it), by the hash of what was asked (model, messages, seed,
format): a request given a usable reply and then paid again was paid twice (`classify` sorts them). The response
cache makes a resume replay what was already answered, so only the calls in flight at a kill -9 may be paid twice.

    python benchmarks/soak_faults.py [--trials 64] [--concurrency 64] [--kills 250,600] [--latency 0.02]
                                     [--slow 0.002]   # also replies that come after the turn timeout
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clarq_bench.testing.fake_agents import both_agents
from clarq_bench.testing.fake_openai import FakeOpenAIServer

REPO = Path(__file__).resolve().parents[1]
SEEKER, PROVIDER = "openai/soak-seeker", "openai/soak-provider"
PAID = {"reply", "empty", "null"}  # answers with usage: a real provider bills them
FAULTS = {"error500": 0.02, "garbage": 0.01, "empty": 0.003, "null": 0.003, "hang": 0.002}


def paid_counter() -> tuple[dict, Callable[[dict[str, Any]], str], Callable[[dict, str, bool, float], None]]:
    """A responder that answers like both agents, and an observer that notes every answer the server gives to each
    distinct request: (asked at, answered at, kind, delivered)."""
    answer = both_agents(SEEKER, PROVIDER)
    answers: dict[str, list[tuple[float, float, str, bool]]] = {}
    lock = threading.Lock()

    def observe(body: dict, kind: str, delivered: bool, asked_at: float) -> None:
        key = hashlib.sha256(
            json.dumps(
                [body.get("model"), body.get("messages"), body.get("seed"), body.get("response_format")], sort_keys=True
            ).encode()
        ).hexdigest()
        with lock:
            answers.setdefault(key, []).append((asked_at, time.monotonic(), kind, delivered))

    return answers, answer, observe


def lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


KILLED: list[float] = []  # when each kill -9 was sent (monotonic)
STARTED: list[float] = []  # when each session started


def session(argv: list[str], run_dir_box: list[Path], kill_at: int | None, env: dict) -> tuple[int, int, float]:
    """Run one `clarq run`; kill -9 it once transcripts.jsonl holds `kill_at` lines. (exit, peak MB, seconds)."""
    started = time.perf_counter()
    STARTED.append(time.monotonic())
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    if not run_dir_box:  # a new run: its folder is on the first stderr line
        assert process.stderr is not None  # stderr=PIPE
        first = process.stderr.readline()
        run_dir_box.append(Path(first.split("run folder: ", 1)[1].split("  (", 1)[0].strip()))
    log = run_dir_box[0].parent.parent / f"session-{len(KILLED)}-{time.monotonic():.0f}.err"

    def keep() -> None:  # each session's own lines (warnings, the closing lines), for a look afterwards
        assert process.stderr is not None  # stderr=PIPE
        log.write_text(process.stderr.read(), encoding="utf-8")

    drain = threading.Thread(target=keep, daemon=True)
    drain.start()
    while kill_at is not None and process.poll() is None:
        if lines(run_dir_box[0] / "transcripts.jsonl") >= kill_at:
            KILLED.append(time.monotonic())
            os.kill(process.pid, signal.SIGKILL)
            break
        time.sleep(0.05)
    _, status, usage = os.wait4(process.pid, 0)
    drain.join(10)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_maxrss // 1024, time.perf_counter() - started


def classify(answers: dict[str, list[tuple[float, float, str, bool]]], killed: list[tuple[float, float]]) -> dict:
    """Sort the paid answers of each request (`answers`: key -> [(asked at, answered at, kind, delivered)];
    `killed`: [(session start, kill -9 time)]), taking each request's askings in the order they were asked.

    A paid answer (200 with usage: a reply, or a blank one) to a request asked after the same request had been given
    a usable reply is a re-pay. What became of that earlier reply says whose it is:
    - in_flight: it was asked by a session that kill -9 then ended (up to 0.5 s after the signal was sent: the
      process dies a moment later), and answered too late to be saved (from 1 s
      before the kill on; a reply is cached as soon as it arrives, and in the soaks those answered before a kill
      all fall within 0.05 s of it), and asked again after the kill;
    - abandoned: the client had closed the connection before the reply was due (a call clarq gave up on, at the end
      of a session); clarq never received it;
    - others: clarq received a usable reply and did not keep it: a fault of clarq.
    Apart from these, blank_reasked: a blank reply (empty or null content) is paid but is no answer; clarq never
    plays or caches one, so the same request is asked again (a schema call at once, a dialogue on --retry-errors).
    (The first soak counted a null reply as an answer: its "5 unexplained re-pays" were these.)"""
    in_flight = abandoned = blank_reasked = 0
    others: list[tuple[float, float, float]] = []
    for history in answers.values():
        usable: tuple[float, float, bool] | None = None
        blank_seen = False
        for asked, answered, kind, delivered in sorted(history):
            if kind not in PAID:
                continue
            if usable is not None:
                first_asked, first_answered, received = usable
                if any(
                    start <= first_asked <= kill + 0.5 and first_answered >= kill - 1.0 and asked > kill
                    for start, kill in killed
                ):  # + 0.5 s: a request written just before death arrives after
                    in_flight += 1
                elif not received:
                    abandoned += 1
                else:
                    others.append((first_asked, first_answered, asked))
            elif blank_seen:
                blank_reasked += 1
            if kind == "reply":
                usable = (asked, answered, delivered)
            blank_seen = blank_seen or kind != "reply"
    return {"in_flight": in_flight, "abandoned": abandoned, "others": others, "blank_reasked": blank_reasked}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=64)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--kills", default="250,600", help="kill -9 once this many dialogues are written")
    parser.add_argument("--latency", type=float, default=0.02)
    parser.add_argument("--turn-timeout", default="5", help="clarq run --turn-timeout (hangs end at it)")
    parser.add_argument("--no-hang", action="store_true", help="leave the hang fault out")
    parser.add_argument(
        "--slow",
        type=float,
        default=0.0,
        help="share of requests answered (usable, paid) after 8 s: past a 5 s turn timeout",
    )
    args = parser.parse_args()
    answers, respond, observe = paid_counter()
    workdir = Path(tempfile.mkdtemp(prefix="clarq-soak-"))
    env = {**os.environ, "OPENAI_API_KEY": "sk-soak-test-0123456789", "PYTHONPATH": str(REPO)}
    env.pop("OPENAI_BASE_URL", None)
    faults = {k: v for k, v in FAULTS.items() if not (args.no_hang and k == "hang")}
    if args.slow:
        faults["slow"] = args.slow
    with FakeOpenAIServer(
        responder=respond, latency_s=args.latency, faults=faults, seed=28, on_answer=observe
    ) as server:
        first = [
            sys.executable,
            "-m",
            "clarq_bench.cli.main",
            "run",
            "--seeker",
            SEEKER,
            "--provider",
            PROVIDER,
            "--api-base",
            server.base_url,
            "--tasks",
            str(REPO / "tasks"),
            "--lang",
            "all",
            "--trials",
            str(args.trials),
            "--concurrency",
            str(args.concurrency),
            "--turn-timeout",
            args.turn_timeout,
            "--cache",
            str(workdir / "cache.sqlite"),
            "--runs-dir",
            str(workdir / "runs"),
            "--no-progress",
        ]
        box: list[Path] = []
        kills = [int(k) for k in args.kills.split(",") if k]
        report = []
        for number, kill_at in enumerate([*kills, None]):
            argv = (
                first
                if number == 0
                else [sys.executable, "-m", "clarq_bench.cli.main", "run", "--resume", str(box[0]), "--no-progress"]
            )  # the command clarq prints
            report.append((f"killed at {kill_at}" if kill_at else "to the end", *session(argv, box, kill_at, env)))
        retry = [
            sys.executable,
            "-m",
            "clarq_bench.cli.main",
            "run",
            "--resume",
            str(box[0]),
            "--retry-errors",
            "--no-progress",
        ]
        report.append(("--retry-errors", *session(retry, box, None, env)))
        served = server.served
    records = [json.loads(line) for line in (box[0] / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()]
    keys = Counter((r["task_id"], r["trial"]) for r in records)
    expected = 16 * args.trials
    recorded_calls = sum(u.get("calls", 0) for r in records for u in r["usage"].values())
    print(
        f"soak: {expected} dialogues, faults {faults}, --turn-timeout {args.turn_timeout}, kill -9 at {kills} written, folder {box[0]}"
    )
    for what, code, peak, seconds in report:
        print(f"  session {what:<14} exit {code:>4}  peak {peak:>4} MB  {seconds:6.1f} s")
    print(f"lost (never written): {expected - len(keys)}")
    print(f"duplicated (task, trial) records: {sum(c - 1 for c in keys.values() if c > 1)}")
    repays = classify(answers, list(zip(STARTED, KILLED)))
    print(
        f"re-paid requests (a usable reply answered, then the same request paid again): "
        f"{repays['in_flight'] + repays['abandoned'] + len(repays['others'])}"
    )
    print(f"  in flight at a kill -9 (asked before the kill, answered too late to be saved): {repays['in_flight']}")
    print(
        f"  abandoned (answered after clarq had hung up, e.g. at the turn timeout; never received): "
        f"{repays['abandoned']}"
    )
    print(f"  others (received and not kept: a fault of clarq): {len(repays['others'])}")

    def session_of(moment: float) -> int:
        return max((i for i, start in enumerate(STARTED) if start <= moment), default=-1)

    for asked, answered, again in repays["others"][:10]:
        print(
            f"    asked in session {session_of(asked)} {asked - STARTED[session_of(asked)]:.1f} s after it started, "
            f"answered {answered - asked:.1f} s later, asked again in session {session_of(again)} "
            f"{again - answered:.1f} s after that"
        )
    print(f"blank replies (empty/null content, paid, no answer) asked again by design: {repays['blank_reasked']}")
    print(f"errors left after --retry-errors: {sum(r['end_reason'] == 'error' for r in records)}")
    print(
        f"paid replies served: {served}; calls recorded in the final transcripts: {recorded_calls} (the difference: "
        "dialogues in flight at a kill, and error records replaced by --retry-errors, whose calls were paid)"
    )


if __name__ == "__main__":
    main()
