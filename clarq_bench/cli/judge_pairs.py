"""`clarq judge-pairs RUN_A RUN_B --judges M1,M2`: pairwise judging of two runs by model judges and/or people."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..core.defaults import DEFAULT_RESAMPLES, DEFAULT_SEED

if TYPE_CHECKING:
    from pathlib import Path

    from ..api.support import PairwiseSummary


def register(subparsers: argparse._SubParsersAction) -> None:
    from .common import positive_int
    from .llm_args import add_llm_arguments

    parser = subparsers.add_parser(
        "judge-pairs",
        help="judge two runs' dialogues side by side (model judges, people) and aggregate by PCC-H",
        description="For every task and trial both runs played, the two dialogues go side by side (position A/B "
        "randomised per item from --seed and recorded); each judge picks a side per criterion. Answers are "
        "aggregated by majority vote and PCC-H (judges weighted by reliability, items by answer entropy) with "
        "bootstrap intervals; --swap-sample N re-asks N items the other way round to measure position bias. "
        "The session folder (--out) keeps items, answers and the report; a rerun asks only what is missing.",
    )
    parser.add_argument("run_a", metavar="RUN_A", help="run directory or released results file (system A)")
    parser.add_argument("run_b", metavar="RUN_B", help="run directory or released results file (system B)")
    parser.add_argument(
        "--judges",
        metavar="MODEL[,MODEL...]",
        default="",
        help="judge models, comma-separated (e.g. gpt-4o,anthropic/claude-3-5-sonnet-20240620)",
    )
    parser.add_argument(
        "--design", type=int, choices=[2, 4], default=2, help="2: A or B; 4: also both good / both bad (default: 2)"
    )
    parser.add_argument(
        "--criteria",
        default="questions,economy,naturalness",
        metavar="C[,C...]",
        help="questions (better clarification questions), economy, naturalness (default: all three)",
    )
    parser.add_argument(
        "--people", action="store_true", help="also serve the people page on 127.0.0.1 until Ctrl-C, then report"
    )
    parser.add_argument("--port", type=int, default=8765, help="people page port (default: 8765; 0 = any free)")
    parser.add_argument(
        "--swap-sample",
        type=int,
        default=0,
        metavar="N",
        help="re-ask N items (seeded sample) with the positions swapped, for position bias",
    )
    parser.add_argument("--out", metavar="DIR", help="session folder (default: pairwise/<A>--vs--<B>)")
    parser.add_argument("--data", metavar="DIR", help="task data of the runs (default: their config.json)")
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"position and bootstrap seed (default: {DEFAULT_SEED})"
    )
    parser.add_argument(
        "--resamples",
        type=positive_int,
        default=DEFAULT_RESAMPLES,
        help=f"bootstrap resamples (default: {DEFAULT_RESAMPLES})",
    )
    parser.add_argument("--json", action="store_true", help="print summary.json instead of tables")
    add_llm_arguments(parser)
    parser.set_defaults(handler=run_judge_pairs)


def run_judge_pairs(args: argparse.Namespace) -> int:
    from ..api import judge_pairs, pairwise_report, people_server
    from ..api.support import pairwise_payload as payload
    from ..api.support import print_pairwise_report as print_report
    from ..core.errors import ClarqError
    from .common import print_json
    from .llm_args import llm_options

    if args.swap_sample < 0:
        raise ClarqError(f"--swap-sample {args.swap_sample} is negative", "pass 0 or more items")
    if not args.judges.strip() and not args.people:
        raise ClarqError("no judges", "pass --judges MODEL[,MODEL...] and/or --people")
    result = judge_pairs(
        args.run_a,
        args.run_b,
        judges=args.judges,
        design=args.design,
        criteria=args.criteria,
        swap_sample=args.swap_sample,
        seed=args.seed,
        out=args.out,
        data=args.data,
        resamples=args.resamples,
        **llm_options(args),
    )
    if args.people:
        server = people_server(result.folder, port=args.port)
        print(
            f"people page: {server.url}  (answers go to {result.folder / 'people.jsonl'}; Ctrl-C to stop and report)",
            flush=True,
        )
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        result = pairwise_report(result.folder, seed=args.seed, resamples=args.resamples)
    if args.json:
        print_json(payload(result.summary))
    else:
        print_report(result.summary)
        print(f"wrote {result.folder / 'report.md'}, summary.json, pairwise-row.json")
    return invalid_answers(result.summary, result.folder)


def invalid_answers(summary: PairwiseSummary, folder: Path) -> int:
    """Say loudly how many answers were not one of the options (stderr); exit 1 when no valid answer came back."""
    import sys

    answers = sum(j.answers for j in summary.judges)
    invalid = sum(j.invalid for j in summary.judges)
    if invalid:
        who = ", ".join(f"{j.judge} {j.invalid}/{j.answers}" for j in summary.judges if j.invalid)
        print(
            f"clarq: warning: {invalid} of {answers} answers were not one of the options ({who}); their raw "
            f"text is in {folder / 'answers.jsonl'}",
            file=sys.stderr,
        )
    if answers == invalid:
        print(
            "clarq: error: no valid answer came back, so the report has no figures (a judge that does not "
            "answer in the requested JSON, or no judge answered)",
            file=sys.stderr,
        )
        return 1
    return 0
