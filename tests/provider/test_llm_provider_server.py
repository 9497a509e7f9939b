"""The LLM provider through the real client stack (litellm -> HTTP) against the fake OpenAI server on 127.0.0.1."""

from __future__ import annotations

import json

import pytest
from test_llm_provider import NODES_EN, decision, dialogue, make_task
from upstream_paths import UPSTREAM_RESULTS, needs_upstream

from clarq_bench.core.transcript import ReplyKind
from clarq_bench.llm import LLMClient, LLMSettings
from clarq_bench.provider.factory import make_provider
from clarq_bench.testing.fake_openai import FakeOpenAIServer


def responder(decide: dict[str, object], text: str = "Don't worry about that, just go on."):
    """JSON-mode requests get the decision, plain ones the generated text."""

    def answer(body: dict) -> str:
        wants_json = (body.get("response_format") or {}).get("type") in ("json_object", "json_schema")
        prompt = str(body["messages"][-1]["content"])
        return json.dumps(decide) if wants_json or '"intent"' in prompt[-400:] else text

    return answer


@pytest.fixture
def keyed(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))


async def test_response_i_is_one_request_with_seed_and_temperature(keyed):
    with FakeOpenAIServer(responder=responder(decision(2, "2"))) as server:
        client = LLMClient(LLMSettings(api_base=server.base_url, use_cache=False))
        provider = make_provider("openai/fake-jax", make_task(), client=client)
        turn = await provider.respond(dialogue("There are two mines, which one?"))
        bodies = server.requests
    assert turn.kind == ReplyKind.response_i and turn.text == NODES_EN[3][1]
    assert len(bodies) == 1
    assert bodies[0]["temperature"] == 0 and bodies[0]["seed"] == 8848
    assert turn.notes["seed"] == 8848 and turn.notes["temperature"] == 0.0 and turn.notes["model"]
    assert turn.usage.prompt_tokens > 0


async def test_response_ii_is_two_requests(keyed):
    with FakeOpenAIServer(responder=responder(decision(6))) as server:
        client = LLMClient(LLMSettings(api_base=server.base_url, use_cache=False))
        provider = make_provider("openai/fake-jax", make_task(), "multi-info", client=client)
        turn = await provider.respond(dialogue("Anything else I should know?"))
        bodies = server.requests
    assert turn.kind == ReplyKind.response_ii and turn.text == "Don't worry about that, just go on."
    assert len(bodies) == 2 and turn.notes["calls"] == 2


@pytest.fixture
def litellm_calls(monkeypatch):
    """Spy on the LLM layer's litellm transport: the models it was called for and the api_base it got."""
    from clarq_bench.llm import client as client_module

    seen: list[tuple[str, str | None]] = []
    real = client_module.litellm_call

    async def spy(model, messages, params, *, api_base=None, **kwargs):
        seen.append((model, api_base))
        return await real(model, messages, params, api_base=api_base, **kwargs)

    monkeypatch.setattr(client_module, "litellm_call", spy)
    return seen


@needs_upstream
@pytest.mark.parametrize("transport", ["litellm", "auto"])
def test_cli_provider_eval_runs_against_the_fake_server(transport, keyed, litellm_calls, monkeypatch, capsys):
    from clarq_bench.cli.main import main

    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE"):  # only --api-base may point litellm at the server
        monkeypatch.delenv(name, raising=False)
    with FakeOpenAIServer(responder=responder(decision(2, "1"))) as server:
        path = UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json"
        code = main(
            [
                "provider-eval",
                "--provider",
                "openai/fake-jax",
                "--dialogues",
                str(path),
                "--types",
                "1",
                "--api-base",
                server.base_url,
                "--transport",
                transport,
                "--no-cache",
                "--json",
            ]
        )
        bodies = server.requests
    assert server.base_url.startswith("http://127.0.0.1:")
    assert code == 0 and len(bodies) > 10
    if transport == "litellm":
        assert len(litellm_calls) == len(bodies) and set(litellm_calls) == {("openai/fake-jax", server.base_url)}
    else:  # an OpenAI-compatible model at --api-base takes the plain HTTP path
        assert litellm_calls == []
    assert all(body["temperature"] == 0 and body["seed"] == 8848 for body in bodies)
    report = json.loads(capsys.readouterr().out)
    assert report["groups"]["all"]["steps"] > 10
    assert report["model"] == "openai/fake-jax" and report["usage"]["calls"] == len(bodies)


def test_cli_provider_eval_without_key_fails_before_starting(monkeypatch, tmp_path, litellm_calls, capsys):
    from test_provider_eval import write_results

    from clarq_bench.cli.main import main

    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    code = main(["provider-eval", "--provider", "gpt-4o", "--dialogues", str(write_results(tmp_path))])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "" and litellm_calls == []
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert "OPENAI_API_KEY" in lines[0] and "--provider offline" in lines[0]
