"""What `clarq run` does around the runner: flags -> RunConfig, task selection, LLM client, live progress, results.

Kept out of cli/run.py so that module stays import-light (`clarq --help` imports it); this one imports rich.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import ClarqError
from ..run_config import AgentSettings, RunConfig
from ..tasks import Task
from .common import parse_types, selected_languages
from .run import RUN_FIELDS


def _options(pairs: list[str] | None) -> dict[str, str]:
    options = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise ClarqError(f"bad --seeker-option {pair!r}", "write it as KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def replay_languages(path: Path) -> list[str]:
    """The languages a replay file holds (`.Ch.json` -> zh), so `--replay` needs no `--lang`."""
    if path.name.endswith(".Ch.json"):
        return ["zh"]
    if path.suffix == ".jsonl" and path.is_file():
        import json

        with path.open(encoding="utf-8") as lines:
            found = {json.loads(line).get("language", "en") for line in lines if line.strip().endswith("}")}
        return sorted(found) or ["en"]
    return ["en"]


def build_config(args: argparse.Namespace, base: RunConfig | None) -> RunConfig:
    """The run's config: the saved one on resume (explicit flags override), else defaults plus flags."""
    fields: dict[str, Any] = base.model_dump() if base else {
        "seeker": {"name": "heuristic"}, "provider": {"name": "offline"}, "languages": ["en"], "split": "test",
    }  # fmt: skip
    for name in RUN_FIELDS:
        if getattr(args, name, None) is not None:
            fields[name] = getattr(args, name)
    if args.lang:
        fields["languages"] = list(selected_languages(args.lang))
    elif args.replay and base is None:
        fields["languages"] = replay_languages(Path(args.replay))
    if args.split:
        fields["split"] = args.split
    if args.types:
        fields["types"] = parse_types(args.types)
    if args.tasks or args.data:
        fields["data_dir"] = str(Path(args.tasks or args.data).expanduser().resolve())
    seeker, provider = dict(fields["seeker"]), dict(fields["provider"])
    if args.seeker:
        seeker = {"name": args.seeker}
    for key, value in (("model", args.seeker_model), ("mode", args.seeker_mode)):
        if value is not None:
            seeker[key] = value
    if args.replay:
        seeker.setdefault("options", {})["replay"] = str(Path(args.replay).expanduser().resolve())
    if args.seeker_option:
        seeker["options"] = {**seeker.get("options", {}), **_options(args.seeker_option)}
    if args.provider:
        provider = {"name": args.provider}
    for key, value in (("model", args.provider_model), ("mode", args.provider_mode)):
        if value is not None:
            provider[key] = value
    fields["seeker"], fields["provider"] = AgentSettings(**seeker), AgentSettings(**provider)
    if args.no_progress:
        fields["progress"] = False
    return RunConfig(**fields)


def select_tasks(config: RunConfig, args: argparse.Namespace) -> tuple[RunConfig, list[Task]]:
    """Load the tasks the config names; record the resolved data folder and the tasks' digest in the config."""
    from ..data import load_tasks, resolve_data_dir
    from ..runner import tasks_digest

    root = resolve_data_dir(config.data_dir)
    split = None if config.split == "all" else config.split
    tasks = load_tasks(root, config.languages, split=split, types=config.types)
    if config.limit is not None:
        tasks = tasks[: config.limit]
    if not tasks:
        raise ClarqError("no tasks selected", "check --lang, --split, --types and --limit")
    return config.model_copy(update={"data_dir": str(root.resolve()), "tasks_digest": tasks_digest(tasks)}), tasks


def llm_client_for(config: RunConfig, args: argparse.Namespace) -> Any:
    """An LLMClient when either side needs a model (credentials checked now, before anything starts), else None."""
    from ..seekers.registry import SeekerConfig, describe

    seeker_name, seeker_model = describe(SeekerConfig(name=config.seeker.name, model=config.seeker.model))
    models = [m for m in (seeker_model, config.provider.model) if m]
    if config.provider.name not in ("offline", "llm") and ":" not in config.provider.name:
        models.append(config.provider.name)
    if config.judge_model:
        models.append(config.judge_model)
    if not models:
        return None
    try:
        from ..llm import LLMClient, check_credentials
        from .llm_args import settings_from_args
    except ImportError:
        raise ClarqError(f"{', '.join(models)} needs the LLM layer (clarq_bench.llm), which is not installed",
                         "use --seeker heuristic --provider offline, or reinstall clarq") from None

    settings = settings_from_args(args)
    check_credentials(models, api_base=getattr(settings, "api_base", None))
    if config.max_cost is not None:
        settings = settings.model_copy(update={"max_cost": config.max_cost})
    return LLMClient(settings)


async def play_with_progress(
    config: RunConfig, tasks: list[Task], run_dir: Path, client: Any, *, resume: bool, force: bool
) -> int:
    """Run with a live progress line (when enabled and on a terminal), then print the results table."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..runner import run_dialogues, summarize_run

    console = Console(stderr=True)
    total = len(tasks) * config.trials
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("{task.fields[line]}"), console=console, disable=not (config.progress and console.is_terminal),
    )  # fmt: skip
    with progress:
        bar = progress.add_task("dialogues", total=total, line="")

        def update(stats: Any) -> None:
            progress.update(bar, completed=stats.done + stats.skipped, line=stats.line())

        stats = await run_dialogues(config, tasks, run_dir, client=client, resume=resume, force=force, on_update=update)
    console.print(f"{stats.line()}  ({stats.skipped} already done)  -> {run_dir}")
    if stats.stopped_for_budget:
        console.print(f"budget reached: stopped starting dialogues; raise --max-cost and --resume {run_dir}")
    summary = await summarize_run(run_dir, tasks, config.judge_model)
    if summary is not None:
        from ..report import print_table

        print_table(summary, Console(file=sys.stdout))
    return 0
