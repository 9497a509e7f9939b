"""Where the efficiency figure's human turn length B comes from, and what the figure says of seekers.

Usage: python benchmarks/efficiency_budget.py [RUN_DIR ...]
1. B per token unit and language: the paper's human AQL (8.1 spaces in English, 17.0 characters in Chinese) times
   the tokens per released unit of the released GPT-4o seeker turns (Comp files), beside the pinned values of
   scoring/charge.py (tests/scoring/test_efficiency.py pins them too).
2. The released GPT-4o dialogues and every run folder given: success, the turns-only figure (S x H / max(H, Q)),
   efficiency, its ceiling (the figure had every dialogue succeeded: what the charge alone allows, so what a
   seeker that slips through the provider could reach), and the mean of each charge over H (turns, asks + 1,
   tokens / B): which of them binds.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from clarq_bench.core.transcript import Speaker
from clarq_bench.leaderboard.rundir import read_run, verdicts_for
from clarq_bench.scoring.charge import HUMAN_TURN_TOKENS, human_turn_tokens, success_weighted
from clarq_bench.scoring.judge import Verdict, judge_deterministic
from clarq_bench.scoring.lengths import counter_for, released_length
from clarq_bench.scoring.score_import import import_released

RESULTS = Path(__file__).resolve().parent.parent.parent / "shared" / "clarq-llm-upstream" / "results"
HUMAN_AQL = {"en": 8.1, "zh": 17.0}
COMP = {
    "en": "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json",
    "zh": "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.Ch.json",
}


def budgets() -> None:
    print("B, tokens of a human seeker's turn (paper's human AQL x tokens per released unit, released Comp turns)")
    for language, name in COMP.items():
        texts = [
            turn.text for t, _ in import_released(RESULTS / name) for turn in t.turns if turn.speaker == Speaker.seeker
        ]
        released = sum(released_length(text, language) for text in texts)
        for unit in ("o200k_base", "cjk+words"):
            counter = counter_for(unit)
            if counter is None:
                print(f"  {language} {unit:11}: cannot count in this unit here")
                continue
            ratio = sum(counter.count(text) for text in texts) / released
            print(
                f"  {language} {unit:11}: {ratio:.3f} tokens per released unit -> B = {HUMAN_AQL[language] * ratio:.2f}"
                f" (pinned {HUMAN_TURN_TOKENS[(unit, language)]})"
            )


def line(name: str, verdicts: list[Verdict]) -> None:
    n = len(verdicts)

    def over_h(v: Verdict) -> tuple[float, float, float]:
        after = [t for t in v.seeker_turns if v.root_turn is not None and t.index > v.root_turn]
        budget = human_turn_tokens(v.token_unit, v.language)
        h = v.human_queries
        return (
            v.queries_after_root / h,
            (sum(t.asks or 0 for t in after) + 1) / h,
            sum(t.tokens for t in after) / budget / h,
        )

    parts = [over_h(v) for v in verdicts]
    turns_only = sum(success_weighted(v.success, v.human_queries, v.queries_after_root) for v in verdicts) / n
    ceiling = sum(success_weighted(True, v.human_queries, v.charge) for v in verdicts) / n
    print(
        f"{name[:44]:44} {sum(v.success for v in verdicts) / n:7.3f} {turns_only:10.3f} "
        f"{sum(v.efficiency for v in verdicts) / n:10.3f} {ceiling:7.3f}  "
        + "  ".join(f"{statistics.mean(p[i] for p in parts):5.2f}" for i in range(3))
    )


def main() -> None:
    budgets()
    print(
        f"\n{'dialogues':44} {'success':>7} {'turns-only':>10} {'efficiency':>10} {'ceiling':>7}    Q/H (A+1)/H (W/B)/H"
    )
    for file in sorted(RESULTS.glob("*.json")):
        line(
            file.name.removeprefix("l2l_GPT-4o_seeker_vs_"),
            [judge_deterministic(t, task) for t, task in import_released(file)],
        )
    for run_dir in sys.argv[1:]:
        line(Path(run_dir).name, verdicts_for(read_run(run_dir)))


if __name__ == "__main__":
    main()
