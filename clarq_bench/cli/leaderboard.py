"""`clarq leaderboard verify FILE...` and `clarq leaderboard build DIR -o SITE`: check submissions, write the site."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("leaderboard", help="verify submissions and build the static leaderboard site")
    commands = parser.add_subparsers(dest="leaderboard_command", metavar="COMMAND", required=True)
    verify = commands.add_parser("verify", help="recompute submissions from their transcripts; one line per problem")
    verify.add_argument("files", metavar="FILE", nargs="+", help="submission files (.json or .zip)")
    verify.add_argument(
        "--data",
        "--tasks",
        metavar="DIR",
        dest="data",
        help="task data (default: $CLARQ_DATA, then the download cache; tasks/ for the sample tasks)",
    )
    verify.set_defaults(handler=handle_verify)
    build = commands.add_parser("build", help="write a static HTML leaderboard from a folder of submissions")
    build.add_argument("directory", metavar="DIR", help="folder of submission files")
    build.add_argument("-o", "--output", metavar="SITE", required=True, help="output folder")
    build.add_argument("--reference", metavar="FILE_OR_DIR", help="released upstream results file(s) as reference rows")
    build.add_argument(
        "--data",
        "--tasks",
        metavar="DIR",
        dest="data",
        help="task data (default: $CLARQ_DATA, then "
        "the download cache); submissions on the sample tasks verify against tasks/ in any case",
    )
    build.add_argument("--no-verify", action="store_true", help="include submissions without verifying them")
    build.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    build.add_argument(
        "--pairwise",
        metavar="DIR",
        help="folder of pairwise-row.json files from `clarq judge-pairs` (default: DIR/pairwise when it exists)",
    )
    build.add_argument(
        "--tracks",
        metavar="DIR",
        help="folder of `clarq select` summary.json files, searched at any "
        "depth, shown as the offline track's table (default: DIR/tracks when it exists)",
    )
    build.set_defaults(handler=handle_build)


def handle_verify(args: argparse.Namespace) -> int:
    """Exit 0 when every file verifies, 1 when any has problems (printed one per line, prefixed by the file), 2 when
    any was refused before verifying (unreadable, unsafe or out of bounds: one line)."""
    from ..api import verify_submissions
    from ..core.redact import redact

    failed = refused = 0
    for path, outcome in zip(args.files, verify_submissions(args.files, data=args.data)):
        refused += outcome.refused
        for line in outcome.problems:
            print(redact(line if line.startswith(str(path)) else f"{path}: {line}"))
        for note in outcome.notes:
            print(redact(f"{path}: note: {note}"))
        if outcome.ok:
            print(f"{path}: verified ({outcome.provenance})")
        failed += not outcome.ok
    return 2 if refused else 1 if failed else 0


def handle_build(args: argparse.Namespace) -> int:
    from ..api import build_leaderboard
    from ..core.redact import redact

    index, entries, rejected = build_leaderboard(
        args.directory,
        args.output,
        reference=args.reference,
        data=args.data,
        verify=not args.no_verify,
        plots=not args.no_plots,
        pairwise=args.pairwise,
        tracks=args.tracks,
    )
    for name, problems in rejected:
        print(
            redact(f"rejected {name}: {problems[0]}" + (f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""))
        )
    print(f"wrote {index} ({len(entries)} entries, {len(rejected)} rejected)")
    from ..api.support import Refused

    # the site is written without them, but a file that could not be taken at all is an error of the input
    return 2 if any(problems and isinstance(problems[0], Refused) for _, problems in rejected) else 0
