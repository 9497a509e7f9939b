"""Reading a file from a task, run or submission folder: regular files only, bounded by the bytes read.

Why: a size check on st_size says 0 for a device or a FIFO, so a transcripts.jsonl linked to /dev/zero was read
until memory ran out, and a FIFO hung the command. Here the file is opened without blocking, the open descriptor
must be a regular file (devices, FIFOs and sockets are refused), a link may be required to stay inside a folder,
and reading stops one byte past the limit whatever the file says its size is.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import DataError

_CHUNK = 1 << 20


def check_inside(path: Path, within: Path) -> None:
    """DataError when `path` is a link that leads outside `within` (a run folder's file pointing elsewhere)."""
    if path.is_symlink():
        target = path.resolve()
        if not target.is_relative_to(within.resolve()):
            raise DataError(str(path), f"is a link to {target}, outside {within}")


def read_bytes(path: Path, max_bytes: int, *, within: Path | None = None) -> bytes:
    """The bytes of a regular file, at most `max_bytes` (a DataError past it, or for anything but a regular file)."""
    if within is not None:
        check_inside(path, within)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except IsADirectoryError:
        raise DataError(str(path), "is a folder, not a file") from None
    except OSError as exc:
        raise DataError(str(path), f"cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb", buffering=0) as handle:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise DataError(str(path), "is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise DataError(str(path), "is not a regular file (a device, FIFO or socket): not read")
        chunks, size = [], 0
        while chunk := handle.read(min(_CHUNK, max_bytes + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:
                raise DataError(str(path), f"more than the limit of {max_bytes} bytes")
        return b"".join(chunks)
