"""`clarq run`: play a seeker against a provider on the selected tasks into a run directory, then score it.

Thin: flags -> one RunOptions -> `clarq_bench.api.run` (runner/prepare.py builds the config; the runner plays and scores),
with a live progress line, then the results. On --resume the run's own config.json is the base and only flags given
explicitly change it (a change to a hashed field needs --force).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..core.defaults import DEFAULT_CONCURRENCY, DEFAULT_MAX_TURNS, DEFAULT_SEED, DEFAULT_TURN_TIMEOUT
from .common import add_data_arguments, positive_float, positive_int
from .llm_args import add_llm_arguments


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="play dialogues into a run directory and score them")
    add_data_arguments(parser)
    parser.set_defaults(lang=None, split=None, handler=_run)
    add_llm_arguments(parser)
    for action in parser._actions:  # same flags as other commands, but a run defaults to one language's test set
        if action.dest == "lang":
            action.help = "language (default: en; with --replay, the file's)"
        elif action.dest == "split":
            action.help = "split (default: test)"
    side = parser.add_argument_group("agents")
    side.add_argument("--seeker", help="registered seeker, package.module:Class, or a model name (default: heuristic)")
    side.add_argument(
        "--seeker-module",
        action="append",
        metavar="FILE.py",
        help="import this file first, so the seekers it registers (@register_seeker) work by name",
    )
    side.add_argument("--seeker-model", help="model for LLM-backed seekers")
    side.add_argument("--seeker-mode", choices=["completion", "chat"], help="llm seeker layout (default: completion)")
    side.add_argument("--seeker-option", action="append", metavar="KEY=VALUE", help="custom seeker setting")
    side.add_argument("--replay", metavar="FILE", help="replay seeker: transcripts.jsonl or released results file")
    side.add_argument(
        "--provider",
        help="offline, offline-e5, a model name for the LLM provider, or "
        "package.module:Class (default: gpt-4o, as in the paper: needs OPENAI_API_KEY; "
        "--provider offline needs no key)",
    )
    side.add_argument("--provider-model", help="model of the LLM provider when --provider is not the model")
    side.add_argument("--provider-mode", choices=["single", "multi-info"], help="nodes per reply (default: single)")
    side.add_argument(
        "--provider-reading",
        choices=["model", "strict"],
        help="LLM provider: who decides what a turn asks; model: its model, within the tree's order "
        "(default, as in the paper); strict: the offline provider's screen and focus rule may "
        "also refuse what the model chose (a setting of its own on compare and the leaderboard)",
    )
    side.add_argument(
        "--judge",
        dest="judge_model",
        metavar="none|MODEL",
        help="model for the LLM check of nodes the text match missed, at scoring (default: none = "
        "deterministic only; the same flag as `clarq score --judge`)",
    )
    side.add_argument("--judge-model", dest="judge_model", help=argparse.SUPPRESS)  # the old name, still accepted
    plan = parser.add_argument_group("run")
    plan.add_argument("--trials", type=positive_int, help="dialogues per task, each with its own seed (default: 1)")
    plan.add_argument("--seed", type=int, help=f"base seed; trial t uses seed+t (default: {DEFAULT_SEED})")
    plan.add_argument(
        "--max-turns",
        type=positive_int,
        help=f"seeker turns before a dialogue is cut off (default: {DEFAULT_MAX_TURNS})",
    )
    plan.add_argument(
        "--limit", type=positive_int, help="only N of the selected tasks, spread over their types (--seed)"
    )
    plan.add_argument(
        "--concurrency", type=positive_int, help=f"dialogues in flight at once (default: {DEFAULT_CONCURRENCY})"
    )
    plan.add_argument(
        "--provider-workers",
        type=positive_int,
        metavar="N",
        help="offline provider only: decide its replies in N worker processes instead of the run's "
        "own (for hundreds of dialogues in flight on several cores; replies are the same)",
    )
    plan.add_argument(
        "--turn-timeout",
        type=positive_float,
        metavar="SECONDS",
        help=f"longest one seeker or provider call may take before its dialogue ends with an error (default: {DEFAULT_TURN_TIMEOUT:g})",
    )
    plan.add_argument(
        "--max-errors",
        type=positive_int,
        metavar="N",
        help="stop starting dialogues once N have ended with an error (default: no limit; an error no "
        "retry can fix, such as a rejected key, stops the run at once)",
    )
    plan.add_argument("--runs-dir", default="runs", help="where new run directories go (default: runs/)")
    plan.add_argument("--resume", metavar="RUN_DIR", help="continue a run: skip its finished (task, trial) pairs")
    plan.add_argument(
        "--retry-errors",
        action="store_true",
        help="with --resume: play again the dialogues that ended with an error (replacing their records)",
    )
    plan.add_argument("--force", action="store_true", help="resume even though the config changed")
    plan.add_argument("--no-progress", action="store_true", help="no live progress display")
    plan.add_argument(
        "--dry-run",
        action="store_true",
        help="print the tasks, the model calls per role and a dollar range, then stop (nothing played, "
        "no key needed, no network)",
    )


def _run(args: argparse.Namespace) -> int:
    from ..api.support import RunOptions

    if getattr(args, "judge_model", None) == "none":
        args.judge_model = None
    request = RunOptions.of(args)  # the run's one request, handed as it is to the API
    if request.dry_run:
        from .run_plan import print_estimate

        return print_estimate(request)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..api import run

    console = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[line]}"),
        console=console,
        disable=True,
    )
    bar = progress.add_task("dialogues", total=None, line="")

    started: list[Any] = []  # the run's config, told after the run folder line (scripts read that one first)

    def start(config: Any, tasks: list) -> None:
        started.append(config)
        progress.disable = not (config.progress and console.is_terminal)
        progress.update(bar, total=len(tasks) * config.trials)
        progress.start()

    def update(stats: Any) -> None:
        progress.update(bar, completed=stats.done + stats.skipped, line=stats.line())

    folder: list[Path] = [Path(request.resume)] if request.resume else []  # a new run's once config.json is written

    def announce(run_dir: Path, twins: list) -> None:
        if not request.resume:
            folder.append(run_dir)  # a resumed run's folder and command are the ones just typed
            console.print(run_folder_line(run_dir), markup=False, highlight=False, soft_wrap=True)
        if started:
            console.print(provider_line(started[0]), markup=False, highlight=False, soft_wrap=True)
            note = transport_note(args, started[0])
            if note:
                console.print(note, markup=False, highlight=False, soft_wrap=True)
        for twin in twins:
            console.print(twin_warning(twin), markup=False, highlight=False, soft_wrap=True)

    try:
        result = run(request, on_start=start, on_update=update, on_run_dir=announce)
    except KeyboardInterrupt:
        progress.stop()
        if not folder:
            raise
        print(interrupted_line(folder[0]), file=sys.stderr)
        return 130
    finally:
        progress.stop()
    report(result.stats, result.run_dir, console)
    if result.summary is not None:
        from ..api.support import print_table

        print_table(result.summary, Console(file=sys.stdout))
    return outcome(result.stats, result.run_dir)


def transport_note(args: argparse.Namespace, config: Any) -> str | None:
    """A note when --transport litellm sends calls the plain HTTP path could send: litellm's own CPU per call is
    ~10 times that path's, and with many dialogues in flight that CPU, not the model, sets the pace."""
    api_base = getattr(args, "api_base", None)
    if getattr(args, "transport", "auto") != "litellm" or not api_base:
        return None
    from ..api.support import resolve_model, uses_direct

    models = [config.seeker.model, config.provider.model, config.judge_model]
    direct = sorted({m for m in models if m and uses_direct("auto", api_base, resolve_model(m))})
    if not direct:
        return None
    return (
        f"note: --transport litellm spends ~8 ms of CPU a call in litellm ({', '.join(direct)} at {api_base} would "
        "take the plain HTTP path of the default --transport auto, under 1 ms); with many dialogues in flight that "
        "CPU sets the pace"
    )


