"""The runs on disk: one row per run folder (who played, how far it got, what it cost, how to finish it), and the
runs identical to one about to start.

Why: without it, past runs are `ls runs/` and opening config.json, and running the same command twice silently
makes a second folder. Read from the files alone (config.json, transcripts.jsonl); a folder that is not a run is
skipped. The total comes from the task ids config.json records; a run whose task data moved shows its successes as
unknown (a run written before task ids were recorded, its total too). The folder itself is core.run_folder's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..core.run_config import RunConfig
from ..core.run_folder import FINISHED, RunDir
from ..core.tasks import Task
from ..core.transcript import EndReason


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
    state: str  # finished | scoring unfinished | unfinished | empty (core.run_folder.RunDir.state)
    config_hash: str = ""

    @property
    def resume_command(self) -> str | None:
        return None if self.state == FINISHED else f"clarq run --resume {self.run_dir}"


def agent_label(settings: Any) -> str:
    name = settings.name
    return f"{name} ({settings.model})" if settings.model and settings.model != name else name


_TASKS: dict[tuple, list[Task] | None] = {}


def _selected(folder: RunDir, raw: dict[str, Any]) -> list[Task] | None:
    """The tasks the run selected (the ids its config records), cached per selection; None when the data is gone."""
    from ..core.errors import ClarqError
    from ..data.selection import recorded_selection

    ids = raw.get("task_ids")
    key = (
        folder.data_dir(raw),
        tuple(ids) if isinstance(ids, list) else None,
        tuple(raw.get("languages") or ()),
        raw.get("split"),
        tuple(raw.get("types") or ()),
        raw.get("limit"),
        raw.get("seed"),
    )
    if key not in _TASKS:
        try:
            _TASKS[key] = recorded_selection(Path(key[0] or ""), raw)
        except (ClarqError, OSError, ValueError):
            _TASKS[key] = None
    return _TASKS[key]


def read_run(run_dir: Path) -> RunRow | None:
    """The row of one run folder; None when it holds no readable config.json."""
    from .batch import quick_success

    folder = RunDir(run_dir)
    try:
        raw = folder.raw_config()
        config = RunConfig.model_validate(raw)
    except Exception:  # noqa: BLE001 - not a run folder (or not one of ours): skipped, never the end of the listing
        return None
    try:
        transcripts, _ = folder.transcripts()
    except Exception:  # noqa: BLE001 - a damaged file still lists the run; resume names the bad line
        transcripts = []
    tasks = _selected(folder, raw)
    by_id = {task.id: task for task in tasks} if tasks is not None else None
    selected = len(config.task_ids) if config.task_ids is not None else len(tasks) if tasks is not None else None
    total = selected * config.trials if selected is not None else None
    successes = None
    if by_id is not None:
        successes = sum(quick_success(by_id[t.task_id], t) for t in transcripts if t.task_id in by_id)
    errors = sum(t.end_reason == EndReason.error for t in transcripts)
    cost = folder.whole_cost(transcripts)  # every session's dialogues and every scoring's judge (spending.json)
    return RunRow(
        run_dir=str(run_dir),
        run_id=str(raw.get("run_id") or run_dir.name),
        written_at=str(raw.get("written_at") or ""),
        seeker=agent_label(config.seeker),
        provider=agent_label(config.provider),
        languages=list(config.languages),
        done=len(transcripts),
        total=total,
        successes=successes,
        errors=errors,
        cost_usd=cost,
        state=folder.state(transcripts, total),
        config_hash=str(raw.get("config_hash") or ""),
    )


def list_runs(root: str | Path = "runs") -> list[RunRow]:
    """Every run folder directly under `root`, oldest first (run ids start with their start time)."""
    root = Path(root)
    if not root.is_dir():
        return []
    rows = [read_run(folder) for folder in sorted(root.iterdir()) if RunDir(folder).is_run()]
    return [row for row in rows if row is not None]


def identical_runs(config: RunConfig, root: str | Path) -> list[RunRow]:
    """Runs under `root` whose recorded config hash is this stamped config's (prepared.ready: endpoint, provider
    fingerprint, tree access): the same run again, which `--resume` would continue instead."""
    wanted = config.config_hash()
    root = Path(root)
    if not root.is_dir():
        return []
    found = []
    for folder in sorted(root.iterdir()):
        try:
            raw = RunDir(folder).raw_config() if RunDir(folder).is_run() else None
        except Exception:  # noqa: BLE001 - an unreadable folder is not the same run
            raw = None
        if isinstance(raw, dict) and raw.get("config_hash") == wanted:
            row = read_run(folder)
            if row is not None:
                found.append(row)
    return found
