"""Plain wordings a person uses for a clarification, each read as the question it is, and each shown not firing on a
wording that must not pass:
- "which of my gems" governs the gems, and a short plural ("gems", "labs") the kind said in the singular
  (question_reading.py, question_words.CHOOSER);
- one question offering things of one list of the brief ("my agate, my diamond or my sapphire?") is a choice among
  them, not a spray, however little their names share (screen.EntityIndex.offers_one_list);
- "How do I get to the study?", "怎么去书房？" ask where, as "Where is the study?" does (question_classes.py);
- a Chinese explanation's "什么宝石" names a kind as "哪种宝石" does (option_groups.which_kinds);
- a Chinese brief name that is wholly the thing a place choice is about ("书房在哪里？") names that thing (focus.py).
"""

from __future__ import annotations

import pytest
from provider_helpers import after_root, revealed_after_root, synthetic_task
from upstream_paths import UPSTREAM_DATA, needs_upstream

from clarq_bench.core.tasks import Task, TaskBrief
from clarq_bench.data.loader import load_tasks
from clarq_bench.provider.answering import answer
from clarq_bench.provider.detail_kinds import SAYS_GETTING
from clarq_bench.provider.factory import make_provider
from clarq_bench.provider.focus import FocusIndex
from clarq_bench.provider.lexical import _stem
from clarq_bench.provider.option_groups import which_kinds
from clarq_bench.provider.question_classes import CLASSES
from clarq_bench.provider.question_words import WHICH_KIND
from clarq_bench.provider.screen import TurnScreen, Verdict

ROOT = {
    "en": "Trade with Henry at the tavern: give him the gem he needs. The key to the chest is in the study.",
    "zh": "去酒馆和亨利交易，把他需要的宝石给他。宝箱的钥匙在书房里。",
}
NODES = {
    "en": [
        ("0", ROOT["en"], None),
        (
            "1",
            "Henry needs a starlight gem.",
            "Jax did not specify what gem Henry needs. This response addresses the uncertainty about which gem is "
            "required by Henry. Note: use this response only if the other party noticed Henry's need.",
        ),
        (
            "2",
            "The study is behind the wall of the West Guest Room.",
            "There are several guest rooms in the game, and Jax did not specify the exact location of the study. "
            "Note: use this response only if the other party noticed that the study's location is unclear.",
        ),
    ],
    "zh": [
        ("0", ROOT["zh"], None),
        (
            "1",
            "亨利需要的是星光宝石。",
            "前面Jax的任务回复没有介绍亨利需要什么宝石。注：只有在对方注意到了亨利的需求才使用这个回复。",
        ),
        (
            "2",
            "书房在西客房的墙后。",
            "游戏场景中存在三个客房，前面Jax没有提到书房的具体位置。注：只有在对方注意到书房位置不明确才使用这个回复。",
        ),
    ],
}
BRIEFS = {
    "en": TaskBrief(
        role="adventurer",
        task_name="trading with Henry",
        items=("Agate", "Diamond", "Sapphire"),
        scenes=("Mystic Tavern", "East Guest Room", "West Guest Room", "North Guest Room", "Study"),
        background="Trade with Henry.",
    ),
    "zh": TaskBrief(
        role="冒险者",
        task_name="和亨利交易",
        items=("玛瑙石", "钻石", "蓝宝石"),
        scenes=("神秘酒馆", "东客房", "西客房", "北客房", "书房"),
        background="和亨利交易。",
    ),
}
FRONTIER = ["1", "2"]


def task(language: str) -> Task:
    return synthetic_task(language, BRIEFS[language], NODES[language])


def revealed(language: str, question: str) -> list[str]:
    return revealed_after_root(task(language), ROOT[language], question, FRONTIER)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which of my gems should I bring him?", ["1"]),
        ("Which gems does Henry want?", ["1"]),
        ("Which of my coins should I spend?", []),  # a kind no node chooses
    ],
)
def test_which_of_my_x_and_a_short_plural_govern_the_kind(question: str, expected: list[str]) -> None:
    assert revealed("en", question) == expected


@pytest.mark.parametrize(
    ("language", "question", "spray"),
    [
        ("en", "Does Henry want my agate, my diamond or my sapphire?", False),
        ("zh", "亨利要玛瑙石、钻石还是蓝宝石？", False),
        ("en", "Does Henry want my agate, the Mystic Tavern or my sapphire?", True),  # two lists: a spray
    ],
)
def test_alternatives_of_one_list_of_the_brief_are_no_spray(language: str, question: str, spray: bool) -> None:
    screened = TurnScreen(task(language))(after_root(ROOT[language], question))
    assert (screened.verdict == Verdict.spray) is spray


