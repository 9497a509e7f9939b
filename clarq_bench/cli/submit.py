"""`clarq submit RUN_DIR -o FILE`: pack a finished run as a leaderboard submission (JSON, or zip when FILE ends .zip)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "submit",
        help="pack a run as a leaderboard submission file",
        description="Pack a run directory into one verifiable submission file.",
    )
    parser.add_argument("run_dir", metavar="RUN_DIR", help="a run directory (config.json + transcripts.jsonl)")
    parser.add_argument("-o", "--output", metavar="FILE", required=True, help="submission file (.json or .zip)")
    parser.add_argument("--name", default="", help="display name on the leaderboard")
    parser.add_argument("--org", default="", help="organisation")
    parser.add_argument("--notes", default="", help="free-text notes")
    parser.add_argument("--partial", action="store_true", help="accept a run with missing dialogues (marked partial)")
    parser.add_argument("--data", metavar="DIR", help="task data the run used (default: the run's recorded folder)")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    import sys

    from ..api import submit
    from ..api.support import BENCHMARK, describe, kind_of

    submission, path = submit(
        args.run_dir, args.output, name=args.name, org=args.org, notes=args.notes, data=args.data, partial=args.partial
    )
    m = submission.manifest
    success = m.metrics["summary"]["success"]["value"]
    extra = f", partial: {len(m.missing)} missing" if m.partial else ""
    kind = kind_of(m.task_hashes)
    print(
        f"wrote {path}: {m.transcript_count} dialogues, {m.label.value}{extra}, success {success:.3f}, on "
        f"{describe(kind, len(m.task_hashes))}"
    )
    if kind != BENCHMARK:
        print(
            "clarq: note: the leaderboard shows this row in a table of its own, titled as not the benchmark, never "
            "ranked with benchmark rows",
            file=sys.stderr,
        )
    return 0
