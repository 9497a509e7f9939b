"""The documented way to try model paths with no key: `clarq fake-server` plays the LLM provider's and the judges'
decisions, so the docs' commands against it run end to end with no error (the seeker of docs/seekers.md too)."""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from doc_text import DOCS, REPO

from clarq_bench.provider.llm_schema import GateDecision, TurnDecision
from clarq_bench.scoring.judge_llm import NodeCheckReply
from clarq_bench.testing.fake_roles import role_responder

ENV = {**os.environ, "PYTHONPATH": str(REPO)}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def chat(text: str, json_mode: bool = False) -> dict:
    body: dict = {"model": "fake", "messages": [{"role": "user", "content": text}]}
    if json_mode:
        body["response_format"] = {"type": "json_object"}
    return body


@pytest.mark.parametrize(
    "language, line",
    [
        ("en", '- id "1.2": "Take the west mine."\n  Give it only when: ...'),
        ("zh", '- 编号 "1.2"："去西边的矿。"\n  只有在……时给出'),
    ],
)
def test_a_decision_request_gets_a_decision_every_schema_reads(language: str, line: str) -> None:
    prompt = f'Prepared answers available now:\n{line}\n- id "1.3": "x"\n\nReply with a JSON object only.'
    reply = json.loads(role_responder(chat(prompt)))
    decided = TurnDecision.model_validate(reply)
    assert decided.intent == 2 and decided.node_ids == ["1.2"]
    assert GateDecision.model_validate(reply).related and NodeCheckReply.model_validate(reply).carried is False
    nothing = TurnDecision.model_validate(json.loads(role_responder(chat("(none)\nJSON please", json_mode=True))))
    assert nothing.intent == 3 and nothing.node_ids == []
    pairwise = json.loads(role_responder(chat('JSON: {"questions": ..., "economy": ..., "naturalness": ...}')))
    assert pairwise["questions"] == pairwise["economy"] == pairwise["naturalness"] == "A"


def test_a_text_request_gets_a_short_echo_of_its_last_line() -> None:
    assert role_responder(chat("a long prompt\n...\nWhat next?")) == "echo: What next?"
    assert len(role_responder(chat("x" * 10_000))) < 400  # an echo of echoes cannot grow turn by turn


def documented_fake_commands() -> list[str]:
    lines = re.findall(r"^(clarq run [^\n]*--api-base http://127\.0\.0\.1:8000/v1[^\n]*)$", DOCS, re.MULTILINE)
    assert len(lines) >= 2, "the docs show no run against the fake server"
    return lines


@pytest.mark.timeout(600)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_documented_runs_against_the_fake_server_play_with_no_error(tmp_path: Path, lang: str) -> None:
    (tmp_path / "tasks").symlink_to(REPO / "tasks")
    source = re.search(r"<!-- example:model-seeker -->\n```python\n(.*?)\n```", DOCS, re.DOTALL)
    assert source
    (tmp_path / "ask_model.py").write_text(source.group(1) + "\n", encoding="utf-8")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "clarq_bench", "fake-server", "--port", str(port)],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "fake OpenAI-compatible server" in server.stdout.readline()
        for line in documented_fake_commands():
            args = shlex.split(line.split(" # ")[0].replace("8000", str(port)))[1:]
            runs = tmp_path / f"runs-{len(list(tmp_path.iterdir()))}"
            args += ["--lang", lang, "--limit", "3", "--no-progress", "--no-cache", "--runs-dir", str(runs)]
            done = subprocess.run(
                [sys.executable, "-m", "clarq_bench", *args],
                cwd=tmp_path,
                env=ENV,
                capture_output=True,
                text=True,
                timeout=280,
            )
            assert done.returncode == 0, f"`{line}`: {done.stderr[-1500:]}"
            (run_dir,) = runs.iterdir()
            played = [json.loads(row) for row in (run_dir / "transcripts.jsonl").read_text("utf-8").splitlines()]
            assert len(played) == 3 and not [row["error"] for row in played if row.get("error")]
    finally:
        server.terminate()
        server.wait(timeout=10)
