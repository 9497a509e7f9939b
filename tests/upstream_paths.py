"""Where the released ClarQ-LLM files are for tests, found the way a user provides them, and a skip when absent.

One place for every test: the first folder that holds the released task data wins, in this order: $CLARQ_DATA (a
`data` folder; its `results` sibling holds the released dialogues), ../shared/clarq-llm-upstream beside the
repository, then the `clarq data download` cache ($CLARQ_CACHE_DIR or the user cache). A folder counts only when it
holds every pinned data file, so $CLARQ_DATA pointing at the sample tasks is not taken for the released data.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clarq_bench.data.download import checksum_table, upstream_dir

REPO = Path(__file__).resolve().parents[1]
SAMPLE_TASKS = REPO / "tasks"
_PINNED_DATA = [path.removeprefix("data/") for path in checksum_table().files if path.startswith("data/")]


def _holds_released_data(folder: Path) -> bool:
    return folder.is_dir() and all((folder / name).is_file() for name in _PINNED_DATA)


def _candidates() -> list[Path]:
    """Upstream roots (data/ and results/ beneath), most explicit first."""
    roots = []
    if os.environ.get("CLARQ_DATA"):
        roots.append(Path(os.environ["CLARQ_DATA"]).expanduser().parent)
    roots.append(REPO.parent / "shared" / "clarq-llm-upstream")
    roots.append(upstream_dir())
    return roots


def locate_upstream() -> Path:
    """The first root whose data/ holds the released task data; the ../shared path (absent) when none does."""
    for root in _candidates():
        if _holds_released_data(root / "data"):
            return root
    return REPO.parent / "shared" / "clarq-llm-upstream"


def _data_folder(root: Path) -> Path:
    explicit = os.environ.get("CLARQ_DATA")
    if explicit and Path(explicit).expanduser().parent == root:
        return Path(explicit).expanduser()
    return root / "data"


UPSTREAM = locate_upstream()
UPSTREAM_DATA = _data_folder(UPSTREAM)
UPSTREAM_RESULTS = UPSTREAM / "results"
WHERE = "$CLARQ_DATA, ../shared/clarq-llm-upstream or the `clarq data download` cache"

needs_upstream = pytest.mark.skipif(
    not _holds_released_data(UPSTREAM_DATA), reason=f"the released ClarQ-LLM data is not in {WHERE}"
)
needs_results = pytest.mark.skipif(
    not UPSTREAM_RESULTS.is_dir(),
    reason=f"the released results are not beside the data in {WHERE} (`clarq data download --results`)",
)
