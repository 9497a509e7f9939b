"""Offline provider latency per seeker turn over released dialogues (goal: 1 ms of CPU a turn on average).

Usage: python benchmarks/provider_latency.py [RESULTS_FILE_OR_DIR] [--multi-info] [--embeddings]
Replays every post-root step teacher-forced (as `clarq provider-eval` does) and times each decision, in wall time
and in this process's CPU time (the figure to read on a loaded machine).
--embeddings times `offline-e5` (the `embeddings` extra): its setup includes loading the model once and embedding
every node's passages (warm()); a turn's time is embedding the seeker's words plus the lexical work.
The cyclic collector runs as under `clarq` (cli/main.py's first threshold), with the replayed dialogues loaded here
frozen out of its sight: their walk is this script's cost, not the provider's (a run keeps no such heap).
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from pathlib import Path

from clarq_bench.cli.main import GC_FIRST_THRESHOLD
from clarq_bench.fidelity.provider_eval import load_dialogues, replay_steps
from clarq_bench.provider.offline.provider import OfflineProvider

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "clarq-llm-upstream" / "results"


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    multi = "--multi-info" in sys.argv
    embeddings = "--embeddings" in sys.argv
    dialogues = load_dialogues(args[0] if args else DEFAULT)
    gc.set_threshold(GC_FIRST_THRESHOLD, *gc.get_threshold()[1:])
    gc.freeze()
    timings: list[float] = []
    cpu: list[float] = []
    setup: list[float] = []
    setup_cpu: list[float] = []
    for dialogue in dialogues:
        start, start_cpu = time.perf_counter(), time.process_time()
        provider = OfflineProvider(dialogue.task, multi_info=multi, embeddings=embeddings)
        provider.warm()
        setup.append(time.perf_counter() - start)
        setup_cpu.append(time.process_time() - start_cpu)
        for step in replay_steps(dialogue):
            start, start_cpu = time.perf_counter(), time.process_time()
            provider.decide(step.prefix)
            timings.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
    timings.sort()
    p95 = timings[int(0.95 * (len(timings) - 1))]
    name = "offline-e5" if embeddings else "offline"
    print(
        f"{name} provider ({'multi-info' if multi else 'single'}): {len(timings)} turns over {len(dialogues)} dialogues"
    )
    print(
        f"per turn: mean {1000 * statistics.mean(timings):.2f} ms, p95 {1000 * p95:.2f} ms, "
        f"max {1000 * timings[-1]:.2f} ms; setup per task mean {1000 * statistics.mean(setup):.2f} ms"
    )
    cpu.sort()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average (1 min) at the end: {load:.2f} on {os.cpu_count()} CPUs (CPU time inflates under load)")
    print(
        f"CPU per turn: mean {1000 * statistics.mean(cpu):.2f} ms (goal <= 1 ms), p95 "
        f"{1000 * cpu[int(0.95 * (len(cpu) - 1))]:.2f} ms; setup CPU per task mean "
        f"{1000 * statistics.mean(setup_cpu):.2f} ms"
    )


if __name__ == "__main__":
    main()
