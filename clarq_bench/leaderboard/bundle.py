"""`clarq submit`: pack a finished run into one submission file, and read submission files back.

A submission is a single JSON document (`.json`) or a zip of manifest.json + transcripts.jsonl + verdicts.jsonl
(`.zip`). Packing refuses an incomplete run (a selected task or trial without a transcript) unless `partial`, labels
the run standard or custom, records per-task content hashes and the task-set hash, and computes the figures that
`clarq leaderboard verify` will recompute. Reading goes through safety.py and never executes anything.
"""

from __future__ import annotations

import zipfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..core.defaults import DEFAULT_MAX_TURNS
from ..core.errors import ClarqError
from ..core.jsonl import dumps_line, loads, parse_models
from ..core.redact import redact, redact_data
from ..core.run_folder import tasks_digest
from ..core.transcript import AgentInfo, Speaker, Transcript
from ..core.version import __version__
from ..scoring.judge import Verdict
from . import bounds
from .consistency import recorded_models, side_identity
from .figures import DEFAULT_RESAMPLES, compute_metrics
from .rundir import read_run, split_tasks, verdicts_for
from .safety import read_json_bytes, read_zip_bytes
from .schema import Label, Manifest, Submission, Submitter, dialogue_key, task_set_hash
from .seal import seal

#: The standard setting: our LLM provider on this model, in this mode, with this turn cap.
STANDARD_PROVIDER = "gpt-4o"
STANDARD_MODE = "single"
STANDARD_MAX_TURNS = DEFAULT_MAX_TURNS
STANDARD_READING = "model"  # the provider's model decides what it reveals, as in the paper


def classify(config: dict[str, Any], provider: AgentInfo) -> tuple[Label, list[str]]:
    """oracle-class when the seeker was handed the response tree; else standard when the provider is gpt-4o in
    single-info mode, its model deciding (model reading), with the default turn cap; else custom, with why."""
    from ..core.jsonl import flatten
    from ..scoring.settings_diff import provider_reading

    if config.get("seeker_tree_access"):
        return Label.oracle, ["the seeker was given the response tree (needs_tree)"]
    settings = got if isinstance(got := config.get("provider"), dict) else provider.settings
    name = str(settings.get("name") or provider.name)
    model = settings.get("model") or provider.model
    mode = settings.get("mode") or STANDARD_MODE
    reasons = []
    if STANDARD_PROVIDER not in (name, model):
        reasons.append(f"provider {model or name} (standard: {STANDARD_PROVIDER})")
    if mode != STANDARD_MODE:
        reasons.append(f"provider mode {mode} (standard: {STANDARD_MODE})")
    reading = provider_reading(flatten(config), name) if isinstance(config.get("provider"), dict) else None
    if reading is not None and reading != STANDARD_READING:
        reasons.append(f"provider reading {reading} (standard: {STANDARD_READING})")
    max_turns = config.get("max_turns", STANDARD_MAX_TURNS)
    if max_turns != STANDARD_MAX_TURNS:
        reasons.append(f"turn cap {max_turns} (standard: {STANDARD_MAX_TURNS})")
    return (Label.custom if reasons else Label.standard), reasons


def _judge_identity(verdicts: list[Verdict], config: dict[str, Any]) -> AgentInfo:
    names = sorted({v.judge for v in verdicts}) or ["none"]
    name = "none" if names == ["none"] else ", ".join(n for n in names if n != "none")
    return AgentInfo(name=name, model=None if name == "none" else config.get("judge_model") or name)


