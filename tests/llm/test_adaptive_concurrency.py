"""Adaptive calls in flight (llm/limits.py): halved on 429 / Retry-After, grown by one per full window, settling at a
server's hard limit without failed calls; the current cap is on the progress line."""

from __future__ import annotations

import asyncio
import time

import pytest

from clarq_bench.llm import LLMClient, LLMSettings, retry
from clarq_bench.llm.limits import PAST_CEILING_WINDOWS, AdaptiveGate, ModelLimits, is_throttle
from clarq_bench.llm.retry import HTTPStatusError
from clarq_bench.testing.fake_openai import FakeOpenAIServer

MODEL = "openai/fake-limited"


async def fill(gate: AdaptiveGate, count: int) -> None:
    for _ in range(count):
        await gate.acquire()


async def test_a_burst_of_refusals_halves_once_and_later_ones_halve_again() -> None:
    gate = AdaptiveGate(32)
    before = time.monotonic()
    gate.throttled(before)
    assert (gate.limit, gate.ceiling, gate.cuts) == (16, 31, 1)
    gate.throttled(before)  # sent before the cut: the same burst
    assert (gate.limit, gate.cuts) == (16, 1)
    gate.throttled(time.monotonic())
    assert (gate.limit, gate.ceiling, gate.cuts) == (8, 15, 2)
    for _ in range(5):
        gate.throttled(time.monotonic())
    assert gate.limit == 1  # never below one call


async def test_growth_needs_a_full_window_and_ten_past_the_ceiling() -> None:
    gate = AdaptiveGate(32)
    gate.throttled(time.monotonic())  # 32 refused: ceiling 31, cap 16
    gate.throttled(time.monotonic())  # ceiling 15, cap 8
    await fill(gate, 8)
    for _ in range(7):
        gate.succeeded()
    assert gate.limit == 8
    gate.succeeded()  # the 8th success with the gate full: +1
    assert gate.limit == 9
    gate.release()
    gate.release()  # 7 in flight under a cap of 9: not what holds calls back, so no growth
    for _ in range(50):
        gate.succeeded()
    assert gate.limit == 9
    await fill(gate, 2)
    total = 0
    while gate.limit < 15:  # to the ceiling: one window of `limit` successes per step
        await fill(gate, gate.limit - gate.in_flight)
        total += gate.limit
        for _ in range(gate.limit):
            gate.succeeded()
    assert total == sum(range(9, 15))
    await fill(gate, gate.limit - gate.in_flight)
    for _ in range(15 * PAST_CEILING_WINDOWS - 1):
        gate.succeeded()
    assert gate.limit == 15
    gate.succeeded()
    assert gate.limit == 16  # the probe past the ceiling
    gate.throttled(time.monotonic())
    assert (gate.limit, gate.ceiling) == (15, 15)  # a refused probe steps back to the known level, not to half


async def test_waiters_get_slots_as_the_cap_grows_and_a_cancelled_waiter_leaks_none() -> None:
    gate = AdaptiveGate(4)
    gate.throttled(time.monotonic())  # cap 2
    await fill(gate, 2)
    waiting = asyncio.ensure_future(gate.acquire())
    cancelled = asyncio.ensure_future(gate.acquire())
    await asyncio.sleep(0)
    cancelled.cancel()
    await asyncio.sleep(0)
    assert not waiting.done() and gate.in_flight == 2
    gate.successes = 1
    gate.succeeded()  # second success of a full window of 2: cap 3, the waiter is let in
    await asyncio.sleep(0)
    assert waiting.done() and gate.in_flight == 3 and gate.limit == 3 and not gate.waiters


def test_what_counts_as_a_refusal() -> None:
    assert is_throttle(HTTPStatusError(429, "slow down"))
    assert is_throttle(HTTPStatusError(503, "busy", {"Retry-After": "2"}))
    assert not is_throttle(HTTPStatusError(500, "boom")) and not is_throttle(None)


