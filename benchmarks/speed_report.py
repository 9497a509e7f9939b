"""Every speed figure clarq has a goal for, measured on this machine from this checkout, one line each.

Runs the other benchmarks in fresh processes (with this checkout first on PYTHONPATH, so the code measured is the
code beside this script, never another installed copy) and prints figure / measured / goal / met. CPU seconds are
printed beside wall seconds: on a shared machine the wall figures move with the load (printed too), CPU much less.

    python benchmarks/speed_report.py [--only help,offline,verify,latency,direct,litellm] [--data DIR]
                                      [--before DIR]

--before DIR measures another checkout (e.g. a worktree of the main branch) too, figure by figure interleaved with
this one, so a before/after pair sees the same load; the scripts run are this checkout's own for both.

Figures (goal):
  help      `clarq --help` wall time            <= 4 x `python -c pass` (median of 7 each)
  offline   260 English dialogues, heuristic seeker vs offline provider, `clarq run` end to end (scoring too): <= 3 s
  verify    `clarq leaderboard verify` by replay of an honest 260-dialogue offline submission (the released GPT-4o
            seeker turns replayed against the offline provider, benchmarks/verify_replay.py): <= 2.5 s
  latency   offline provider, mean time a turn (benchmarks/provider_latency.py): <= 1 ms
  direct    260 dialogues at 260 in flight through the direct transport, 100 ms fake server: wall <= 1.3 x critical path
  litellm   the same through litellm: wall <= 2 x critical path
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "clarq-llm-upstream" / "data"


CODE = [REPO]  # the checkout whose clarq_bench is measured (first on PYTHONPATH)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(CODE[0]), *filter(None, [env.get("PYTHONPATH")])])
    env.setdefault("OPENAI_API_KEY", "sk-bench")
    return env


def _run(command: list[str], timeout: float = 1800) -> tuple[str, float, float]:
    """(stdout, wall seconds, CPU seconds of the child and its children) of one command run from the repository."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        command, cwd=CODE[0], env=_env(), capture_output=True, text=True, timeout=timeout, check=False
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.stdout, wall, cpu


def _median_wall(command: list[str], repeat: int = 7) -> float:
    return statistics.median(_run(command)[1] for _ in range(repeat))


def help_figure(data: Path) -> tuple[str, str, bool]:
    floor = _median_wall([sys.executable, "-c", "pass"])
    clarq = _median_wall([sys.executable, "-m", "clarq_bench", "--help"])
    return f"{clarq:.3f} s = {clarq / floor:.1f} x python -c pass ({floor:.3f} s)", "<= 4 x", clarq <= 4 * floor


def offline_figure(data: Path) -> tuple[str, str, bool]:
    with tempfile.TemporaryDirectory() as runs:
        _, wall, cpu = _run(
            [
                sys.executable,
                "-m",
                "clarq_bench",
                "run",
                "--seeker",
                "heuristic",
                "--provider",
                "offline",
                "--lang",
                "en",
                "--data",
                str(data),
                "--runs-dir",
                runs,
                "--no-progress",
            ]
        )
    return f"{wall:.2f} s wall, {cpu:.2f} s CPU", "<= 3 s", wall <= 3.0


def _found(pattern: str, text: str, flags: int = 0) -> re.Match[str]:
    """The figure's line in a benchmark's output; its absence is an AttributeError as before (the output changed)."""
    match = re.search(pattern, text, flags)
    if match is None:
        raise AttributeError(f"no line matching {pattern!r} in the benchmark's output")
    return match


def verify_figure(data: Path) -> tuple[str, str, bool]:
    out, _, _ = _run([sys.executable, str(REPO / "benchmarks/verify_replay.py")])
    total = float(_found(r"verify by replay \(\w+\): ([\d.]+) s total", out).group(1))
    return out.strip().splitlines()[-1].split(": ", 1)[1], "<= 2.5 s", total <= 2.5


def latency_figure(data: Path) -> tuple[str, str, bool]:
    out, _, _ = _run([sys.executable, str(REPO / "benchmarks/provider_latency.py")])
    mean = float(_found(r"mean ([\d.]+) ms", out).group(1))
    return out.strip().splitlines()[-1].removeprefix("per turn: "), "<= 1 ms mean", mean <= 1.0


def _scaling(transport: str, goal: float, data: Path) -> tuple[str, str, bool]:
    out, _, _ = _run(
        [
            sys.executable,
            str(REPO / "benchmarks/run_scaling.py"),
            "--concurrency",
            "260",
            "--transport",
            transport,
            "--data",
            str(data),
        ]
    )
    critical = float(_found(r"critical path ([\d.]+) s", out).group(1))
    wall, ratio, cpu = (
        float(x) for x in _found(r"^\s*260\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", out, re.MULTILINE).groups()
    )
    return (
        f"{ratio:.2f} x ({wall:.2f} s vs {critical:.2f} s; client CPU {cpu:.2f} s)",
        f"<= {goal} x critical",
        ratio <= goal,
    )


FIGURES = {
    "help": ("clarq --help", help_figure),
    "offline": ("260 offline English dialogues, heuristic seeker", offline_figure),
    "verify": ("verify by replay of 260 dialogues", verify_figure),
    "latency": ("offline provider, time a turn", latency_figure),
    "direct": ("run_scaling 260 in flight, direct transport", lambda data: _scaling("direct", 1.3, data)),
    "litellm": ("run_scaling 260 in flight, litellm transport", lambda data: _scaling("litellm", 2.0, data)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(FIGURES), help="figures to measure, comma-separated")
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("CLARQ_DATA", DATA)))
    parser.add_argument("--before", type=Path, metavar="DIR", help="another checkout to measure beside this one")
    args = parser.parse_args()
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in FIGURES]
    if unknown:
        parser.error(f"unknown figure(s) {', '.join(unknown)}; choose from {', '.join(FIGURES)}")
    checkouts = [("before", args.before.resolve()), ("after", REPO)] if args.before else [("", REPO)]
    rows = []
    for name in chosen:
        title, measure = FIGURES[name]
        for label, checkout in checkouts:
            CODE[0] = checkout
            load = os.getloadavg()[0]
            measured, goal, met = measure(args.data)
            rows.append((f"{title}{' (' + label + ')' if label else ''}", measured, goal, met, load))
            print(
                f"{rows[-1][0]}: {measured} (goal {goal}: {'met' if met else 'NOT met'}; load {load:.1f})", flush=True
            )
    print(f"\n{'figure':57s}  {'met':3s}  {'goal':18s}  measured (load average at start, {os.cpu_count()} CPUs)")
    for title, measured, goal, met, load in rows:
        print(f"{title:57s}  {'yes' if met else 'NO':3s}  {goal:18s}  {measured} (load {load:.1f})")


if __name__ == "__main__":
    main()
