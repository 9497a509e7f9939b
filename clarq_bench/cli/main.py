"""Entry point: builds the parser from the command modules and turns user errors into one line.

Command modules are imported here but must import nothing heavy at module level, so `clarq --help` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn

from .. import __version__
from ..core.errors import ClarqError

#: Command-group modules under clarq_bench.cli; each has `register(subparsers)` that sets `handler` on its parsers.
COMMAND_MODULES = ("tasks", "data", "run", "seekers", "play", "score", "compare", "provider_eval", "provider_audit", "submit", "export", "leaderboard", "judge_pairs", "select", "clariq", "mimics_duo", "view", "runs", "import_inspect")


class ClarqParser(argparse.ArgumentParser):
    """A usage error is one line and a hint, never the whole usage block (subcommand parsers inherit this class)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"clarq: error: {self.prog.removeprefix('clarq ') + ': ' if self.prog != 'clarq' else ''}"
                     f"{message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = ClarqParser(
        prog="clarq", description="Benchmark how well language-model agents ask clarification questions."
    )
    parser.add_argument("--version", action="version", version=f"clarq {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:  # every group ships with clarq: a failing import is a fault, never skipped
        importlib.import_module(f"{__package__}.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit code (2 for a user error, printed as one line)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    try:
        return int(handler(args) or 0)
    except ClarqError as exc:
        from ..core.redact import redact

        print(f"clarq: error: {redact(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("clarq: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
