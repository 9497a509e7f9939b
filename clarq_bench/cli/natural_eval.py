"""`clarq natural-eval`: does a provider answer the clarification questions a person would really ask?

Plays every hand-written wording of the natural-question suite (clarq_bench/fidelity/natural_questions/: at least
three natural questions for every required node of the sample tasks and of 20 released tasks a language) after a
dialogue that reveals the root and the node's ancestors, in single-info and multi-info mode, and prints the share
of wordings that get the node a person would give, per language, mode and source, then the failures. Works for
`offline`, `offline-e5`, `package.module:Class` and any litellm model (the LLM provider). Library code:
clarq_bench/fidelity/natural_suite.py.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "natural-eval", help="play natural clarification questions against a provider: does it answer them?"
    )
    parser.add_argument(
        "--provider",
        default="offline",
        metavar="NAME",
        help="offline, offline-e5, package.module:Class, or a litellm model name for the LLM provider "
        "(default: offline)",
    )
    parser.add_argument(
        "--provider-mode",
        choices=["single", "multi-info", "both"],
        default="both",
        help="single, multi-info or both (default)",
    )
    parser.add_argument("--lang", choices=["en", "zh", "all"], default="all", help="suite language (default: all)")
    parser.add_argument(
        "--family",
        choices=["tuned", "held-out"],
        default="tuned",
        help="tuned: the suite the reader's rules were refined against (default); held-out: wordings of other tasks "
        "the rules were never tuned on",
    )
    parser.add_argument(
        "--data", metavar="DIR", help="the released ClarQ-LLM data (default: $CLARQ_DATA, else the downloaded copy)"
    )
    parser.add_argument(
        "--failures",
        type=int,
        default=40,
        metavar="N",
        help="failures to list (default: 40; 0: none; the --json output has them all)",
    )
    parser.add_argument("--concurrency", type=positive_int, default=8, help="tasks played at once (default: 8)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    from .llm_args import add_llm_arguments

    add_llm_arguments(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..api.support import natural_eval
    from .common import print_json
    from .llm_args import llm_options

    modes = ["single", "multi-info"] if args.provider_mode == "both" else [args.provider_mode]
    report, budget_exhausted = natural_eval(
        provider=args.provider,
        lang=args.lang,
        modes=modes,
        data=args.data,
        concurrency=args.concurrency,
        family=args.family,
        **llm_options(args),
    )
    if budget_exhausted:
        print(
            f"clarq: --max-cost {args.max_cost:g} spent: the figures count the unplayed wordings as failures",
            file=sys.stderr,
        )
    if args.json:
        print_json(report.model_dump(mode="json"))
        return 0
    _print(report, max(0, args.failures))
    return 0


def _print(report: Any, limit: int) -> None:  # fidelity.natural_suite's report (Checked.report is Any)
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    table = Table(
        title=f"natural questions ({report.family}): {report.provider}",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        caption="passed: single-info, exactly the asked node revealed; multi-info, the asked node revealed "
        "and nothing outside its subtree",
    )
    for name in ("lang", "mode", "source"):
        table.add_column(name, no_wrap=True)
    for name in ("wordings", "passed", "share"):
        table.add_column(name, justify="right", no_wrap=True)
    for row in report.rows:
        table.add_row(
            row.language,
            row.mode,
            row.source,
            str(row.wordings),
            str(row.passed),
            f"{100 * row.share:.1f}%",
            style="bold" if row.source == "all" else None,
        )
    console.print(table)
    if not limit or not report.failures:
        return
    shown = report.failures[:limit]
    console.print(
        f"failures ({len(shown)} of {len(report.failures)}): source task node (mode) wording -> revealed",
        highlight=False,
    )
    for o in shown:
        got = ",".join(o.revealed) or "nothing"
        console.print(
            f"  {o.wording.source} {o.wording.task} {o.wording.node} ({o.mode}) {escape(o.wording.text)} -> {got}",
            highlight=False,
            soft_wrap=True,
        )
