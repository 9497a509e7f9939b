"""Shared fixtures: a fake OpenAI-compatible server on 127.0.0.1, and no real waiting between LLM retries; task
readers built afresh in every test."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from clarq_bench.testing import FakeOpenAIServer

#: Task readers are built in every test, never read from the on-disk store (provider/prepared_store.py): a test that
#: patches a rule must see it applied, and a patched build must never be stored for others (the store's own tests
#: turn it on in a folder of their own).
os.environ["CLARQ_PREPARED_CACHE"] = "0"


def pytest_configure(config: pytest.Config) -> None:
    # litellm's own logging serialises its response objects loosely; the warning is about litellm, not us
    config.addinivalue_line("filterwarnings", "ignore:Pydantic serializer warnings:UserWarning")


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAIServer]:
    """A running fake server; script it with `fake_openai.push(reply(...), error(429, retry_after=1), ...)`."""
    with FakeOpenAIServer() as server:
        yield server


#: The OpenAI key the fault tests set: the fake server takes any key, so no real one is ever needed.
FAKE_KEY = "sk-fake-test-0123456789"


@pytest.fixture
def openai_key(monkeypatch: pytest.MonkeyPatch) -> str:
    """OPENAI_API_KEY set to FAKE_KEY for the test (the models of `--api-base <fake server>` need a key)."""
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    return FAKE_KEY


@pytest.fixture
def keyed_openai(openai_key: str, fake_openai: FakeOpenAIServer) -> FakeOpenAIServer:
    """The running fake server, with a key set for the models it serves: a `clarq run --api-base` test's setup."""
    return fake_openai


@pytest.fixture
def the_run(tmp_path: Path) -> Callable[..., Path]:
    """`the_run(base=tmp_path)`: the one run folder under base/runs, where the test's `clarq run` wrote it (a second
    folder there is a failure: the test played more runs than it meant to)."""

    def find(base: Path | None = None) -> Path:
        (run_dir,) = ((base or tmp_path) / "runs").iterdir()
        return run_dir

    return find


@pytest.fixture(autouse=True)
def retry_waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Retry back-off is recorded instead of slept; the list of requested waits is the fixture's value."""
    from clarq_bench.llm import retry

    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(retry, "sleep", no_wait)
    return waits


#: Test modules whose every test costs in one of the registered ways (pyproject.toml's markers). Marked here, by
#: module, so the fast loop `-m "not slow and not browser and not servers and not wheel"` needs no edit of a test.
COSTLY_MODULES: dict[str, tuple[str, ...]] = {
    "test_leaderboard_browser": ("browser",),
    "test_pairwise_browser": ("browser",),
    "test_view_browser": ("browser",),
    "test_wheel": ("wheel", "slow"),
    "test_readme": ("servers",),  # runs the README's commands as processes
    "test_goodbye_replay": ("slow",),  # every released dialogue
    "test_mutation_kills_modules": ("slow",),  # recomputes the README's held-out figures
    "test_provider_determinism": ("servers", "slow"),
    "test_fault_processes": ("servers",),
    "test_run_failures": ("servers",),
    "test_fault_run_folder": ("servers",),
    "test_fault_adversary": ("servers",),
    "test_fault_cache_and_calls": ("servers",),
    "test_play_terminal": ("servers",),
    "test_pairwise_cli": ("servers",),
    "test_inspect_task": ("slow",),
}
#: Single tests measured at 5 s or more (`--durations`) under the fast loop's markers: slow too. Extend it from
#: `python -m pytest -m "not slow and not browser and not servers and not wheel" --durations=30`.
SLOW_TESTS = {
    "test_replay_run_records_divergence_and_reports_it",
    "test_a_run_and_a_rescore_count_the_judge_calls_they_make",
    "test_provider_eval_table_fits_80_columns_without_collapsing",
    "test_the_judges_spending_is_in_the_runs_ledger_and_its_cost",
}
#: A test that sets its own timeout above the suite's default says it is slow.
DEFAULT_TIMEOUT_S = 120


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        module = item.path.stem
        for kind in COSTLY_MODULES.get(module, ()):
            item.add_marker(kind)
        if "chromium" in item.name or "browser" in item.fixturenames:
            item.add_marker("browser")
        if item.originalname in SLOW_TESTS:
            item.add_marker("slow")
        timeout = item.get_closest_marker("timeout")
        if timeout is not None and timeout.args and float(timeout.args[0]) > DEFAULT_TIMEOUT_S:
            item.add_marker("slow")
