"""R108's looser tier reads what a lone question says in words of its own (provider/own_words.py): a word the node's
answer says too, not a name of the brief, not copied from Jax or the brief, no which the choice rules read."""

from __future__ import annotations

import pytest

from clarq_bench.data.loader import SAMPLE_TASKS, load_tasks
from clarq_bench.provider.focus import FocusIndex


def sample(task_id: str) -> FocusIndex:
    return FocusIndex(next(t for t in load_tasks(SAMPLE_TASKS, (task_id[:2],), split=None) if t.id == task_id))


@pytest.fixture(scope="module")
def raft_en() -> FocusIndex:
    return sample("en/04/0")  # node 3: the sheep graze on the Hilltop Pasture


@pytest.fixture(scope="module")
def raft_zh() -> FocusIndex:
    return sample("zh/04/0")  # node 2: 用长撑杆


def own(focus: FocusIndex, text: str, node_id: str, heard: str | None = None) -> bool:
    spoken = focus.task.tree.root.text if heard is None else heard
    return focus.asks_in_own_words(focus.questions(text)[0], node_id, spoken)


def test_a_question_sharing_a_word_of_its_own_with_the_answer_is_read(raft_en, raft_zh) -> None:
    assert own(raft_en, "I wonder where the flock is grazing at the moment.", "3")  # (no question mark: a question)
    assert own(raft_en, "Where are the sheep grazing now?", "3")
    assert own(raft_zh, "木筏要怎么撑过去？", "2")  # 撑: one character, which the rules' pairs miss
    assert not own(raft_en, "Where is the brass bell?", "3")  # nothing of the answer's


def test_a_word_of_what_the_explanation_says_is_missing_is_read_too(raft_en) -> None:
    """Node 3's explanation: Jax's reply assumed the sheep were already at the river; the answer never says "already"."""
    assert own(raft_en, "Are you assuming the flock is already there?", "3")
    assert not own(raft_en, "Is the bell loud enough?", "3")


def test_words_copied_from_jax_are_not_the_questions_own(raft_en) -> None:
    copied = "What about his sheep on the far bank?"  # "his sheep on the far bank": Jax's root reply
    assert not own(raft_en, copied, "3")
    assert own(raft_en, copied, "3", heard="")  # the same words, had he not said them
    assert own(raft_en, "What about the sheep?", "3")


def test_a_name_of_the_brief_in_a_stock_frame_says_nothing_of_its_own(raft_zh) -> None:
    assert not own(raft_zh, "长撑杆要怎么处理？", "2")
    assert not own(raft_zh, "一根长撑杆还是一支短桨？", "2")  # two options named: an offer, for the rules
    assert not own(raft_zh, "撑的时候用一根长撑杆还是一支短桨？", "2")  # (even with a word of its own)
    assert not own(raft_zh, "我该用什么？", "2")  # 用 is grammar, not a word of the answer's


def test_a_which_is_left_to_the_choice_rules(raft_en, raft_zh) -> None:
    assert not own(raft_en, "Which pasture are the sheep grazing on?", "3")  # (en) any which: R101 / R106 read it
    assert not own(raft_zh, "撑木筏用哪一样？", "2")  # (zh) a which over nothing
    assert not own(raft_zh, "撑过去该用哪一个？", "2")
    assert own(raft_zh, "木筏要用什么撑？", "2")


def test_his_terms_said_back_in_any_order_are_not_the_questions_own(raft_en, raft_zh) -> None:
    def back(focus: FocusIndex, text: str) -> bool:
        return focus.says_jax_back(focus.questions(text)[0], focus.task.tree.root.text)

    assert back(raft_en, "How should I handle raft sheep load?")  # his words, reordered: no copied run
    assert back(raft_en, "What about the bank far, the raft?")
    assert not back(raft_en, "Where are the sheep grazing now?")  # one term of his, words of its own around it
    assert back(raft_zh, "对岸 木筏，该去哪里？")
    assert not back(raft_zh, "木筏要怎么撑过去？")


def test_a_do_frame_around_his_words_in_any_order_asks_nothing(raft_en, raft_zh) -> None:
    def handled(focus: FocusIndex, text: str) -> bool:
        return focus.handles_his_words(focus.questions(text)[0], focus.task.tree.root.text)

    assert handled(raft_en, "How should I handle raft sheep load?")  # his terms, reordered, in a do-frame
    assert handled(raft_en, "What do I do about the bank sheep raft?")
    assert not handled(raft_en, "How should I handle the raft and the sheep?")  # two of his things: a how of each
    assert not handled(raft_en, "How do I load the sheep onto the raft?")  # no do-frame: it asks how, of its own
    assert not handled(raft_en, "Where should I handle the sheep raft?")  # an interrogative of its own beside it
    assert not handled(raft_en, "How should I handle the brass bell?")  # not his words
    assert not handled(raft_en, "I see his sheep on the far bank, so what should I do about it?")  # its own statement
    assert handled(raft_zh, "下雨木筏对岸要怎么办？")  # his pairs (下雨, 木筏, 对岸), reordered
    assert not handled(raft_zh, "木筏和对岸要怎么办？")  # two of his things
    assert not handled(raft_zh, "下雨木筏对岸怎么弄到？")  # 怎么弄到: how to get hold of, no do-frame
    assert not handled(raft_zh, "哪个木筏要怎么办？")


def test_the_head_a_choices_options_share_is_its_own_word() -> None:
    """en/03/1 node 2 chooses between "A chest of saffron" and "A chest of pepper": "chests" is the choice's own word
    though its answer ("Sell only the saffron ...") never says it; the scales' head is another choice's."""
    spices = sample("en/03/1")
    assert own(spices, "Both chests, or just one?", "2")
    assert not own(spices, "Both scales, or just one?", "2")
