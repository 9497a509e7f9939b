"""`clarq import-inspect LOG`: an inspect eval log of the clarq_bench/clarq task as a scored clarq run folder."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "import-inspect",
        help="turn an inspect eval log of clarq_bench/clarq into a clarq run folder",
        description="Write the dialogues of an `inspect eval clarq_bench/clarq` log as a run folder (config.json, "
        "transcripts.jsonl) and score it; the folder then views, compares, submits and verifies like any run.",
    )
    parser.add_argument("log", metavar="LOG", help="a .eval or .json log written by inspect")
    parser.add_argument("-o", "--out", metavar="DIR", help="the run folder to write (default: RUNS/inspect-...)")
    parser.add_argument("--runs-dir", default="runs", metavar="DIR", help="where the run folder goes (default: runs)")
    parser.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    parser.set_defaults(handler=run_import)


def run_import(args: argparse.Namespace) -> int:
    from ..api import import_inspect
    from ..api.support import print_table

    imported, scored = import_inspect(args.log, args.out, runs_dir=args.runs_dir, plots=not args.no_plots)
    for sample, why in imported.skipped:
        print(f"clarq: sample {sample} left out: {why}", file=sys.stderr)
    print(f"clarq: {len(imported.transcripts)} dialogues written to {imported.run_dir}", file=sys.stderr)
    print_table(scored.summary)
    return 1 if imported.skipped else 0
