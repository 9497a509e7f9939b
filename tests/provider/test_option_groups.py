"""Which of the brief's names a choice chooses among (provider/option_groups.py), and how a question names them.

Chinese names of one list are joined by any shared character pair ("制作" of knives and of wings), and a person names
an option by its own part ("坐火车、汽车还是飞机" for 乘坐火车 / 乘坐汽车 / 乘坐飞机) or by the one character its kind
ends with ("哪种刀"). A clause before the alternatives only sets the scene in either language. Each rule is shown
firing and, on a wording that must not pass, not firing. (English: a name whose words another name holds is named
by them; a pronoun "which" takes its kind from the statement before it.)
"""

from __future__ import annotations

import pytest
from provider_helpers import after_root, revealed_after_root, synthetic_task

from clarq_bench.core.tasks import Task, TaskBrief
from clarq_bench.provider.answering import answer
from clarq_bench.provider.brief_options import brief_options
from clarq_bench.provider.focus import FocusIndex
from clarq_bench.provider.lexical import competing_options
from clarq_bench.provider.option_groups import core_terms, kind_members, route_ends, shared_ending, which_kinds
from clarq_bench.provider.question_reading import _derived

ROOT = {
    "zh": "先赶到港口，再乘交通工具去山城。到了山城你要做一把刀，还要做一对飞翼。",
    "en": "Get to the harbour first, then travel on to the hill town. Once there, forge a blade and build wings.",
}
NODES = {
    "zh": [
        ("0", ROOT["zh"], None),
        (
            "1",
            "从港口去山城要乘坐汽车，火车和飞机都不停靠山城。",
            "游戏技能中有好几种交通工具，Jax没有说应该乘坐哪种交通工具去山城。注：只有在对方注意到存在多种交通工具"
            "且不确定乘坐哪一种时才使用这个回复。",
        ),
        (
            "2",
            "你要制作普通折叠刀，它最方便携带。",
            "游戏技能中有多个制作刀的技能，这个回复说明应该制作哪种刀。注：只有在对方注意到存在多个制作刀的技能且"
            "不确定制作哪一种刀时才使用这个回复。",
        ),
        (
            "3",
            "你要制作莉莉飞翼，安娜飞翼太重了。",
            "游戏技能中有两种飞翼，这个回复说明应该制作哪种飞翼。注：只有在对方注意到存在两种飞翼且不确定制作哪一种"
            "时才使用这个回复。",
        ),
    ],
    "en": [
        ("0", ROOT["en"], None),
        (
            "1",
            "From the harbour, take the plane: the train does not stop at the hill town.",
            "There are several ways to travel and Jax did not say which one to take to the hill town. Note: use this "
            "response only if the other party noticed that it is unclear whether to take the train or the plane.",
        ),
        (
            "2",
            "Build the ultra-high voltage line to the forge: it is a long way from the dam.",
            "There are two types of power line and Jax did not say which one to build to the forge. Note: use this "
            "response only if the other party noticed that there are two power lines and it is unclear which to build.",
        ),
    ],
}
BRIEFS = {
    "zh": TaskBrief(
        role="工匠",
        task_name="去山城制作装备",
        skills=("乘坐火车", "乘坐汽车", "乘坐飞机", "制作普通折叠刀", "制作普通战术刀", "制作莉莉飞翼", "制作安娜飞翼"),
        scenes=("港口", "山城"),
        background="去山城制作装备。",
    ),
    "en": TaskBrief(
        role="smith",
        task_name="forging gear in the hill town",
        skills=("Take the train", "Take the plane", "Build a high voltage line", "Build an ultra-high voltage line"),
        scenes=("Harbour", "Hill Town"),
        background="Forge gear in the hill town.",
    ),
}


def make_task(language: str) -> Task:
    return synthetic_task(language, BRIEFS[language], NODES[language])


def revealed(language: str, question: str) -> list[str]:
    """The nodes the offline reading gives a question asked right after the root, whatever the matcher proposed."""
    turns = after_root(ROOT[language], question)
    frontier = [node_id for node_id, _, _ in NODES[language][1:]]
    return answer(FocusIndex(make_task(language)), turns, [], multi_info=False, frontier=frontier)


def options(language: str) -> dict[str, object]:
    return {o.name: o for o in brief_options(make_task(language), language)}


def test_a_chinese_name_is_named_by_its_own_part() -> None:
    found = options("zh")
    transport = tuple(found[name] for name in ("乘坐火车", "乘坐汽车", "乘坐飞机"))
    core = core_terms(transport)  # type: ignore[arg-type]
    assert core[found["乘坐汽车"]] == frozenset({"汽车"})  # type: ignore[index]
    assert core_terms(transport[:1]) == {transport[0]: frozenset()}  # type: ignore[arg-type]


