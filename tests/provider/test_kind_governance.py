"""A which over another choice's kind asks that choice, not this node (kind_governance.py), except where this node's
answer is of that kind: then the which asks what this node says of it."""

from __future__ import annotations

from provider_helpers import revealed_after_root, synthetic_task

from clarq_bench.core.tasks import TaskBrief

BRIEF = TaskBrief(
    role="冒险者",
    task_name="挑战奇美拉",
    items=("冰晶石",),
    skills=("发动寒冰魔法攻击", "发动火焰魔法攻击"),
    scenes=("原始森林", "玄幻森林", "热带雨林", "冒险者公会"),
    background="挑战奇美拉。",
)
ROOT = "你需要先战胜小精灵提升等级，再去挑战奇美拉。"
NODES = [
    ("0", ROOT, None),
    (
        "1",
        "小精灵只出现在昨晚刚发生大火的森林里。",
        "前面Jax介绍了需要战胜小精灵来提升等级，但是没有介绍小精灵出现的具体条件，这个回复用于回答小精灵出现的条件的疑问。",
    ),
    (
        "1.1",
        "只有原始森林有小精灵。",
        "游戏场景中存在多个森林，前面的回复没有给出应该去哪个森林寻找小精灵，这个回复用于解答应该去原始森林的疑问。",
    ),
    (
        "2",
        "奇美拉害怕火焰魔法，你应该对它使用火焰魔法。",
        "前面Jax的任务回复没有明确指出奇美拉害怕哪种魔法，这个回复用于回答奇美拉害怕火焰魔法的疑问。",
    ),
]


def test_a_which_over_the_kind_a_node_answers_in_asks_that_node() -> None:
    """ "小精灵在哪片森林？": the forest is 1.1's choice, but 1 says in which forest the elves appear, and 1.1 is not
    open before it: the question asks 1."""
    task = synthetic_task("zh", BRIEF, NODES)
    assert revealed_after_root(task, ROOT, "小精灵在哪片森林？", ["1", "2"]) == ["1"]


def test_a_which_over_a_kind_no_answer_of_this_node_names_is_still_another_choice() -> None:
    """ "奇美拉在哪片森林？" governs 森林, which node 2 (the magic) never speaks of: not asked of it."""
    task = synthetic_task("zh", BRIEF, NODES)
    assert revealed_after_root(task, ROOT, "奇美拉在哪片森林？", ["2"]) == []
