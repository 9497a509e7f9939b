"""--max-cost against kill -9: a priced model (gpt-4o's price table) on the fake server, the run killed with -9
several times and resumed, then the endpoint's bill (every reply it computed, delivered or not) compared with the
cap and with spending.json. Prints the figures and their goals (bill <= 1.05 x cap; spending.json equal to the bill
within one call per dialogue in flight).

    python benchmarks/kill9_budget.py [--kills 4] [--cap 3] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from clarq_bench.llm.accounting import call_cost  # noqa: E402
from clarq_bench.llm.models import resolve_model  # noqa: E402
from clarq_bench.testing.fake_openai import FakeOpenAIServer, estimate_tokens  # noqa: E402

MODEL = "gpt-4o"
REPLY = "Could you tell me which step comes first, and what I need for it? " * 6  # ~100 tokens a reply


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=4)
    parser.add_argument("--cap", type=float, default=3.0)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.15)
    args = parser.parse_args()
    resolved = resolve_model(MODEL)
    bill = [0.0, 0, 0.0]  # dollars, calls, largest call
    lock = threading.Lock()

    def on_answer(body: dict, kind: str, delivered: bool, asked_at: float) -> None:
        if kind != "reply":
            return
        prompt = "".join(str(m.get("content", "")) for m in body.get("messages", []))
        cost = call_cost(resolved, estimate_tokens(prompt), estimate_tokens(REPLY))
        with lock:
            bill[0] += cost
            bill[1] += 1
            bill[2] = max(bill[2], cost)

    work = Path(tempfile.mkdtemp(prefix="kill9-"))
    env = {**os.environ, "PYTHONPATH": str(REPO), "OPENAI_API_KEY": "sk-kill9-benchmark-000000"}
    with FakeOpenAIServer(responder=lambda body: REPLY, latency_s=args.latency, on_answer=on_answer) as server:
        base = [sys.executable, "-m", "clarq_bench", "run"]
        first = base + [
            "--seeker",
            MODEL,
            "--provider",
            "offline",
            "--api-base",
            server.base_url,
            "--max-cost",
            str(args.cap),
            "--tasks",
            str(REPO / "tasks"),
            "--lang",
            "all",
            "--trials",
            "100",
            "--max-turns",
            "12",
            "--concurrency",
            str(args.concurrency),
            "--runs-dir",
            str(work / "runs"),
            "--cache",
            str(work / "cache.sqlite3"),
            "--no-progress",
        ]
        rng = random.Random(7)
        argv = first
        for kill in range(args.kills + 1):
            process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if kill < args.kills:
                started = bill[1]
                while bill[1] - started < rng.randint(100, 200) and process.poll() is None:
                    time.sleep(0.05)
                process.send_signal(signal.SIGKILL)
                process.communicate()
                run_dir = next((work / "runs").iterdir())
                ledger = (
                    json.loads((run_dir / "spending.json").read_text())
                    if (run_dir / "spending.json").exists()
                    else {"spent_usd": 0.0}
                )
                time.sleep(args.latency * 2)  # replies to the killed process's calls: billed all the same
                print(
                    f"kill -9 #{kill + 1}: bill ${bill[0]:.3f} ({bill[1]} calls), spending.json "
                    f"${ledger['spent_usd']:.3f}, gap ${bill[0] - ledger['spent_usd']:.3f}"
                )
            else:
                _, err = process.communicate(timeout=600)
                print(f"last session exit {process.returncode}: {err.strip().splitlines()[-1] if err.strip() else ''}")
            run_dir = next((work / "runs").iterdir())
            argv = base + ["--resume", str(run_dir), "--no-progress"]
    ledger = json.loads((run_dir / "spending.json").read_text())
    print(
        f"cap ${args.cap:.2f}; endpoint's bill ${bill[0]:.3f} ({bill[1]} calls) = {bill[0] / args.cap:.3f} x the cap "
        "(goal <= 1.05)"
    )
    print(
        f"spending.json ${ledger['spent_usd']:.3f}: {bill[0] - ledger['spent_usd']:.3f} below the bill = "
        f"{(bill[0] - ledger['spent_usd']) / bill[2]:.1f} calls of the largest (goal: within one call per dialogue "
        f"in flight, {args.concurrency})"
    )


if __name__ == "__main__":
    main()
