"""Endpoint identity and secrets: two servers answering to one model name never share cache entries, a server that
reports another model is recorded as such, and a key echoed back in 401 / 500 bodies reaches no file and no output."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from upstream_paths import SAMPLE_TASKS

from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError
from clarq_bench.core.redact import redact
from clarq_bench.core.run_config import AgentSettings, RunConfig
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.data.loader import load_tasks
from clarq_bench.leaderboard import build_submission, verify_file, write_submission
from clarq_bench.llm import LLMClient, LLMSettings
from clarq_bench.llm.endpoint import normalize_endpoint
from clarq_bench.runner.batch import run_dialogues
from clarq_bench.testing.fake_openai import FakeOpenAIServer, error

SEEKER = "openai/gpt-4o"  # both fake servers answer to the same name


def _run(
    server: FakeOpenAIServer, run_dir: Path, cache: Path, resume: bool = False, stats: list | None = None, **settings
) -> list:
    tasks = load_tasks(SAMPLE_TASKS, ["en"], split="test")[:3]
    config = RunConfig(
        data_dir=str(SAMPLE_TASKS),
        seeker=AgentSettings(name="llm", model=SEEKER),
        provider=AgentSettings(name="offline"),
        concurrency=4,
        progress=False,
    )
    client = LLMClient(
        LLMSettings(api_base=server.base_url, cache_path=cache, retry_base_wait=0, retry_max_wait=0, **settings)
    )

    async def go() -> None:
        try:
            result = await run_dialogues(config, tasks, run_dir, client=client, resume=resume)
            if stats is not None:
                stats.append(result)
        finally:
            await client.aclose()

    asyncio.run(go())
    return read_transcripts(run_dir / "transcripts.jsonl")


def test_endpoint_is_normalized_without_credentials() -> None:
    assert (
        normalize_endpoint("HTTP://bob:pw@LocalHost:80/v1/?key=abc&api-version=2")
        == "http://localhost/v1?api-version=2"
    )
    assert normalize_endpoint("https://example.org:8443/v1") == "https://example.org:8443/v1"
    assert normalize_endpoint(None) is None and normalize_endpoint("  ") is None


def test_two_servers_with_one_model_name_never_share_the_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite3"
    with (
        FakeOpenAIServer(responder=lambda body: "What should I do first? goodbye") as first,
        FakeOpenAIServer(responder=lambda body: "Thanks, I am done. Goodbye!", report_model="local-llama-8b") as second,
    ):
        a = _run(first, tmp_path / "a", cache)
        paid = first.hits
        b = _run(second, tmp_path / "b", cache)
        assert second.hits == paid > 0  # nothing of the first server's replies was served for the second
        again = _run(second, tmp_path / "c", cache)
        assert second.hits == paid  # ...while the second server's own replies are cached
        with pytest.raises(ClarqError, match=r"config changed: api_base"):
            _run(second, tmp_path / "a", cache, resume=True)  # resuming the first server's run elsewhere
    assert {t.seeker_turns[0].text for t in a} == {"What should I do first? goodbye"}
    assert (
        {t.seeker_turns[0].text for t in b}
        == {t.seeker_turns[0].text for t in again}
        == {"Thanks, I am done. Goodbye!"}
    )
    configs = [json.loads((tmp_path / name / "config.json").read_text()) for name in "ab"]
    assert configs[0]["api_base"] == first.base_url.rstrip("/") and configs[1]["api_base"] == second.base_url.rstrip(
        "/"
    )
    assert configs[0]["config_hash"] != configs[1]["config_hash"]
    assert {(t.seeker.endpoint, t.seeker.reported_model) for t in a} == {(configs[0]["api_base"], None)}
    assert {(t.seeker.model, t.seeker.reported_model) for t in b} == {("openai/gpt-4o-2024-05-13", "local-llama-8b")}
    assert {t.seeker.reported_model for t in again} == {"local-llama-8b"}  # recorded from the cached entry too
    sub = build_submission(tmp_path / "b", data=str(SAMPLE_TASKS), partial=True)
    assert (
        sub.manifest.seeker.endpoint == configs[1]["api_base"]
        and sub.manifest.seeker.reported_model == "local-llama-8b"
    )
    assert "local-llama-8b (reported by the server)" in sub.manifest.seeker_models
    outcome = verify_file(write_submission(sub, tmp_path / "b.json"), str(SAMPLE_TASKS))[1]
    assert outcome.problems == [] and outcome.provenance == "replayed"


def test_a_key_echoed_in_401_and_500_bodies_reaches_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    key = "plainKeyNoShape20261123xyz"  # no sk- prefix: caught because it is the value of OPENAI_API_KEY
    monkeypatch.setenv("OPENAI_API_KEY", key)
    script = [
        error(500, message=f"upstream rejected headers {{'Authorization': 'Bearer {key}'}}"),
        error(500, message=f"bad key {key}"),
        error(500, message=f"api_key={key}"),
        error(500, message=f"Incorrect API key provided: Bearer {key}"),
    ]
    with FakeOpenAIServer(script, responder=lambda body: "Goodbye!") as server:
        transcripts = _run(server, tmp_path / "run", tmp_path / "cache.sqlite3", max_attempts=2)
    errors = [t.error for t in transcripts if t.error]
    assert errors and all("[redacted]" in e for e in errors)
    # A 401 stops the run at once (circuit breaker): the line it stops with carries the body, redacted.
    stats: list = []
    with FakeOpenAIServer(
        [error(401, message=f"Incorrect API key provided: Bearer {key}")] * 8, responder=lambda body: "Goodbye!"
    ) as server:
        _run(server, tmp_path / "stopped", tmp_path / "cache.sqlite3", stats=stats, max_attempts=2)
    assert stats[0].stopped and key not in stats[0].stopped and "[redacted]" in stats[0].stopped
    out = tmp_path / "sub.json"
    assert main(["submit", str(tmp_path / "run"), "-o", str(out), "--data", str(SAMPLE_TASKS), "--partial"]) == 0
    assert (
        main(
            ["submit", str(tmp_path / "run"), "-o", str(tmp_path / "sub.zip"), "--data", str(SAMPLE_TASKS), "--partial"]
        )
        == 0
    )
    assert (
        main(
            [
                "leaderboard",
                "build",
                str(tmp_path),
                "-o",
                str(tmp_path / "site"),
                "--data",
                str(SAMPLE_TASKS),
                "--no-plots",
            ]
        )
        == 0
    )
    written = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert len(written) > 5
    assert not [path for path in written if key.encode() in path.read_bytes()]
    captured = capsys.readouterr()
    assert key not in captured.out + captured.err


def test_redactor_catches_patterns_and_leaves_dialogue_text_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_SERVICE_TOKEN", "tok-value-1234567")
    assert redact("x tok-value-1234567 y") == "x [redacted] y"
    assert redact('{"api-key": "abcd1234efgh"}') == '{"api-key": "[redacted]"}'
    assert redact("Authorization: Bearer abc123def456") == "Authorization: Bearer [redacted]"
    assert redact("http://u:p@h/v1?key=AIza12345678") == "http://[redacted]@h/v1?key=[redacted]"
    for text in ("The key: basic ingredients first", "the flag bearer carrying it", '{"prompt_tokens": 12}'):
        assert redact(text) == text
