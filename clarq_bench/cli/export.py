"""`clarq export RUN_DIR --format hf DIR`: share a run as a Hugging Face dataset (parquet + dataset card)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="export a run's dialogues and verdicts (Hugging Face dataset)")
    parser.add_argument("run_dir", metavar="RUN_DIR", help="a run directory")
    parser.add_argument("--format", choices=["hf"], default="hf", help="output format (hf: parquet + dataset card)")
    parser.add_argument("output", metavar="DIR", help="folder to write the dataset into")
    parser.add_argument("--data", metavar="DIR", help="task data the run used (default: the run's recorded folder)")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from ..api.support import export_hf

    path = export_hf(args.run_dir, args.output, data=args.data)
    print(f"wrote {path} and {path.parent.parent / 'README.md'}")
    return 0
