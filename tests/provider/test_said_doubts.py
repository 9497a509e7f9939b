"""A doubt said instead of asked, and a detail asked the way the explanation's own question puts it, each read as a
person reads it, and each shown not firing where it must not:
- "I don't know which tavern you mean", "不记得是啥时候了" ask, as "Which tavern?" does (indirect_questions.py);
- "did not explain how to avoid the monsters ... addresses the question of when it is safe" is asked by when too
  (detail_kinds.kinds_asking);
"""

from __future__ import annotations

import pytest
from provider_helpers import revealed_after_root, synthetic_task

from clarq_bench.core.tasks import Task, TaskBrief
from clarq_bench.provider.detail_kinds import kinds_asking, other_wording
from clarq_bench.provider.lexical import is_question

ROOT = {
    "en": "Meet Henry at one of the taverns, then enter the house. The house is full of monsters most of the day.",
    "zh": "先去酒馆见亨利，然后进那座房子。房子里大部分时间都有怪物。",
}
NODES = {
    "en": [
        ("0", ROOT["en"], None),
        (
            "1",
            "Henry waits at the Mystic Tavern.",
            "There are several taverns, and Jax did not say which tavern Henry is at. Note: use this response only if "
            "the other party noticed that there are several taverns.",
        ),
        (
            "2",
            "You are safe from the monsters only between 12pm and 1pm.",
            "The previous responses did not explain how to avoid the monsters in the house. This response addresses "
            "the question of when it is safe to enter the house. Note: use this response only if the other party "
            "noticed the monsters.",
        ),
    ],
    "zh": [
        ("0", ROOT["zh"], None),
        (
            "1",
            "亨利在神秘酒馆等你。",
            "游戏场景中存在多个酒馆，前面Jax没有说亨利在哪个酒馆。注：只有在对方注意到存在多个酒馆且不确定是哪一个才使用这个回复。",
        ),
        (
            "2",
            "只有中午12点到1点之间房子里没有怪物。",
            "前面Jax没有介绍如何避开房子里的怪物，这个回复用于回答什么时候进房子才安全的疑问。注：只有在对方注意到了怪物才使用这个回复。",
        ),
    ],
}
BRIEFS = {
    "en": TaskBrief(
        role="adventurer",
        task_name="meeting Henry",
        items=("A lantern",),
        scenes=("Mystic Tavern", "Broken Tavern", "Adventurer Tavern", "The house"),
        background="Meet Henry.",
    ),
    "zh": TaskBrief(
        role="冒险者",
        task_name="见亨利",
        items=("提灯",),
        scenes=("神秘酒馆", "破败酒馆", "冒险者酒馆", "房子"),
        background="见亨利。",
    ),
}
FRONTIER = ["1", "2"]


def task(language: str) -> Task:
    return synthetic_task(language, BRIEFS[language], NODES[language])


def revealed(language: str, question: str) -> list[str]:
    return revealed_after_root(task(language), ROOT[language], question, FRONTIER)


@pytest.mark.parametrize(
    ("language", "sentence", "asks"),
    [
        ("en", "I don't really know which crystal I'm supposed to pay for.", True),
        ("en", "You said at the agreed time, but I have no idea when that is.", True),
        ("en", "You said a specified style but never said which one.", True),
        ("en", "I can't tell how to reach the study.", True),
        ("en", "I know which tavern it is.", False),
        ("en", "Thanks, I will go there now.", False),
        ("zh", "你说约好的时间，可我不记得是啥时候了", True),
        ("zh", "要按时参加，可我不知道具体时间", True),
        ("zh", "我知道了，谢谢", False),
    ],
)
def test_a_doubt_said_is_a_question(language: str, sentence: str, asks: bool) -> None:
    assert is_question(sentence, language) is asks


@pytest.mark.parametrize(
    ("language", "question", "expected"),
    [
        ("en", "There are three taverns, I don't know which one you mean.", ["1"]),
        ("en", "There are three taverns. I know which one you mean.", []),  # nothing asked
        ("zh", "有三家酒馆，不知道你说的是哪一家", ["1"]),
        ("zh", "房子里有怪物，我不知道进去的安全时间", ["2"]),  # no interrogative: not knowing asks
        ("zh", "有三家酒馆，我记住了。", []),
    ],
)
def test_a_doubt_said_asks_what_it_does_not_know(language: str, question: str, expected: list[str]) -> None:
    assert revealed(language, question) == expected


