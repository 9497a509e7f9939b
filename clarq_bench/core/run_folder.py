"""A run folder, owned in one place: every reader and writer of runs/<run-id>/ goes through RunDir.

runs/<run-id>/config.json        the RunConfig (+ its hash, run id, clarq version, write time); no secrets
runs/<run-id>/transcripts.jsonl  one line per finished dialogue, appended with one write (fsync on a thread)
runs/<run-id>/summary.json, report.md (+ plots)   written when the run is scored
runs/<run-id>/verdicts.jsonl     optional recorded judge verdicts (packing never calls a model)
runs/<run-id>/run.lock, spending.json   the writer's lock and the dollars of every session (core/run_guard.py)
runs/<run-id>/spending.lock      held while spending.json is read and rewritten (a scoring runs beside the writer)

Why one owner: the folder was read in five places with two copies of the file names, and one of them recomputed
the task selection by another rule (`clarq submit` refused every run made with --limit). config.json now records
the selected task ids, so no reader recomputes a selection. Files only: no task loading, no scoring, no agents.
"""

from __future__ import annotations

import copy
import errno
import hashlib
import json
import os
import threading
import time
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .errors import ClarqError, DataError
from .jsonl import dumps_line, parse_text, read_jsonl, read_text, validate
from .redact import redact
from .run_config import RunConfig
from .run_guard import (
    add_scoring_spending,
    check_records,
    file_error,
    run_lock,
    save_spending,
    scoring_spent,
    spent_before,
    write_atomic,
)
from .safe_read import check_inside
from .tasks import Task
from .transcript import EndReason, Transcript
from .version import __version__

CONFIG_FILE, TRANSCRIPTS_FILE, SUMMARY_FILE, REPORT_FILE, VERDICTS_FILE = (
    "config.json",
    "transcripts.jsonl",
    "summary.json",
    "report.md",
    "verdicts.jsonl",
)
#: Where a run recorded its task folder (RunConfig.data_dir; older spellings accepted).
DATA_KEYS = ("data_dir", "data", "tasks_dir")
#: What `state` answers: no dialogue yet; dialogues missing; all played but no summary.json of them; all done.
EMPTY, UNFINISHED, SCORING_UNFINISHED, FINISHED = "empty", "unfinished", "scoring unfinished", "finished"


def tasks_digest(tasks: Iterable[Task]) -> str:
    """SHA-256 over `id:content hash` lines in selection order: config.json's `tasks_digest`."""
    digest = hashlib.sha256()
    for task in tasks:
        digest.update(f"{task.id}:{task.content_hash()}\n".encode())
    return digest.hexdigest()


