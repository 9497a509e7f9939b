"""Spoken Chinese interrogatives are read as their written forms (colloquial.py), by the offline provider and by the
strict reading alike, and the seeker's own words stay in the transcript."""

from __future__ import annotations

import asyncio

import pytest
from provider_helpers import after_root, synthetic_task
from test_said_doubts import BRIEFS, NODES, ROOT

from clarq_bench.core.transcript import Speaker
from clarq_bench.provider.colloquial import written, written_turns
from clarq_bench.provider.factory import make_provider


@pytest.mark.parametrize(
    ("spoken", "expected"),
    [
        ("用啥挖？", "用什么挖？"),
        ("矿山咋进去？", "矿山怎么进去？"),
        ("进不去咋办？", "进不去怎么办？"),
        ("为啥不行？", "为什么不行？"),
        ("亨利在哪儿？", "亨利在哪里？"),
        ("几时出发？", "什么时候出发？"),
        ("亨利在哪里？", "亨利在哪里？"),  # written already
    ],
)
def test_spoken_forms_read_as_written(spoken: str, expected: str) -> None:
    assert written(spoken) == expected


def test_only_chinese_seeker_turns_are_rewritten_and_the_given_turns_are_kept() -> None:
    turns = after_root("啥都有。", "房子啥时候进去安全？")
    rewritten = written_turns(turns, "zh")
    assert [t.text for t in rewritten if t.speaker == Speaker.seeker][-1] == "房子什么时候进去安全？"
    assert rewritten[2].text == "啥都有。"  # Jax's words are his own
    assert turns[-1].text == "房子啥时候进去安全？"
    assert written_turns(turns, "en") is turns


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("去啥酒馆找亨利？", ["1"]),
        ("去哪家酒馆找亨利？", ["1"]),
        ("房子里有怪物，咋办？", ["2"]),
        ("房子里有怪物，怎么办？", ["2"]),
        ("几时进房子安全？", ["2"]),
        ("亨利长啥样？", []),  # asks nothing a node answers, in either form
    ],
)
def test_the_offline_provider_answers_a_spoken_question_as_its_written_form(question: str, expected: list[str]) -> None:
    task = synthetic_task("zh", BRIEFS["zh"], NODES["zh"])
    provider = make_provider("offline", task, "single")
    reply = asyncio.run(provider.respond(after_root(ROOT["zh"], question)))
    assert [node for node in reply.revealed if node != "0"] == expected