def test_a_chinese_kind_chooses_among_the_names_that_carry_it_not_the_whole_group() -> None:
    every = list(options("zh").values())
    knives = [o.name for o in kind_members(every, {"作刀"}, "zh")]  # type: ignore[arg-type]
    wings = [o.name for o in kind_members(every, {"飞翼"}, "zh")]  # type: ignore[arg-type]
    assert knives == ["制作普通折叠刀", "制作普通战术刀"]
    assert wings == ["制作莉莉飞翼", "制作安娜飞翼"]
    members = kind_members(every, {"作刀"}, "zh")  # type: ignore[arg-type]
    assert shared_ending(members, "zh") == {"刀"}
    assert shared_ending(members, "en") == set()


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("从港口出发，坐火车、汽车还是飞机？", ["1"]),  # a scene-setting clause, then the options by their own part
        ("港口、火车还是飞机？", []),  # a place among transport: no choice among them
        ("我该做哪种刀？", ["2"]),  # the one character the knives end with
        ("做折叠刀、战术刀还是莉莉飞翼？", []),  # a wing among the knives: two choices mixed
        ("做莉莉飞翼还是安娜飞翼？", ["3"]),
    ],
)
def test_chinese_choices_are_read_by_what_a_person_says(question: str, expected: list[str]) -> None:
    assert revealed("zh", question) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("From the harbour, should I take the train or the plane?", ["1"]),
        ("The harbour, the train or the plane?", []),  # the scene is offered as an alternative: no such choice
        ("For the dam to the forge, high voltage or ultra-high voltage?", ["2"]),
        ("High voltage or the train?", []),  # two choices mixed
        ("Ultra-high voltage or the plane?", []),
    ],
)
def test_a_scene_setting_clause_is_no_alternative(question: str, expected: list[str]) -> None:
    assert revealed("en", question) == expected


def test_a_name_whose_words_another_holds_is_named_by_them_alone() -> None:
    """ "high voltage" names the high voltage line though every word of it is in the ultra-high one's name."""
    assert revealed("en", "High voltage or ultra-high voltage?") == ["2"]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("There are two power lines. Which should I build?", ["2"]),  # "which" as a pronoun takes the statement's kind
        ("There are two power lines. Which one should I build?", ["2"]),
        ("Which should I build?", []),  # no kind said: nothing to choose among
    ],
)
def test_a_pronoun_which_reads_its_kind_from_the_statement_before_it(question: str, expected: list[str]) -> None:
    assert revealed("en", question) == expected


@pytest.mark.parametrize(
    ("explanation", "language", "kinds"),
    [
        ("It is unclear which line should connect these two substations.", "en", []),  # the two ends of one line
        ("There are two substations in the game.", "en", ["substations"]),
        ("不确定应该使用哪一种来连接这两个变电站。", "zh", []),
        ("游戏中存在两个变电站。", "zh", ["变电站"]),
    ],
)
def test_these_two_things_are_no_choice_between_them(explanation: str, language: str, kinds: list[str]) -> None:
    assert competing_options(explanation, language) == kinds


def test_a_question_of_one_word_of_its_own_is_read_with_the_statement_before_it() -> None:
    """ "The arena needs registration. How do I sign up?": what to sign up for is the statement's."""
    focus = FocusIndex(make_task("en"))
    (question,) = focus.questions("The forge needs registration. How do I sign up?")
    assert "registration" in question.text
    (longer,) = focus.questions("The forge needs registration. How do I sign up for the guild?")
    assert "registration" not in longer.text  # a question that says what it asks is read alone


@pytest.mark.parametrize(
    ("explanation", "kinds"),
    [
        ("都城有四个门，前面的回复没有给出应该从哪个门进入。", ["门"]),  # the counted thing ends in the which's char
        ("存在两个电脑配件店，没有给出应该去哪个店采购键帽。", ["店"]),
        ("存在三条道路，没有给出应该走哪条道路。", ["道路"]),  # a which of two characters stays whole
        ("没有给出应该从哪个门进入。", ["门进"]),  # nothing counted: the two characters as before
        ("which gate to enter: there are four gates.", ["gate"]),  # English reads words
    ],
)
def test_a_counted_thing_gives_a_chinese_which_its_one_character_kind(explanation: str, kinds: list[str]) -> None:
    language = "en" if explanation.isascii() else "zh"
    assert which_kinds(explanation, language) == kinds


