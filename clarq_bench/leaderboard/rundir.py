"""Reading a run directory for packing (submit, export): its config, transcripts, recorded verdicts and tasks.

The folder is core.run_folder's RunDir: config.json read leniently as a dict (older or hand-written runs still
pack), transcripts.jsonl, and an optional verdicts.jsonl of recorded judge verdicts (the only place LLM-judged nodes
can come from: packing never calls a model). Tasks come from --data, else the run's recorded data folder, else
$CLARQ_DATA / the download cache: the ones whose ids config.json records (older runs: the runner's selection rule).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..core.errors import ClarqError
from ..core.jsonl import read_jsonl
from ..core.run_folder import RunDir
from ..core.tasks import Task
from ..core.transcript import Transcript
from ..data.selection import recorded_selection, run_selection
from ..scoring.judge import Verdict, judge_deterministic


def _read_jsonl(path: Path, model: type[BaseModel], what: str) -> list[Any]:
    """A run's JSONL file read the one way (clarq_bench.core.jsonl); an unfinished last line cannot be packed."""
    records, unfinished = read_jsonl(path, model, what, within=path.parent)
    if unfinished is not None:
        raise ClarqError(
            f"{path} line {unfinished} is unfinished (the run stopped mid-write)",
            "finish the run with `clarq run --resume` first",
        )
    return records


@dataclass
class RunFiles:
    """What a run directory holds, plus the tasks its transcripts were played on."""

    run_dir: Path
    config: dict[str, Any]
    transcripts: list[Transcript]
    recorded_verdicts: list[Verdict]
    tasks: dict[str, Task]  # every task the run selected, by id
    data_root: Path


def selected_tasks(config: dict[str, Any], root: Path) -> dict[str, Task]:
    """The tasks the run played on: the ids its config.json records (data.selection.recorded_selection)."""
    return {task.id: task for task in recorded_selection(root, config)}


def split_tasks(config: dict[str, Any], root: Path) -> dict[str, Task]:
    """Every task of the run's languages and split, whatever --types or --limit chose: what a complete submission
    covers, so a run on a subset can only be submitted as partial."""
    fields = {**config, "types": None, "limit": None}
    fields.pop("task_ids", None)
    return {task.id: task for task in run_selection(root, fields)}


def data_root_for(config: dict[str, Any], run_dir: Path, explicit: str | None) -> Path:
    """--data, else the folder the run recorded (absolute, or relative to cwd / the run dir), else the default."""
    from ..data.loader import resolve_data_dir

    if explicit:
        return Path(explicit).expanduser()
    recorded = RunDir(run_dir).data_dir(config)
    if recorded:
        for candidate in (Path(recorded).expanduser(), run_dir / recorded):
            if candidate.is_dir():
                return candidate
    return resolve_data_dir(None)


def read_run(run_dir: str | Path, data: str | None = None) -> RunFiles:
    """Load everything `clarq submit` / `clarq export` needs from a run directory."""
    folder = RunDir(run_dir)
    run_dir = folder.path
    config = folder.raw_config()
    if not folder.has_transcripts():
        raise ClarqError(f"{run_dir} has no transcripts.jsonl", "run some dialogues first")
    transcripts = _read_jsonl(folder.transcripts_path, Transcript, "transcript")
    if not transcripts:
        raise ClarqError(f"{run_dir} holds no transcripts", "run some dialogues first")
    trials = config.get("trials")  # a pair written twice or a trial outside the run's is refused, as score does
    folder.check_records(transcripts, trials if isinstance(trials, int) and trials >= 1 else None)
    verdicts_path = folder.verdicts_path
    recorded = _read_jsonl(verdicts_path, Verdict, "verdict") if verdicts_path.is_file() else []
    root = data_root_for(config, run_dir, data)
    tasks = selected_tasks(config, root)
    return RunFiles(run_dir, config, transcripts, recorded, tasks, root)


def verdicts_for(files: RunFiles) -> list[Verdict]:
    """One verdict per transcript: the recorded one when the run has verdicts.jsonl (its turns read again when they
    were recorded before the things they ask were counted), else the deterministic stage."""
    recorded = {(v.task_id, v.trial): v for v in files.recorded_verdicts}
    verdicts = []
    for transcript in files.transcripts:
        task = files.tasks.get(transcript.task_id)
        if task is None:
            raise ClarqError(
                f"transcript of task {transcript.task_id} is not among the run's selected tasks in {files.data_root}",
                "pass the run's task data with --data DIR",
            )
        verdict = recorded.get(transcript.key)
        if verdict is None:
            verdict = judge_deterministic(transcript, task)
        elif any(turn.asks is None for turn in verdict.seeker_turns):  # recorded before asks were counted
            verdict = verdict.model_copy(update={"seeker_turns": judge_deterministic(transcript, task).seeker_turns})
        verdicts.append(verdict)
    return verdicts
