"""`clarq mimics-duo`: MIMICS-Duo's Tables 7, 10 and 11 from its released files, beside the paper's figures."""

from __future__ import annotations

import argparse

from ..api.support import RELEVANT, UNTIED
from .common import positive_int, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "mimics-duo",
        help="MIMICS-Duo's own analysis (Tables 7, 10, 11) from its released labels",
        description="Needs `clarq data download --dataset mimics-duo` (or $CLARQ_MIMICS_DUO_DIR). Table 10: Pearson's r "
        "between the labels of the same pairs; Tables 7 and 11: P@1 and MRR of the pane orders offline labels give "
        "against the ideal order, with random and worst-case baselines, with and without tied top panes.",
    )
    parser.add_argument("--data", metavar="DIR", help="folder with the four released .tsv files")
    parser.add_argument("--runs", type=positive_int, default=1000, help="random draws (default 1000)")
    parser.add_argument("--seed", type=int, default=2022)
    parser.add_argument(
        "--untied",
        choices=UNTIED,
        default=UNTIED[0],
        help="Table 7's non-tied sets: queries whose top pane is unique by the method's label and by the "
        "engagement level (default; the paper's stated 152 and 139 queries), or by the label alone",
    )
    parser.add_argument(
        "--relevant",
        choices=RELEVANT,
        default=RELEVANT[0],
        help="Table 11's relevant panes: one per query, drawn at random among the panes tied at the "
        "ideal's top (default, as the paper picks tied top panes), or every tied top pane",
    )
    parser.add_argument("--out", metavar="DIR", help="write summary.json and report.md here")
    parser.add_argument("--json", action="store_true", help="print summary.json instead of report.md")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..api.support import analyse, dataset_dir, markdown, write

    report = analyse(
        dataset_dir("mimics-duo", args.data),
        runs=args.runs,
        seed=args.seed,
        untied_reading=args.untied,
        relevant=args.relevant,
    )
    if args.out:
        write(report, Path(args.out))
    if args.json:
        print_json(report.model_dump())
    else:
        print(markdown(report), end="")
    return 0
