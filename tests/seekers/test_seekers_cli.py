"""`clarq seekers` and the people-at-the-terminal sides: `clarq play --role provider|seeker`, HumanProvider."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from runner_helpers import make_task, write_task_folder

from clarq_bench.cli.main import main
from clarq_bench.provider.human import HumanProvider
from clarq_bench.runner.dialogue import play_dialogue
from clarq_bench.seekers import SeekerConfig, build_seeker


def test_clarq_seekers_lists_the_shipped_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["seekers", "--json"]) == 0
    rows = {row["name"]: row["description"] for row in json.loads(capsys.readouterr().out)}
    assert {"llm", "heuristic", "oracle", "no-question", "replay", "human"} <= set(rows)
    assert "Upper bound" in rows["oracle"]


async def test_human_provider_gives_nodes_by_id_and_refuses_gated_ones() -> None:
    task = make_task()
    typed = iter(["1", "0", "0", "9", "1.1", "/help", "1", "1", "I would not worry about that", "1.1", "2"])
    shown: list[str] = []
    provider = HumanProvider(task, ask=lambda prompt: next(typed), show=shown.append)
    seeker = build_seeker(
        "runner_helpers:ScriptedSeeker", task, SeekerConfig(name="x", options={"lines": "How?|a|b|c|d"})
    )
    transcript = await play_dialogue(task, seeker, provider)
    replies = transcript.provider_turns
    assert [turn.revealed for turn in replies[1:]] == [["0"], ["1"], [], ["1.1"], ["2"]]
    assert replies[3].text == "I would not worry about that"
    assert "give the first answer first: type 0 (node 1 comes after it)" in shown  # before the root
    assert "the first answer (0) was already given; type a FRONTIER id or text" in shown
    assert "there is no node 9 in this tree; type one of: 1, 2" in shown  # a typo is refused, never sent
    assert "node 1.1 is locked (its parent is not given yet); can be given now: 1, 2" in shown
    assert "node 1 was already given; can be given now: 1.1, 2" in shown
    assert sum("(FRONTIER) Stun the monsters first." in line for line in shown) == 1  # the tree once
    assert sum(line.startswith("Legend:") for line in shown) == 2  # with the tree, and on /help
    assert not any("give the root first" in line for line in shown)


def test_play_as_provider_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_task_folder(tmp_path / "data", 1)
    answers = iter(["0", "1", "1.1", "2", "Nothing more."] + ["ok"] * 20)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    saved = tmp_path / "played.jsonl"
    code = main(
        ["play", "en/01/0", "--role", "provider", "--seeker", "oracle", "--tasks", str(data), "--save", str(saved)]
    )
    assert code == 0
    assert "all required nodes obtained: True" in capsys.readouterr().out
    assert json.loads(saved.read_text())["end_reason"] == "goodbye"


def test_play_as_seeker_against_the_offline_provider(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_task_folder(tmp_path / "data", 1)
    answers = iter(["How do I collect rubies?", "goodbye"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", "en/01/0", "--role", "seeker", "--tasks", str(data)]) == 0
    out = capsys.readouterr().out
    assert "Jax: Go to the mine and dig for rubies." in out and "ended: goodbye" in out
    assert main(["play", "xx/01/0", "--role", "seeker", "--tasks", str(data)]) == 2
