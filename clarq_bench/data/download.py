"""Fetching the ClarQ-LLM task data at a pinned commit into the user cache, every file checked by SHA-256.

The project does not ship the upstream data. `clarq data download` fetches each file of the pinned commit, verifies it
against the table shipped in `checksums/upstream.json` and only then moves it into the cache, so a corrupted or
tampered file is never used and never cached. Stdlib HTTP only: no extra dependency for one job.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel

from ..core.errors import ClarqError

CHECKSUMS = Path(__file__).resolve().parent / "checksums" / "upstream.json"
DEFAULT_BASE_URL = "https://raw.githubusercontent.com/{repository}/{commit}/"
ENV_BASE_URL = "CLARQ_DATA_URL"
ENV_CACHE = "CLARQ_CACHE_DIR"
COMPLETE_MARKER = ".complete"


class ChecksumTable(BaseModel):
    repository: str
    commit: str
    files: dict[str, str]


class DownloadReport(BaseModel):
    target: str
    fetched: list[str] = []
    already_present: list[str] = []
    failed: dict[str, str] = {}


@lru_cache(maxsize=1)
def checksum_table() -> ChecksumTable:
    return ChecksumTable.model_validate_json(CHECKSUMS.read_text(encoding="utf-8"))


def cache_root() -> Path:
    """`$CLARQ_CACHE_DIR`, else the platform's user cache folder for clarq."""
    override = os.environ.get(ENV_CACHE)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("clarq"))


def upstream_dir() -> Path:
    """The cached copy of the upstream repository at the pinned commit (data/ and results/ beneath)."""
    return cache_root() / f"upstream-{checksum_table().commit[:12]}"


def cached_data_dir() -> Path:
    return upstream_dir() / "data"


def is_complete(data_dir: Path) -> bool:
    """True once a download has verified every data file (the marker is written last)."""
    return (data_dir / COMPLETE_MARKER).is_file()


def sha256_of(blob: bytes) -> str:
    return hashlib.sha256(blob).hexdigest()


def _fetch(url: str, timeout: float) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": "clarq-bench"})
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - pinned https or a test URL
        return response.read()


def _store(target: Path, blob: bytes) -> None:
    """Write atomically: a temporary file in the same folder, then rename."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(blob)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def download(
    *, base_url: str | None = None, with_results: bool = False, timeout: float = 30.0, workers: int = 8
) -> DownloadReport:
    """Fetch the pinned files that are missing or wrong in the cache; verify each before it is stored.

    Raises ClarqError listing what failed (network or checksum); files that verified are kept, so a retry
    fetches only the rest.
    """
    table = checksum_table()
    base = (
        base_url
        or os.environ.get(ENV_BASE_URL)
        or DEFAULT_BASE_URL.format(repository=table.repository, commit=table.commit)
    )
    if not base.endswith("/"):
        base += "/"
    root = upstream_dir()
    wanted = {path: digest for path, digest in table.files.items() if with_results or path.startswith("data/")}
    report = DownloadReport(target=str(root / "data"))

    def one(item: tuple[str, str]) -> tuple[str, str | None, bool]:
        relative, digest = item
        target = root / relative
        if target.is_file() and sha256_of(target.read_bytes()) == digest:
            return relative, None, False
        url = base + urllib.parse.quote(relative)
        try:
            blob = _fetch(url, timeout)
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", None) or exc
            return relative, f"cannot fetch {url}: {reason}", False
        if sha256_of(blob) != digest:
            return (
                relative,
                f"checksum mismatch for {url} (expected {digest[:12]}..., got {sha256_of(blob)[:12]}...)",
                False,
            )
        _store(target, blob)
        return relative, None, True

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for relative, problem, fetched in pool.map(one, sorted(wanted.items())):
            if problem:
                report.failed[relative] = problem
            elif fetched:
                report.fetched.append(relative)
            else:
                report.already_present.append(relative)
    data_dir = root / "data"
    if report.failed:
        (data_dir / COMPLETE_MARKER).unlink(missing_ok=True)
        first = next(iter(report.failed.values()))
        raise ClarqError(
            f"{len(report.failed)} of {len(wanted)} files failed to download; first: {first}",
            "check the network and run `clarq data download` again, or point CLARQ_DATA at a local copy",
        )
    _store(data_dir / COMPLETE_MARKER, json.dumps({"commit": table.commit}).encode())
    return report


def verify_folder(data_dir: Path) -> dict[str, str]:
    """Compare a local data folder with the pinned checksums: relative path -> problem, for every mismatch."""
    problems: dict[str, str] = {}
    for relative, digest in checksum_table().files.items():
        if not relative.startswith("data/"):
            continue
        path = Path(data_dir) / relative.removeprefix("data/")
        if not path.is_file():
            problems[relative] = "missing"
        elif sha256_of(path.read_bytes()) != digest:
            problems[relative] = "differs from the pinned upstream file"
    return problems
