"""The scripted-model path, JSON reply parsing, aliases, the credential check and the shared CLI flags."""

from __future__ import annotations

import argparse
import asyncio

import pytest
from pydantic import BaseModel

from clarq_bench.llm import (
    LLMClient,
    LLMCredentialsError,
    LLMJSONError,
    LLMSettings,
    check_credentials,
    resolve_model,
    track_usage,
)
from clarq_bench.llm.jsonreply import ReplyProblem, extract_json, parse_reply
from clarq_bench.testing import ScriptedModel, ScriptExhausted, estimate_tokens


class Verdict(BaseModel):
    obtained: bool
    node: str | None = None


def client_with(**scripts: ScriptedModel) -> LLMClient:
    return LLMClient(LLMSettings(use_cache=False), scripted={f"scripted/{k}": v for k, v in scripts.items()})


async def test_scripted_list_replies_in_order_and_counts_tokens_from_text():
    model = ScriptedModel(["first", "second"])
    client = client_with(x=model)
    messages = [{"role": "user", "content": "12345678"}]
    one = await client.complete(messages, model="scripted/x", role="seeker")
    two = await client.complete(messages, model="scripted/x", role="seeker")
    assert (one.text, two.text) == ("first", "second") and one.model == "scripted/x"
    assert one.usage.prompt_tokens == 2 and one.usage.completion_tokens == estimate_tokens("first")
    assert one.usage.cost_usd == 0 and len(model.calls) == 2 and model.remaining == 0
    with pytest.raises(ScriptExhausted):
        await client.complete(messages, model="scripted/x")


async def test_scripted_callable_with_schema_and_reask():
    def judge(messages):
        return "maybe?" if len(messages) == 1 else '{"obtained": true, "node": "1.2"}'

    client = client_with(judge=ScriptedModel(judge))
    completion = await client.complete(
        [{"role": "user", "content": "Obtained?"}], model="scripted/judge", role="judge", schema=Verdict
    )
    assert completion.parsed == Verdict(obtained=True, node="1.2") and completion.asks == 2
    assert client.usage_by_role["judge"].calls == 2


async def test_scripted_exception_in_the_list_is_raised_as_it_is():
    client = client_with(x=ScriptedModel([LLMJSONError("scripted failure", model="scripted/x")]))
    with pytest.raises(LLMJSONError, match="scripted failure"):
        await client.complete([{"role": "user", "content": "hi"}], model="scripted/x")


async def test_track_usage_scopes_follow_tasks_and_nest():
    client = client_with(s=ScriptedModel(lambda m: "ok"), p=ScriptedModel(lambda m: "fine"))
    msg = [{"role": "user", "content": "hello"}]

    async def dialogue(n: int):
        with track_usage() as meter:
            for _ in range(n):
                await client.complete(msg, model="scripted/s", role="seeker")
                await client.complete(msg, model="scripted/p", role="provider")
            return meter

    with track_usage() as outer:
        meters = await asyncio.gather(dialogue(1), dialogue(3))
    assert [m.by_role["seeker"].calls for m in meters] == [1, 3]
    assert [m.by_role["provider"].calls for m in meters] == [1, 3]
    assert outer.total.calls == 8 and client.usage.calls == 8


async def test_unregistered_scripted_model_is_a_clear_error():
    with pytest.raises(Exception, match="no scripted model named"):
        await client_with().complete([{"role": "user", "content": "hi"}], model="scripted/nobody")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"a": 1}', {"a": 1}),
        ('```json\n{"a": [1, 2]}\n```', {"a": [1, 2]}),
        ('Here you go: {"a": "}"} -- hope that helps {not json}', {"a": "}"}),
        ('{broken {"a": 2}', {"a": 2}),
    ],
)
def test_extract_json_tolerates_fences_and_prose(text, value):
    assert extract_json(text) == value


def test_parse_reply_names_what_is_wrong():
    with pytest.raises(ReplyProblem, match="no valid JSON"):
        parse_reply("I cannot answer that.", Verdict)
    with pytest.raises(ReplyProblem, match="obtained"):
        parse_reply('{"node": "1"}', Verdict)


def test_aliases_pin_dated_versions():
    assert resolve_model("gpt-4o") == "gpt-4o-2024-05-13"
    assert resolve_model("gpt-4") == "gpt-4-0613"
    assert resolve_model("gpt-3.5") == "gpt-3.5-turbo-0613"
    assert resolve_model("llama3.1-405b") == "bedrock/meta.llama3-1-405b-instruct-v1:0"
    assert resolve_model("openai/gpt-4o") == "openai/gpt-4o-2024-05-13"
    assert resolve_model("anthropic/claude-3-5-sonnet-20240620") == "anthropic/claude-3-5-sonnet-20240620"


