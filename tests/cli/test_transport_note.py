"""`clarq run --transport litellm` names the models the plain HTTP path would have sent, and says what litellm costs."""

from __future__ import annotations

import argparse

from clarq_bench.cli.run import transport_note
from clarq_bench.core.run_config import AgentSettings, RunConfig


def _config(seeker_model: str | None, provider_model: str | None) -> RunConfig:
    return RunConfig(
        seeker=AgentSettings(name="llm", model=seeker_model),
        provider=AgentSettings(name="llm" if provider_model else "offline", model=provider_model),
    )


def test_litellm_for_an_openai_compatible_endpoint_gets_the_note() -> None:
    args = argparse.Namespace(transport="litellm", api_base="http://127.0.0.1:8000/v1")
    note = transport_note(args, _config("openai/my-model", "hosted_vllm/other"))
    assert note is not None and "openai/my-model, hosted_vllm/other" not in note
    assert "hosted_vllm/other, openai/my-model" in note and "--transport auto" in note


def test_no_note_where_litellm_is_the_only_path_or_was_not_asked_for() -> None:
    base = "http://127.0.0.1:8000/v1"
    assert transport_note(argparse.Namespace(transport="auto", api_base=base), _config("openai/m", None)) is None
    assert transport_note(argparse.Namespace(transport="litellm", api_base=None), _config("openai/m", None)) is None
    assert (
        transport_note(argparse.Namespace(transport="litellm", api_base=base), _config("anthropic/claude-x", None))
        is None
    )
