"""An inspect eval log of `clarq_bench/clarq` -> a clarq run folder (`clarq import-inspect LOG`).

Why from the sample store and not the chat messages: the solver keeps each finished dialogue as clarq's own
Transcript record (turns, provider intents, revealed ids, end reason, seeds), and the task keeps its RunConfig in the
log's metadata, so nothing has to be re-derived. The folder is then an ordinary run: `clarq score`, `view`,
`compare`, `submit` read it, and for an offline provider `clarq leaderboard verify` replays every provider turn, so
an edited log is caught there, not trusted.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from ..core.errors import ClarqError, DataError
from ..core.run_config import RunConfig
from ..core.run_folder import RunDir
from ..core.transcript import Transcript
from .seeker import STORE_KEY
from .task import CONFIG_KEY, SEEKER_NAME

INSTALL = "pip install 'clarq-bench[inspect]'"


class Imported(NamedTuple):
    """What an import wrote: the run folder, its config, the dialogues and the samples left out (id, why)."""

    run_dir: Path
    config: RunConfig
    transcripts: list[Transcript]
    skipped: list[tuple[str, str]]


def read_log(path: str | Path) -> Any:
    """The eval log with its samples; a missing or unreadable file is a ClarqError naming it."""
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise ClarqError("reading inspect logs needs inspect_ai", INSTALL) from None
    source = Path(path).expanduser()
    if not source.is_file():
        raise ClarqError(f"{source}: no such eval log", "pass a .eval or .json file from inspect's log folder")
    try:
        return read_eval_log(str(source))
    except Exception as exc:  # inspect raises many kinds for a file that is not a log
        raise DataError(
            f"{source}: not a readable inspect eval log ({type(exc).__name__})",
            "pass a .eval or .json file written by `inspect eval`",
        ) from None


def log_config(log: Any, source: str) -> RunConfig:
    """The clarq RunConfig the task recorded, with the evaluated model as the seeker's model."""
    metadata = getattr(log.eval, "metadata", None) or {}
    if CONFIG_KEY not in metadata:
        raise DataError(
            f"{source}: not a log of the clarq_bench/clarq task (task {log.eval.task!r})",
            "pass a log written by `inspect eval clarq_bench/clarq`",
        )
    try:
        config = RunConfig.model_validate(metadata[CONFIG_KEY])
    except ValidationError as exc:
        raise DataError(
            f"{source}: its clarq config is malformed ({exc.errors()[0]['msg']})", "pass the log as inspect wrote it"
        ) from None
    return config.model_copy(update={"seeker": config.seeker.model_copy(update={"model": str(log.eval.model)})})


def log_transcripts(log: Any, source: str) -> tuple[list[Transcript], list[tuple[str, str]]]:
    """Every played dialogue of the log (one per sample and epoch), and the samples without one, with why."""
    found: dict[tuple[str, int], Transcript] = {}
    skipped: list[tuple[str, str]] = []
    for sample in log.samples or []:
        name = f"{sample.id} (epoch {sample.epoch})"
        record = (sample.store or {}).get(STORE_KEY)
        if record is None:
            why = f"inspect error: {sample.error.message}" if sample.error else "no dialogue played"
            skipped.append((name, " ".join(why.split())[:300]))
            continue
        try:
            transcript = Transcript.model_validate(record)
        except ValidationError as exc:
            raise DataError(
                f"{source}: sample {name}: malformed clarq transcript ({exc.errors()[0]['msg']})",
                "pass the log as inspect wrote it",
            ) from None
        if transcript.task_id != (sample.metadata or {}).get("task_id"):
            raise DataError(
                f"{source}: sample {name} holds a dialogue of {transcript.task_id}", "pass the log as inspect wrote it"
            )
        if transcript.key in found:
            raise DataError(
                f"{source}: sample {name} repeats task {transcript.task_id} trial {transcript.trial}",
                "pass the log as inspect wrote it",
            )
        found[transcript.key] = transcript
    return list(found.values()), skipped


def run_folder_name(config: RunConfig, log: Any) -> str:
    """`inspect-<model>-<provider>-<langs>-<log id>`: which log it came from, readable, one path component."""
    model = re.sub(r"[^A-Za-z0-9._+-]+", "_", str(config.seeker.model or SEEKER_NAME)).strip("._") or "model"
    log_id = re.sub(r"[^A-Za-z0-9]+", "", str(getattr(log.eval, "eval_id", "") or log.eval.run_id))[:10]
    return f"inspect-{model}-{config.provider.name}-{'+'.join(config.languages)}-{log_id}"


def import_log(path: str | Path, out: str | Path | None = None, *, runs_dir: str | Path = "runs") -> Imported:
    """Write the run folder of an eval log: config.json and transcripts.jsonl (scoring is the caller's next step).
    `out` names the folder (default: runs_dir/inspect-...); a folder that already holds transcripts is refused."""
    source = str(path)
    log = read_log(path)
    config = log_config(log, source)
    transcripts, skipped = log_transcripts(log, source)
    if not transcripts:
        raise DataError(
            f"{source}: no sample holds a played dialogue ({len(skipped)} without one)",
            "check the log's errors with `inspect view`",
        )
    if config.provider.name == "llm":  # the model bound to inspect's `provider` role, as the dialogues record it
        config = config.model_copy(
            update={"provider": config.provider.model_copy(update={"model": transcripts[0].provider.model})}
        )
    run_dir = Path(out) if out is not None else Path(runs_dir) / run_folder_name(config, log)
    folder = RunDir(run_dir)
    if folder.has_transcripts() and folder.transcripts_path.stat().st_size:
        raise ClarqError(f"{run_dir} already holds transcripts", "pass another folder with -o")
    folder.write_config(config)
    writer = folder.writer()
    try:
        for transcript in sorted(transcripts, key=lambda t: (t.task_id, t.trial)):
            writer.append(transcript)
    finally:
        writer.close()
    return Imported(run_dir, config, transcripts, skipped)
