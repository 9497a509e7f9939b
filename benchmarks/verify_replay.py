"""Time `clarq leaderboard verify` on an honest 260-dialogue offline submission (goal: 2.5 s on an idle machine).

Usage: python benchmarks/verify_replay.py [RESULTS_FILE] [--multi-info] [--seeker heuristic]
Plays the released GPT-4o seeker turns (the replay seeker; or --seeker NAME) against the offline provider on the
English test set, packs the run with `clarq submit`, then verifies it: seal, consistency, rules, the deterministic
judge, every figure, and a replay of every provider turn. Prints the verify time split into loading the task data
and the rest, with the CPU seconds spent here and in the replay's worker processes (CLARQ_REPLAY_WORKERS=0
replays in this process only).
The run and the packing happen in a process of their own: the verify here starts cold, as `clarq leaderboard verify`
does (played in this process, its providers' readings of the very same turns would still be in memory, and the
replay workers forked from it would inherit them).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import clarq_bench

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "clarq-llm-upstream"
DEFAULT = SHARED / "results" / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json"


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seeker = sys.argv[sys.argv.index("--seeker") + 1] if "--seeker" in sys.argv else "replay"
    if seeker != "replay":
        args = [a for a in args if a != seeker]
    mode = "multi-info" if "--multi-info" in sys.argv else "single"
    data = str(SHARED / "data")
    with tempfile.TemporaryDirectory() as tmp:
        runs, out = Path(tmp) / "runs", Path(tmp) / "sub.zip"
        played = ["--seeker", seeker] + (["--replay", str(args[0] if args else DEFAULT)] if seeker == "replay" else [])
        started = time.perf_counter()
        assert (
            _clarq(
                [
                    "run",
                    *played,
                    "--provider",
                    "offline",
                    "--provider-mode",
                    mode,
                    "--data",
                    data,
                    "--lang",
                    "en",
                    "--runs-dir",
                    str(runs),
                    "--no-progress",
                ]
            )
            == 0
        )
        run_s = time.perf_counter() - started
        (run_dir,) = runs.iterdir()
        assert _clarq(["submit", str(run_dir), "-o", str(out), "--data", data]) == 0

        from clarq_bench.leaderboard import replay
        from clarq_bench.leaderboard.verify import load_task_data, verify_file

        replay_workers = getattr(replay, "replay_workers", lambda dialogues: 0)  # a checkout without workers

        started, cpu = time.perf_counter(), _cpu()
        _, tasks = load_task_data(data, {"en", "zh"})
        loaded = time.perf_counter() - started
        sub, outcome = verify_file(out, data, tasks)
        total = time.perf_counter() - started
        used = [a - b for a, b in zip(_cpu(), cpu, strict=True)]
    assert sub is not None and outcome.ok, outcome.problems[:5]
    turns = sum(len(t.turns) for t in sub.transcripts)
    workers = replay_workers(len(sub.transcripts))
    print(f"played {len(sub.transcripts)} dialogues ({turns} turns, {mode}) in {run_s:.1f} s")
    print(
        f"verify by replay ({outcome.provenance}): {total:.2f} s total = task data {loaded:.2f} s + checks and "
        f"replay {total - loaded:.2f} s; CPU {used[0]:.2f} s here + {used[1]:.2f} s in {workers} replay worker(s) "
        f"({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f})"
    )


def _clarq(args: list[str]) -> int:
    """`clarq ARGS` in a new process, of the clarq_bench this script imports; its exit status."""
    code = str(Path(clarq_bench.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [code, os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "clarq_bench", *args], env=env, capture_output=True, check=False)
    return done.returncode


def _cpu() -> tuple[float, float]:
    """CPU seconds (user + system) of this process and of its finished children (the replay workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
