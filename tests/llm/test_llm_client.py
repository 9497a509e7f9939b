"""The LLM client through the real litellm path (and the direct path) against the fake server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time

import pytest
from pydantic import BaseModel

from clarq_bench.core.errors import ClarqError
from clarq_bench.llm import (
    LLMAuthError,
    LLMClient,
    LLMContextWindowError,
    LLMJSONError,
    LLMSettings,
    LLMUnavailableError,
    track_usage,
)
from clarq_bench.llm.models import litellm_module
from clarq_bench.testing import error, estimate_tokens, garbage, reply

MODEL = "openai/gpt-4o-2024-05-13"  # priced in litellm's table, served by the fake server via api_base
KEY = "sk-test-dummy-key-0123456789"
HELLO = [{"role": "user", "content": "Say hello."}]


class Answer(BaseModel):
    answer: int


def make_client(server, tmp_path, **overrides) -> LLMClient:
    settings = {
        "api_base": server.base_url,
        "api_key": KEY,
        "cache_path": tmp_path / "cache.sqlite3",
        "use_cache": False,
        **overrides,
    }
    return LLMClient(LLMSettings(**settings))


@pytest.fixture(params=["litellm", "direct"])
def transport(request) -> str:
    return request.param


async def test_429_is_retried_after_the_servers_retry_after(fake_openai, tmp_path, retry_waits, transport):
    fake_openai.push(error(429, retry_after=3), reply("hello there"))
    client = make_client(fake_openai, tmp_path, transport=transport)
    completion = await client.complete(HELLO, model=MODEL, role="seeker")
    assert completion.text == "hello there"
    assert completion.attempts == 2 and fake_openai.hits == 2 and client.retries == 1
    assert len(retry_waits) == 1 and 3 <= retry_waits[0] <= 3.3


async def test_server_errors_garbage_and_timeouts_are_retried(fake_openai, tmp_path, retry_waits, transport):
    fake_openai.push(error(500), error(503), garbage(), reply("late", delay_s=0.4), reply("finally"))
    client = make_client(fake_openai, tmp_path, transport=transport, timeout_s=0.15)
    completion = await client.complete(HELLO, model=MODEL)
    assert completion.text == "finally" and completion.attempts == 5 and fake_openai.hits == 5
    assert len(retry_waits) == 4


async def test_401_is_not_retried_and_is_one_clear_line(fake_openai, tmp_path, retry_waits, transport):
    fake_openai.push(error(401, message="Incorrect API key provided"))
    client = make_client(fake_openai, tmp_path, transport=transport)
    with pytest.raises(LLMAuthError) as caught:
        await client.complete(HELLO, model=MODEL)
    assert fake_openai.hits == 1 and retry_waits == []
    message = str(caught.value)
    assert isinstance(caught.value, ClarqError) and "\n" not in message
    assert "401" in message and "Incorrect API key provided" in message and MODEL in message


async def test_context_window_error_is_not_retried(fake_openai, tmp_path, transport):
    fake_openai.push(error(400, message="This model's maximum context length is 8192 tokens"))
    client = make_client(fake_openai, tmp_path, transport=transport)
    with pytest.raises(LLMContextWindowError):
        await client.complete(HELLO, model=MODEL)
    assert fake_openai.hits == 1


async def test_retries_are_bounded_and_counted(fake_openai, tmp_path, retry_waits):
    fake_openai.push(*[error(500)] * 4)
    client = make_client(fake_openai, tmp_path, max_attempts=3)
    with pytest.raises(LLMUnavailableError) as caught:
        await client.complete(HELLO, model=MODEL)
    assert caught.value.attempts == 3 and fake_openai.hits == 3 and len(retry_waits) == 2
    assert "3 attempts" in str(caught.value)


async def test_invalid_json_is_reasked_then_accepted(fake_openai, tmp_path, transport):
    fake_openai.push("I think the answer is three.", 'Sure:\n```json\n{"answer": 3}\n```\nAnything else?')
    client = make_client(fake_openai, tmp_path, transport=transport)
    completion = await client.complete(HELLO, model=MODEL, schema=Answer)
    assert completion.parsed == Answer(answer=3) and completion.asks == 2 and fake_openai.hits == 2
    first, second = fake_openai.requests
    assert first["response_format"] == {"type": "json_object"}
    assert second["messages"][:2] == [HELLO[0], {"role": "assistant", "content": "I think the answer is three."}]
    assert "JSON" in second["messages"][2]["content"]
    assert completion.usage.calls == 2  # both asks were billed


async def test_json_reasks_are_bounded_then_a_typed_error(fake_openai, tmp_path):
    fake_openai.push('{"answer": "many"}', "no", "still no")
    client = make_client(fake_openai, tmp_path, json_retries=2)
    with pytest.raises(LLMJSONError) as caught:
        await client.complete(HELLO, model=MODEL, schema=Answer)
    assert fake_openai.hits == 3 and caught.value.text == "still no"
    assert client.usage.calls == 3


async def test_second_identical_call_is_a_cache_hit(fake_openai, tmp_path, transport):
    client = make_client(fake_openai, tmp_path, use_cache=True, transport=transport)
    first = await client.complete(HELLO, model=MODEL, seed=8848, trial=0)
    second = await client.complete(HELLO, model=MODEL, seed=8848, trial=0)
    assert fake_openai.hits == 1
    assert not first.cached and second.cached and second.text == first.text
    assert second.usage.cost_usd == 0 and second.usage.cached_calls == 1 and second.attempts == 0
    assert client.usage.calls == 1 and client.usage.cached_calls == 1
    assert client.usage.cost_usd == pytest.approx(first.usage.cost_usd)
    # a fresh client on the same file replays it too
    again = await make_client(fake_openai, tmp_path, use_cache=True).complete(HELLO, model=MODEL, seed=8848)
    assert again.cached and fake_openai.hits == 1
    stored = (tmp_path / "cache.sqlite3").read_bytes() + b"".join(
        p.read_bytes() for p in tmp_path.glob("cache.sqlite3-*")
    )
    assert KEY.encode() not in stored and b"Authorization" not in stored


@pytest.mark.parametrize("change", [{"trial": 1}, {"seed": 1}, {"temperature": 0.7}, {"model": "openai/gpt-4o"}])
async def test_anything_that_changes_the_answer_misses_the_cache(fake_openai, tmp_path, change):
    client = make_client(fake_openai, tmp_path, use_cache=True)
    base = {"model": "openai/gpt-4-0613", "seed": 8848, "trial": 0, "temperature": 0.0}
    await client.complete(HELLO, **base)
    second = await client.complete(HELLO, **{**base, **change})
    assert fake_openai.hits == 2 and not second.cached


async def test_alias_resolves_to_the_dated_version_and_is_recorded(fake_openai, tmp_path):
    completion = await make_client(fake_openai, tmp_path).complete(HELLO, model="openai/gpt-4o")
    assert completion.model == "openai/gpt-4o-2024-05-13" and completion.requested_model == "openai/gpt-4o"
    assert fake_openai.requests[0]["model"] == "gpt-4o-2024-05-13"


async def test_cost_is_the_sum_of_per_call_costs_from_the_price_table(fake_openai, tmp_path, transport):
    client = make_client(fake_openai, tmp_path, transport=transport)
    prompts = ["short", "a somewhat longer question about the task " * 5, "x" * 999]
    with track_usage() as meter:
        for i, prompt in enumerate(prompts):
            await client.complete(
                [{"role": "user", "content": prompt}], model=MODEL, role="seeker" if i else "provider"
            )
    prices = litellm_module().model_cost["gpt-4o-2024-05-13"]
    bodies = fake_openai.requests
    expected = []
    for body in bodies:
        prompt_tokens = estimate_tokens("".join(m["content"] for m in body["messages"]))
        completion_tokens = estimate_tokens("echo: " + body["messages"][-1]["content"])
        expected.append(
            prompt_tokens * prices["input_cost_per_token"] + completion_tokens * prices["output_cost_per_token"]
        )
    assert expected[0] > 0
    assert client.usage.cost_usd == pytest.approx(sum(expected), rel=1e-9)
    assert client.usage_by_role["provider"].cost_usd == pytest.approx(expected[0], rel=1e-9)
    assert client.usage_by_role["seeker"].cost_usd == pytest.approx(expected[1] + expected[2], rel=1e-9)
    assert meter.total.cost_usd == pytest.approx(sum(expected), rel=1e-9) and meter.total.calls == 3


async def test_budget_is_exhausted_once_max_cost_is_spent(fake_openai, tmp_path):
    client = make_client(fake_openai, tmp_path, max_cost=1e-9)
    assert not client.budget_exhausted
    await client.complete(HELLO, model=MODEL)
    assert client.budget_exhausted
    assert not make_client(fake_openai, tmp_path).budget_exhausted  # no budget, never exhausted


async def test_calls_in_flight_never_exceed_the_model_limit(fake_openai, tmp_path, transport):
    fake_openai.latency_s = 0.05
    client = make_client(fake_openai, tmp_path, max_concurrency_per_model=3, transport=transport)
    prompts = [[{"role": "user", "content": f"q{i}"}] for i in range(12)]
    await asyncio.gather(*(client.complete(p, model=MODEL) for p in prompts))
    assert fake_openai.hits == 12 and fake_openai.max_in_flight == 3


async def test_rpm_spaces_request_starts(fake_openai, tmp_path):
    client = make_client(fake_openai, tmp_path, rpm=1200, transport="direct")  # one start per 50 ms
    started = time.perf_counter()
    await asyncio.gather(*(client.complete([{"role": "user", "content": f"q{i}"}], model=MODEL) for i in range(4)))
    assert time.perf_counter() - started >= 0.15
    await client.aclose()


async def test_cache_file_is_safe_under_threads_and_tasks(fake_openai, tmp_path):
    """Two clients on one cache file, each driven from its own thread's event loop, many tasks each."""
    prompts = [[{"role": "user", "content": f"q{i % 10}"}] for i in range(40)]

    def run_client() -> list[str]:
        async def go() -> list[str]:
            client = make_client(fake_openai, tmp_path, use_cache=True)
            done = await asyncio.gather(*(client.complete(p, model=MODEL) for p in prompts))
            return [c.text for c in done]

        return asyncio.run(go())

    results = await asyncio.gather(asyncio.to_thread(run_client), asyncio.to_thread(run_client))
    assert results[0] == results[1] == [f"echo: q{i % 10}" for i in range(40)]
    with sqlite3.connect(tmp_path / "cache.sqlite3") as conn:
        assert conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 10
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_call_cost_matches_litellm_and_keeps_tiered_models_on_litellm():
    """Linear prices are read once and multiplied; tiered ones (above 128k tokens) are priced by litellm each time."""
    from clarq_bench.llm import accounting

    litellm = litellm_module()

    def litellm_cost(model, prompt_tokens, completion_tokens):
        return sum(
            litellm.cost_per_token(model=model, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)
        )

    for model, tokens in [
        (MODEL, (1234, 56)),
        ("anthropic/claude-3-5-sonnet-20240620", (10, 2000)),
        ("gemini/gemini-1.5-pro", (1000, 10)),
        ("gemini/gemini-1.5-pro", (200_000, 10)),
    ]:
        assert accounting.call_cost(model, *tokens) == pytest.approx(litellm_cost(model, *tokens), rel=1e-12)
    assert MODEL in accounting._RATES and "gemini/gemini-1.5-pro" in accounting._TIERED
    assert accounting.call_cost("openai/no-such-model-anywhere", 10, 10) == 0.0
    assert not accounting.is_priced("openai/no-such-model-anywhere")