@pytest.mark.parametrize(
    ("language", "question", "expected"),
    [
        ("en", "When can I go into the house without running into the monsters?", ["2"]),
        ("en", "How do I avoid the monsters in the house?", ["2"]),  # the way the gap puts it
        ("en", "How many monsters are in the house?", []),  # a number, asked by neither
        ("en", "What hour is it safe to enter?", ["2"]),  # the thing in the words of the explanation's own question
        ("en", "What hour is it?", []),  # no thing at all
        ("zh", "几点进房子才不会遇到怪物？", ["2"]),
    ],
)
def test_a_detail_is_asked_the_way_its_question_puts_it(language: str, question: str, expected: list[str]) -> None:
    assert revealed(language, question) == expected


def test_the_kind_the_explanation_question_asks_joins_the_kinds_that_ask_it() -> None:
    explanation = NODES["en"][2][2] or ""
    assert "time" in kinds_asking("manner", explanation, "en")
    assert "time" not in kinds_asking("manner", "Jax did not explain how to avoid the monsters.", "en")
    assert other_wording(explanation, "manner", "en") == "when it is safe to enter the house"
    same = "Jax did not explain where to get it. This response addresses the question of where to buy fertilizer."
    assert other_wording(same, "place", "en") == ""  # the same kind asked twice adds only its verbs


FURNACE_ROOT = {"en": "Forge a fire spirit stone, then cast the fire spell.", "zh": "先炼出火灵石，再施放火魔法。"}
FURNACE_NODES = {
    "en": [
        ("0", FURNACE_ROOT["en"], None),
        (
            "1",
            "Put the pure spirit stone into your yellow furnace to refine a fire spirit stone.",
            "There are several furnaces in the game. This response addresses which furnace to use for refining a fire "
            "spirit stone. Note: use this response only if the other party noticed that there are several furnaces.",
        ),
    ],
    "zh": [
        ("0", FURNACE_ROOT["zh"], None),
        (
            "1",
            "你可以将纯净灵石放到你的黄色熔炉里炼成火灵石。",
            "游戏物品中存在多个熔炉，这个回复用于回答应该使用黄色熔炉来炼成火灵石的疑问。注：只有在对方注意到存在多个熔炉且不确定应该使用哪一个来炼成火灵石才需要这个回复。",
        ),
    ],
}
FURNACE_BRIEFS = {
    "en": TaskBrief(
        role="mage",
        task_name="casting a fire spell",
        items=("Black furnace", "Yellow furnace", "Green furnace", "Pure spirit stone"),
        background="Cast a fire spell.",
    ),
    "zh": TaskBrief(
        role="法师",
        task_name="施放火魔法",
        items=("黑色熔炉", "黄色熔炉", "绿色熔炉", "纯净灵石"),
        background="施放火魔法。",
    ),
}


@pytest.mark.parametrize(
    ("language", "question", "expected"),
    [
        ("zh", "火灵石怎么得到？", ["1"]),  # how to get what the choice makes: the furnace that makes it
        ("zh", "火灵石怎么用？", []),  # how to use it: not what the furnace choice answers
        ("en", "How do I get a fire spirit stone?", ["1"]),
        ("en", "How do I use a fire spirit stone?", []),
    ],
)
def test_how_to_get_what_a_choice_makes_asks_that_choice(language: str, question: str, expected: list[str]) -> None:
    task = synthetic_task(language, FURNACE_BRIEFS[language], FURNACE_NODES[language])
    assert revealed_after_root(task, FURNACE_ROOT[language], question, ["1"]) == expected


@pytest.mark.parametrize(
    ("language", "question", "expected"),
    [
        ("en", "When should I go in so I don't meet the monsters?", ["2"]),
        ("en", "When do the taverns open?", []),  # a when of another thing
        ("zh", "几点进房子才不会碰到怪物？", ["2"]),
    ],
)
def test_a_way_the_answer_gives_as_a_clock_time_is_asked_by_when(
    language: str, question: str, expected: list[str]
) -> None:
    nodes = [(node_id, text, explanation) for node_id, text, explanation in NODES[language]]
    if language == "en":  # the gap said as how to avoid them, its own question as how too: only the answer is a time
        nodes[2] = (
            "2",
            "You can avoid the monsters only during the hour of 12 to 1 pm.",
            "The previous responses did not explain how to avoid the monsters in the house. This response addresses "
            "the question of how to avoid them. Note: use this response only if the other party noticed the monsters.",
        )
    else:
        nodes[2] = (
            "2",
            "只有中午12点到1点之间房子里没有怪物。",
            "前面Jax没有介绍如何避开房子里的怪物，这个回复用于回答如何避开怪物的疑问。注：只有在对方注意到了怪物才使用这个回复。",
        )
    task = synthetic_task(language, BRIEFS[language], nodes)
    assert revealed_after_root(task, ROOT[language], question, FRONTIER) == expected