def provider_line(config: Any) -> str:
    """Who answers the seeker, as the run records it: name, mode and (an LLM provider) its reading."""
    settings = config.provider
    name = (
        settings.name
        if not settings.model or settings.model == settings.name
        else f"{settings.name} ({settings.model})"
    )
    mode = "multi-info" if str(settings.mode or "single").startswith("multi") else "single-info"
    reading = settings.options.get("reading")
    said = {
        "model": ", model reading (its model decides what is revealed, as in the paper)",
        "strict": ", strict reading (the offline provider's screen and focus rule may refuse the model's choice)",
    }
    return f"provider: {name}, {mode}{said.get(str(reading), '')}"


def run_folder_line(run_dir: Path) -> str:
    return f"run folder: {run_dir}  (Ctrl-C stops it; continue with: clarq run --resume {run_dir})"


def twin_warning(twin: Any) -> str:
    """One line naming an identical run that already exists, and how to continue it instead."""
    total = "?" if twin.total is None else twin.total
    then = (
        f"its dialogues: clarq view {twin.run_dir}"
        if twin.resume_command is None
        else f"to continue it instead: {twin.resume_command}"
    )
    return f"warning: an identical run already exists: {twin.run_dir} ({twin.done}/{total} dialogues, {twin.state}); {then}"


def interrupted_line(run_dir: Path) -> str:
    """What Ctrl-C leaves: the dialogues already written are safe; the command that plays the rest."""
    from ..core.run_folder import RunDir

    path = RunDir(run_dir).transcripts_path
    written = path.read_bytes().count(b"\n") if path.is_file() else 0
    return (
        f"clarq: interrupted; {written} dialogues are saved in {run_dir}; continue with: clarq run --resume {run_dir}"
    )


def report(stats: Any, run_dir: Path, console: Any) -> None:
    """The run's closing lines on stderr: warnings, totals, errors kept, budget reached."""
    for note in stats.notes:
        console.print(f"warning: {note}", markup=False, highlight=False, soft_wrap=True)
    console.print(
        f"{stats.line()}  ({stats.skipped} already done)  -> {run_dir}", markup=False, highlight=False, soft_wrap=True
    )
    if stats.skipped_errors:
        console.print(
            f"{stats.skipped_errors} of the dialogues already done ended with an error and were kept; "
            f"play them again with --resume {run_dir} --retry-errors"
        )
    if stats.stopped_for_budget:
        console.print(f"budget reached: stopped starting dialogues; raise --max-cost and --resume {run_dir}")


def outcome(stats: Any, run_dir: Path) -> int:
    """The exit code, with one line on stderr when it is not 0: 1 when the breaker stopped the run or dialogues of
    the run ended with an error (their results are written, but are not a clean measurement)."""
    if stats.stopped:
        unplayed = stats.total - stats.skipped - stats.done
        print(
            f"clarq: run stopped: {stats.stopped}; {stats.done} dialogues written, {unplayed} not played "
            f"(fix the cause, then --resume {run_dir})",
            file=sys.stderr,
        )
        return 1
    errors = stats.errors + stats.skipped_errors
    if errors:
        reasons = ", ".join(f"{reason} {count}" for reason, count in sorted(stats.end_reasons.items())) or "none"
        print(
            f"clarq: {errors} dialogues ended with an error (played this session: {reasons}); their `error` field in "
            f"{run_dir}/transcripts.jsonl says why; play them again with --resume {run_dir} --retry-errors",
            file=sys.stderr,
        )
        return 1
    return 0
