"""The companion tracks' own data (ClariQ, MIMICS-Duo), fetched at a pinned commit and checked by SHA-256 per file.

Neither is shipped in the repository (ClariQ states no licence). `clarq data download --dataset clariq|mimics-duo`
fetches each pinned file, verifies it against `checksums/<dataset>.json` and only then stores it in the user cache,
like the ClarQ-LLM data (download.py). A folder is found from an explicit path, then the dataset's environment
variable, then the cache; a folder given by hand is read as it is (its files are checked by the loaders' parsers).
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
from pathlib import Path

from pydantic import BaseModel

from ..core.errors import ClarqError
from .download import (
    COMPLETE_MARKER,
    DEFAULT_BASE_URL,
    ChecksumTable,
    DownloadReport,
    _fetch,
    _store,
    cache_root,
    sha256_of,
)

CHECKSUMS = Path(__file__).resolve().parent / "checksums"
DATASETS = {"clariq": "CLARQ_CLARIQ_DIR", "mimics-duo": "CLARQ_MIMICS_DUO_DIR"}
FOLDER = {"clariq": "data", "mimics-duo": "Data"}  # the folder of the repository that holds the files


class Dataset(BaseModel):
    name: str
    table: ChecksumTable

    @property
    def root(self) -> Path:
        return cache_root() / f"{self.name}-{self.table.commit[:12]}"

    @property
    def files_dir(self) -> Path:
        return self.root / FOLDER[self.name]


def dataset(name: str) -> Dataset:
    if name not in DATASETS:
        raise ClarqError(f"unknown dataset {name!r}", f"choose one of clarq-llm, {', '.join(DATASETS)}")
    table = ChecksumTable.model_validate_json((CHECKSUMS / f"{name}.json").read_text(encoding="utf-8"))
    return Dataset(name=name, table=table)


def download_dataset(name: str, *, base_url: str | None = None, timeout: float = 30.0) -> DownloadReport:
    """Fetch the pinned files missing or wrong in the cache; a file that fails its checksum is never stored."""
    spec = dataset(name)
    base = base_url or DEFAULT_BASE_URL.format(repository=spec.table.repository, commit=spec.table.commit)
    base = base if base.endswith("/") else base + "/"
    report = DownloadReport(target=str(spec.files_dir))
    for relative, digest in sorted(spec.table.files.items()):
        target = spec.root / relative
        if target.is_file() and sha256_of(target.read_bytes()) == digest:
            report.already_present.append(relative)
            continue
        url = base + urllib.parse.quote(relative)
        try:
            blob = _fetch(url, timeout)
        except (urllib.error.URLError, OSError, ValueError) as exc:
            report.failed[relative] = f"cannot fetch {url}: {getattr(exc, 'reason', None) or exc}"
            continue
        if sha256_of(blob) != digest:
            report.failed[relative] = (
                f"checksum mismatch for {url} (expected {digest[:12]}..., got {sha256_of(blob)[:12]}...)"
            )
            continue
        _store(target, blob)
        report.fetched.append(relative)
    marker = spec.files_dir / COMPLETE_MARKER
    if report.failed:
        marker.unlink(missing_ok=True)
        raise ClarqError(
            f"{len(report.failed)} of {len(spec.table.files)} {name} files failed to download; first: "
            f"{next(iter(report.failed.values()))}",
            f"run `clarq data download --dataset {name}` again, or set {DATASETS[name]} to a local copy of the files",
        )
    _store(marker, json.dumps({"commit": spec.table.commit}).encode())
    return report


def dataset_dir(name: str, explicit: str | Path | None = None) -> Path:
    """The folder holding the dataset's files: `explicit`, else $CLARQ_<NAME>_DIR, else the verified cache."""
    spec = dataset(name)
    chosen = explicit or os.environ.get(DATASETS[name])
    if chosen:
        path = Path(chosen).expanduser()
        if not path.is_dir():
            raise ClarqError(f"{path} is not a folder", f"point it at the {name} files")
        return path
    if (spec.files_dir / COMPLETE_MARKER).is_file():
        return spec.files_dir
    raise ClarqError(
        f"no {name} data found",
        f"run `clarq data download --dataset {name}`, or set {DATASETS[name]} to a folder with its files",
    )


def verify_dataset(name: str, folder: Path) -> dict[str, str]:
    """Pinned file -> problem, for every file of `folder` that is missing or differs from the pinned one."""
    spec = dataset(name)
    problems = {}
    for relative, digest in spec.table.files.items():
        path = folder / relative.split("/", 1)[1]
        if not path.is_file():
            problems[relative] = "missing"
        elif sha256_of(path.read_bytes()) != digest:
            problems[relative] = "differs from the pinned file"
    return problems