class RunDir:
    """One run folder: its file paths, its config (typed or as recorded), its transcripts and its state."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"RunDir({str(self.path)!r})"

    @property
    def name(self) -> str:
        return self.path.name

    config_path = property(lambda self: self.path / CONFIG_FILE)
    transcripts_path = property(lambda self: self.path / TRANSCRIPTS_FILE)
    summary_path = property(lambda self: self.path / SUMMARY_FILE)
    report_path = property(lambda self: self.path / REPORT_FILE)
    verdicts_path = property(lambda self: self.path / VERDICTS_FILE)

    def is_run(self) -> bool:
        return self.config_path.is_file()

    def require(self) -> RunDir:
        """Self, or a ClarqError when the folder holds no config.json."""
        if not self.is_run():
            raise ClarqError(f"{self.path} is not a run directory (no {CONFIG_FILE})", "pass the folder of a run")
        return self

    # --- config.json ---------------------------------------------------------------------------------------

    def raw_config(self) -> dict[str, Any]:
        """config.json as recorded (read leniently: older or hand-written runs still pack and compare)."""
        config = read_config_file(self.require().config_path, self.path)
        if not isinstance(config, dict):
            raise DataError(str(self.config_path), "expected a JSON object")
        return config

    def config(self) -> RunConfig:
        return validate(
            RunConfig, read_config_file(self.require().config_path, self.path), str(self.config_path), what="run config"
        )

    def write_config(self, config: RunConfig) -> None:
        """config.json with the hash, run id, clarq version and time; atomic (temporary file, then rename; the
        temporary file is removed again when the disk refuses it); a file error is one ClarqError line."""
        self.create()
        payload = config.model_dump(mode="json") | {
            "config_hash": config.config_hash(),
            "run_id": self.name,
            "clarq_version": __version__,
            "written_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        text = redact(json.dumps(payload, ensure_ascii=False, indent=2)) + "\n"
        write_atomic(self.config_path, text)
        remember_config(self.config_path, text)  # what this process wrote, it need not read back

    def create(self) -> None:
        """The folder (and its parents); a read-only or full runs folder is one ClarqError line."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise file_error(self.path, exc, "create") from None

    # --- one writer, its spending, records counted once ---------------------------------------------------

    def lock(self):  # type: ignore[no-untyped-def]
        """`with folder.lock():` holds the writer's lock (a second writer is one line naming this pid)."""
        return run_lock(self.path)

    def spent_before(self, records: list[Transcript]) -> float:
        """Dollars the earlier sessions spent (spending.json, or the records' own cost if more)."""
        return spent_before(self.path, records)

    def save_spending(self, dialogues_usd: float) -> None:
        """The dialogues' running total (the judge's part in the ledger is kept)."""
        save_spending(self.path, dialogues_usd)

    def scoring_spent(self) -> float:
        """Dollars every scoring of this run paid its judge so far (spending.json)."""
        return scoring_spent(self.path)

    def add_scoring_spending(self, usd: float) -> None:
        """Add what one scoring paid its judge to spending.json (the run's whole cost)."""
        add_scoring_spending(self.path, usd)

    def whole_cost(self, records: list[Transcript]) -> float:
        """Every dollar the run cost: its dialogues (ledger or records, the more) and every scoring's judge."""
        return spent_before(self.path, records) + scoring_spent(self.path)

    def check_records(self, records: list[Transcript], trials: int | None = None) -> None:
        """ClarqError at a (task, trial) written twice or a trial outside the run's range (its config's trials)."""
        check_records(records, self.transcripts_path, trials if trials is not None else self.recorded_trials())

    def recorded_trials(self) -> int | None:
        """The run's trial count as its config.json records it; None when unknown (no file, not JSON, no count)."""
        try:
            value = self.raw_config().get("trials")
        except (OSError, ValueError, ClarqError):
            return None
        return value if isinstance(value, int) and value >= 1 else None

    def data_dir(self, config: dict[str, Any] | None = None) -> str | None:
        """The task folder the run recorded (`data_dir`, or an older key, at the top or one level down)."""
        config = self.raw_config() if config is None else config
        for scope in (config, *(v for v in config.values() if isinstance(v, dict))):
            for key in DATA_KEYS:
                if isinstance(scope.get(key), str) and scope[key]:
                    return scope[key]
        return None

    # --- transcripts.jsonl ---------------------------------------------------------------------------------

    def has_transcripts(self) -> bool:
        return self.transcripts_path.is_file()

    def transcripts(self) -> tuple[list[Transcript], int | None]:
        """Every complete line (core.jsonl rules: a malformed line is a DataError naming file and line) and the
        number of an unfinished last line (None when the file ends cleanly); no file: nothing."""
        self.check_file()
        if not self.transcripts_path.exists():
            return [], None
        return read_jsonl(self.transcripts_path, Transcript, "transcript", within=self.path)

    def check_file(self) -> None:
        """A transcripts.jsonl that is a folder, a device, a FIFO or a link leading out of the run folder is one
        ClarqError line (a traceback, a hang or all memory further on)."""
        path = self.transcripts_path
        if path.is_dir():
            raise file_error(path, IsADirectoryError(21, "is a folder"), "append to")
        if path.exists() or path.is_symlink():
            check_inside(path, self.path)
            if not path.is_file():
                raise DataError(str(path), "is not a regular file (a device, FIFO or socket): not read")

    def repair_tail(self) -> int:
        self.check_file()
        return repair_tail(self.transcripts_path)

    def writer(self) -> TranscriptWriter:
        return TranscriptWriter(self.transcripts_path)

    def rewrite_transcripts(self, keep: list[Transcript]) -> None:
        rewrite_transcripts(self.transcripts_path, keep)

    # --- state ---------------------------------------------------------------------------------------------

    def state(self, transcripts: list[Transcript], total: int | None) -> str:
        """empty, unfinished (dialogues missing, or the total unknown), scoring unfinished (every dialogue played
        but no summary.json written after the last of them: a run stopped while scoring) or finished."""
        if not transcripts:
            return EMPTY
        played = sum(t.end_reason != EndReason.budget for t in transcripts)
        if total is None or played < total:
            return UNFINISHED
        summary = self.summary_path
        if not summary.is_file() or summary.stat().st_mtime_ns < self.transcripts_path.stat().st_mtime_ns:
            return SCORING_UNFINISHED
        return FINISHED


def repair_tail(path: Path) -> int:
    """Cut a partial last line (no newline: a write interrupted by kill -9). Returns the bytes removed."""
    if not path.is_file():  # absent, or not a regular file (RunDir.check_file has said so)
        return 0
    with open(path, "rb+") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return 0
        handle.seek(max(0, size - 1))
        if handle.read(1) == b"\n":
            return 0
        keep = 0
        position = size
        while position > 0:  # scan back in blocks for the last newline
            start = max(0, position - 65536)
            handle.seek(start)
            block = handle.read(position - start)
            cut = block.rfind(b"\n")
            if cut >= 0:
                keep = start + cut + 1
                break
            position = start
        handle.truncate(keep)
        os.fsync(handle.fileno())
        return size - keep


