"""`clarq play` in a real pseudo-terminal (pexpect): commands are never sent, typos are refused, the tree is shown
once with a legend, Ctrl-C stops at once (no Enter needed), Ctrl-D ends the seeker's side with a goodbye."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from upstream_paths import SAMPLE_TASKS

pexpect = pytest.importorskip("pexpect", reason="pexpect is not installed (pip install -e '.[test]')")
REPO = Path(__file__).resolve().parents[2]
TASK = "en/01/0"


def spawn(*args: str, tmp_path: Path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    env.pop("OPENAI_API_KEY", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "clarq_bench", "play", TASK, "--tasks", str(SAMPLE_TASKS), *args],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 200),
    )
    return child


def test_provider_side_refuses_typos_shows_the_tree_once_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    child = spawn("--role", "provider", tmp_path=tmp_path)
    child.expect_exact("Legend: FRONTIER = can be given now")
    tree_lines = child.before.count("(FRONTIER)") + child.before.count("(locked)")
    assert tree_lines >= 2 and "[0] (FIRST ANSWER)" in child.before
    child.expect_exact("jax (node id or text)> ")
    child.sendline("9")
    child.expect_exact("there is no node 9 in this tree; type one of: 0 (the first answer)")
    child.sendline("/help")
    child.expect_exact("Legend:")
    child.expect_exact("jax (node id or text)> ")
    child.sendline("0")  # the first answer
    child.expect_exact("jax (node id or text)> ")
    after_root = child.before
    assert "(FRONTIER)" not in after_root and "seeker:" in after_root  # the tree is not reprinted every turn
    assert "can be given now: 1" in after_root
    child.sendline("0")
    child.expect_exact("the first answer (0) was already given")
    child.sendline("/tree")
    child.expect_exact("[0] (given)")
    child.expect_exact("jax (node id or text)> ")
    started = time.monotonic()
    child.sendintr()  # Ctrl-C while input() waits: no Enter needed
    child.expect_exact("play stopped")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and time.monotonic() - started < 10
    assert "Traceback" not in child.before


def test_provider_side_quit_stops_without_saving(tmp_path: Path) -> None:
    saved = tmp_path / "out.jsonl"
    child = spawn("--role", "provider", "--save", str(saved), tmp_path=tmp_path)
    child.expect_exact("jax (node id or text)> ")
    child.sendline("/quit")
    child.expect_exact("play stopped (the provider stopped the dialogue); nothing saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and not saved.exists()


def test_seeker_side_help_is_not_sent_and_ctrl_d_says_goodbye(tmp_path: Path) -> None:
    saved = tmp_path / "out.jsonl"
    child = spawn("--role", "seeker", "--save", str(saved), tmp_path=tmp_path)
    child.expect_exact("you> ")
    child.sendline("/help")
    child.expect_exact("Commands (never sent)")
    child.expect_exact("you> ")
    child.sendline("Which tool should I use first?")
    child.expect_exact("Jax:")
    child.expect_exact("you> ")
    child.sendeof()  # Ctrl-D
    child.expect_exact("(you said: Thank you, goodbye.)")
    child.expect_exact("ended: goodbye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    import json

    record = json.loads(saved.read_text(encoding="utf-8"))
    seeker_lines = [t["text"] for t in record["turns"] if t["speaker"] == "seeker"]
    assert seeker_lines == ["Which tool should I use first?", "Thank you, goodbye."]  # /help never sent
    assert record["error"] is None


def test_seeker_side_ctrl_c_stops_at_once(tmp_path: Path) -> None:
    child = spawn("--role", "seeker", tmp_path=tmp_path)
    child.expect_exact("you> ")
    child.sendintr()
    child.expect_exact("play stopped (Ctrl-C); nothing saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_play_against_a_model_behind_api_base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """--role provider against a seeker model served by the local fake OpenAI-compatible server (no key, no network
    beyond 127.0.0.1): the seeker's questions come from the server, the person's answers from the terminal."""
    import json

    from clarq_bench.cli.main import main
    from clarq_bench.testing.fake_agents import both_agents
    from clarq_bench.testing.fake_openai import FakeOpenAIServer

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    answers = iter(["0", "1", "1.1", "2", "3"] + ["That is all."] * 20)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    saved = tmp_path / "played.jsonl"
    with FakeOpenAIServer(responder=both_agents("openai/fake-seeker", "openai/fake-provider")) as server:
        code = main(
            [
                "play",
                TASK,
                "--role",
                "provider",
                "--seeker",
                "openai/fake-seeker",
                "--api-base",
                server.base_url,
                "--tasks",
                str(SAMPLE_TASKS),
                "--no-cache",
                "--save",
                str(saved),
            ]
        )
        hits = server.hits
    assert code == 0, capsys.readouterr().err
    assert hits >= 2  # every seeker turn was a call to the server
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["error"] is None and len([t for t in record["turns"] if t["speaker"] == "seeker"]) == hits


@pytest.mark.parametrize(("reading", "revealed"), [("model", True), ("strict", False)])
def test_play_against_an_llm_provider_in_the_reading_asked(
    reading: str, revealed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """--role seeker against the LLM provider on the fake server: a content-free question gets the node the model
    proposes in the model reading, and nothing in the strict one."""
    import json

    from runner_helpers import proposing_provider

    from clarq_bench.cli.main import main
    from clarq_bench.testing.fake_openai import FakeOpenAIServer

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    asked = iter(["How do I get this done?", "Can you tell me more?"])

    def person(prompt: str = "") -> str:
        try:
            return next(asked)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", person)
    saved = tmp_path / "played.jsonl"
    with FakeOpenAIServer(responder=proposing_provider) as server:
        code = main(
            [
                "play",
                TASK,
                "--role",
                "seeker",
                "--provider",
                "openai/fake-jax",
                "--provider-reading",
                reading,
                "--api-base",
                server.base_url,
                "--tasks",
                str(SAMPLE_TASKS),
                "--no-cache",
                "--save",
                str(saved),
            ]
        )
    assert code == 0, capsys.readouterr().err
    record = json.loads(saved.read_text(encoding="utf-8"))
    given = [node for turn in record["turns"] for node in turn.get("revealed", []) if node != "0"]
    assert bool(given) is revealed, record["turns"]


def test_play_refuses_a_reading_for_the_offline_provider(capsys) -> None:
    from clarq_bench.cli.main import main

    code = main(["play", TASK, "--role", "seeker", "--provider-reading", "strict", "--tasks", str(SAMPLE_TASKS)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--provider-reading" in err[0]
