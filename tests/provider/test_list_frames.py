"""(zh) A list of alternatives whose first piece carries the question's frame: "香料是在ABC、XYZ、天天杂货店还是亨利百货买？"
asks where to buy the spices among the stores. The first piece is "香料是在ABC", so the run of alternatives starts inside
it; its item is said as long as the next one ("ABC"), and the rest ("香料是在") leads into the run, as a separate lead
piece does (question_lists._alternatives_run)."""

from __future__ import annotations

import pytest
from provider_helpers import revealed_after_root, synthetic_task

from clarq_bench.core.tasks import Task, TaskBrief

ROOT = "烹制椰子鸡肉煲只需要把鸡肉和椰子鸡肉煲的香料放到锅里炖煮30分钟。"
NODES = [
    ("0", ROOT, None),
    (
        "1",
        "你可以在天天杂货店买到椰子鸡肉煲的香料，其他店都没有销售。",
        "前面Jax介绍了需要椰子鸡肉煲的香料，但是没有介绍在哪里可以买到这些香料，这个回复用于回答应该去天天杂货店购买香料的疑问。"
        "注：只有在对方注意到不知道在哪里买香料才使用这个回复。",
    ),
]
BRIEF = TaskBrief(
    role="厨师",
    task_name="烹制椰子鸡肉煲",
    items=("锅",),
    scenes=("厨房", "ABC超市", "XYZ超市", "天天杂货店", "亨利百货"),
    background="烹制椰子鸡肉煲。",
)


def task() -> Task:
    return synthetic_task("zh", BRIEF, NODES, type_number=25)


@pytest.mark.parametrize(
    "question",
    [
        "香料是在ABC、XYZ、天天杂货店还是亨利百货买？",
        "香料在ABC超市、XYZ超市、天天杂货店还是亨利百货买？",
        "香料去哪家店买？",
    ],
)
def test_the_thing_before_a_list_of_stores_is_what_the_question_asks_about(question: str) -> None:
    assert revealed_after_root(task(), ROOT, question, ["1"]) == ["1"]


@pytest.mark.parametrize(
    "question", ["是在ABC、XYZ、天天杂货店还是亨利百货？", "锅是在ABC、XYZ、天天杂货店还是亨利百货买？"]
)
def test_a_list_of_stores_without_the_thing_asks_nothing_of_it(question: str) -> None:
    assert revealed_after_root(task(), ROOT, question, ["1"]) == []
