"""Where the released upstream data sits for tests (../shared beside the repository), and a skip when absent."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
UPSTREAM = REPO.parent / "shared" / "clarq-llm-upstream"
UPSTREAM_DATA = UPSTREAM / "data"
UPSTREAM_RESULTS = UPSTREAM / "results"
SAMPLE_TASKS = REPO / "tasks"

needs_upstream = pytest.mark.skipif(
    not UPSTREAM_DATA.is_dir(), reason="../shared/clarq-llm-upstream is not beside the repository"
)
