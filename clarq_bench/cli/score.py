"""`clarq score PATH`: judge and summarize a run directory or a released results file."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a run directory or a released results file",
        description="Judge every dialogue and print success, AQD, AQL and more, each with a 95%% bootstrap interval. "
        "A run directory also gets summary.json, report.md and plots.",
    )
    add_source_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print summary.json to stdout instead of tables")
    parser.add_argument("--out", metavar="DIR", help="write the report files here (default: the run directory)")
    parser.add_argument("--no-write", action="store_true", help="write no report files")
    parser.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    parser.set_defaults(handler=run_score)


def add_source_arguments(parser: argparse.ArgumentParser, *, many: bool = False) -> None:
    """Flags shared with `clarq compare`: format, judge, data, split and bootstrap settings."""
    from .common import positive_int

    if not many:
        parser.add_argument("path", metavar="PATH", help="run directory, transcripts.jsonl or released results file")
    parser.add_argument("--format", choices=["auto", "clarq", "upstream"], default="auto", help="input format")
    parser.add_argument(
        "--judge", default="none", metavar="none|MODEL",
        help="model for the LLM check of nodes the text match missed (default: none = deterministic stage only)",
    )  # fmt: skip
    parser.add_argument("--data", metavar="DIR", help="task data of a run (default: the run's config.json)")
    parser.add_argument("--split", choices=["auto", "test", "dev", "all"], default="auto",
                        help="split to report (default: test when present, else all)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=8848, help="bootstrap seed (default: 8848)")
    parser.add_argument("--resamples", type=positive_int, default=2000, help="bootstrap resamples (default: 2000)")


def score_path(args: argparse.Namespace, path: str) -> list[tuple[object, object]]:
    """(Source, Summary) for every scorable set under `path`."""
    import asyncio

    from ..metrics import run_usage
    from ..metrics import summarize
    from ..scoring import judge_source, load_sources, node_check_for, select_split

    check = node_check_for(args.judge)
    results = []
    for source in load_sources(path, args.format, args.data):
        verdicts = asyncio.run(judge_source(source, check, args.judge))
        chosen, split = select_split(verdicts, args.split)
        usage = run_usage(t for t, _ in source.pairs) if source.run_dir is not None or source.name.endswith(".jsonl") \
            else None  # released files record no usage
        summary = summarize(chosen, source=source.name, split=split, seed=args.seed, resamples=args.resamples,
                            usage=usage)
        results.append((source, summary, chosen))
    return results


def run_score(args: argparse.Namespace) -> int:
    from ..report import print_table, summary_payload, write_report
    from .common import print_json

    results = score_path(args, args.path)
    for source, summary, _ in results:
        folder = Path(args.out) / source.name if args.out and len(results) > 1 else args.out or source.run_dir
        if folder is not None and not args.no_write:
            write_report(summary, folder, plots=not args.no_plots)
        if not args.json:
            print_table(summary)
    if args.json:
        payloads = {source.name: summary_payload(summary) for source, summary, _ in results}
        print_json(next(iter(payloads.values())) if len(payloads) == 1 else payloads)
    return 0