def test_missing_key_is_caught_before_the_run(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(LLMCredentialsError) as caught:
        check_credentials(["scripted/x", "gpt-4o"])
    message = str(caught.value)
    assert "OPENAI_API_KEY" in message and "--provider offline" in message and "\n" not in message
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    check_credentials(["gpt-4o", None, "scripted/x"])


def test_missing_aws_credentials_for_the_bedrock_alias(monkeypatch):
    for name in (
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_PROFILE",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    ):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(LLMCredentialsError, match="AWS_ACCESS_KEY_ID"):
        check_credentials(["llama3.1-405b"])
    monkeypatch.setenv("AWS_PROFILE", "research")
    check_credentials(["llama3.1-405b"])


def test_local_endpoints_and_explicit_keys_need_no_environment(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    check_credentials(["openai/my-local-model"], api_base="http://127.0.0.1:8000/v1")
    check_credentials(["gpt-4o"], api_key="sk-given")
    check_credentials(["ollama/llama3"])
    client = LLMClient(LLMSettings(use_cache=False), scripted={"scripted/x": ScriptedModel([])})
    client.check_credentials(["scripted/x"])
    with pytest.raises(LLMCredentialsError):
        client.check_credentials(["gpt-4"])


def test_cli_flags_become_settings_and_the_key_never_serialises(tmp_path):
    from clarq_bench.cli.llm_args import add_llm_arguments, settings_from_args

    parser = argparse.ArgumentParser()
    add_llm_arguments(parser)
    args = parser.parse_args(
        [
            "--no-cache",
            "--cache",
            str(tmp_path / "c.db"),
            "--api-base",
            "http://h/v1",
            "--max-cost",
            "2.5",
            "--rpm",
            "60",
            "--model-concurrency",
            "4",
        ]
    )
    settings = settings_from_args(args)
    assert (settings.use_cache, settings.cache_path, settings.api_base) == (False, tmp_path / "c.db", "http://h/v1")
    assert (settings.max_cost, settings.rpm, settings.max_concurrency_per_model) == (2.5, 60, 4)
    defaults = settings_from_args(parser.parse_args([]))
    assert defaults.use_cache and defaults.max_concurrency_per_model == 32 and defaults.max_cost is None
    with pytest.raises(SystemExit):
        parser.parse_args(["--max-cost", "-1"])
    keyed = LLMSettings(api_key="sk-secret-value")
    assert "sk-secret-value" not in keyed.model_dump_json() and "api_key" not in keyed.model_dump()


def test_importing_the_layer_does_not_import_litellm():
    import subprocess
    import sys

    code = "import sys, clarq_bench.llm, clarq_bench.testing, clarq_bench.cli.llm_args; print('litellm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_model_call_options_are_one_record_and_a_typo_is_one_line():
    """llm.options.ModelCallOptions: the flags of every command that calls models, by name, from a Namespace, a
    dict (the API's keywords) or another record; a misspelled or out-of-range option is a ClarqError, never ignored."""
    from clarq_bench.cli.llm_args import LLM_OPTIONS, add_llm_arguments
    from clarq_bench.core.errors import ClarqError
    from clarq_bench.llm.options import ModelCallOptions

    assert set(ModelCallOptions.model_fields) - {"timeout_s"} == set(LLM_OPTIONS)
    parser = argparse.ArgumentParser()
    add_llm_arguments(parser)
    assert ModelCallOptions.of(parser.parse_args([])) == ModelCallOptions()
    options = ModelCallOptions.of({"api_base": "http://h/v1", "rpm": 5}, max_cost=1.0)
    assert ModelCallOptions.of(options) == options and options.settings().rpm == 5
    assert ModelCallOptions.of({"timeout_s": 7}).settings().timeout_s == 7
    assert ModelCallOptions.of(None).settings().transport == "auto"
    for bad, message in (
        ({"api_bse": "x"}, "unknown model-call option 'api_bse'"),
        ({"max_cost": float("nan")}, "bad model-call option max_cost"),
        ({"model_concurrency": 0}, "bad model-call option model_concurrency"),
        ({"transport": "carrier-pigeon"}, "bad model-call option transport"),
    ):
        with pytest.raises(ClarqError, match=message):
            ModelCallOptions.of(bad)