TRANSPORT_BRIEF = TaskBrief(
    role="medic",
    task_name="taking the injured to the hospital",
    skills=("Take a train", "Take an airplane", "Drive a car", "Drive a carriage"),
    scenes=("Sun City", "Moon City", "Sandy River"),
    background="Take the injured to the hospital in Moon City.",
)
TRANSPORT_ROOT = (
    "Carry the injured to Sun City first, then a faster mode of transportation to the hospital in Moon City."
)
TRANSPORT_NODES = [
    ("0", TRANSPORT_ROOT, None),
    (
        "1",
        "From Sun City, travel by car to Moon City. A plane or a train is too risky if the injured need care on the way.",
        "There are multiple modes of transportation available to travel from Sun City to Moon City. This response "
        "settles that the car is the safest. Note: use this response only if the other party has noticed that there "
        "are several transportation options and is unsure which one to use.",
    ),
]


def transport_revealed(question: str) -> list[str]:
    task = synthetic_task("en", TRANSPORT_BRIEF, TRANSPORT_NODES)
    turns = after_root(TRANSPORT_ROOT, question)
    return answer(FocusIndex(task), turns, [], multi_info=False, frontier=["1"])


def test_a_kind_no_name_carries_chooses_among_the_names_its_answer_says_by_their_own_parts() -> None:
    """ "Modes of transportation" is in no name; the answer says "car", "plane", "train" of skills that their verbs
    split into two groups ("Take ...", "Drive ..."): the choice is among all four, and the way's two ends, which the
    answer names whole ("from Sun City ... to Moon City"), are no options of it."""
    focus = FocusIndex(synthetic_task("en", TRANSPORT_BRIEF, TRANSPORT_NODES)).nodes["1"]
    assert sorted(o.name for o in focus.options) == sorted(TRANSPORT_BRIEF.skills)
    assert transport_revealed("Should I take the train, a car or a plane?") == ["1"]  # "plane" of "airplane"
    assert transport_revealed("Sun City or Moon City?") == []


@pytest.mark.parametrize(
    ("explanation", "language", "ends"),
    [
        ("There are several ways to travel from Sun City to Moon City.", "en", ["Moon City", "Sun City"]),
        ("Jax did not say whether Sun City or Moon City is the safer.", "en", []),  # no way between them
        ("从太阳城到月亮城有好几种交通方式。", "zh", []),  # (Chinese: the routes tell twins apart)
    ],
)
def test_the_two_ends_of_one_way_are_no_options(explanation: str, language: str, ends: list[str]) -> None:
    brief = TaskBrief(role="r", task_name="t", scenes=("Sun City", "Moon City", "太阳城", "月亮城"), background="b")
    task = synthetic_task(language, brief, [("0", "root", None)])
    named = [o for o in brief_options(task, language) if o.name in ("Sun City", "Moon City", "太阳城", "月亮城")]
    assert sorted(o.name for o in route_ends(explanation, named, language)) == ends


GATE_ROOT = {
    "zh": "穿过森林就到白云山，用钥匙打开没有守卫的门进去。",
    "en": "Cross the forest to Cloud Hill and unlock a gate no one guards.",
}
GATE_NODES = {
    "zh": [
        ("0", GATE_ROOT["zh"], None),
        (
            "1",
            "你要从白云山的东大门进去，那里没有守卫。",
            "前面的回复没有介绍应该从哪个门进入白云山。注：只有在对方注意到白云山有多个门且不确定从哪个门进入才使用这个回复。",
        ),
    ],
    "en": [
        ("0", GATE_ROOT["en"], None),
        (
            "1",
            "Go in by the east gate of Cloud Hill: no one guards it.",
            "Jax did not say which gate to enter Cloud Hill by. Note: use this response only if the other party has "
            "noticed that Cloud Hill has several gates and is unsure which gate to use.",
        ),
    ],
}
GATE_BRIEFS = {
    "zh": TaskBrief(
        role="冒险者", task_name="收集绿宝石", items=("铁钥匙",), scenes=("白云山", "市场"), background="收集绿宝石。"
    ),
    "en": TaskBrief(
        role="miner",
        task_name="digging emeralds",
        items=("Iron key",),
        scenes=("Cloud Hill", "Market"),
        background="Dig emeralds.",
    ),
}


def gate_revealed(language: str, question: str) -> list[str]:
    task = synthetic_task(language, GATE_BRIEFS[language], GATE_NODES[language])
    turns = after_root(GATE_ROOT[language], question)
    return answer(FocusIndex(task), turns, [], multi_info=False, frontier=["1"])


@pytest.mark.parametrize(
    ("language", "question", "expected"),
    [
        ("zh", "走北门、东门、南门还是西门？", ["1"]),  # things of the kind (门) the brief does not list
        ("zh", "走北门还是北门？", []),  # no two alike
        ("zh", "走北门还是市场？", []),  # a name of the brief among them
        ("zh", "走北边还是东边？", []),  # no thing of the kind
        ("en", "The north gate or the east gate?", ["1"]),
        ("en", "The north gate or the market?", []),
        ("en", "North or east?", []),
    ],
)
def test_alternatives_of_a_kind_the_brief_does_not_list_ask_its_choice(language: str, question: str, expected) -> None:
    assert gate_revealed(language, question) == expected