def build_submission(
    run_dir: str | Path,
    *,
    data: str | None = None,
    submitter: Submitter | None = None,
    partial: bool = False,
    resamples: int = DEFAULT_RESAMPLES,
) -> Submission:
    """Pack a run directory; raises ClarqError for an incomplete run (unless `partial`) or inconsistent files."""
    files = read_run(run_dir, data)
    transcripts = sorted(files.transcripts, key=lambda t: (t.task_id, t.trial))
    trials = int(files.config.get("trials") or max(t.trial for t in transcripts) + 1)
    seen: set[str] = set()
    for transcript in transcripts:
        key = dialogue_key(transcript.task_id, transcript.trial)
        if key in seen:
            raise ClarqError(f"{files.run_dir}: dialogue {key} appears twice", "remove the duplicate line")
        seen.add(key)
        task = files.tasks.get(transcript.task_id)
        if task is None:
            raise ClarqError(
                f"{files.run_dir}: task {transcript.task_id} is not in the run's task selection",
                "pass the run's task data with --data DIR",
            )
        if transcript.task_hash and transcript.task_hash != task.content_hash():
            raise ClarqError(
                f"{files.run_dir}: task {transcript.task_id} in {files.data_root} differs from the one "
                "the run was played on",
                "pass the run's task data with --data DIR",
            )
    universe = split_tasks(files.config, files.data_root)  # the split's task set, not just the run's selection
    missing = [
        dialogue_key(tid, trial) for trial in range(trials) for tid in universe if dialogue_key(tid, trial) not in seen
    ]
    if missing and not partial:
        unselected = len(universe) - len(files.tasks)
        if unselected:
            raise ClarqError(
                f"{files.run_dir}: the run covers {len(files.tasks)} of the {len(universe)} tasks of its "
                "split (--limit or --types), so it is incomplete",
                "pass --partial to submit it as such",
            )
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise ClarqError(
            f"{files.run_dir}: the run is incomplete: {len(missing)} dialogue(s) missing ({shown})",
            f"resume it with `clarq run --resume {files.run_dir}`, or pass --partial",
        )
    hashes = {task_id: task.content_hash() for task_id, task in universe.items()}
    digest = task_set_hash(hashes)
    recorded_digest = files.config.get("tasks_digest")
    if recorded_digest and recorded_digest != tasks_digest(files.tasks.values()):
        raise ClarqError(
            f"{files.run_dir}: the task data in {files.data_root} differs from the run's (tasks_digest)",
            "pass the run's task data with --data DIR",
        )
    verdicts = verdicts_for(files)
    verdicts = sorted(verdicts, key=lambda v: (v.task_id, v.trial))
    config = redact_data(files.config)
    transcripts = [Transcript.model_validate_json(redact(t.model_dump_json())) for t in transcripts]
    first = transcripts[0]
    label, reasons = classify(config, first.provider)
    split = str(config.get("split") or "test")
    manifest = Manifest(
        clarq_version=__version__,
        created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        submitter=submitter or Submitter(),
        run_id=str(config.get("run_id") or files.run_dir.name),
        run_config=config,
        seeker=side_identity(transcripts, "seeker"),
        seeker_models=recorded_models(transcripts, Speaker.seeker, "seeker"),
        provider=side_identity(transcripts, "provider"),
        provider_models=recorded_models(transcripts, Speaker.provider, "provider"),
        judge=_judge_identity(verdicts, config),
        label=label,
        label_reasons=reasons,
        partial=bool(missing),
        missing=missing,
        trials=trials,
        max_turns=config.get("max_turns"),
        task_hashes=hashes,
        task_set_hash=digest,
        transcript_count=len(transcripts),
        metrics=compute_metrics(transcripts, verdicts, split=split, resamples=resamples),
        provider_fingerprint=config.get("provider_fingerprint"),
        tree_access=bool(config.get("seeker_tree_access")),
    )
    return seal(Submission(manifest=manifest, transcripts=transcripts, verdicts=verdicts))


