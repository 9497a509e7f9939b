"""How a question is read against a node (question_reading.py): here, a brief's name that is the very thing a choice
is for."""

from __future__ import annotations

from provider_helpers import revealed_after_root, synthetic_task

from clarq_bench.core.tasks import TaskBrief

BRIEF = TaskBrief(
    role="冒险者",
    task_name="运送伤员",
    items=("马车", "解毒药"),
    skills=("乘坐火车", "乘坐汽车", "乘坐飞机"),
    scenes=("沙河", "太阳城", "月亮城"),
    background="运送伤员。",
)
ROOT = "你先用马车将伤员运回太阳城，然后再乘坐更快的交通工具将伤员运到月亮城治疗。"
NODES = [
    ("0", ROOT, None),
    (
        "1",
        "到达太阳城后，你们应当选择乘坐汽车前往月亮城。",
        "游戏技能中存在多个交通工具，这个回复用于回答应该选择乘坐汽车前往月亮城而不是乘坐飞机或火车的疑问。",
    ),
]


def test_a_chinese_question_asks_a_choice_by_the_place_it_is_for() -> None:
    """The transport is chosen for the way to 月亮城: "how do I get to 月亮城" asks it, though 月亮城 is a name."""
    task = synthetic_task("zh", BRIEF, NODES)
    assert revealed_after_root(task, ROOT, "从太阳城到月亮城该怎么走？", ["1"]) == ["1"]
    assert revealed_after_root(task, ROOT, "太阳城在哪里？", ["1"]) == []  # (the place it goes from is no such thing)
    # places offered as alternatives ask which of them, not the way between them
    assert revealed_after_root(task, ROOT, "是太阳城还是月亮城？", ["1"]) == []
    # and a name the answer never says strings names together: no way between places is asked
    assert revealed_after_root(task, ROOT, "到了沙河以后，月亮城怎么用？", ["1"]) == []
