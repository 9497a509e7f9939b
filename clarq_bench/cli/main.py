"""Entry point: builds the parser from the command modules and turns user errors into one line.

Command modules are imported here but must import nothing heavy at module level, so `clarq --help` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn

from ..core.errors import ClarqError
from ..core.version import __version__

#: Command-group modules under clarq_bench.cli; each has `register(subparsers)` that sets `handler` on its parsers.
COMMAND_MODULES = (
    "tasks",
    "data",
    "run",
    "seekers",
    "play",
    "score",
    "compare",
    "provider_eval",
    "natural_eval",
    "provider_audit",
    "submit",
    "export",
    "leaderboard",
    "judge_pairs",
    "select",
    "clariq",
    "mimics_duo",
    "view",
    "runs",
    "import_inspect",
    "fake_server",
)


class ClarqParser(argparse.ArgumentParser):
    """A usage error is one line and a hint, never the whole usage block (subcommand parsers inherit this class)."""

    def error(self, message: str) -> NoReturn:
        self.exit(
            2,
            f"clarq: error: {self.prog.removeprefix('clarq ') + ': ' if self.prog != 'clarq' else ''}"
            f"{message} (see `{self.prog} --help`)\n",
        )


def build_parser() -> argparse.ArgumentParser:
    parser = ClarqParser(
        prog="clarq", description="Benchmark how well language-model agents ask clarification questions."
    )
    parser.add_argument("--version", action="version", version=f"clarq {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:  # every group ships with clarq: a failing import is a fault, never skipped
        importlib.import_module(f"{__package__}.{name}").register(subparsers)
    return parser


def _chosen_parsers(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[argparse.ArgumentParser]:
    """The parser of the command given and of its chosen subcommand (`leaderboard verify`), outermost first."""
    chain = [parser]
    while True:
        subs = [a for a in chain[-1]._actions if isinstance(a, argparse._SubParsersAction)]
        chosen = subs and subs[0].choices.get(str(getattr(args, subs[0].dest or "", "") or ""))
        if not chosen:
            return chain
        chain.append(chosen)


def _flag_hint(parser: argparse.ArgumentParser, args: argparse.Namespace, extras: list[str]) -> str:
    """`; did you mean --seeker?` for each misspelt flag, among the flags of the command given."""
    import difflib

    known = [flag for p in _chosen_parsers(parser, args) for a in p._actions for flag in a.option_strings]
    guesses = []
    for extra in extras:
        if extra.startswith("--"):
            close = difflib.get_close_matches(extra.split("=", 1)[0], known, n=1, cutoff=0.7)
            guesses += [(close[0], extra.split("=", 1)[0])] if close else []
    if len(guesses) == 1:
        return f"; did you mean {guesses[0][0]}?"
    return (
        ("; did you mean " + ", ".join(f"{right} (for {wrong})" for right, wrong in guesses) + "?") if guesses else ""
    )


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit code (2 for a user error, printed as one line)."""
    parser = build_parser()
    args, extras = parser.parse_known_args(argv)
    if extras:
        chain = _chosen_parsers(parser, args)
        chain[-1].error(f"unrecognized arguments: {' '.join(extras)}{_flag_hint(parser, args, extras)}")
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


def stop_like_ctrl_c() -> None:
    """SIGTERM and SIGHUP (`kill`, a closed terminal, a job scheduler) end any command the way Ctrl-C does, at any
    point of it: what is finished is saved, one line, exit 130 (a run's or a scoring's loop takes them over while it
    runs, core/loop.py, and gives them back)."""
    import signal

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            try:
                signal.signal(getattr(signal, name), interrupt)
            except (ValueError, OSError):  # not the main thread
                pass


#: The cyclic collector's first threshold for a command (Python's default is 700 allocations). A command loads tasks,
#: models and records that live as long as it does, and with the default every few hundred new objects the collector
#: walked the young ones and, every hundred walks, all of them: ~6% of a 260-dialogue offline run's CPU.
GC_FIRST_THRESHOLD = 20_000


def entry() -> None:
    import gc
    import os

    gc.set_threshold(GC_FIRST_THRESHOLD, *gc.get_threshold()[1:])
    stop_like_ctrl_c()
    if not sys.stdout.isatty():  # piped or redirected: rich would wrap tables at 80 columns ("questi..."); a file
        os.environ.setdefault("COLUMNS", "240")  # or a pager has no width, so give tables the room they need
    sys.exit(main())


if __name__ == "__main__":
    entry()
