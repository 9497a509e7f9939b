"""`clarq score PATH`: judge and summarize a run directory or a released results file."""

from __future__ import annotations

import argparse
from typing import Literal, TypedDict

from ..core.defaults import DEFAULT_RESAMPLES, DEFAULT_SEED


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
        "--judge",
        default="none",
        metavar="none|MODEL",
        help="model for the LLM check of nodes the text match missed (default: none = deterministic stage only)",
    )
    parser.add_argument("--api-base", metavar="URL", help="OpenAI-compatible endpoint of the judge model")
    parser.add_argument("--judge-model", dest="judge", help=argparse.SUPPRESS)  # `clarq run`'s old spelling
    parser.add_argument("--data", metavar="DIR", help="task data of a run (default: the run's config.json)")
    parser.add_argument(
        "--split",
        choices=["auto", "test", "dev", "all"],
        default="auto",
        help="split to report (default: test when present, else all)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"bootstrap seed (default: {DEFAULT_SEED})")
    parser.add_argument(
        "--resamples",
        type=positive_int,
        default=DEFAULT_RESAMPLES,
        help=f"bootstrap resamples (default: {DEFAULT_RESAMPLES})",
    )


class SourceOptions(TypedDict):
    """What score and compare read a run with."""

    format: Literal["auto", "clarq", "upstream"]
    judge: str
    data: str | None
    split: str
    seed: int
    resamples: int
    api_base: str | None


def source_options(args: argparse.Namespace) -> SourceOptions:
    """The API's keyword arguments for the flags of add_source_arguments."""
    return {
        "format": args.format,
        "judge": args.judge,
        "data": args.data,
        "split": args.split,
        "seed": args.seed,
        "resamples": args.resamples,
        "api_base": args.api_base,
    }


def run_score(args: argparse.Namespace) -> int:
    from ..api import score
    from ..api.support import print_table, summary_payload
    from .common import print_json

    results = score(args.path, out=args.out, write=not args.no_write, plots=not args.no_plots, **source_options(args))
    if not args.json:
        for result in results:
            print_table(result.summary)
    if args.json:
        payloads = {result.source.name: summary_payload(result.summary) for result in results}
        print_json(next(iter(payloads.values())) if len(payloads) == 1 else payloads)
    return 0
