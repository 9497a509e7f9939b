"""A shortfall (provider/shortfall.py): a node whose explanation says the seeker may not have enough of something is
asked by a question whether there is enough, in words that share nothing with the explanation's ("enough" /
"insufficient", "够" / "不足"); enough of a quality ("sharp enough", "够锋利") asks no shortfall."""

from __future__ import annotations

import pytest
from provider_helpers import after_root, revealed_after_root, synthetic_task

from clarq_bench.core.tasks import TaskBrief
from clarq_bench.provider.answering import answer
from clarq_bench.provider.focus import FocusIndex
from clarq_bench.provider.shortfall import asks_shortfall, names_shortfall

ROOT = {
    "en": "Buy the camera and the lens at the market, then film the parade.",
    "zh": "先去市场买相机和镜头，然后拍摄游行。",
}
NODES = {
    "en": [
        ("0", ROOT["en"], None),
        (
            "1",
            "If you are short on money, sell your old tripod at the pawn shop for 100 gold coins.",
            "There is a potential issue of insufficient funds to buy both. This response explains how to raise more "
            "money. Note: use this response only if the other party noticed that the funds may not cover both.",
        ),
        (
            "2",
            "The parade starts at noon at the town gate.",
            "Jax did not say when the parade starts. Note: use this response only if the other party asks when.",
        ),
    ],
    "zh": [
        ("0", ROOT["zh"], None),
        (
            "1",
            "资金不足的话，你可以把旧三脚架卖给当铺，能换100个金币。",
            "前面Jax的任务回复没有介绍如何解决资金不足的问题，这个回复用于回答如何获得额外资金的疑问。注：只有在对方"
            "注意到资金不足才使用这个回复。",
        ),
        (
            "2",
            "游行中午在城门开始。",
            "前面Jax的任务回复没有介绍游行什么时候开始。注：只有在对方询问游行时间才使用这个回复。",
        ),
    ],
}
BRIEFS = {
    "en": TaskBrief(
        role="filmmaker",
        task_name="filming the parade",
        items=("300 gold coins", "An old tripod", "A sharp knife"),
        scenes=("Market", "Pawn Shop", "Town Gate"),
        background="Film the parade.",
    ),
    "zh": TaskBrief(
        role="摄影师",
        task_name="拍摄游行",
        items=("300个金币", "旧三脚架", "锋利的小刀"),
        scenes=("市场", "当铺", "城门"),
        background="拍摄游行。",
    ),
}


def revealed(language: str, question: str) -> list[str]:
    task = synthetic_task(language, BRIEFS[language], NODES[language])
    return revealed_after_root(task, ROOT[language], question, ["1", "2"])


@pytest.mark.parametrize(
    ("language", "question", "expected"),
    [
        ("en", "Will my 300 gold coins be enough?", ["1"]),
        ("en", "I only have 300 gold coins, is that enough?", ["1"]),  # a statement before it, cut by a comma
        ("zh", "我只有300个金币，够吗？", ["1"]),
        ("en", "What should I do if I run out of money?", ["1"]),
        ("en", "Is the knife sharp enough?", []),  # enough of a quality
        ("en", "Where is the market?", []),
        ("zh", "金币不够该怎么办？", ["1"]),
        ("zh", "300个金币够用吗？", ["1"]),
        ("zh", "小刀够锋利吗？", []),
        ("zh", "我能够去市场吗？", []),  # 能够: can, no enough
    ],
)
def test_a_question_whether_there_is_enough_asks_the_shortfall(language: str, question: str, expected: list) -> None:
    assert revealed(language, question) == expected


@pytest.mark.parametrize(
    ("explanation", "language", "short"),
    [
        ("There is a potential issue of insufficient funds.", "en", True),
        ("If the player is short on gold coins, they might ...", "en", True),
        ("how to obtain enough gold coins to cover all expenses", "en", True),
        ("the only saw sharp and powerful enough to cut the black wood", "en", False),
        ("John Schist should provide enough authority to reach the palace", "en", False),
        ("前面Jax的任务回复没有介绍如何获得足够的金币", "zh", True),
        ("注意到现有木材不足以建造", "zh", True),
        ("前面Jax的任务回复没有介绍去哪里购买绿幕", "zh", False),
    ],
)
def test_an_explanation_names_a_shortfall_of_what_the_seeker_must_have(explanation, language, short) -> None:
    assert names_shortfall(explanation, language) is short


def test_the_question_patterns_read_enough_of_a_quantity_only() -> None:
    assert asks_shortfall("Do I have enough?", "en") and asks_shortfall("钱够吗？", "zh")
    assert not asks_shortfall("Is it far enough from the gate?", "en") and not asks_shortfall("能够走吗？", "zh")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_shortfall_question_needs_no_matchers_support(language: str) -> None:
    """Whether there is enough asks nothing else: the node is read though the matcher proposed nothing."""
    task = synthetic_task(language, BRIEFS[language], NODES[language])
    question = {"en": "Will my 300 gold coins be enough?", "zh": "300个金币够用吗？"}[language]
    other = {"en": "Is the knife sharp enough?", "zh": "小刀够锋利吗？"}[language]
    for text, expected in ((question, ["1"]), (other, [])):
        turns = after_root(ROOT[language], text)
        assert answer(FocusIndex(task), turns, [], multi_info=False, frontier=["1", "2"]) == expected
