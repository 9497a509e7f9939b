"""Reading untrusted submission files safely: size and member limits checked before anything is decompressed.

A submission is data, never code: nothing read here is imported, unpickled, evaluated or written to disk. A zip is
inspected member by member first (names, declared sizes, compression ratio, count, links); only when every member
passes are the known members read, into memory, with a hard cap on the bytes actually produced. Any violation is a
ClarqError naming the file and the problem.
"""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path, PurePosixPath

from ..core.errors import ClarqError
from .bounds import check_zip_directory

#: The members a zip submission may hold; anything else is refused rather than ignored.
ZIP_MEMBERS = ("manifest.json", "transcripts.jsonl", "verdicts.jsonl")
MAX_MEMBERS = len(ZIP_MEMBERS)
MAX_MEMBER_BYTES = 256 * 1024 * 1024  # one member, uncompressed
MAX_TOTAL_BYTES = 512 * 1024 * 1024  # all members, uncompressed
MAX_JSON_BYTES = 512 * 1024 * 1024  # a single-JSON submission
MAX_RATIO = 200  # uncompressed / compressed: above this a member is treated as a zip bomb
_CHUNK = 1 << 20


def _reject(path: Path, problem: str) -> ClarqError:
    return ClarqError(f"{path}: unsafe submission: {problem}", "rebuild it with `clarq submit`")


def unsafe_member_name(name: str) -> str | None:
    """Why a zip member name is unsafe (absolute, drive letter, backslash, `..`, empty), or None if it is fine."""
    if not name or name.endswith("/"):
        return "a directory entry"
    if "\\" in name or "\x00" in name:
        return "a backslash or NUL in the name"
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return "an absolute path"
    if any(part in ("..", "") for part in PurePosixPath(name).parts) or ".." in name.split("/"):
        return "path traversal (`..`)"
    return None


def check_zip(path: Path, archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """Validate every member of an open archive before any is read; returns the members in archive order."""
    members = archive.infolist()
    if len(members) > MAX_MEMBERS:
        raise _reject(path, f"{len(members)} members (at most {MAX_MEMBERS}: {', '.join(ZIP_MEMBERS)})")
    seen: set[str] = set()
    total = 0
    for info in members:
        why = unsafe_member_name(info.filename)
        if why:
            raise _reject(path, f"member {info.filename!r}: {why}")
        mode = info.external_attr >> 16
        if mode and stat.S_ISLNK(mode):
            raise _reject(path, f"member {info.filename!r} is a symbolic link")
        if info.filename not in ZIP_MEMBERS:
            raise _reject(path, f"unexpected member {info.filename!r} (allowed: {', '.join(ZIP_MEMBERS)})")
        if info.filename in seen:
            raise _reject(path, f"member {info.filename!r} appears twice")
        seen.add(info.filename)
        if info.file_size > MAX_MEMBER_BYTES:
            raise _reject(path, f"member {info.filename!r} declares {info.file_size} bytes (limit {MAX_MEMBER_BYTES})")
        if info.file_size > MAX_RATIO * max(info.compress_size, 1) and info.file_size > _CHUNK:
            raise _reject(path, f"member {info.filename!r} compresses {info.file_size // max(info.compress_size, 1)}:1")
        total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise _reject(path, f"members add up to more than {MAX_TOTAL_BYTES} bytes")
    return members


def _read_capped(path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A member's bytes, refusing to produce more than it declared. CPython's zipfile itself stops a member at its
    declared size (then fails its CRC, or yields only the declared prefix when the CRC was forged to match): this
    cap is the second line, for a zipfile that would not (tests/leaderboard/test_promise_figures.py pins both outcomes)."""
    out = bytearray()
    with archive.open(info) as handle:
        while chunk := handle.read(_CHUNK):
            out += chunk
            if len(out) > info.file_size or len(out) > MAX_MEMBER_BYTES:
                raise _reject(path, f"member {info.filename!r} inflates past its declared size")
    return bytes(out)


def read_zip_members(path: Path) -> dict[str, str]:
    """The text of each allowed member of a zip submission, after check_zip has passed on the whole archive."""
    texts = {}
    for name, data in read_zip_bytes(path).items():
        try:
            texts[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            raise _reject(path, f"member {name!r} is not UTF-8 text") from None
    return texts


def read_zip_bytes(path: Path, limits: dict[str, int] | None = None) -> dict[str, bytes]:
    """The bytes of each allowed member of a zip submission, after the end-of-directory record and check_zip have
    passed on the whole archive; `limits` caps a member's declared size (name -> bytes) before it is read."""
    check_zip_directory(path, MAX_MEMBERS)
    try:
        with zipfile.ZipFile(path) as archive:
            members = check_zip(path, archive)
            out = {}
            for info in members:
                limit = (limits or {}).get(info.filename)
                if limit is not None and info.file_size > limit:
                    raise _reject(path, f"member {info.filename!r} declares {info.file_size:,} bytes (limit {limit:,})")
                out[info.filename] = _read_capped(path, archive, info)
            return out
    except zipfile.BadZipFile as exc:
        raise ClarqError(f"{path}: not a readable zip file ({exc})", "rebuild it with `clarq submit`") from None


def read_json_text(path: Path) -> str:
    """A single-JSON submission's text, refusing absurd sizes before reading."""
    try:
        return read_json_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise _reject(path, "not UTF-8 text") from None


def read_json_bytes(path: Path) -> bytes:
    """A single-JSON submission's bytes: a regular file, read no further than the limit whatever its size says."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ClarqError(f"{path}: cannot read ({exc.strerror})", "check the path") from None
    if size > MAX_JSON_BYTES:
        raise _reject(path, f"{size} bytes (limit {MAX_JSON_BYTES})")
    if not stat.S_ISREG(path.stat().st_mode):
        raise _reject(path, "not a regular file")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_JSON_BYTES + 1)
    except OSError as exc:
        raise ClarqError(f"{path}: cannot read ({exc.strerror})", "check the path") from None
    if len(data) > MAX_JSON_BYTES:
        raise _reject(path, f"more than {MAX_JSON_BYTES} bytes (limit {MAX_JSON_BYTES})")
    return data
