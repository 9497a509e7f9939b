"""How long `clarq --help` and `clarq tasks stats` take from a cold process (target for --help: under 0.5 s).

Run: python benchmarks/cli_startup.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def wall(command: list[str], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    cases = {
        "clarq --help": [sys.executable, "-m", "clarq_bench", "--help"],
        "clarq tasks stats --tasks tasks/": [sys.executable, "-m", "clarq_bench", "tasks", "stats", "--tasks", "tasks"],
        "python -c pass (interpreter floor)": [sys.executable, "-c", "pass"],
    }
    print(f"{'command':45s} {'median s':>9s} {'max s':>8s}")
    for name, command in cases.items():
        times = wall(command, args.repeat)
        print(f"{name:45s} {statistics.median(times):9.3f} {max(times):8.3f}")


if __name__ == "__main__":
    main()
