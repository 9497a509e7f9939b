"""What keeps a run folder (core.run_folder.RunDir) honest under faults: one writer at a time, the spending of every session, records that
can be counted once, and file errors as one line.

- The lock: `run.lock` in the folder, held with flock for as long as dialogues are played. A second `clarq run
  --resume` of the same folder (a double click, two terminals, a retrying scheduler) is refused with one line naming
  the holder's pid, instead of both playing and paying every pending dialogue. The kernel drops the lock when its
  process dies, so a lock left by kill -9 is simply taken over (its file still names the dead pid).
- The ledger: `spending.json` holds the dollars spent by every session of the run, rewritten (atomically) after each
  dialogue and at the end, and what each scoring paid its judge (its own figure, and in the total `spent_usd`); a
  resume starts its budget from both (the dialogues' part, or the records' own cost if that is more), so
  `--max-cost` caps the run's total, not each session's. A scoring may run beside the writer (the run lock covers
  playing, not scoring) and beside another scoring, so every read-and-rewrite of the ledger holds `spending.lock`
  for its few microseconds: without it one side's figure is lost when both read before either writes.
- Records: a (task, trial) pair written twice (two writers, a hand edit) or a trial outside the run's range is
  refused on resume and in scoring (one line naming the record), never counted twice.
- File errors (a full disk, a read-only folder, transcripts.jsonl being a folder) become one ClarqError line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .errors import ClarqError
from .safe_read import read_bytes

LOCK_FILE, LEDGER_FILE, LEDGER_LOCK_FILE = "run.lock", "spending.json", "spending.lock"


def file_error(path: Path | str, exc: OSError, doing: str = "write") -> ClarqError:
    """One line for a failed file operation, with what to do about it."""
    reason = exc.strerror or type(exc).__name__
    if isinstance(exc, IsADirectoryError):
        reason = "it is a folder, not a file"
    fix = {28: "free some disk space", 30: "pass a writable --runs-dir", 13: "pass a writable --runs-dir"}.get(
        exc.errno or 0, "check the path and its permissions"
    )
    return ClarqError(f"cannot {doing} {path}: {reason}", f"{fix}; what was saved is kept")


def write_atomic(path: Path, text: str, *, sync: bool = True) -> None:
    """Write `text` to `path` through a temporary file that is removed again if anything fails (no partial file, no
    0-byte leftover); a ClarqError line on failure. `sync` False skips the fsync (a file rewritten after every
    dialogue on the event loop: kill -9 keeps the page cache, only a power cut could lose the last update)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # two processes (a run, a scoring) never share one
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise file_error(path, exc) from None


# ---- the lock ------------------------------------------------------------------------------------------------------


@contextmanager
def _lock_file(path: Path) -> Iterator[int | None]:
    """The open lock file's descriptor (None where there is no flock: not a POSIX system), closed on the way out,
    which releases any flock on it; a ClarqError line when the file cannot be made (a read-only folder)."""
    try:
        import fcntl  # noqa: F401
    except ImportError:  # pragma: no cover - not a POSIX system: no lock
        yield None
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise file_error(path, exc, "create") from None
    try:
        yield fd
    finally:
        os.close(fd)  # releases the flock


@contextmanager
def run_lock(run_dir: Path) -> Iterator[None]:
    """Hold the folder's writer lock inside; a ClarqError naming the holder's pid when another process has it."""
    with _lock_file(run_dir / LOCK_FILE) as fd:
        if fd is None:
            yield
            return
        import fcntl

        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "?"
            raise ClarqError(
                f"{run_dir} is being played by another clarq process (pid {holder})",
                "wait for it to finish, or stop it first; two writers would play and pay every dialogue twice",
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass  # the pid is only for the message; the lock itself is held
        yield


# ---- the ledger ----------------------------------------------------------------------------------------------------


#: Largest spending.json read (three figures).
SMALL_FILE_BYTES = 64 * 1024


def read_ledger(run_dir: Path) -> tuple[float, float]:
    """(dollars the dialogues cost, dollars judging cost) as spending.json says; (0, 0) when it is missing or bad.
    A ledger of the first format ({"spent_usd": x}) counted dialogues only."""
    try:
        ledger = json.loads(read_bytes(run_dir / LEDGER_FILE, SMALL_FILE_BYTES, within=run_dir))
    except (OSError, ValueError, ClarqError):
        return 0.0, 0.0
    if not isinstance(ledger, dict):
        return 0.0, 0.0
    return _figure(ledger.get("dialogues_usd", ledger.get("spent_usd"))), _figure(ledger.get("scoring_usd"))


def _figure(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    return number if number == number and 0 <= number < float("inf") else 0.0  # nan, negative, inf: no figure


def spent_before(run_dir: Path, records: Sequence[Any]) -> float:
    """Dollars the dialogues of earlier sessions cost: the ledger, or the records' own cost if that is more."""
    recorded = sum(usage.cost_usd for record in records for usage in record.usage.values())
    return max(read_ledger(run_dir)[0], recorded)


def scoring_spent(run_dir: Path) -> float:
    """Dollars every scoring of this run so far paid its judge."""
    return read_ledger(run_dir)[1]


@contextmanager
def ledger_lock(run_dir: Path) -> Iterator[None]:
    """Hold `spending.lock` (waiting for it) while the ledger is read and rewritten; a ClarqError line when the lock
    file cannot be made (a read-only folder)."""
    with _lock_file(run_dir / LEDGER_LOCK_FILE) as fd:
        if fd is not None:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX)  # held for one read and one rename: never long
        yield


def _write_ledger(run_dir: Path, dialogues_usd: float, scoring_usd: float) -> None:
    payload = {
        "spent_usd": round(dialogues_usd + scoring_usd, 9),
        "dialogues_usd": round(dialogues_usd, 9),
        "scoring_usd": round(scoring_usd, 9),
    }
    write_atomic(run_dir / LEDGER_FILE, json.dumps(payload) + "\n", sync=False)


def save_spending(run_dir: Path, dialogues_usd: float) -> None:
    """Rewrite spending.json: what the dialogues cost (a running total the writer of dialogues keeps), what judging
    cost (read back under the ledger lock, so a scoring's figure is kept), and their sum, the run's whole cost
    (`spent_usd`)."""
    with ledger_lock(run_dir):
        _write_ledger(run_dir, dialogues_usd, scoring_spent(run_dir))


def add_scoring_spending(run_dir: Path, usd: float) -> None:
    """Add what one scoring paid its judge to the run's ledger (nothing to do when it paid nothing); the dialogues'
    figure is read back under the same lock, so the writer's last figure is kept."""
    if usd > 0:
        with ledger_lock(run_dir):
            dialogues, scoring = read_ledger(run_dir)
            _write_ledger(run_dir, dialogues, scoring + usd)


def check_records(records: Sequence[Any], source: Path | str, trials: int | None) -> None:
    """ClarqError at the first (task, trial) written twice or trial outside 0..trials-1 (`trials` None: unknown)."""
    seen: dict[tuple[str, int], int] = {}
    for number, record in enumerate(records, start=1):
        key = (record.task_id, record.trial)
        if key in seen:
            raise ClarqError(
                f"{source}: record {number} repeats dialogue {key[0]}#{key[1]} (first: record "
                f"{seen[key]}); it would be counted twice",
                "remove one of the two lines",
            )
        seen[key] = number
        if record.trial < 0 or (trials is not None and record.trial >= trials):
            raise ClarqError(
                f"{source}: record {number} ({key[0]}) has trial {record.trial}, outside the run's "
                f"0..{(trials or 1) - 1}",
                "remove that line",
            )
