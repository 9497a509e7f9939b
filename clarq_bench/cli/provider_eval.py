"""`clarq provider-eval`: replay released dialogues through a provider and report its fidelity to the reference."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "provider-eval", help="teacher-forced fidelity of a provider against the released GPT-4o provider"
    )
    parser.add_argument("--provider", default="offline", metavar="NAME", help="provider name (default: offline)")
    parser.add_argument("--dialogues", required=True, metavar="FILE_OR_DIR", help="released results file or folder")
    parser.add_argument("--types", metavar="N[,N-M]", help="task types to replay, e.g. 14-26")
    parser.add_argument("--provider-mode", choices=["single", "multi-info"], default="single")
    parser.add_argument("--concurrency", type=int, default=8, help="dialogues replayed at once (default: 8)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    import asyncio

    from ..errors import ClarqError
    from ..provider.factory import make_provider
    from ..provider_eval import load_dialogues, replay, report
    from .common import parse_types, print_json

    dialogues = load_dialogues(args.dialogues, parse_types(args.types))
    if not dialogues:
        raise ClarqError(f"no released dialogues in {args.dialogues} for these types", "check --dialogues and --types")
    results = asyncio.run(
        replay(dialogues, lambda task: make_provider(args.provider, task, args.provider_mode),
               concurrency=args.concurrency)
    )  # fmt: skip
    outcome = report(results, f"{args.provider} ({args.provider_mode})")
    if args.json:
        print_json(outcome.model_dump(mode="json"))
        return 0
    _print_table(outcome)
    return 0


def _print_table(outcome) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table("group", "steps", "ref reveals", "agreement", "precision", "recall", "never", "first",
                  title=f"provider fidelity: {outcome.provider}")  # fmt: skip
    pct = lambda value: "-" if value is None else f"{100 * value:.1f}%"  # noqa: E731
    for key, fig in outcome.groups.items():
        table.add_row(key, str(fig.steps), pct(fig.reference_reveal_rate), pct(fig.agreement), pct(fig.precision),
                      pct(fig.recall), pct(fig.baseline_never), pct(fig.baseline_first))  # fmt: skip
    console = Console()
    console.print(table)
    confusion = Table("our intent", "ref: same node(s)", "ref: other node(s)", "ref: none", title="confusion (all)")
    for intent, row in outcome.groups["all"].confusion.items():
        confusion.add_row(intent, str(row["same"]), str(row["other"]), str(row["none"]))
    console.print(confusion)
