"""Prepared task readers kept on disk between processes, keyed by task content and by the provider's own code.

Why: reading a task (term weights, screen, focus reading: provider/prepared.py) costs ~5 ms a task in a fresh
process, ~1.3 s for the 260 tasks of a run, and every `clarq run`, replay worker and `leaderboard verify` starts
fresh. Loading the same readers back costs ~0.6 ms a task.

What it does not do: it never decides anything. An entry is a pickle of what `_prepare` built, stored under
`<cache>/prepared/<code digest>/<content hash>-<language>.pickle`, where the code digest covers every source file of
clarq_bench (and the Python version), so a changed rule, weight or word list starts a new folder rather than
reading readers built by other code. Only this user's own cache folder is read (`$CLARQ_CACHE_DIR`, else the
platform's user cache), made private (0700) when created; files are written whole (a temporary file renamed), and a
file that cannot be read back as a PreparedTask is ignored and written again. Anything that goes wrong here (a
read-only or full disk, a foreign file) costs only the time saved: the readers are built as without the store.
`CLARQ_PREPARED_CACHE=0` turns it off: do so where a module is patched at run time (the test suite does), since
such a build is not told apart from the shipped code's.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

#: Set to 0 / false / no / off to build every task's readers in-process only.
ENV_SWITCH = "CLARQ_PREPARED_CACHE"
#: Code digests whose folders are kept (the newest by use); older ones are removed when a new one starts.
KEPT_VERSIONS = 3
_OFF = {"0", "false", "no", "off"}


def enabled() -> bool:
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in _OFF


@lru_cache(maxsize=1)
def code_digest() -> str | None:
    """SHA-256 of clarq_bench's source files and the Python version (None: sources not readable, e.g. a zipped
    install; then nothing is stored). The whole package, not provider/ alone: the readers hold tasks (core/) too."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(f"{sys.version_info[:3]}|{pickle.HIGHEST_PROTOCOL}".encode())
    try:
        for path in sorted(package.rglob("*.py")):
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    except OSError:
        return None
    return digest.hexdigest()[:24]


def _folder() -> Path | None:
    version = code_digest()
    return None if version is None else _cache_root(*map(os.environ.get, _ROOT_ENVIRONMENT)) / "prepared" / version


#: What the cache root is read from (cache_root: clarq's own setting, else platformdirs' XDG folder under $HOME).
_ROOT_ENVIRONMENT = ("CLARQ_CACHE_DIR", "XDG_CACHE_HOME", "HOME")


@lru_cache(maxsize=8)
def _cache_root(*environment: str | None) -> Path:
    """cache_root(), found once per setting of the environment it is read from (platformdirs took a sixth of a
    load)."""
    from ..data.download import cache_root

    return cache_root()


def load(content_hash: str, language: str) -> Any | None:
    """What was stored for this content, or None (absent or unreadable); the caller checks what it is."""
    folder = _folder() if enabled() else None
    if folder is None:
        return None
    try:
        with (folder / f"{content_hash}-{language}.pickle").open("rb") as handle:
            return pickle.load(handle)  # (our own cache folder only: see the module docstring)
    except Exception:  # noqa: BLE001 - absent, cut short or foreign: rebuilt and written again
        return None


def save(content_hash: str, language: str, prepared: Any) -> None:
    """Store the readers (whole or not at all); failures are silent: the store only saves time."""
    folder = _folder() if enabled() else None
    if folder is None:
        return
    try:
        if not folder.is_dir():
            _start_version(folder)
        data = pickle.dumps(prepared, protocol=pickle.HIGHEST_PROTOCOL)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".part-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, folder / f"{content_hash}-{language}.pickle")
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return


def _start_version(folder: Path) -> None:
    """Create this code's folder (private) and remove all but the newest KEPT_VERSIONS - 1 other versions."""
    root = folder.parent
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    folder.mkdir(exist_ok=True, mode=0o700)
    others = [p for p in root.iterdir() if p.is_dir() and p != folder]
    others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in others[KEPT_VERSIONS - 1 :]:
        shutil.rmtree(stale, ignore_errors=True)
