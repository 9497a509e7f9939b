"""Twin choices (provider/focus.py `twins`, `picks_twin`): sibling nodes that settle the same options of the same
kind for different things ("which key for the entrance", "which key for the chest"; "which line for each
connection") are one uncertainty each. A question that says which thing it asks about gets that twin; one that names
none of them asks the choice once, so the same choice asked again cannot walk the twins one after another; a named
one is the one answered, even before the twins ahead of it in the tree's order.

Both sides of each rule, in English and Chinese, in single- and multi-info mode, for both providers.
"""

from __future__ import annotations

import json

import pytest
from provider_helpers import synthetic_task

from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import ReplyKind, Speaker, Turn
from clarq_bench.llm import LLMClient, LLMSettings
from clarq_bench.provider.answering import answer
from clarq_bench.provider.focus import FocusIndex
from clarq_bench.provider.llm_provider import LLMProvider
from clarq_bench.provider.offline.provider import OfflineProvider
from clarq_bench.testing import ScriptedModel

ROOT = {
    "en": "Enter the house and open the treasure chest in the study. A key is needed at the main entrance and "
    "for the treasure chest.",
    "zh": "进入房子，打开书房里的宝箱。房子大门和宝箱都需要钥匙。",
}
NODES = {
    "en": [
        ("0", ROOT["en"], None),
        (
            "1",
            "You need the Y-shaped key to unlock the main entrance.",
            "The previous responses did not specify which key unlocks the main entrance of the house. Note: use this "
            "response only if the other party noticed that it is unclear which key unlocks the main entrance.",
        ),
        (
            "2",
            "The treasure chest opens with the O-shaped key.",
            "Jax mentioned that a key is needed for the treasure chest but did not specify which key. Note: use this "
            "response only if the other party noticed that it is unclear which key opens the treasure chest.",
        ),
        (
            "3",
            "Cast lightning magic to drive the monsters out of the hall.",
            "Jax mentioned monsters but did not explain how to deal with them. Note: use this response only if the "
            "other party noticed that it is unclear how to deal with the monsters.",
        ),
    ],
    "zh": [
        ("0", ROOT["zh"], None),
        (
            "1",
            "你需要用Y形钥匙打开房子大门。",
            "之前的回复没有说明房子大门需要哪一把钥匙。注：只有在对方注意到不知道房子大门需要哪一把钥匙才使用这个回复。",
        ),
        (
            "2",
            "宝箱要用O形钥匙打开。",
            "Jax提到宝箱需要钥匙，但没有说明是哪一把钥匙。注：只有在对方注意到不知道宝箱需要哪一把钥匙才使用这个回复。",
        ),
        (
            "3",
            "施放闪电魔法把怪物赶出大厅。",
            "Jax提到了怪物，但没有说明如何对付怪物。注：只有在对方注意到不知道如何对付怪物才使用这个回复。",
        ),
    ],
}
BRIEFS = {
    "en": TaskBrief(
        role="adventurer",
        task_name="retrieving treasure in the house",
        items=("X-shaped key", "Y-shaped key", "M-shaped key", "O-shaped key"),
        skills=("Cast fire magic", "Cast lightning magic"),
        scenes=("Main Hall", "Study"),
        background="Retrieve the treasure.",
    ),
    "zh": TaskBrief(
        role="冒险者",
        task_name="取回房子里的宝藏",
        items=("X形钥匙", "Y形钥匙", "M形钥匙", "O形钥匙"),
        skills=("施放火魔法", "施放闪电魔法"),
        scenes=("大厅", "书房"),
        background="取回宝藏。",
    ),
}
#: (a choice asked with no word of which thing it is for, the same naming the chest, the same naming the entrance)
ASKS = {
    "en": (
        "Which key do I need, the X-shaped key or the M-shaped key?",
        "Which key opens the treasure chest, the X-shaped key or the M-shaped key?",
        "Which key unlocks the main entrance?",
    ),
    "zh": (
        "我需要哪一把钥匙，X形钥匙还是M形钥匙？",
        "打开宝箱需要哪一把钥匙，X形钥匙还是M形钥匙？",
        "房子大门需要哪一把钥匙？",
    ),
}


EARLIER = {"en": "What key is it?", "zh": "是什么钥匙？"}


