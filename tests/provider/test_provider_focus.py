"""The provider answers questions, not words (provider/focus.py, provider/answering.py): a node is revealed only to
a question whose focus is the uncertainty it resolves. Written from the rule in README "What a provider reveals"."""

from __future__ import annotations

import pytest

from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import ReplyKind, Speaker, Turn
from clarq_bench.provider.answering import ANSWERED_QUESTIONS, MULTI_INFO_NODES, answer
from clarq_bench.provider.focus import FocusIndex
from clarq_bench.provider.offline.provider import OfflineProvider

NODES = [
    ("0", "You need to trade a gem with Henry for a fire crystal, then summon a beast.", None),
    (
        "1",
        "Henry needs the starlight gem.",
        "The previous responses did not say which gem Henry needs. Note: Use this response only if the other party has "
        "noticed the issue of not knowing which gem Henry needs.",
    ),
    (
        "1.1",
        "You can find Henry at the Forest Tavern.",
        "There are multiple taverns in the game scenario. This response addresses which tavern to go to. Note: Use this "
        "response only if the other party has noticed that there are multiple taverns and is unsure which one to go to.",
    ),
    (
        "2",
        "Summon the divine horse: only the horse can carry the crystal.",
        "There are three divine beasts to summon. This response addresses which beast to summon. Note: Use this "
        "response only if the other party has noticed that there are multiple divine beasts and is unsure which one to "
        "summon.",
    ),
    (
        "3",
        "The fire crystal must be kept in a lead box on the way back.",
        "Jax mentioned the fire crystal but did not explain how to carry it safely. Note: Use this response only if the "
        "other party has noticed the lack of information on how to carry the fire crystal.",
    ),
]
BRIEF = TaskBrief(
    role="adventurer",
    task_name="trade with Henry",
    items=("Starlight Gem", "Moonlight Gem", "Sun Gem", "Lead box"),
    skills=("Summon the divine tiger", "Summon the divine horse", "Summon the divine turtle"),
    scenes=("Mystery Tavern", "Forest Tavern", "Riverside Tavern", "Town Hall"),
    background="You are an adventurer. Ask Jax how to trade with Henry.",
)


def task() -> Task:
    return Task(
        id="en/01/0",
        language="en",
        type_number=1,
        type_name="Trade",
        index=0,
        split=Split.test,
        brief=BRIEF,
        tree=ResponseTree.build(NODES),
    )


@pytest.fixture(scope="module")
def focus() -> FocusIndex:
    return FocusIndex(task())


def asks(focus: FocusIndex, text: str, node_id: str) -> bool:
    return any(focus.focuses(question, node_id) for question in focus.questions(text))


@pytest.mark.parametrize(
    "text",
    [
        "Which gem does Henry need?",
        "What kind of gem should I bring to Henry?",
        "Should I give Henry the Starlight Gem, the Moonlight Gem or the Sun Gem?",
        "Does Henry want the Starlight Gem or the Moonlight Gem?",
    ],
)
def test_a_choice_is_asked_by_its_kind_or_by_two_of_its_options(focus: FocusIndex, text: str) -> None:
    assert asks(focus, text, "1")


@pytest.mark.parametrize(
    "text",
    [
        "Should I give Henry the Starlight Gem?",  # one option alone: a bet on the answer
        "Which step needs the Starlight Gem, and where exactly?",  # "which" governs "step", not the kind
        "How do I use the Starlight Gem, and at which step?",
        "Which step involves the Starlight Gem, the Moonlight Gem, the Town Hall or the Lead box?",  # names of 3 kinds
        "When does it happen? Who do I talk to?",  # content-free
    ],
)
def test_a_bet_a_spray_or_a_content_free_question_does_not_ask_the_choice(focus: FocusIndex, text: str) -> None:
    assert not asks(focus, text, "1")


def test_options_of_one_kind_are_found_by_what_their_names_share_not_by_their_last_word(focus: FocusIndex) -> None:
    text = "Which one should I choose: Summon the divine tiger, Summon the divine horse or Summon the divine turtle?"
    assert asks(focus, text, "2")  # tiger / horse / turtle differ in their last word, yet are one kind
    assert not asks(focus, "Should I summon the divine horse?", "2")


def test_a_detail_is_asked_by_naming_its_thing_and_asking_the_right_kind_of_thing(focus: FocusIndex) -> None:
    assert asks(focus, "How should I carry the fire crystal back?", "3")
    assert not asks(focus, "Do I have the fire crystal?", "3")  # a yes/no question asks no "how"
    assert not asks(focus, "How should I travel there?", "3")  # the right question word, about nothing named