@pytest.mark.parametrize(
    ("language", "question", "place"),
    [
        ("en", "How do I get to the study?", True),
        ("en", "How can I find Henry?", True),
        ("en", "How do I find out which gem he needs?", False),
        ("en", "How do I get the gem?", False),
        ("en", "Whereabouts is the study?", True),
        ("zh", "怎么去书房？", True),
        ("zh", "怎样才能找到亨利？", True),
        ("zh", "星光宝石怎么得到？", False),
        ("zh", "香料我上哪找啊", True),
    ],
)
def test_how_to_get_to_a_place_asks_where(language: str, question: str, place: bool) -> None:
    assert bool(CLASSES[language]["place"].search(question)) is place


@pytest.mark.parametrize(
    ("question", "kind"), [("哪颗宝石？", "宝石"), ("该穿哪双跑鞋？", "跑鞋"), ("哪片森林？", "森林")]
)
def test_a_chinese_which_reads_its_kind_past_any_measure_word(question: str, kind: str) -> None:
    found = WHICH_KIND["zh"].search(question)
    assert found is not None and found.group(1) == kind


@pytest.mark.parametrize(
    ("question", "which"),
    [
        ("去哪找亨利？", False),  # a bare 哪 after 去 asks where only
        ("亨利人在哪？", False),
        ("去哪个酒馆找亨利？", True),
        ("哪颗宝石？", True),
    ],
)
def test_a_chinese_where_is_no_which(question: str, which: bool) -> None:
    assert bool(CLASSES["zh"]["identity"].search(question)) is which


def test_a_chinese_what_names_a_kind_as_a_which_does() -> None:
    assert which_kinds("没有介绍亨利需要什么宝石。", "zh") == ["宝石"]
    assert which_kinds("没有介绍亨利需要什么时候出发。", "zh") == []


@pytest.mark.parametrize(
    ("language", "question", "expected"),
    [
        ("zh", "书房在哪里？", ["2"]),
        ("zh", "怎么去书房？", ["2"]),
        ("en", "How do I get to the study?", ["2"]),
        ("zh", "神秘酒馆在哪里？", []),  # a name that is not the thing the choice is about
        ("zh", "我去哪里能找到亨利？", []),  # Henry's gem is no place
    ],
)
def test_where_is_the_place_a_choice_is_about(language: str, question: str, expected: list[str]) -> None:
    assert revealed(language, question) == expected


WORK_ROOT = (
    "Grow the melons in a greenhouse: find someone to build it. Copy the painting in the archives of the art museum, "
    "in the style of the original: paint in oil, in watercolor or draw a sketch."
)
WORK_NODES = [
    ("0", WORK_ROOT, None),
    (
        "1",
        "Only the Dwarven Construction Team can build it; the Elven Construction Team builds elven houses only.",
        "Jax did not explain who can build the greenhouse. Note: use this response only if the other party noticed "
        "that someone must build the greenhouse.",
    ),
    (
        "2",
        "Ask Professor Henry for a pass.",
        "Jax did not explain how to gain access to the archives. Note: use this response only if the other party "
        "noticed that the archives are closed.",
    ),
    (
        "3",
        "The painting is an oil painting, so paint in oil.",
        "Jax did not say which painting style to use. Note: use this response only if the other party noticed that "
        "there are several styles.",
    ),
]
WORK_BRIEF = TaskBrief(
    role="gardener",
    task_name="melons and a painting",
    skills=("Paint an oil painting", "Paint a watercolor", "Draw a sketch"),
    scenes=("Dwarven Construction Team", "Elven Construction Team", "Lily Art Museum", "Lucy Art Museum"),
    background="Grow melons and copy a painting.",
)


def work_revealed(question: str) -> list[str]:
    return revealed_after_root(synthetic_task("en", WORK_BRIEF, WORK_NODES), WORK_ROOT, question, ["1", "2", "3"])


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Who can build the greenhouse?", ["1"]),
        ("Who can give me a way into the archives?", ["2"]),  # how to gain access: who gives it
        ("Where is the painting kept?", []),  # a where asks a place: it governs no painting style
        ("Which painting style should I use?", ["3"]),
    ],
)
def test_who_and_where_ask_what_they_ask(question: str, expected: list[str]) -> None:
    assert work_revealed(question) == expected