def test_auto_transport_rule():
    from clarq_bench.llm.transports import uses_direct

    base = "http://127.0.0.1:8000/v1"
    assert uses_direct("auto", base, "openai/gpt-4o-2024-05-13") and uses_direct("direct", base, "hosted_vllm/m/x")
    assert uses_direct("auto", base, "gpt-4o-2024-05-13")  # a bare name litellm places with OpenAI
    assert not uses_direct("auto", None, "openai/gpt-4o-2024-05-13")  # hosted OpenAI: litellm
    assert not uses_direct("auto", base, "anthropic/claude-3-5-sonnet-20240620")
    assert not uses_direct("auto", base, "bedrock/meta.llama3-1-405b-instruct-v1:0")
    assert not uses_direct("litellm", base, "openai/gpt-4o-2024-05-13")


async def test_auto_transport_sends_openai_models_at_an_api_base_directly(fake_openai, tmp_path, monkeypatch):
    from clarq_bench.llm import client as client_module

    async def no_litellm(*args, **kwargs):
        raise AssertionError("litellm was used")

    monkeypatch.setattr(client_module, "litellm_call", no_litellm)
    client = make_client(fake_openai, tmp_path, transport="auto")
    completion = await client.complete(HELLO, model="openai/gpt-4o")
    assert completion.text == "echo: Say hello." and fake_openai.requests[0]["model"] == "gpt-4o-2024-05-13"
    await client.aclose()


