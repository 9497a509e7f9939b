"""A price (provider/prices.py): the node whose answer says which module to buy, and at what price, is asked by a
question of what that module costs; a price asked of one option is a bet, and a price asked of a node whose answer
states none asks nothing. And a way of getting a thing (provider/detail_kinds.py) is asked by who gives it."""

from __future__ import annotations

import pytest
from provider_helpers import revealed_after_root, synthetic_task

from clarq_bench.core.tasks import TaskBrief

ROOT = {
    "en": "Buy a camera module and a power module at the electronics shop, connect both to the board, then film.",
    "zh": "先去电子商店买摄像头模块和电源模块，把它们连到开发板上，然后拍摄。",
}
NODES = {
    "en": [
        ("0", ROOT["en"], None),
        (
            "1",
            "You need the 12-megapixel USB camera module; it costs 200 gold coins.",
            "Jax did not say which model of camera module to buy. Note: use this response only if the other party "
            "noticed that there are several possible camera module models and is unsure which one to buy.",
        ),
        (
            "2",
            "Buy the 12V power module with the round plug.",
            "Jax did not say which model of power module to buy. Note: use this response only if the other party "
            "noticed that there are several possible power module models and is unsure which one to buy.",
        ),
        (
            "3",
            "The board's manual is at the library: ask the librarian for it.",
            "Jax did not say how to obtain the manual. Note: use this response only if the other party noticed that "
            "the manual is needed.",
        ),
    ],
    "zh": [
        ("0", ROOT["zh"], None),
        (
            "1",
            "你需要购买1200万像素的USB接口摄像头模块，这个模块的售价是200个金币。",
            "前面Jax的任务回复没有介绍具体需要购买什么型号的摄像头模块。注：只有在对方注意到存在多个可能的摄像头模块型号"
            "且不确定应该购买哪一个才使用这个回复来消除不确定性。",
        ),
        (
            "2",
            "你需要购买圆形插头的12V电源模块。",
            "前面Jax的任务回复没有介绍具体需要购买什么型号的电源模块。注：只有在对方注意到存在多个可能的电源模块型号且"
            "不确定应该购买哪一个才使用这个回复来消除不确定性。",
        ),
        (
            "3",
            "开发板的说明书在图书馆，找图书管理员要就行。",
            "前面Jax的任务回复没有介绍如何获得开发板的说明书，这个回复用于回答如何获得说明书的疑问。注：只有在对方注意"
            "到需要说明书才使用这个回复。",
        ),
    ],
}
BRIEFS = {
    "en": TaskBrief(
        role="engineer",
        task_name="building a camera board",
        items=("A development board", "300 gold coins"),
        skills=("Connect the camera module to the board", "Connect the power module to the board"),
        scenes=("Electronics Shop", "Library"),
        background="Build a camera board.",
    ),
    "zh": TaskBrief(
        role="工程师",
        task_name="组装摄像开发板",
        items=("开发板", "300个金币"),
        skills=("将摄像头模块连接到开发板", "将电源模块连接到开发板"),
        scenes=("电子商店", "图书馆"),
        background="组装摄像开发板。",
    ),
}
FRONTIER = ["1", "2", "3"]


def revealed(language: str, question: str) -> list[str]:
    task = synthetic_task(language, BRIEFS[language], NODES[language])
    return revealed_after_root(task, ROOT[language], question, FRONTIER)


@pytest.mark.parametrize(
    ("language", "question", "expected"),
    [
        ("en", "How much does the camera module cost?", ["1"]),
        ("en", "What is the price of a camera module?", ["1"]),
        ("en", "How much does the power module cost?", []),  # its answer states no price
        ("en", "How many camera modules are there?", []),  # a number, no price
        ("en", "How much does it cost?", []),  # no thing named
        ("zh", "摄像头模块多少钱？", ["1"]),
        ("zh", "摄像头模块的价格是多少？", ["1"]),
        ("zh", "电源模块多少钱？", []),  # its answer states no price
        ("zh", "摄像头模块有几个？", []),  # a number, no price
        ("zh", "多少钱？", []),  # no thing named
    ],
)
def test_a_price_question_asks_the_node_that_states_the_price(
    language: str, question: str, expected: list[str]
) -> None:
    assert revealed(language, question) == expected


@pytest.mark.parametrize(
    ("language", "question", "expected"),
    [
        ("en", "Who can give me the manual?", ["3"]),
        ("zh", "谁能给我说明书？", ["3"]),
        ("zh", "说明书在谁那里？", ["3"]),
        ("zh", "谁知道电子商店？", []),  # no thing of the node named
    ],
)
def test_who_gives_a_thing_asks_the_way_to_get_it(language: str, question: str, expected: list[str]) -> None:
    assert revealed(language, question) == expected
