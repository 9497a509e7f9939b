"""Identical requests in flight at once are paid once: the second waits for the first's reply (counted as a cache
hit), against the fake server on 127.0.0.1; different requests and a failed first one are not merged."""

from __future__ import annotations

import asyncio
from pathlib import Path

from clarq_bench.llm import LLMClient, LLMSettings
from clarq_bench.testing.fake_openai import FakeOpenAIServer, error

HELLO = [{"role": "user", "content": "Say hello."}]


def client_for(server: FakeOpenAIServer, tmp_path: Path) -> LLMClient:
    return LLMClient(
        LLMSettings(
            api_base=server.base_url,
            api_key="sk-merge-test-000000",
            retry_base_wait=0,
            retry_max_wait=0,
            cache_path=tmp_path / "cache.sqlite3",
        )
    )


async def test_identical_requests_in_flight_are_paid_once(tmp_path: Path) -> None:
    with FakeOpenAIServer(latency_s=0.3) as server:
        client = client_for(server, tmp_path)
        try:
            same = await asyncio.gather(*(client.complete(HELLO, model="openai/m", seed=1) for _ in range(5)))
            other = await asyncio.gather(
                *(client.complete([{"role": "user", "content": f"{i}"}], model="openai/m", seed=1) for i in range(3))
            )
        finally:
            await client.aclose()
        assert server.hits == 1 + 3
    assert len({c.text for c in same}) == 1 and sum(c.usage.calls for c in same) == 1
    assert sum(c.usage.cached_calls for c in same) == 4 and client.usage.calls == 4
    assert len({c.text for c in other}) == 3


async def test_a_failed_first_request_leaves_the_others_their_own_attempts(tmp_path: Path) -> None:
    with FakeOpenAIServer([error(400, message="bad parameter")], latency_s=0.2) as server:
        client = client_for(server, tmp_path)
        try:
            results = await asyncio.gather(
                *(client.complete(HELLO, model="openai/m", seed=2) for _ in range(3)), return_exceptions=True
            )
        finally:
            await client.aclose()
    failures = [r for r in results if isinstance(r, Exception)]
    assert len(failures) == 1 and server.hits >= 2  # the others asked again, and were answered
    assert all(not isinstance(r, Exception) and r.text for r in results if r not in failures)