#: Largest config.json read (a run's records its task ids: a few hundred kilobytes at most).
MAX_CONFIG_BYTES = 64 * 1024 * 1024
#: config.json files kept parsed, by path: (the file's identity when read, whether it may be trusted, text, value).
_CONFIGS: dict[Path, tuple[tuple[int, ...], bool, str, Any]] = {}
CONFIGS_KEPT = 256
#: A file changed this shortly before it was read may change again within the clock's resolution without its
#: identity changing (a digit rewritten in place): its identity is not trusted, its text is compared (git's "racy
#: clean" rule). A file this process wrote itself (under the run's lock) is trusted.
RACY_NS = 2_000_000_000


def read_config_file(path: Path, within: Path) -> Any:
    """config.json parsed once per process while it stays the same: preparing a run, resuming it and scoring it read
    it several times (prepare, batch, the records' check). A file whose identity (inode, size, modification time,
    followed link or not) is unchanged since this process wrote it, or read it when it had been still for two
    seconds, is not read again; any other is read (the safe reader, as before) and parsed only when its text
    changed. Each caller gets its own copy."""
    key = Path(os.path.abspath(path))
    cached = _CONFIGS.get(key)
    identity = _identity(path)
    if cached is not None and identity and cached[0] == identity and cached[1]:
        return copy.deepcopy(cached[3])
    text = read_text(path, max_bytes=MAX_CONFIG_BYTES, within=within)
    value = cached[3] if cached is not None and cached[2] == text else parse_text(text, str(path))
    _keep(key, identity, bool(identity) and time.time_ns() - identity[2] >= RACY_NS, text, value)
    return copy.deepcopy(value)


def remember_config(path: Path, text: str) -> None:
    """A config.json this process has just written (RunDir.write_config), kept as read."""
    identity = _identity(path)
    if identity:
        _keep(Path(os.path.abspath(path)), identity, True, text, parse_text(text, str(path)))


def _keep(key: Path, identity: tuple[int, ...], trusted: bool, text: str, value: Any) -> None:
    if len(_CONFIGS) >= CONFIGS_KEPT and key not in _CONFIGS:
        _CONFIGS.pop(next(iter(_CONFIGS)))
    _CONFIGS[key] = (identity, trusted, text, value)


def _identity(path: Path) -> tuple[int, ...]:
    """(inode, size, modification time, the link's inode and time): () when the file cannot be looked at."""
    try:
        followed, link = os.stat(path), os.lstat(path)
    except OSError:
        return ()
    return (followed.st_ino, followed.st_size, max(followed.st_mtime_ns, link.st_mtime_ns), link.st_ino)


def read_transcripts(path: Path) -> list[Transcript]:
    """Every complete line of a transcripts.jsonl. An unfinished last line is left out: on resume `repair_tail`
    has already cut it (and the run says so); at scoring `scoring.sources.read_transcripts` warns about it."""
    if not path.exists():
        return []
    records, _ = read_jsonl(path, Transcript, "transcript")
    return records


def rewrite_transcripts(path: Path, keep: list[Transcript]) -> None:
    """Replace transcripts.jsonl by `keep`, atomically (temporary file, fsync, rename)."""
    tmp = path.with_suffix(".jsonl.tmp")
    with open(tmp, "wb") as handle:
        handle.write(b"".join(redact(dumps_line(record)).encode("utf-8") for record in keep))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


class TranscriptWriter:
    """Appends one transcript per call as a single write of a full line; fsync runs on a background thread.

    The write itself is synchronous, so once `append` returns the line is in the kernel's page cache and survives
    kill -9 of this process. fsync (needed only against power loss) takes milliseconds on some disks; done on the
    event loop it stalled every dialogue in flight, so a syncer thread does it instead, coalescing bursts of
    appends into one fsync. `close` waits for a final fsync.
    """

    def __init__(self, path: Path) -> None:
        try:
            self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise file_error(path, exc, "append to") from None
        self._size: int | None = None  # the file's size after this writer's last whole line (None: ask the file)
        self._dirty = threading.Event()
        self._closing = False
        self._syncer = threading.Thread(target=self._sync_loop, name="clarq-fsync", daemon=True)
        self._syncer.start()

    def append(self, transcript: Transcript) -> None:
        line = redact(dumps_line(transcript)).encode("utf-8")
        size = self._size
        if size is None:  # once: this writer is the file's only one (the run's lock), so it keeps the size itself
            size = os.lseek(self.fd, 0, os.SEEK_END)
        self._size = None  # until this write is known whole
        try:
            written = os.write(self.fd, line)
            if written != len(line):  # a full disk: the kernel took part of the line
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            self._size = size + written
        except OSError:
            try:
                os.ftruncate(self.fd, size)  # no partial line left behind
            except OSError:
                pass
            raise
        self._dirty.set()

    def _sync_loop(self) -> None:
        while True:
            self._dirty.wait()
            if self._closing:
                return
            self._dirty.clear()
            try:
                os.fsync(self.fd)
            except OSError:  # pragma: no cover - the descriptor is being closed
                return

    def close(self) -> None:
        self._closing = True
        self._dirty.set()
        self._syncer.join()
        os.fsync(self.fd)
        os.close(self.fd)