def test_a_which_governs_a_kind_said_by_another_word_of_its_stem() -> None:
    """ "Which transport" governs the kind "modes of transportation": the stemmer leaves the two apart."""
    assert transport_revealed("Which faster transport should I take?") == ["1"]
    assert transport_revealed("Which faster trans should I take?") == []  # no word of the kind
    assert _derived("transport", "transportation") and _derived("immobiliz", "immobilize")
    assert not _derived("plan", "planation") and not _derived("transport", "transporter")


def test_a_chinese_kind_carried_inside_every_name_of_a_group_chooses_among_them() -> None:
    brief = TaskBrief(
        role="工程师",
        task_name="做门锁",
        items=("单片机", "电脑"),
        skills=("使用IIC总线来进行模块之间通信", "使用USB总线来进行模块之间通信", "使用CAN总线来进行模块之间通信"),
        scenes=("电子厂",),
        background="做门锁。",
    )
    every = brief_options(synthetic_task("zh", brief, [("0", "做一个门锁。", None)]), "zh")
    buses = [o.name for o in kind_members(every, {"总线"}, "zh")]
    assert buses == ["使用IIC总线来进行模块之间通信", "使用USB总线来进行模块之间通信", "使用CAN总线来进行模块之间通信"]
    # a kind that names one of them apart ("IIC总线") is that one, not their kind; a pair no group carries is none
    assert kind_members(every, {"总线", "iic"}, "zh") == ()
    assert kind_members(every, {"门锁"}, "zh") == ()


def test_a_chinese_kind_carried_by_part_of_a_group_chooses_among_those_that_carry_it() -> None:
    """One group holds the attack magics and the transformations (they share 魔法): "哪个变身魔法" chooses among the
    three that say 变身, and a question naming them is that choice."""
    brief = TaskBrief(
        role="冒险者",
        task_name="拯救士兵",
        items=(),
        skills=(
            "发动寒冰魔法攻击",
            "发动火焰魔法攻击",
            "发动雷电魔法攻击",
            "使用变身魔法变成亨利长官",
            "使用变身魔法变成乔治士兵",
            "使用变身魔法变成约翰参谋长",
        ),
        scenes=("监狱（有人看守，无法直接进去）",),
        background="拯救士兵。",
    )
    nodes = [
        ("0", "士兵被关在监狱里，你需要把他们救出来。", None),
        (
            "1",
            "约翰参谋长是调查队的一员，你变成他就能把士兵救出来。",
            "前面Jax介绍了需要变身成调查员才能进入监狱，但是没有明确哪个变身魔法可以变成调查员，这个回复用于回答应该"
            "使用变身魔法变成约翰参谋长来进入监狱的疑问。",
        ),
    ]
    task = synthetic_task("zh", brief, nodes)
    every = brief_options(task, "zh")
    changes = [o.name for o in kind_members(every, {"变身"}, "zh")]
    assert changes == ["使用变身魔法变成亨利长官", "使用变身魔法变成乔治士兵", "使用变身魔法变成约翰参谋长"]
    assert kind_members(every, {"变身", "亨利"}, "zh") == ()  # (a kind one name alone carries is that name)
    root, question = nodes[0][1], "亨利长官、乔治士兵还是约翰参谋长，我应该选哪一个？"
    assert revealed_after_root(task, root, question, ["1"]) == ["1"]


PAINT_ROOT = "Paint the client's new car and install its battery."
PAINT_NODES = [
    ("0", PAINT_ROOT, None),
    (
        "1",
        "The client's previous car was painted pink.",
        "There are three colors of spray paint available: Pink, Blue, and Green. This response addresses the question "
        "of which color to paint the car. Note: use this response only if the other party noticed the colors.",
    ),
]
PAINT_BRIEF = TaskBrief(
    role="car maker",
    task_name="painting a car",
    items=(
        "Lithium Nickel Cobalt Batteries",
        "Lithium Polymer Batteries",
        "Lithium Iron Phosphate Batteries",
        "Pink Spray Paint",
        "Blue Spray Paint",
        "Green Spray Paint",
    ),
    skills=("Install a battery in the car", "Paint the car"),
    background="Paint the car.",
)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Pink, blue or green?", ["1"]),  # the options the explanation lists, each said by its own part
        ("Pink, blue or green paint?", ["1"]),
        ("Pink or the polymer battery?", []),  # another name among them: no choice among the paints
    ],
)
def test_options_listed_by_their_own_parts_in_the_explanation_are_the_choice(
    question: str, expected: list[str]
) -> None:
    task = synthetic_task("en", PAINT_BRIEF, PAINT_NODES, type_number=17)
    assert revealed_after_root(task, PAINT_ROOT, question, ["1"]) == expected