def write_submission(submission: Submission, path: str | Path) -> Path:
    """Write as a zip (`.zip`) or one JSON document (anything else)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".zip":
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("manifest.json", redact(submission.manifest.model_dump_json(indent=2)))
            archive.writestr("transcripts.jsonl", "".join(redact(dumps_line(t)) for t in submission.transcripts))
            archive.writestr("verdicts.jsonl", "".join(redact(dumps_line(v)) for v in submission.verdicts))
    else:
        path.write_text(redact(submission.model_dump_json()), encoding="utf-8")
    return path


def _schema_error(path: Path, what: str, exc: ValidationError) -> ClarqError:
    first = exc.errors()[0]
    loc = ".".join(str(part) for part in first["loc"])
    extra = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return ClarqError(f"{path}: {what} is malformed at {loc}: {first['msg']}{extra}", "rebuild it with `clarq submit`")


#: Most records a submission member may hold: the largest real submission (310 tasks x 2 languages x 10 trials) holds
#: 6,200; the bound is checked by counting before any record object is built, so a file of 40 million empty records
#: is refused in one pass over its bytes instead of growing to gigabytes.
MAX_RECORDS = 50_000
#: Most JSON objects and arrays (counted as `{` and `[` characters, an over-count) in a single-JSON submission: a
#: dialogue and its verdict hold about 150, so this is 20 per allowed record.
MAX_CONTAINERS = MAX_RECORDS * 60


def _too_many(path: Path, what: str, count: int, limit: int) -> ClarqError:
    return ClarqError(
        f"{path}: {what} holds {count:,} records or more (limit {limit:,})",
        "a submission holds one record per dialogue; rebuild it with `clarq submit`",
    )


def _jsonl(path: Path, text: str, model: type, what: str) -> list[Any]:
    """Records of one JSONL member, read the one way (clarq_bench.core.jsonl: split on "\\n" only, size/depth limits),
    after counting its lines."""
    lines = text.count("\n")
    if lines > MAX_RECORDS:
        raise _too_many(path, what, lines, MAX_RECORDS)
    return parse_models(text, f"{path}: {what}", model, what.removesuffix("s.jsonl").removesuffix(".jsonl"))


def _validated(path: Path, value: Any) -> Submission:
    """A single-JSON submission validated part by part, stopping at the first bad record (validating the whole
    document at once would first collect an error object for every field of every bad record)."""
    if not isinstance(value, dict):
        raise ClarqError(f"{path}: the submission is not a JSON object", "rebuild it with `clarq submit`")
    parts: dict[str, Any] = {}
    for name, model in (("manifest", Manifest), ("transcripts", Transcript), ("verdicts", Verdict)):
        item = value.get(name)
        if name == "manifest":
            items, prefix = [item], "manifest"
        elif isinstance(item, list):
            if len(item) > MAX_RECORDS:
                raise _too_many(path, name, len(item), MAX_RECORDS)
            items, prefix = item, name
        else:
            raise ClarqError(
                f"{path}: the submission is malformed at {name}: must be a list", "rebuild it with `clarq submit`"
            )
        built = []
        for index, record in enumerate(items):
            try:
                built.append(model.model_validate(record))
            except ValidationError as exc:
                where = prefix if name == "manifest" else f"{prefix}.{index}"
                first = exc.errors()[0]
                loc = ".".join([where, *(str(part) for part in first["loc"])])
                raise ClarqError(
                    f"{path}: the submission is malformed at {loc}: {first['msg']}", "rebuild it with `clarq submit`"
                ) from None
        parts[name] = built[0] if name == "manifest" else built
        if name == "manifest":  # its declared counts bound the records before any is built
            dialogues = bounds.most_records(bounds.check_declared(path, parts[name]))
            for other in ("transcripts", "verdicts"):
                if isinstance(value.get(other), list) and len(value[other]) > dialogues:
                    raise ClarqError(
                        f"{path}: unsafe submission: {other} holds {len(value[other]):,} records, more "
                        f"than the {dialogues:,} its manifest allows",
                        "rebuild it with `clarq submit`",
                    )
    return Submission.model_construct(**parts)


def read_submission(path: str | Path) -> Submission:
    """Load a submission file (zip or JSON) safely; ClarqError on anything unsafe or malformed. The manifest's
    declared counts are checked against fixed limits, and every member's objects counted, before records are built,
    so memory stays bounded whatever the file holds."""
    path = Path(path)
    if not path.is_file():
        raise ClarqError(f"{path}: no such submission file", "pass a file written by `clarq submit`")
    if zipfile.is_zipfile(path):
        members = read_zip_bytes(path, {"manifest.json": bounds.MAX_MANIFEST_BYTES})
        for required in ("manifest.json", "transcripts.jsonl", "verdicts.jsonl"):
            if required not in members:
                raise ClarqError(f"{path}: the zip has no {required}", "rebuild it with `clarq submit`")
        raw = members.pop("manifest.json")
        bounds.check_containers(path, "manifest.json", raw, bounds.MAX_CONTAINERS)
        try:
            manifest = Manifest.model_validate(loads(raw, f"{path}: manifest.json"))
        except ValidationError as exc:
            raise _schema_error(path, "manifest.json", exc) from None
        del raw
        dialogues = bounds.most_records(bounds.check_declared(path, manifest))
        transcripts = bounds.records(path, members.pop("transcripts.jsonl"), "transcripts.jsonl", Transcript, dialogues)
        verdicts = bounds.records(path, members.pop("verdicts.jsonl"), "verdicts.jsonl", Verdict, dialogues)
        return Submission.model_construct(manifest=manifest, transcripts=transcripts, verdicts=verdicts)
    data = read_json_bytes(path)
    count = bounds.containers(data)
    if count > MAX_CONTAINERS:
        raise ClarqError(
            f"{path}: the submission holds {count:,} JSON objects or more (limit {MAX_CONTAINERS:,})",
            "a submission holds one record per dialogue; rebuild it with `clarq submit`",
        )
    value = loads(data, str(path))  # depth-limited: a deeply nested file is one DataError line
    del data
    return _validated(path, value)
