"""The packed-ask seekers: never given the tree, deterministic, many asks a turn joined each member's own way, words
from the brief and Jax's replies, never a goodbye; registered as held-out red team."""

from __future__ import annotations

import json
import re

import pytest
from runner_helpers import make_task
from test_redteam import QuietProvider, seeker_lines, zh_task

from clarq_bench.core.goodbye import is_goodbye
from clarq_bench.core.tasks import ResponseTree
from clarq_bench.fidelity.audit import default_strategies, role_of, target_of
from clarq_bench.runner.dialogue import play_dialogue
from clarq_bench.seekers import packed
from clarq_bench.seekers.registry import (
    PACKED,
    SeekerConfig,
    SeekerTask,
    build_seeker,
    seekers,
)

NAMES = list(PACKED)
ROOT_WORDS = {"en": "lantern", "zh": "灯笼"}


async def play(name, task):
    return await play_dialogue(
        task, build_seeker(name, task, SeekerConfig(name=name)), QuietProvider(task), max_turns=6
    )


def test_registry_and_audit_role(capsys):
    from clarq_bench.cli.main import main

    assert list(packed.MEMBERS) == NAMES
    assert all(PACKED[name] == cls.__name__ for name, cls in packed.MEMBERS.items())
    assert main(["seekers", "--json"]) == 0
    listed = {row["name"]: row["description"] for row in json.loads(capsys.readouterr().out)}
    for name in NAMES:
        assert name in seekers and listed[name].startswith("Packed asks")
        assert role_of(name) == "red-team" and target_of(name) == 0.15
        assert name not in default_strategies()  # held out: played by name only


@pytest.mark.parametrize("name", NAMES)
def test_never_given_the_tree(name):
    seeker = build_seeker(name, make_task())
    assert isinstance(seeker.task, SeekerTask)
    with pytest.raises(TypeError):
        packed.MEMBERS[name](make_task())


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("language", ["en", "zh"])
async def test_packs_many_asks_deterministically(name, language):
    task = make_task() if language == "en" else zh_task()
    first, again = await play(name, task), await play(name, task)
    lines = seeker_lines(first)
    assert lines == seeker_lines(again) and len(lines) == 6
    assert not any(is_goodbye(line) for line in lines)
    turn = lines[2]
    # many things asked, whatever joins them: question words, and names listed under one (slashes, commas)
    asks = len(re.findall(r"which|where|how|哪|在哪|怎么|谁|/|, |、", turn, re.IGNORECASE))
    assert asks >= 5, turn
    assert "tree" not in turn and task.tree["1"].text not in turn
    assert any(word in turn for word in ("Mine", "mine", "Forest", "forest", "矿", "森林"))  # the brief's kinds
    assert lines[1] != lines[2]  # the order rotates with the turn


SEPARATORS = {
    "pack-and": lambda t, lang: t.count(" and ") >= 5 if lang == "en" else t.count("和") + t.count("以及") >= 5,
    "pack-comma": lambda t, lang: t.count(", ") >= 5 if lang == "en" else t.count("，") + t.count("、") >= 5,
    "pack-semicolon": lambda t, lang: t.count(";") + t.count("；") >= 5,
    "pack-slash": lambda t, lang: t.count("/") >= 4,
    "pack-lines": lambda t, lang: t.count("\n") >= 5,
    "pack-bullets": lambda t, lang: len(re.findall(r"^(?:- |\d+\. )", t, re.MULTILINE)) >= 5,
    "pack-mixed": lambda t, lang: bool(re.search(r"[A-Za-z]{3}", t)) and bool(re.search(r"[\u4e00-\u9fff]", t)),
    "pack-long": lambda t, lang: t.count("?") + t.count("？") == 1 and len(t) > (300 if lang == "zh" else 800),
    "pack-bounded": lambda t, lang: 1 <= t.count("?") + t.count("？") <= 3,
}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("language", ["en", "zh"])
async def test_each_member_joins_its_own_way_and_takes_jax_words(name, language):
    task = make_task() if language == "en" else zh_task()
    root = "Light the lantern at the old tower." if language == "en" else "去旧塔点亮灯笼。"
    tree = ResponseTree.build([(n.id, root if n.id == "0" else n.text, n.explanation) for n in task.tree.nodes])
    task = task.model_copy(update={"tree": tree})
    turn = seeker_lines(await play(name, task))[2]
    assert SEPARATORS[name](turn, language), turn
    assert ROOT_WORDS[language] in turn  # words of Jax's first answer


def test_head_words():
    assert packed.head_word("Lamp kerosene", "en") == "kerosene"
    assert packed.head_word("原始森林", "zh") == "森林"
    assert packed.heads(SeekerTask.of(make_task())) == ["sucker", "dig", "mine", "forest"]