def make_task(language: str) -> Task:
    return synthetic_task(language, BRIEFS[language], NODES[language])


def dialogue(language: str, answered: list[str], last: str, earlier: str | None = None) -> list[Turn]:
    """Greeting, opening, root, then one exchange per answered node (asked in words of its own that name nothing, so
    `last` is never a word-for-word repeat), ending on the seeker's `last`."""
    tree = ResponseTree.build(NODES[language])
    turns = [
        Turn(speaker=Speaker.provider, text="hi", kind=ReplyKind.greeting),
        Turn(speaker=Speaker.seeker, text="How do I retrieve the treasure?"),
        Turn(speaker=Speaker.provider, text=ROOT[language], kind=ReplyKind.root, revealed=["0"]),
    ]
    for node_id in answered:
        turns += [
            Turn(speaker=Speaker.seeker, text=earlier or EARLIER[language]),
            Turn(speaker=Speaker.provider, text=tree[node_id].text, kind=ReplyKind.response_i, revealed=[node_id]),
        ]
    return turns + [Turn(speaker=Speaker.seeker, text=last)]


def revealed(
    language: str, answered: list[str], last: str, *, multi_info: bool = False, earlier: str | None = None
) -> list[str]:
    focus = FocusIndex(make_task(language))
    frontier = [node_id for node_id in ("1", "2", "3") if node_id not in answered]
    turns = dialogue(language, answered, last, earlier)
    return answer(focus, turns, frontier, multi_info=multi_info, frontier=frontier)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_sibling_choices_of_the_same_options_and_kind_are_twins_and_a_detail_is_none(language: str) -> None:
    focus = FocusIndex(make_task(language))
    assert focus.twins == {"1": ("1", "2"), "2": ("1", "2")}


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("multi_info", [False, True])
def test_a_choice_asked_without_saying_for_what_is_answered_once(language: str, multi_info: bool) -> None:
    unnamed = ASKS[language][0]
    assert revealed(language, [], unnamed, multi_info=multi_info) == ["1"]  # the first twin, the first time
    assert revealed(language, ["1"], unnamed, multi_info=multi_info) == []  # the same choice again: a repeat


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("multi_info", [False, True])
def test_a_choice_asked_for_one_thing_gets_that_twin(language: str, multi_info: bool) -> None:
    _, chest, entrance = ASKS[language]
    assert revealed(language, ["1"], chest, multi_info=multi_info) == ["2"]
    assert revealed(language, ["2"], entrance, multi_info=multi_info) == ["1"]
    assert revealed(language, [], chest, multi_info=multi_info) == ["2"]  # not the entrance's key, first in order


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_twin_given_to_another_question_leaves_the_choice_unasked(language: str) -> None:
    """Jax gave the entrance key to a question about the study: the seeker never asked which key, so it may, once."""
    other = "Where is the study?" if language == "en" else "书房在哪里？"
    assert revealed(language, ["1"], ASKS[language][0], earlier=other) == ["2"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_statement_before_a_question_can_say_which_twin_it_asks(language: str) -> None:
    said = (
        "You said the treasure chest needs a key. Which one is it, the X-shaped key or the M-shaped key?"
        if language == "en"
        else "你说宝箱需要钥匙。是哪一把，X形钥匙还是M形钥匙？"
    )
    assert revealed(language, ["1"], said) == ["2"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_one_multi_info_turn_cannot_walk_the_twins_with_two_unnamed_questions(language: str) -> None:
    twice = (
        "Which key do I need, the X-shaped key or the M-shaped key? And which key, the Y-shaped key or the "
        "O-shaped key?"
        if language == "en"
        else "我需要哪一把钥匙，X形钥匙还是M形钥匙？哪一把钥匙，Y形钥匙还是O形钥匙？"
    )
    assert revealed(language, [], twice, multi_info=True) == ["1"]
    named = f"{ASKS['en'][2]} {ASKS['en'][1]}" if language == "en" else ASKS["zh"][2] + ASKS["zh"][1]
    assert revealed(language, [], named, multi_info=True) == ["1", "2"]  # each twin asked for its own thing


def test_a_follow_up_under_an_answered_choice_is_no_twin_of_it() -> None:
    nodes = [
        *NODES["en"][:3],
        (
            "2.1",
            "The O-shaped key hangs in the Main Hall.",
            "Jax said which key opens the chest but not which key the hall holds. Note: use this "
            "response only if the other party noticed it is unclear which key is in the hall.",
        ),
    ]
    task = make_task("en").model_copy(update={"tree": ResponseTree.build(nodes)})
    assert "2.1" not in FocusIndex(task).twins  # a child of a twin, not its sibling


def test_the_offline_provider_gives_a_repeat_nothing_new() -> None:
    provider = OfflineProvider(make_task("en"))
    assert provider.decide(dialogue("en", ["1"], ASKS["en"][0])).revealed == []
    assert provider.decide(dialogue("en", ["1"], ASKS["en"][1])).revealed == ["2"]


class _Recorder:
    def __init__(self, *replies: object) -> None:
        self.replies = [r if isinstance(r, str) else json.dumps(r) for r in replies]

    def __call__(self, messages: list[dict]) -> str:
        return self.replies.pop(0)


@pytest.mark.asyncio
async def test_the_llm_provider_keeps_the_twin_rule_its_model_may_not() -> None:
    """The model proposes the second key for the choice asked again in the same words; the shared rule takes it."""
    lenient = {"intent": 2, "node_ids": ["2"], "summary_confirmation": False, "rationale": "which key"}
    client = LLMClient(
        LLMSettings(use_cache=False),
        scripted={"scripted/jax": ScriptedModel(_Recorder(lenient, "As I said: the Y-shaped key."))},
    )
    provider = LLMProvider(make_task("en"), client, model="scripted/jax", mode="single", reading="strict")
    turn = await provider.respond(dialogue("en", ["1"], ASKS["en"][0]))
    assert turn.revealed == [] and turn.kind != ReplyKind.response_i


def test_choices_among_one_list_of_scenes_for_different_kinds_are_no_twins() -> None:
    """A store for the green screen and a school for George: one list of scenes, two kinds in the explanations' own
    words, so asking which school after the store was given is a first question, not a repeat. (Each choice's
    options are its kind's own names, and the kinds in the explanations' own words tell them apart too.)"""
    brief = TaskBrief(
        role="director",
        task_name="shooting a video",
        items=("Money",),
        skills=("Film a video",),
        scenes=(
            "Jojo Department Store",
            "East District Department Store",
            "East District Middle School",
            "East District Elementary School",
        ),
        background="Shoot a video.",
    )
    nodes = [
        ("0", "Buy a green screen and find the actor George.", None),
        (
            "1",
            "Only Jojo Department Store sells green screens.",
            "The previous responses did not specify where to buy a green screen. This response says it should be "
            "bought from Jojo Department Store and not the East District Department Store. Note: use this response "
            "only if the other party noticed it is unclear which store sells green screens.",
        ),
        (
            "2",
            "George goes to the East District Middle School.",
            "Jax mentioned the actor George but did not specify where to find him. This response says he is at the "
            "East District Middle School and not other schools. Note: use this response only if the other party "
            "noticed it is unclear which school George attends.",
        ),
    ]
    task = Task(
        id="en/26/0",
        language="en",
        type_number=26,
        type_name="Video Task",
        index=0,
        split=Split.test,
        brief=brief,
        tree=ResponseTree.build(nodes),
    )
    focus = FocusIndex(task)
    # one group of scenes (joined by "East District"), two kinds of two names each: each choice is its kind's names
    assert {o.name for o in focus.nodes["1"].options} == {"Jojo Department Store", "East District Department Store"}
    assert {o.name for o in focus.nodes["2"].options} == {
        "East District Middle School",
        "East District Elementary School",
    }
    assert focus.twins == {}


def test_choices_our_reading_cannot_tell_apart_are_no_twins() -> None:
    """Two key choices whose explanations name no thing of their own: no question could say which one it asks, so
    the rule leaves them to the tree's order rather than refusing every later question."""
    nodes = [
        NODES["en"][0],
        ("1", "You need the Y-shaped key first.", "The previous responses did not specify which key to use."),
        ("2", "Then you need the O-shaped key.", "The previous responses did not specify which key to use."),
    ]
    task = make_task("en").model_copy(update={"tree": ResponseTree.build(nodes)})
    focus = FocusIndex(task)
    assert focus.nodes["1"].options and focus.nodes["1"].kind == focus.nodes["2"].kind
    assert focus.twins == {}