async def test_backoff_doubles_after_the_first_attempt_outside_tenacity(retry_waits, monkeypatch):
    from clarq_bench.llm import retry

    monkeypatch.setattr(retry.random, "uniform", lambda low, high: high)  # the ceiling of each full-jitter wait
    failures: list[BaseException] = []

    async def always_500() -> str:
        raise retry.HTTPStatusError(500, "down")

    with pytest.raises(LLMUnavailableError) as caught:
        await retry.with_retries(
            always_500, model=MODEL, max_attempts=4, base_wait=0.5, max_wait=1.5, on_retry=failures.append
        )
    assert retry_waits == [0.5, 1.0, 1.5] and len(failures) == 3 and caught.value.attempts == 4

    calls = 0

    async def succeed_second() -> str:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise retry.HTTPStatusError(429, "slow down", {"retry-after": "2"})
        return "ok"

    assert await retry.with_retries(succeed_second, model=MODEL, max_attempts=3) == ("ok", 2)
    assert 2 <= retry_waits[-1] <= 2.2


async def test_fake_server_answers_pipelined_requests_in_order(fake_openai):
    fake_openai.push(reply("slow", delay_s=0.1), reply("fast"))
    reader, writer = await asyncio.open_connection("127.0.0.1", fake_openai.port)
    body = b'{"messages": [{"role": "user", "content": "hi"}]}'
    request = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body)) + body
    writer.write(request + request)
    texts = []
    for _ in range(2):
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        texts.append(json.loads(await reader.readexactly(length))["choices"][0]["message"]["content"])
    writer.close()
    assert texts == ["slow", "fast"] and fake_openai.hits == 2


