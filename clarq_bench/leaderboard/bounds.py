"""Bounds before work: what a submission declares is checked against fixed limits before anything is expanded.

Why: verify expands trials x tasks, and every JSON object of a member becomes a Python object; a few hundred
kilobytes that declare 10^12 trials, or a member of empty objects, would otherwise take all memory before any seal or
figure is looked at. Everything here counts bytes, characters or declared numbers, never builds what it counts, and
refuses with one ClarqError line.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from ..core.errors import ClarqError
from ..core.jsonl import MAX_LINE_CHARS, loads, validate

M = TypeVar("M", bound=BaseModel)

#: Most trials a submission may declare (the paper plays 1; runs of 10 are the largest anyone needs).
MAX_TRIALS = 100
#: Most tasks a task set may hold (the released benchmark has 1,240 over both languages and splits).
MAX_TASKS = 20_000
#: Most dialogues a submission may declare (trials x tasks), as bundle.MAX_RECORDS counts them.
MAX_DIALOGUES = 50_000
#: Most JSON objects and arrays one record (a dialogue or its verdict) may hold: an honest one holds ~120-200.
MAX_CONTAINERS_PER_RECORD = 5_000
#: Most JSON objects and arrays in all of a submission (over-counted as `{` and `[` bytes).
MAX_CONTAINERS = 3_000_000
#: The largest manifest: a task hash and a dialogue's turn digests per dialogue fit in a few megabytes.
MAX_MANIFEST_BYTES = 32 * 1024 * 1024
#: Largest central directory of a zip submission: three members' entries take a few hundred bytes.
MAX_CENTRAL_DIRECTORY = 64 * 1024


class Refused(str):
    """A problem line that refused a submission before verifying it (unreadable, unsafe or out of bounds): the
    command exits 2 on it, as on any input it cannot take, where a verified-and-wrong submission exits 1."""


def refuse(path: Path | str, problem: str) -> ClarqError:
    return ClarqError(f"{path}: unsafe submission: {problem}", "rebuild it with `clarq submit`")


def containers(data: bytes | str) -> int:
    """`{` and `[` characters: an over-count of the JSON objects and arrays the text would build."""
    if isinstance(data, bytes):
        return data.count(b"{") + data.count(b"[")
    return data.count("{") + data.count("[")


def check_containers(path: Path | str, what: str, data: bytes | str, limit: int) -> None:
    count = containers(data)
    if count > limit:
        raise refuse(path, f"{what} holds {count:,} JSON objects or more (limit {limit:,})")


def check_declared(path: Path | str, manifest: Any) -> int:
    """The dialogues a manifest declares (trials x tasks), after checking every count it declares against the fixed
    limits; a ClarqError line otherwise."""
    trials, tasks = manifest.trials, len(manifest.task_hashes)
    if not 1 <= trials <= MAX_TRIALS:
        raise refuse(path, f"trials is {trials} (allowed: 1 to {MAX_TRIALS})")
    if tasks > MAX_TASKS:
        raise refuse(path, f"the task set declares {tasks:,} tasks (limit {MAX_TASKS:,})")
    dialogues = trials * tasks
    if dialogues > MAX_DIALOGUES:
        raise refuse(path, f"{trials} trials x {tasks:,} tasks is {dialogues:,} dialogues (limit {MAX_DIALOGUES:,})")
    most = most_records(dialogues)  # room for a duplicated or extra record, which the verifier names
    for name, count in (
        ("transcript_count", manifest.transcript_count),
        ("missing", len(manifest.missing)),
        ("dialogue_hashes", len(manifest.dialogue_hashes)),
    ):
        if not 0 <= count <= most:
            raise refuse(path, f"{name} declares {count:,} dialogues, far more than its {dialogues:,} (trials x tasks)")
    return dialogues


def most_records(dialogues: int) -> int:
    """Most records a member may hold for this many declared dialogues: twice as many, so a duplicated or extra
    record is still read and named by the verifier, while memory stays bound to what the manifest declares."""
    return 2 * dialogues + 10


def check_task_set(manifest: Any, tasks: dict[str, Any]) -> str | None:
    """One line when the submission declares more tasks than the task data holds (nothing else can be checked)."""
    declared = len(manifest.task_hashes)
    if declared > 2 * len(tasks) + 100:  # a few tasks more are named one by one by the verifier
        return f"the task set declares {declared:,} tasks, far more than the {len(tasks):,} of the task data"
    return None


def records(path: Path | str, data: bytes, what: str, model: type[M], most: int) -> list[M]:
    """Records of a JSONL member, parsed and validated one line at a time (no list of raw values, no split copy),
    each line's size and objects bounded before it is parsed; at most `most` records."""
    check_containers(path, what, data, min(MAX_CONTAINERS, max(most, 1) * MAX_CONTAINERS_PER_RECORD))
    lines = data.count(b"\n") + (not data.endswith(b"\n") and bool(data.strip()))
    if lines > most:
        raise refuse(path, f"{what} holds {lines:,} records (limit {most:,}, from the dialogues its manifest declares)")
    out: list[M] = []
    start, number, source = 0, 0, f"{path}: {what}"
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        number += 1
        line = data[start:end]
        start = end + 1
        if not line.strip():
            continue
        if len(line) > MAX_LINE_CHARS * 4:
            raise refuse(path, f"{what} line {number} is longer than {MAX_LINE_CHARS:,} characters")
        if containers(line) > MAX_CONTAINERS_PER_RECORD:
            raise refuse(path, f"{what} line {number} holds more than {MAX_CONTAINERS_PER_RECORD:,} JSON objects")
        out.append(
            validate(
                model, loads(line, source, number), source, number, what.removesuffix("s.jsonl").removesuffix(".jsonl")
            )
        )
    return out


def check_zip_directory(path: Path, max_members: int) -> None:
    """Refuse a zip whose end-of-directory record declares more members or a larger directory than a submission
    has, before zipfile reads (and builds an object for) every entry of it; zip64 (only needed past 65,535 members
    or 4 GB) is refused outright."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - 65_557))
            tail = handle.read(65_557)
    except OSError as exc:
        raise ClarqError(f"{path}: cannot read ({exc.strerror or exc})", "check the path") from None
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < 22:
        raise ClarqError(
            f"{path}: not a readable zip file (no end of central directory)", "rebuild it with `clarq submit`"
        )
    _, disk, _, here, total, directory, _, _ = struct.unpack("<4sHHHHIIH", tail[at : at + 22])
    if b"PK\x06\x07" in tail[max(0, at - 20) : at] or 0xFFFF in (here, total) or directory == 0xFFFFFFFF:
        raise refuse(path, "a zip64 archive (a submission is three small members)")
    if disk or total > max_members or here != total:
        raise refuse(path, f"the zip declares {total:,} members (at most {max_members})")
    if directory > MAX_CENTRAL_DIRECTORY:
        raise refuse(path, f"the zip's directory declares {directory:,} bytes (limit {MAX_CENTRAL_DIRECTORY:,})")
