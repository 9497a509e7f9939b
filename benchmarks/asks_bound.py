"""How many things do the released seekers ask in one turn? The distribution behind asks.MAX_THINGS.

Usage: python benchmarks/asks_bound.py [RESULTS_DIR]   (default: $CLARQ_DATA/../results or ../shared)
Counts every post-opening seeker turn of every released results file with provider/asks.count_asks and prints, per
language, the percentiles and the share of turns each bound would answer with "one thing at a time".
"""

from __future__ import annotations

import os
import sys
from collections import defaultdict
from pathlib import Path


def _results_dir(argv: list[str]) -> Path:
    if argv:
        return Path(argv[0])
    data = os.environ.get("CLARQ_DATA")
    candidates = [Path(data).parent / "results"] if data else []
    candidates.append(Path(__file__).resolve().parents[2] / "shared" / "clarq-llm-upstream" / "results")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    sys.exit("no released results folder: pass one, or set CLARQ_DATA")


def main(argv: list[str] | None = None) -> int:
    from clarq_bench.data.upstream import load_released_dialogues, released_files
    from clarq_bench.provider.asks import MAX_THINGS, count_asks, names_with_joints
    from clarq_bench.provider.brief_options import names_of

    counts: dict[str, list[int]] = defaultdict(list)
    for path in released_files(_results_dir(argv if argv is not None else sys.argv[1:])):
        for dialogue in load_released_dialogues(path):
            task = dialogue.task
            brief = task.brief
            joints = names_with_joints(names_of([*brief.items, *brief.skills, *brief.scenes]), task.language)
            for line in dialogue.seeker_lines[1:]:
                counts[task.language].append(count_asks(line, task.language, joints))
    for language, found in sorted(counts.items()):
        found.sort()
        n = len(found)
        pct = {p: found[min(n - 1, int(p / 100 * n))] for p in (50, 90, 95, 99, 99.5)}
        print(
            f"{language}: {n} seeker turns; percentiles "
            + ", ".join(f"p{p}={v}" for p, v in pct.items())
            + f"; max {found[-1]}"
        )
        for bound in range(3, 11):
            over = sum(1 for v in found if v > bound)
            mark = "  <- MAX_THINGS" if bound == MAX_THINGS[language] else ""
            print(f"  bound {bound:2d}: {over:5d} turns over it ({100 * over / n:5.2f}%){mark}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