def test_alternatives_said_in_short_keep_a_question_of_his_words() -> None:
    """Jax's own words in a frame ask nothing (S010), unless the question offers options of the brief, whole or by the
    parts that set them apart."""
    task = synthetic_task("en", WORK_BRIEF, WORK_NODES)
    screened = TurnScreen(task)(after_root(WORK_ROOT, "Should I paint in oil, in watercolor or draw a sketch?"))
    assert screened.verdict is None
    framed = TurnScreen(task)(after_root(WORK_ROOT, "Which one should I pick to copy the painting in the archives?"))
    assert framed.verdict == Verdict.bare_frame


@pytest.mark.parametrize(
    ("explanation", "getting"),
    [
        ("Jax did not explain how to gain access to the archives.", True),
        ("Jax did not explain how to obtain the map.", True),
        ("前面Jax的任务回复没有介绍如何获得玄幻森林的地图。", True),
        ("Jax did not explain how to defeat the chimera.", False),
    ],
)
def test_an_explanation_of_how_to_get_a_thing(explanation: str, getting: bool) -> None:
    language = "zh" if explanation.startswith("前") else "en"
    assert bool(SAYS_GETTING[language].search(explanation)) is getting


def test_the_rules_overrule_a_matcher_that_proposes_only_what_is_not_asked() -> None:
    """The matcher proposes only the gem node; the lone question asks where Henry is: the rules' one node is given.
    Where the rules read two nodes, or none, nothing is substituted."""
    focus = FocusIndex(task("en"))
    turns = after_root(ROOT["en"], "How do I get to the study?")
    assert answer(focus, turns, ["1"], multi_info=False, frontier=FRONTIER) == ["2"]
    assert answer(focus, after_root(ROOT["en"], "How are you?"), ["1"], multi_info=False, frontier=FRONTIER) == []
    gem = after_root(ROOT["en"], "Which gem does Henry need?")
    assert answer(focus, gem, ["2"], multi_info=False, frontier=FRONTIER) == ["1"]
    # (Chinese rules read character pairs, too little to overrule the matcher with: nothing is substituted)
    zh = FocusIndex(task("zh"))
    assert answer(zh, after_root(ROOT["zh"], "怎么去书房？"), ["1"], multi_info=False, frontier=FRONTIER) == []


def test_a_chinese_name_that_only_qualifies_the_thing_is_not_the_thing() -> None:
    """ "玄幻森林的地图": the forest's name qualifies the map a node says how to get; asking how to enter the forest asks
    no map."""
    root = "你需要玄幻森林的地图，然后进入玄幻森林找到市民。"
    nodes = [
        ("0", root, None),
        (
            "1",
            "玄幻森林的地图可以到酒馆找亨利用宝石交换。",
            "前面Jax的任务回复没有介绍如何获得玄幻森林的地图。注：只有在对方注意到了需要地图才使用这个回复。",
        ),
    ]
    brief = TaskBrief(role="冒险者", task_name="救出市民", scenes=("玄幻森林", "神秘酒馆"), background="救出市民。")
    focus = FocusIndex(synthetic_task("zh", brief, nodes))
    assert answer(focus, after_root(root, "玄幻森林怎么才能进去？"), ["1"], multi_info=False, frontier=["1"]) == []
    assert answer(focus, after_root(root, "玄幻森林的地图怎么获得？"), ["1"], multi_info=False, frontier=["1"]) == ["1"]


@pytest.mark.parametrize(
    ("word", "stem"),
    [("gems", "gem"), ("labs", "lab"), ("keys", "key"), ("boss", "boss"), ("plus", "plus"), ("this", "this")],
)
def test_the_plural_of_a_short_word_meets_its_singular(word: str, stem: str) -> None:
    assert _stem(word) == stem


@needs_upstream
@pytest.mark.parametrize("question", ["Which of my gems is he after?", "I'm not sure which of my gems he's after."])
async def test_a_short_plural_is_the_one_word_a_question_shares_with_its_node(question: str) -> None:
    """en/14/0: "Henry needs the starlight gem." shares no word with these but "gems": the matcher must hear it."""
    released = next(t for t in load_tasks(UPSTREAM_DATA, ("en",), split="test", types=[14]) if t.id == "en/14/0")
    reply = await make_provider("offline", released, "single").respond(after_root(released.tree.root.text, question))
    assert reply.revealed == ["1"]
