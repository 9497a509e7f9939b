"""Time `clarq select` on every shipped offline ranker and seeker, both languages, all 260 test tasks, and print the
headline figures (the README's table of the offline clarification track).

Usage: python benchmarks/clarify_select.py [--lang en|zh|all]
Reads ../shared/clarq-llm-upstream (data and results) beside the repository; the bank is built into a temporary
cache first (its build time is printed apart), so each row times the track alone: states, pools, ranking, scoring,
2,000 bootstrap resamples, and for `random` the 1,000-permutation chance figures.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "clarq-llm-upstream"
SYSTEMS = ("best-question", "bm25", "random", "worst-question", "no-question", "oracle", "heuristic")


def main() -> None:
    lang = sys.argv[sys.argv.index("--lang") + 1] if "--lang" in sys.argv else "all"
    with tempfile.TemporaryDirectory() as cache:
        os.environ["CLARQ_CACHE_DIR"] = cache
        from clarq_bench.api import question_bank, select

        for language in ("en", "zh") if lang == "all" else (lang,):
            started = time.perf_counter()
            bank = question_bank(language, SHARED / "results")
            print(
                f"{language}: bank of {len(bank.entries)} built in {time.perf_counter() - started:.2f} s: {bank.counts()}"
            )
            print("system          seconds    MRR    P@1 nDCG@3 R@30    LAR   OLAR need-F1 need-MSE")
            for system in SYSTEMS:
                started = time.perf_counter()
                summary = select(
                    system, lang=language, data=SHARED / "data", results=SHARED / "results", write=False
                ).summary
                s = {k: v.value for k, v in summary.selection.items()}
                print(
                    f"{system:15s} {time.perf_counter() - started:7.2f} {s['mrr']:6.3f} {s['p@1']:6.3f} "
                    f"{s['ndcg@3']:6.3f} {s['recall@30']:6.3f} {s['lar']:6.3f} {s['olar']:6.3f} "
                    f"{summary.need['f1']:7.3f} {summary.need_mse.value:8.3f}"
                )
                if system == "random":
                    chance = summary.random_expectation
                    print(
                        f"{'  chance':15s} {'':7s} {chance['mrr']['mean']:6.3f} {chance['p@1']['mean']:6.3f} "
                        f"{chance['ndcg@3']['mean']:6.3f} {chance['recall@30']['mean']:6.3f} "
                        f"{chance['lar']['mean']:6.3f} {chance['olar']['mean']:6.3f}   (mean of 1,000 permutations)"
                    )


if __name__ == "__main__":
    main()
