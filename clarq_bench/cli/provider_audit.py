"""`clarq provider-audit`: how gameable is a provider? The red-team suite beside the floor and the ceiling.

Plays every red-team strategy (seekers/adversarial.py), `no-question`, `heuristic` and `oracle` against the provider
on types 14-26 by default (held out from the offline provider's tuning) and prints success (95% CI) and required
nodes obtained per question for each. Works for `offline`, `offline-e5` and any litellm model (the LLM provider:
its key is checked before anything starts; `--api-base` for a local OpenAI-compatible server). Library code:
clarq_bench/fidelity/audit.py and fidelity/checks.py.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..core.defaults import DEFAULT_MAX_TURNS

if TYPE_CHECKING:
    from ..api.support import AuditReport


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "provider-audit", help="play the red-team suite against a provider: can it be gamed without real questions?"
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
        choices=["single", "multi-info"],
        help="single (default) or multi-info; --search plays both unless one is named",
    )
    parser.add_argument(
        "--provider-reading",
        choices=["model", "strict"],
        help="LLM provider: model (default: its model decides) or strict (the offline provider's screen and focus "
        "rule may also refuse)",
    )
    from .common import add_data_arguments

    add_data_arguments(parser)
    parser.set_defaults(types="14-26")
    parser.add_argument(
        "--strategies",
        metavar="A,B",
        help="seekers to play, comma-separated (default: no-question, every red-* strategy, heuristic, oracle)",
    )
    parser.add_argument(
        "--search",
        action="store_true",
        help="sweep the template family (seekers/templates.py): tune on --tune-types, report the best "
        "member of each family on --types, per language and mode",
    )
    parser.add_argument("--tune-types", default="1-13", metavar="N[,N-M]", help="--search: types to tune on (1-13)")
    parser.add_argument(
        "--search-points",
        type=int,
        default=60,
        metavar="N",
        help="--search: points sampled per language and mode (1-60, default 60)",
    )
    parser.add_argument("--seed", type=int, default=0, help="--search: seed of the sample of points (0)")
    parser.add_argument(
        "--tuned-on", metavar="F,G", help="--search: families the provider was tuned against (left out of the headline)"
    )
    parser.add_argument(
        "--max-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        metavar="N",
        help=f"seeker turns per dialogue ({DEFAULT_MAX_TURNS})",
    )
    parser.add_argument("--workers", type=int, metavar="N", help="processes for an offline provider (default: cores)")
    parser.add_argument(
        "--concurrency", type=int, default=16, help="dialogues in flight against a model-backed provider (default: 16)"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    from .llm_args import add_llm_arguments

    add_llm_arguments(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..api import audit_provider
    from .common import print_json
    from .llm_args import llm_options

    if args.search:
        return _search(args)
    report, budget_exhausted = audit_provider(
        args.tasks or args.data,
        lang=args.lang,
        split=args.split,
        types=args.types,
        provider=args.provider,
        provider_mode=args.provider_mode or "single",
        provider_reading=args.provider_reading,
        strategies=args.strategies,
        max_turns=args.max_turns,
        workers=args.workers,
        concurrency=args.concurrency,
        **llm_options(args),
    )
    if budget_exhausted:
        print(f"clarq: --max-cost {args.max_cost:g} spent: {report.skipped} dialogues were not played", file=sys.stderr)
    if args.json:
        print_json(report.model_dump(mode="json"))
        return 0
    print_table(report)
    return 0


def _search(args: argparse.Namespace) -> int:
    from ..api import search_provider
    from .common import print_json
    from .llm_args import llm_options
    from .search_table import print_search

    report, budget_exhausted = search_provider(
        args.tasks or args.data,
        lang=args.lang,
        split=args.split,
        types=args.types,
        tune_types=args.tune_types,
        provider=args.provider,
        modes=[args.provider_mode] if args.provider_mode else None,
        points=args.search_points,
        seed=args.seed,
        tuned_on=args.tuned_on,
        max_turns=args.max_turns,
        workers=args.workers,
        concurrency=args.concurrency,
        **llm_options(args),
    )
    if budget_exhausted:
        print(f"clarq: --max-cost {args.max_cost:g} spent: the search stopped early", file=sys.stderr)
    if args.json:
        print_json(report.model_dump(mode="json"))
    else:
        print_search(report)
    return 0


def print_table(report: AuditReport) -> None:
    from rich.console import Console
    from rich.table import Table

    from .search_table import shown as _shown

    types = report.types
    contiguous = len(types) > 1 and types == list(range(types[0], types[-1] + 1))
    span = f"{types[0]}-{types[-1]}" if contiguous else ",".join(map(str, types))
    tasks = ", ".join(f"{lang} {count}" for lang, count in report.tasks.items())
    table = Table(
        title=f"provider audit: {report.provider} ({report.provider_mode}"
        + (f", {report.provider_reading} reading" if report.provider_reading else "")
        + f"), types {span} ({tasks} tasks)",
        caption="success: every required node obtained (deterministic judge), 95% bootstrap CI over tasks; "
        "nodes/q: required nodes obtained per question (seeker turns after the opening that got a reply). "
        "Red-team strategies should stay near the floor: rows in red succeed on more than 10% of tasks (echo: "
        f"20%). {report.wall_seconds:.0f} s.",
    )
    for name, justify in (
        ("lang", "left"),
        ("strategy", "left"),
        ("role", "left"),
        ("success", "right"),
        ("won", "right"),
        ("nodes/q", "right"),
        ("questions", "right"),
        ("errors", "right"),
    ):
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    previous = None
    for row in report.rows:
        if previous is not None and row.language != previous:
            table.add_section()
        previous = row.language
        style = "bold red" if row.over_target else None
        table.add_row(
            row.language,
            row.strategy,
            row.role,
            _shown(row.success, True),
            f"{row.successes}/{row.dialogues}",
            _shown(row.nodes_per_question, False),
            str(row.questions),
            str(row.errors) if row.errors else "",
            style=style,
        )
    console = Console()
    if not console.is_terminal:  # piped into a file or a README: do not squeeze the table into 80 columns
        console = Console(width=130)
    console.print(table)
    if report.usage is not None:
        usage = report.usage
        console.print(
            f"model {report.model}: {usage.calls} calls, {usage.prompt_tokens} prompt tokens, "
            f"{usage.cached_calls} from the cache, ${usage.cost_usd:.2f}"
        )
