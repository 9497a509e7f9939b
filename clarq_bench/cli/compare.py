"""`clarq compare RUN_A RUN_B`: paired differences on the same tasks, with intervals and p-values."""

from __future__ import annotations

import argparse

from .score import add_source_arguments


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="paired comparison of two runs or released files",
        description="A - B on the dialogues both played (same task content and trial; a task id whose content differs "
        "is refused): paired bootstrap intervals for success, AQD and AQL, and the exact McNemar test for success. "
        "Settings that differ between the two runs (provider, modes, turn cap, seeker options, data) are listed.",
    )
    parser.add_argument("run_a", metavar="RUN_A", help="run directory or released results file")
    parser.add_argument("run_b", metavar="RUN_B", help="run directory or released results file")
    add_source_arguments(parser, many=True)
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    parser.set_defaults(handler=run_compare)


def run_compare(args: argparse.Namespace) -> int:
    from ..scoring.comparison import compare
    from ..core.errors import ClarqError
    from .common import print_json
    from .score import score_path

    sides = []
    for path in (args.run_a, args.run_b):
        results = score_path(args, path)
        if len(results) != 1:
            raise ClarqError(f"{path} holds {len(results)} result sets", "compare one run or one file per side")
        sides.append(results[0])
    (source_a, _, verdicts_a), (source_b, _, verdicts_b) = sides
    result = compare(verdicts_a, verdicts_b, names=(source_a.name, source_b.name), seed=args.seed,
                     resamples=args.resamples, hashes=(task_hashes(source_a), task_hashes(source_b)))  # fmt: skip
    result.settings_differ = settings_differ(source_a, source_b)
    if args.json:
        print_json(result.model_dump(mode="json"))
    else:
        print_comparison(result)
    return 0


def task_hashes(source) -> dict[tuple[str, int], str]:  # type: ignore[no-untyped-def]
    """(task id, trial) -> content hash of the task each dialogue was played on (as recorded, else as loaded)."""
    return {(t.task_id, t.trial): t.task_hash or task.content_hash() for t, task in source.pairs}


#: Recorded in config.json but not a setting of the experiment (identity, timing, display, execution limits).
NOT_SETTINGS = ("run_id", "written_at", "config_hash", "progress", "concurrency", "max_cost", "use_cache",
                "turn_timeout", "max_errors")


def run_settings(source) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """What decided a side's dialogues: a run's config.json, else (a released file) its agents as recorded."""
    from ..core.jsonl import load_file
    from ..play.run_config import _flatten

    config_path = source.run_dir / "config.json" if source.run_dir is not None else None
    if config_path is not None and config_path.is_file():
        config = load_file(config_path)
    else:
        first = source.pairs[0][0]
        config = {"seeker": first.seeker.model_dump(mode="json"), "provider": first.provider.model_dump(mode="json")}
    flat = _flatten(config if isinstance(config, dict) else {})
    return {key: value for key, value in flat.items() if key.split(".")[0] not in NOT_SETTINGS}


def settings_differ(a, b) -> list[str]:  # type: ignore[no-untyped-def]
    """`provider.name: "offline" -> "gpt-4o"` for every setting that differs between the two sides."""
    import json

    left, right = run_settings(a), run_settings(b)
    keys = list(left) + [key for key in right if key not in left]
    shown = lambda value: json.dumps(value, ensure_ascii=False)  # noqa: E731
    return [f"{key}: {shown(left.get(key))} -> {shown(right.get(key))}" for key in keys if left.get(key) != right.get(key)]


def print_comparison(result) -> None:  # type: ignore[no-untyped-def]
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"A = {result.a}   B = {result.b}   ({result.pairs} pairs on {result.paired_on})")
    for column in ("figure", "A", "B", "A - B", "95% CI", "p", "test"):
        table.add_column(column, justify="left" if column in ("figure", "test") else "right")
    for d in result.differences:
        table.add_row(d.figure, f"{d.a:.4f}", f"{d.b:.4f}", f"{d.difference:+.4f}", f"[{d.low:+.4f}, {d.high:+.4f}]",
                      f"{d.p_value:.4f}", d.test)  # fmt: skip
    m = result.mcnemar
    table.add_row("success", "", "", f"{m['a_only']} vs {m['b_only']}", "", f"{m['p_value']:.4f}", "McNemar exact")
    console = Console()
    console.print(table)
    if result.settings_differ:
        console.print("settings that differ (A -> B): " + "; ".join(result.settings_differ), markup=False,
                      highlight=False)
    else:
        console.print("the two sides were played with the same settings", markup=False, highlight=False)
