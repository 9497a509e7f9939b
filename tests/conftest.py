"""Shared fixtures: a fake OpenAI-compatible server on 127.0.0.1, and no real waiting between LLM retries."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from clarq_bench.testing import FakeOpenAIServer


def pytest_configure(config: pytest.Config) -> None:
    # litellm's own logging serialises its response objects loosely; the warning is about litellm, not us
    config.addinivalue_line("filterwarnings", "ignore:Pydantic serializer warnings:UserWarning")


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAIServer]:
    """A running fake server; script it with `fake_openai.push(reply(...), error(429, retry_after=1), ...)`."""
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture(autouse=True)
def retry_waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Retry back-off is recorded instead of slept; the list of requested waits is the fixture's value."""
    from clarq_bench.llm import retry

    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(retry, "sleep", no_wait)
    return waits