def test_a_detail_is_about_what_the_node_shares_with_the_reply_it_follows(focus: FocusIndex) -> None:
    """Node 1.1 answers where Henry is, though its explanation speaks only of taverns: "Henry", said both by node 1
    and by node 1.1, is the thing 1.1 is about, so "Where can I find Henry?" asks it."""
    assert asks(focus, "Where can I find Henry?", "1.1")
    assert not asks(focus, "Where can I find Henry?", "1")  # a place, not a gem
    assert not asks(focus, "Where should I go?", "1.1")  # the right question word, about nothing named


def test_a_which_over_a_kind_of_detail_asks_that_detail_not_a_choice_of_a_thing(focus: FocusIndex) -> None:
    """ "Which place should I go to meet Henry?" asks a place: node 1 settles which gem, so it is not asked, though the
    question names Henry; node 1.1 (which tavern) is a choice of a place and is."""
    assert not asks(focus, "Which place should I go to meet Henry?", "1")
    assert asks(focus, "Which place should I go to meet Henry?", "1.1")
    assert not asks(focus, "What time should I meet Henry?", "1")
    assert asks(focus, "Which gem does Henry need?", "1")


def governed(focus: FocusIndex, text: str) -> set[str]:
    return set().union(*(focus._governed_terms(question) for question in focus.questions(text)))


def test_a_name_right_after_the_governed_word_starts_no_list(focus: FocusIndex) -> None:
    """A question with a name right after its governed word ("Which gate of Baiyun Mountain should I go in
    through?") governs the gate: the name read out of it leaves a joint, but "should I ..." is no item of a list."""
    assert governed(focus, "Which gem from Town Hall should I bring?") == {"gem"}
    assert governed(focus, "Which gem in Forest Tavern does Henry want?") == {"gem"}
    assert governed(focus, "Which gem, tiger or horse should I use?") == set()  # a list: none of them governed


def _turns(*texts: str) -> list[Turn]:
    turns = [
        Turn(speaker=Speaker.provider, text="what can help you?", kind=ReplyKind.greeting),
        Turn(speaker=Speaker.seeker, text="I need help trading with Henry."),
        Turn(speaker=Speaker.provider, text=NODES[0][1], kind=ReplyKind.root, revealed=["0"]),
    ]
    for text in texts:
        turns.append(Turn(speaker=Speaker.seeker, text=text))
    return turns


def test_only_the_first_questions_of_a_turn_are_read(focus: FocusIndex) -> None:
    padding = ["What is the weather like?", "Is it far?", "Are you well?", "Is it late?"][:ANSWERED_QUESTIONS]
    late = " ".join(padding) + " Which gem does Henry need?"
    assert answer(focus, _turns(late), ["1", "2"], multi_info=False) == []
    early = "Which gem does Henry need? " + " ".join(padding)
    assert answer(focus, _turns(early), ["1", "2"], multi_info=False) == ["1"]


def test_single_info_reveals_one_node_and_multi_info_one_per_question(focus: FocusIndex) -> None:
    both = "Which gem does Henry need? Which divine beast should I summon? How do I carry the fire crystal?"
    assert answer(focus, _turns(both), ["1", "2", "3"], multi_info=False) == ["1"]
    assert answer(focus, _turns(both), ["1", "2", "3"], multi_info=True) == ["1", "2", "3"][:MULTI_INFO_NODES]
    assert answer(focus, _turns("Which gem does Henry need?"), ["1", "2", "3"], multi_info=True) == ["1"]


def test_the_offline_provider_never_reveals_a_choice_to_a_bet() -> None:
    provider = OfflineProvider(task())
    bet = provider.decide(_turns("Should I give Henry the Starlight Gem to make the trade?"))
    assert bet.revealed == []
    asked = provider.decide(_turns("Which gem does Henry need for the trade?"))
    assert asked.revealed == ["1"]


ZH_NODES = [
    ("0", "你需要去山脉挖胡萝卜。", None),
    (
        "1",
        "北方山脉才有很多胡萝卜。",
        "这个回复用于解答应该去哪个山脉挖胡萝卜的疑问。注：只有在对方注意到存在多个山脉且不确定应该去哪一个挖胡萝卜才使用。",
    ),
]
ZH_BRIEF = TaskBrief(
    role="冒险者",
    task_name="挖胡萝卜",
    items=("铲子",),
    skills=("挖掘",),
    scenes=("北方山脉", "东方山脉", "西方山脉"),
    background="你是冒险者。",
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我应该去哪个山脉挖胡萝卜？", True),
        ("我应该去北方山脉还是东方山脉？", True),
        ("我应该去北方山脉吗？", False),  # one option alone
    ],
)
def test_chinese_choices_follow_the_same_rule(text: str, expected: bool) -> None:
    zh = Task(
        id="zh/01/0",
        language="zh",
        type_number=1,
        type_name="Gather",
        index=0,
        split=Split.test,
        brief=ZH_BRIEF,
        tree=ResponseTree.build(ZH_NODES),
    )
    assert asks(FocusIndex(zh), text, "1") is expected
