"""`clarq compare RUN_A RUN_B`: paired differences on the same tasks, with intervals and p-values."""

from __future__ import annotations

import argparse

from .score import add_source_arguments


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="paired comparison of two runs or released files",
        description="A - B on the dialogues both played (same task content and trial; a task id whose content differs "
        "is refused): paired bootstrap intervals for success, AQD, AQL and efficiency (success weighted by what the seeker said), and the exact McNemar test for success. "
        "Settings that differ between the two runs (provider, modes, turn cap, seeker options, data) are listed.",
    )
    parser.add_argument("run_a", metavar="RUN_A", help="run directory or released results file")
    parser.add_argument("run_b", metavar="RUN_B", help="run directory or released results file")
    add_source_arguments(parser, many=True)
    parser.add_argument(
        "--across-settings",
        action="store_true",
        help="compare sides played against another "
        "provider, provider mode or turn cap (refused otherwise); the output says so loudly",
    )
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    parser.set_defaults(handler=run_compare)


def run_compare(args: argparse.Namespace) -> int:
    from ..api import compare
    from .common import print_json
    from .score import source_options

    result = compare(args.run_a, args.run_b, across_settings=args.across_settings, **source_options(args))
    if args.json:
        print_json(result.model_dump(mode="json"))
    else:
        print_comparison(result)
    return 0


def print_comparison(result) -> None:  # type: ignore[no-untyped-def]
    from rich.console import Console
    from rich.table import Table

    console = Console()
    warning = (
        (
            "ACROSS SETTINGS: the two sides were played in different settings ("
            + "; ".join(result.cross_setting)
            + "); A - B is not the seekers' difference alone"
        )
        if result.cross_setting
        else ""
    )
    if warning:
        console.print(warning, style="bold red", markup=False, highlight=False, soft_wrap=True)
    # lines of their own, not a table title: rich centres and wraps a title, cutting a run id in two
    console.print(
        f"A = {result.a}\nB = {result.b}\n({result.pairs} pairs on {result.paired_on})",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    table = Table()
    for column in ("figure", "A", "B", "A - B", "95% CI", "p", "test"):
        table.add_column(column, justify="left" if column in ("figure", "test") else "right")
    for d in result.differences:
        table.add_row(
            d.figure,
            f"{d.a:.4f}",
            f"{d.b:.4f}",
            f"{d.difference:+.4f}",
            f"[{d.low:+.4f}, {d.high:+.4f}]",
            f"{d.p_value:.4f}",
            d.test,
        )
    m = result.mcnemar
    table.add_row("success", "", "", f"{m['a_only']} vs {m['b_only']}", "", f"{m['p_value']:.4f}", "McNemar exact")
    console.print(table)
    if result.settings_differ:
        console.print(
            "settings that differ (A -> B): " + "; ".join(result.settings_differ), markup=False, highlight=False
        )
    else:
        console.print("the two sides were played with the same settings", markup=False, highlight=False)
    if warning:
        console.print(warning, style="bold red", markup=False, highlight=False, soft_wrap=True)