@pytest.mark.timeout(120)
async def test_the_cap_settles_at_a_servers_hard_limit_with_no_failed_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retry, "sleep", asyncio.sleep)  # real (short) backoff, as in a run
    limit, workers, per_worker = 6, 32, 12
    with FakeOpenAIServer(max_concurrent=limit, latency_s=0.01) as server:
        client = LLMClient(
            LLMSettings(
                api_base=server.base_url,
                api_key="sk-test",
                use_cache=False,
                max_concurrency_per_model=32,
                retry_base_wait=0.02,
                retry_max_wait=0.1,
                max_attempts=8,
            )
        )

        async def worker(w: int) -> list[str]:
            return [
                (await client.complete([{"role": "user", "content": f"{w}/{i}"}], model=MODEL)).text
                for i in range(per_worker)
            ]

        first = await asyncio.gather(*(worker(w) for w in range(workers)))
        refused_first = server.throttled
        second = await asyncio.gather(*(worker(w) for w in range(workers, 2 * workers)))
        refused_second = server.throttled - refused_first
        gate = client.limits.gate(MODEL)
        await client.aclose()
    calls = 2 * workers * per_worker
    assert sum(map(len, first + second)) == calls == server.served  # every call answered, none lost
    assert refused_first > 0  # it had to learn: 32 in flight against a limit of 6
    assert gate.ceiling == limit and limit <= gate.limit <= limit + 1  # at the limit (or probing one past it)
    assert refused_second < 0.05 * calls / 2  # settled: under 5% of the second half's calls refused
    assert client.limits.current()[MODEL] == gate.limit
    assert client.limits.describe() == f"in flight <= {MODEL} {gate.limit}/32"


def test_fixed_caps_of_deployments_are_not_on_the_progress_line() -> None:
    async def go() -> str:
        limits = ModelLimits(8)
        async with limits.slot("deployment:d0", 4, adaptive=False):
            pass
        async with limits.slot("gpt-x"):
            pass
        return limits.describe()

    assert asyncio.run(go()) == "in flight <= gpt-x 8/8"


@pytest.mark.timeout(120)
async def test_the_progress_line_shows_each_models_current_cap(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from clarq_bench.core.run_config import AgentSettings, RunConfig
    from clarq_bench.data.loader import load_tasks
    from clarq_bench.runner.batch import run_dialogues
    from clarq_bench.testing.fake_agents import both_agents

    monkeypatch.setattr(retry, "sleep", asyncio.sleep)
    seeker, provider = "openai/fake-seeker", "openai/fake-provider"
    tasks = load_tasks(Path(__file__).resolve().parents[2] / "tasks", ["en"])
    lines: list[str] = []
    with FakeOpenAIServer(responder=both_agents(seeker, provider), max_concurrent=2, latency_s=0.01) as server:
        client = LLMClient(
            LLMSettings(
                api_base=server.base_url,
                api_key="sk-test",
                use_cache=False,
                max_concurrency_per_model=8,
                retry_base_wait=0.02,
                retry_max_wait=0.1,
                max_attempts=10,
            )
        )
        config = RunConfig(
            seeker=AgentSettings(name="llm", model=seeker),
            provider=AgentSettings(name=provider),
            concurrency=len(tasks),
            progress=False,
        )
        try:
            stats = await run_dialogues(
                config, tasks, tmp_path / "run", client=client, on_update=lambda s: lines.append(s.line())
            )
        finally:
            await client.aclose()
    assert stats.errors == 0 and stats.done == len(tasks) and server.throttled > 0
    caps = client.limits.current()
    assert set(caps) == {seeker, provider} and min(caps.values()) < 8  # the refusals cut a cap
    assert lines[-1].endswith(f"in flight <= {provider} {caps[provider]}/8, {seeker} {caps[seeker]}/8")


def test_a_stray_refusal_lowers_the_remembered_level_only_until_the_cap_grows_back_through_it() -> None:
    from clarq_bench.llm.limits import AdaptiveGate

    gate = AdaptiveGate(16)
    gate.limit = gate.ceiling = 8  # settled at 8
    gate.in_flight = gate.limit
    gate.throttled(time.monotonic())  # one stray 429
    assert (gate.limit, gate.ceiling) == (4, 7)
    gate.last_cut = -1.0
    gate.throttled(0.0)  # and another one, a burst later, while the cap was down at 4
    assert (gate.limit, gate.ceiling) == (2, 3)
    for _ in range(10_000):  # the server takes everything again: each call succeeds with the gate full
        if gate.limit >= 9:
            break
        gate.in_flight = gate.limit
        gate.succeeded()
    assert gate.limit == 9 and gate.ceiling == 8  # back past the level it had settled at, remembering it
