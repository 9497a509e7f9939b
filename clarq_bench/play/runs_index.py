"""The runs on disk: one row per run folder (who played, how far it got, what it cost, how to finish it), and the
runs identical to one about to start.

Why: without it, past runs are `ls runs/` and opening config.json, and running the same command twice silently
makes a second folder. Read from the files alone (config.json, transcripts.jsonl); a folder that is not a run is
skipped, a run whose task data moved shows its total as unknown.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..core.jsonl import load_file, read_jsonl
from ..core.tasks import Task
from ..core.transcript import EndReason, Transcript
from .run_config import RunConfig

CONFIG_FILE, TRANSCRIPTS_FILE = "config.json", "transcripts.jsonl"
FINISHED, UNFINISHED, EMPTY = "finished", "unfinished", "empty"


class RunRow(BaseModel):
    """One run folder, as `clarq runs` shows it."""

    run_dir: str
    run_id: str
    written_at: str = ""
    seeker: str
    provider: str
    languages: list[str]
    done: int  # dialogues in transcripts.jsonl
    total: int | None  # tasks x trials the run selected (None: its task data is not where it was)
    successes: int | None  # every required node carried (the cheap deterministic rule); None without tasks
    errors: int
    cost_usd: float
    state: str  # finished | unfinished | empty
    config_hash: str = ""

    @property
    def resume_command(self) -> str | None:
        return None if self.state == FINISHED else f"clarq run --resume {self.run_dir}"


def agent_label(settings: Any) -> str:
    name = settings.name
    return f"{name} ({settings.model})" if settings.model and settings.model != name else name


_TASKS: dict[tuple, list[Task] | None] = {}


def _selected(config: RunConfig) -> list[Task] | None:
    """The tasks the run selected (as select_tasks does), cached per selection; None when the data is gone."""
    from ..core.errors import ClarqError
    from ..data.loader import load_tasks
    from .setup import spread_limit

    key = (config.data_dir, tuple(config.languages), config.split, tuple(config.types or ()), config.limit, config.seed)
    if key not in _TASKS:
        try:
            split = None if config.split == "all" else config.split
            tasks = load_tasks(Path(config.data_dir or ""), config.languages, split=split, types=config.types)
            _TASKS[key] = spread_limit(tasks, config.limit, config.seed) if config.limit else tasks
        except (ClarqError, OSError, ValueError):
            _TASKS[key] = None
    return _TASKS[key]


def read_run(run_dir: Path) -> RunRow | None:
    """The row of one run folder; None when it holds no readable config.json."""
    from .runner import quick_success

    try:
        raw = load_file(run_dir / CONFIG_FILE)
        config = RunConfig.model_validate(raw)
    except Exception:  # noqa: BLE001 - not a run folder (or not one of ours): skipped, never the end of the listing
        return None
    transcripts: list[Transcript] = []
    if (run_dir / TRANSCRIPTS_FILE).is_file():
        try:
            transcripts, _ = read_jsonl(run_dir / TRANSCRIPTS_FILE, Transcript, "transcript")
        except Exception:  # noqa: BLE001 - a damaged file still lists the run; resume names the bad line
            transcripts = []
    tasks = _selected(config)
    by_id = {task.id: task for task in tasks} if tasks is not None else None
    total = len(tasks) * config.trials if tasks is not None else None
    successes = None
    if by_id is not None:
        successes = sum(quick_success(by_id[t.task_id], t) for t in transcripts if t.task_id in by_id)
    errors = sum(t.end_reason == EndReason.error for t in transcripts)
    finished_records = sum(t.end_reason != EndReason.budget for t in transcripts)
    if not transcripts:
        state = EMPTY
    elif total is not None and finished_records >= total:
        state = FINISHED
    else:
        state = UNFINISHED
    cost = sum(usage.cost_usd for t in transcripts for usage in t.usage.values())
    return RunRow(run_dir=str(run_dir), run_id=str(raw.get("run_id") or run_dir.name),
                  written_at=str(raw.get("written_at") or ""), seeker=agent_label(config.seeker),
                  provider=agent_label(config.provider), languages=list(config.languages), done=len(transcripts),
                  total=total, successes=successes, errors=errors, cost_usd=cost, state=state,
                  config_hash=str(raw.get("config_hash") or ""))  # fmt: skip


def list_runs(root: str | Path = "runs") -> list[RunRow]:
    """Every run folder directly under `root`, oldest first (run ids start with their start time)."""
    root = Path(root)
    if not root.is_dir():
        return []
    rows = [read_run(folder) for folder in sorted(root.iterdir()) if (folder / CONFIG_FILE).is_file()]
    return [row for row in rows if row is not None]


def identical_runs(config: RunConfig, client: Any, root: str | Path) -> list[RunRow]:
    """Runs under `root` whose recorded config hash is the one this config will have once stamped (endpoint,
    provider fingerprint, tree access): the same run again, which `--resume` would continue instead."""
    from .run_identity import stamp_config
    from .runner import seeker_config
    from ..seekers.registry import resolve_seeker

    factory, _ = resolve_seeker(seeker_config(config.seeker, client))
    wanted = stamp_config(config, client, factory).config_hash()
    root = Path(root)
    if not root.is_dir():
        return []
    found = []
    for folder in sorted(root.iterdir()):
        try:
            raw = load_file(folder / CONFIG_FILE) if (folder / CONFIG_FILE).is_file() else None
        except Exception:  # noqa: BLE001 - an unreadable folder is not the same run
            raw = None
        if isinstance(raw, dict) and raw.get("config_hash") == wanted:
            row = read_run(folder)
            if row is not None:
                found.append(row)
    return found
