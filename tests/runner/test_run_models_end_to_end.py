"""`clarq run` with an LLM seeker and the LLM provider, end to end through the real HTTP stack (fake server on
127.0.0.1): every dialogue finishes, a second identical run is served from the cache, and the key is never written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clarq_bench.cli.main import main
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.core.transcript import EndReason
from clarq_bench.testing.fake_agents import both_agents
from clarq_bench.testing.fake_openai import FakeOpenAIServer

REPO = Path(__file__).resolve().parents[2]
SEEKER, PROVIDER = "openai/fake-seeker", "openai/fake-provider"
SECRET = "sk-clarq-test-secret-7f3a9c"


@pytest.mark.parametrize("transport", ["auto", "litellm"])
def test_model_run_finishes_caches_and_keeps_the_key_off_disk(
    transport: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    runs, cache = tmp_path / "runs", tmp_path / "cache" / "responses.sqlite3"
    with FakeOpenAIServer(responder=both_agents(SEEKER, PROVIDER)) as server:
        argv = [
            "run",
            "--seeker",
            SEEKER,
            "--provider",
            PROVIDER,
            "--api-base",
            server.base_url,
            "--transport",
            transport,
            "--tasks",
            str(REPO / "tasks"),
            "--lang",
            "all",
            "--cache",
            str(cache),
            "--runs-dir",
            str(runs),
            "--no-progress",
        ]
        assert main(argv) == 0
        paid = server.hits
        assert main(argv) == 0  # the same run again: every reply comes from the cache
        assert server.hits == paid > 0
    first, second = sorted(runs.iterdir())
    for run_dir in (first, second):
        transcripts = read_transcripts(run_dir / "transcripts.jsonl")
        assert {t.language for t in transcripts} == {"en", "zh"} and len(transcripts) == 16
        assert all(t.end_reason == EndReason.goodbye and t.error is None for t in transcripts)
        summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
        assert "success" in json.dumps(summary)
    replayed = read_transcripts(second / "transcripts.jsonl")
    # every role counts alike: a call served from the cache is a cached call, not a call made
    assert all(t.usage["provider"].calls == 0 < t.usage["provider"].cached_calls for t in replayed)
    played = {t.key: [turn.text for turn in t.turns] for t in read_transcripts(first / "transcripts.jsonl")}
    assert {t.key: [turn.text for turn in t.turns] for t in replayed} == played
    written = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert written and not any(SECRET.encode() in path.read_bytes() for path in written)


def test_run_ids_are_one_path_component_and_never_collide(tmp_path: Path) -> None:
    from clarq_bench.core.run_config import AgentSettings, RunConfig
    from clarq_bench.runner.prepare import run_dir_for

    config = RunConfig(
        data_dir=str(tmp_path),
        languages=["en"],
        seeker=AgentSettings(name="llm", model=SEEKER),
        provider=AgentSettings(name=PROVIDER),
    )
    first = run_dir_for(config, tmp_path, None)
    assert first.parent == tmp_path and "openai_fake-seeker-openai_fake-provider" in first.name
    first.mkdir()
    second = run_dir_for(config, tmp_path, None)
    assert second.parent == tmp_path and second != first
