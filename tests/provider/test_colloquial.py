"""Spoken Chinese interrogatives are read as their written forms (colloquial.py), by the offline provider and by the
strict reading alike, and the seeker's own words stay in the transcript."""

from __future__ import annotations

import asyncio

import pytest
from provider_helpers import after_root, synthetic_task
from test_said_doubts import BRIEFS, NODES, ROOT

from clarq_bench.core.transcript import Speaker
from clarq_bench.provider.colloquial import asked_outright, written, written_turns
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
        ("不知道是哪颗宝石。", "哪颗宝石？"),  # a doubt said: the question it is
        ("有三家酒馆，不知道你说的是哪一家", "有三家酒馆，你说的是哪一家？"),
        ("你说约好了时间，可我不记得是啥时候了", "你说约好了时间，什么时候了？"),
        ("我知道是哪家了。", "我知道是哪家了。"),  # no doubt said
    ],
)
def test_spoken_forms_read_as_written(spoken: str, expected: str) -> None:
    assert written(spoken) == expected


def test_only_seeker_turns_are_rewritten_and_the_given_turns_are_kept() -> None:
    turns = after_root("啥都有。", "房子啥时候进去安全？")
    rewritten = written_turns(turns, "zh")
    assert [t.text for t in rewritten if t.speaker == Speaker.seeker][-1] == "房子什么时候进去安全？"
    assert rewritten[2].text == "啥都有。"  # Jax's words are his own
    assert turns[-1].text == "房子啥时候进去安全？"
    assert [t.text for t in written_turns(turns, "en")] == [t.text for t in turns]


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


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("I don't know which tavern.", "which tavern?"),
        ("There are three taverns, I don't know which one you mean.", "There are three taverns. which one you mean?"),
        ("You said a time but never said which one.", "You said a time. which one?"),
        ("No idea how to get in. Where is Henry?", "how to get in? Where is Henry?"),
        ("I know which tavern it is.", "I know which tavern it is."),  # no doubt said
    ],
)
def test_an_english_doubt_is_read_as_the_question_it_is(said: str, asked: str) -> None:
    assert asked_outright(said) == asked


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("I don't know which tavern.", "Which tavern?"),
        ("I have no idea when it is safe to enter.", "When is it safe to enter?"),
        ("I don't know which gem for the deal.", "Which gem for the deal?"),
    ],
)
def test_a_doubt_gets_what_its_question_gets_and_no_more(said: str, asked: str) -> None:
    assert reveals("en", said) == reveals("en", asked)


def reveals(language: str, question: str) -> list[str]:
    """What the offline provider reveals for `question` asked right after the root of the doubts' task."""
    task = synthetic_task(language, BRIEFS[language], NODES[language])
    reply = asyncio.run(make_provider("offline", task, "single").respond(after_root(ROOT[language], question)))
    return reply.revealed


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("我手上没有能挖坑的工具啊", "哪里能弄到能挖坑的工具？"),
        ("我手头没有椰子水", "哪里能弄到椰子水？"),
        ("到了大厅以后找不到书房", "到了大厅以后哪里能找到书房？"),
        ("进了城以后，我还没有通行证", "进了城以后，哪里能弄到通行证？"),
        ("我没有问题。", "我没有问题。"),  # a state, no thing lacked
        ("我没有去过城堡。", "我没有去过城堡。"),  # an action not done
        ("亨利没有地图。", "亨利没有地图。"),  # someone else's lack
        ("我没有钥匙，怎么进去？", "我没有钥匙，怎么进去？"),  # the turn asks itself
    ],
)
def test_a_chinese_lack_said_is_read_as_where_to_get_the_thing(said: str, asked: str) -> None:
    assert written(said) == asked


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("I don't have a shovel.", "Where can I get a shovel?"),
        ("I can't find the key to the study.", "Where can I find the key to the study?"),
        ("We have no boat yet!", "Where can I get boat?"),
        ("I have no idea.", "I have no idea."),  # a state, no thing lacked
        ("I don't have time to wait.", "I don't have time to wait."),
        ("I don't have a shovel. Where can I buy one?", "I don't have a shovel. Where can I buy one?"),  # asked
    ],
)
def test_an_english_lack_said_is_read_as_where_to_get_the_thing(said: str, asked: str) -> None:
    turns = after_root("Dig for the gems.", said)
    assert written_turns(turns, "en")[-1].text == asked


@pytest.mark.parametrize(
    ("language", "said", "asked"),
    [("en", "I don't have a lantern.", "Where can I get a lantern?"), ("zh", "我没有提灯。", "哪里能弄到提灯？")],
)
def test_a_lack_gets_what_its_question_gets_and_no_more(language: str, said: str, asked: str) -> None:
    assert reveals(language, said) == reveals(language, asked)


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("通往蓝天城变电站的线路电压，我有点拿不准。", "通往蓝天城变电站的线路电压是什么？"),  # unsure about a thing
        ("我有点拿不准该走哪条路。", "走哪条路？"),
        ("亨利，我不确定。", "亨利，我不确定。"),  # an address, not a thing
    ],
)
def test_a_chinese_doubt_about_a_thing_asks_what_it_is(said: str, asked: str) -> None:
    assert written(said) == asked


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("I'm unsure about the voltage for the line to Blue Sky.", "What is the voltage for the line to Blue Sky?"),
        ("Once there, I won't know which key to use.", "Once there. which key to use?"),
        ("I'm not sure about that.", "I'm not sure about that."),  # nothing named
    ],
)
def test_an_english_doubt_about_a_thing_asks_what_it_is(said: str, asked: str) -> None:
    assert written_turns(after_root("Go to the substation.", said), "en")[-1].text == asked
