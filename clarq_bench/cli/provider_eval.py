"""`clarq provider-eval`: replay released dialogues through a provider and report its fidelity to the reference.

`--provider offline` needs nothing (`offline-e5` needs the `embeddings` extra); any other name is a litellm model for the LLM provider (`gpt-4o`, as in the
paper, or e.g. `anthropic/claude-3-5-sonnet-20240620`, `openai/NAME --api-base http://localhost:8000/v1`). Its key
is checked before anything starts: a hosted model without its key variable is a one-line error.

`--teacher-forced` checks the LLM provider itself, with no model and no key: each released turn is decided by a
scripted model exactly as the released provider decided it, and the table gives the share of the reference's reveals
clarq keeps, per file, single-info and multi-info apart, in the default reading beside the strict one.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from .common import positive_int

if TYPE_CHECKING:
    from ..api.support import ProviderReport


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "provider-eval", help="teacher-forced fidelity of a provider against the released GPT-4o provider"
    )
    parser.add_argument(
        "--provider",
        metavar="NAME",
        help="offline, offline-e5, or a litellm model name for the LLM provider, e.g. gpt-4o (default: offline)",
    )
    parser.add_argument("--dialogues", required=True, metavar="FILE_OR_DIR", help="released results file or folder")
    parser.add_argument("--types", metavar="N[,N-M]", help="task types to replay, e.g. 14-26")
    parser.add_argument("--provider-mode", choices=["single", "multi-info"], default="single")
    parser.add_argument(
        "--provider-reading",
        choices=["model", "strict"],
        help="LLM provider: model (default: its model decides) or strict (the offline provider's "
        "screen and focus rule may also refuse)",
    )
    parser.add_argument(
        "--teacher-forced",
        action="store_true",
        help="check the LLM provider against the released provider's own decisions (a scripted model "
        "replays them; no key, no cost): the share of reference reveals kept, per file and mode, "
        "default and strict readings; exit 1 when the default misses its target",
    )
    parser.add_argument("--concurrency", type=positive_int, default=8, help="dialogues replayed at once (default: 8)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    from .llm_args import add_llm_arguments

    add_llm_arguments(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..api import evaluate_provider
    from .common import print_json
    from .llm_args import llm_options

    if args.teacher_forced:
        return _teacher_forced(args)
    outcome, budget_exhausted = evaluate_provider(
        args.dialogues,
        provider=args.provider or "offline",
        provider_mode=args.provider_mode,
        types=args.types,
        concurrency=args.concurrency,
        provider_reading=args.provider_reading,
        **llm_options(args),
    )
    if budget_exhausted:
        print(f"clarq: --max-cost {args.max_cost:g} spent: dialogues not yet started were skipped", file=sys.stderr)
    if args.json:
        print_json(outcome.model_dump(mode="json"))
        return 0
    _print_table(outcome)
    return 0


def _labels(groups: list[str]) -> dict[str, tuple[str, str]]:
    """(group, types) per report key, file names without the prefix all files share (`l2l_GPT-4o_seeker_vs_...`)."""
    split = {key: (key.partition(" | ")[0], key.partition(" | ")[2].removeprefix("types ") or "all") for key in groups}
    files = sorted({group[len("file=") :] for group, _ in split.values() if group.startswith("file=")})
    common = os.path.commonprefix(files) if len(files) > 1 else ""  # noqa: RUF071 - file names, not paths
    common = common[: common.rfind("_") + 1] if "_" in common else ""  # cut at a word boundary
    return {
        key: (("file=" + group[len("file=") + len(common) :]) if group.startswith("file=") else group, types)
        for key, (group, types) in split.items()
    }


def _print_table(outcome: ProviderReport) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"provider fidelity: {outcome.provider}",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        caption="agree: same node set as the reference, or both none; prec / recall: of revealed nodes; "
        "never / first: agreement of the trivial baselines (never reveal; always reveal the first "
        "frontier node); ref: steps where the reference revealed a node",
    )
    # Numbers never wrap or collapse to "…": at 80 columns the group label folds onto more lines instead.
    table.add_column("group", overflow="fold", min_width=10)
    table.add_column("types", no_wrap=True)
    for name in ("steps", "ref", "agree", "prec", "recall", "never", "first"):
        table.add_column(name, justify="right", no_wrap=True)
    pct = lambda value: "-" if value is None else f"{100 * value:.1f}%"  # noqa: E731
    labels = _labels(list(outcome.groups))
    # Groups holding the same steps (one file, one language, one type range) are one row, under the most specific
    # (last) of their labels.
    rows: dict[str, tuple[str, Any]] = {}  # Any: a figures row of the report
    for key, fig in outcome.groups.items():
        rows[fig.model_dump_json()] = (key, fig)  # a repeated key keeps its first position, takes the later label
    for key, fig in rows.values():
        table.add_row(
            *labels[key],
            str(fig.steps),
            pct(fig.reference_reveal_rate),
            pct(fig.agreement),
            pct(fig.precision),
            pct(fig.recall),
            pct(fig.baseline_never),
            pct(fig.baseline_first),
        )
    console = Console()
    console.print(table)
    confusion = Table("our intent", "ref: same node(s)", "ref: other node(s)", "ref: none", title="confusion (all)")
    for intent, row in outcome.groups["all"].confusion.items():
        confusion.add_row(intent, str(row["same"]), str(row["other"]), str(row["none"]))
    console.print(confusion)
    if outcome.usage is not None:
        usage, steps = outcome.usage, max(1, outcome.groups["all"].steps)
        console.print(
            f"model {outcome.model}: {usage.calls} calls ({usage.calls / steps:.2f} per turn), "
            f"{usage.prompt_tokens} prompt tokens ({usage.prompt_tokens / steps:.0f} per turn), "
            f"{usage.cached_calls} from the cache, ${usage.cost_usd:.2f}"
        )


def _teacher_forced(args: argparse.Namespace) -> int:
    from ..api.support import TEACHER_FORCED_TARGETS as TARGETS
    from ..api.support import check_reference_reveals
    from ..core.errors import ClarqError
    from .common import print_json

    if args.provider is not None or args.provider_reading is not None or args.provider_mode != "single":
        raise ClarqError(
            "--teacher-forced checks the LLM provider in both readings, each file in its own mode",
            "drop --provider, --provider-reading and --provider-mode",
        )
    reports = check_reference_reveals(args.dialogues, types=args.types, concurrency=args.concurrency)
    default = reports[0]
    missed = [
        mode for mode, fig in default.modes.items() if fig.share is not None and fig.share < TARGETS.get(mode, 1.0)
    ]
    if args.json:
        print_json({"targets": TARGETS, "readings": [r.model_dump(mode="json") for r in reports]})
    else:
        _print_kept(reports, TARGETS)
    if missed:
        print(f"clarq: the default reading keeps less than its target in {', '.join(missed)}", file=sys.stderr)
        return 1
    return 0


def _print_kept(reports, targets) -> None:  # type: ignore[no-untyped-def]
    from rich import box
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title="reference reveals kept: the LLM provider with the released provider's decisions",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        caption="kept: same node on the same turn as the released provider; extra: nodes it did not reveal "
        "there; target applies to the model reading",
    )
    table.add_column("file / mode", overflow="fold", min_width=10)
    table.add_column("reveals", justify="right", no_wrap=True)
    for report in reports:
        table.add_column(f"{report.reading}", justify="right", no_wrap=True)
        table.add_column("extra", justify="right", no_wrap=True)
    table.add_column("target", justify="right", no_wrap=True)
    pct = lambda fig: "-" if fig.share is None else f"{100 * fig.share:.1f}%"  # noqa: E731
    labels = _labels([f"file={name}" for name in reports[0].files])
    rows = [(labels[f"file={name}"][0].removeprefix("file="), name, "files") for name in reports[0].files]
    rows += [(f"all {mode}" if mode != "single" else "all single-info", mode, "modes") for mode in reports[0].modes]
    for label, key, where in rows:
        first = getattr(reports[0], where)[key]
        cells = []
        for report in reports:
            fig = getattr(report, where)[key]
            cells += [pct(fig), str(fig.extra)]
        target = f">= {100 * targets[key]:.1f}%" if where == "modes" and key in targets else ""
        table.add_row(label, str(first.reveals), *cells, target)
    Console().print(table)