async def test_one_reask_loop_for_clarqs_client_and_the_inspect_bridge():
    """llm/jsonreply.ask_until_valid: an empty reply is re-asked like bad JSON while asks remain (raised at once with
    no schema), the problem is quoted back, and the last bad reply goes to `failed` with the number of asks."""
    from clarq_bench.llm.errors import LLMEmptyReplyError
    from clarq_bench.llm.jsonreply import ask_until_valid

    def script(*replies: str):
        seen: list[list[dict]] = []

        async def ask(conversation: list[dict]) -> str:
            seen.append(conversation)
            text = replies[len(seen) - 1]
            if not text:
                raise LLMEmptyReplyError("blank", model=MODEL, attempts=1)
            return text

        return ask, seen

    def failed(asks: int, why: str, text: str) -> Exception:
        return LLMJSONError(why, model=MODEL, attempts=asks, text=text)

    ask, seen = script("", '{"answer": 2}')
    _text, parsed, asks = await ask_until_valid(ask, HELLO, Answer, 2, failed)
    assert parsed == Answer(answer=2) and asks == 2 and "empty" in seen[1][-1]["content"]
    ask, seen = script("")
    with pytest.raises(LLMEmptyReplyError):
        await ask_until_valid(ask, HELLO, None, 2, failed)
    ask, seen = script("no", "still no")
    with pytest.raises(LLMJSONError) as caught:
        await ask_until_valid(ask, HELLO, Answer, 1, failed)
    assert caught.value.text == "still no" and len(seen) == 2 and seen[1][-2]["content"] == "no"
    assert "no valid Answer JSON after 2 asks" in str(caught.value)
    ask, seen = script("plain words")
    assert await ask_until_valid(ask, HELLO, None, 2, failed) == ("plain words", None, 1)
