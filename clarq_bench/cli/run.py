"""`clarq run`: play a seeker against a provider on the selected tasks into a run directory, then score it.

Thin: flags -> RunConfig -> runner.run_dialogues -> runner.summarize_run. On --resume the run's own config.json is
the base and only flags given explicitly change it (a change to a hashed field needs --force).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import add_data_arguments, positive_float, positive_int
from .llm_args import add_llm_arguments

#: Flags that map one-to-one onto RunConfig fields; None means "not given" so a resume keeps the saved value.
RUN_FIELDS = ("trials", "seed", "max_turns", "limit", "concurrency", "max_cost", "judge_model", "turn_timeout",
              "max_errors")


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
    side.add_argument("--seeker-model", help="model for LLM-backed seekers")
    side.add_argument("--seeker-mode", choices=["completion", "chat"], help="llm seeker layout (default: completion)")
    side.add_argument("--seeker-option", action="append", metavar="KEY=VALUE", help="custom seeker setting")
    side.add_argument("--replay", metavar="FILE", help="replay seeker: transcripts.jsonl or released results file")
    side.add_argument("--provider", help="offline, offline-e5, a model name for the LLM provider, or package.module:Class")
    side.add_argument("--provider-model", help="model of the LLM provider when --provider is not the model")
    side.add_argument("--provider-mode", choices=["single", "multi-info"], help="nodes per reply (default: single)")
    side.add_argument("--judge-model", help="LLM judge for leftover nodes at scoring (default: deterministic only)")
    plan = parser.add_argument_group("run")
    plan.add_argument("--trials", type=positive_int, help="dialogues per task, each with its own seed (default: 1)")
    plan.add_argument("--seed", type=int, help="base seed; trial t uses seed+t (default: 8848)")
    plan.add_argument("--max-turns", type=positive_int, help="seeker turns before a dialogue is cut off (default: 12)")
    plan.add_argument("--limit", type=positive_int, help="only the first N selected tasks")
    plan.add_argument("--concurrency", type=positive_int, help="dialogues in flight at once (default: 32)")
    plan.add_argument("--turn-timeout", type=positive_float, metavar="SECONDS",
                      help="longest one seeker or provider call may take before its dialogue ends with an error "
                           "(default: 600)")
    plan.add_argument("--max-errors", type=positive_int, metavar="N",
                      help="stop starting dialogues once N have ended with an error (default: no limit; an error no "
                           "retry can fix, such as a rejected key, stops the run at once)")
    plan.add_argument("--runs-dir", default="runs", help="where new run directories go (default: runs/)")
    plan.add_argument("--resume", metavar="RUN_DIR", help="continue a run: skip its finished (task, trial) pairs")
    plan.add_argument("--retry-errors", action="store_true",
                      help="with --resume: play again the dialogues that ended with an error (replacing their records)")
    plan.add_argument("--force", action="store_true", help="resume even though the config changed")
    plan.add_argument("--no-progress", action="store_true", help="no live progress display")


def _run(args: argparse.Namespace) -> int:
    import asyncio

    from ..play.runner import load_run_config, run_dir_for
    from .run_progress import build_config, llm_client_for, play_with_progress, select_tasks

    from ..core.errors import ClarqError

    if args.retry_errors and not args.resume:
        raise ClarqError("--retry-errors only applies to a resumed run", "pass --resume RUN_DIR --retry-errors")
    base = load_run_config(Path(args.resume)) if args.resume else None
    config, tasks = select_tasks(build_config(args, base), args)
    client = llm_client_for(config, args)
    run_dir = run_dir_for(config, Path(args.runs_dir), args.resume)
    return asyncio.run(play_with_progress(config, tasks, run_dir, client, resume=bool(args.resume), force=args.force,
                                          retry_errors=args.retry_errors))
