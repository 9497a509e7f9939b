"""Which node one question gets (provider/answering.py `_owner`): the first in the tree's order that it focuses,
unless the reader is far surer of a later one it also focuses. And the Chinese reading of the explanation's own
question and of counted names (focus.py `_says`, brief_options.py `name_terms`)."""

from __future__ import annotations

import pytest
from test_provider_focus import task

from clarq_bench.core.transcript import ReplyKind, Speaker, Turn
from clarq_bench.provider.answering import PREFER_MARGIN, read_turn
from clarq_bench.provider.brief_options import kind_groups, name_terms
from clarq_bench.provider.focus import FocusIndex, _says

#: Focuses node 1 (which gem, R101) and names node 3's thing (the fire crystal, R105).
TWO_NODES = "Which gem should I trade for the fire crystal?"


@pytest.fixture(scope="module")
def focus() -> FocusIndex:
    return FocusIndex(task())


def turns(text: str) -> list[Turn]:
    return [
        Turn(speaker=Speaker.seeker, text="How do I trade with Henry?"),
        Turn(speaker=Speaker.provider, text=task().tree.root.text, kind=ReplyKind.root, revealed=["0"]),
        Turn(speaker=Speaker.seeker, text=text),
    ]


def reveal(focus: FocusIndex, text: str, confidence: dict[str, float] | None, multi_info: bool = False) -> list[str]:
    frontier = ["1", "2", "3"]
    read = read_turn(focus, turns(text), frontier, multi_info=multi_info, frontier=frontier, confidence=confidence)
    return read.revealed


def test_one_question_of_two_nodes_gets_the_first_unless_the_reader_is_far_surer_of_the_other(focus) -> None:
    assert {"1", "3"} <= set(read_turn(focus, turns(TWO_NODES), ["1", "2", "3"], multi_info=False).asked)
    assert reveal(focus, TWO_NODES, None) == ["1"]  # no confidences: the tree's order
    assert reveal(focus, TWO_NODES, {"1": 0.5, "3": 0.5 + PREFER_MARGIN - 0.01}) == ["1"]
    assert reveal(focus, TWO_NODES, {"1": 0.5, "3": 0.5 + PREFER_MARGIN + 0.01}) == ["3"]
    assert reveal(focus, TWO_NODES, {"1": 0.5, "3": 0.9}, multi_info=True) == ["3"]  # one node per question


def test_surer_never_reaches_a_node_the_question_does_not_focus(focus) -> None:
    assert reveal(focus, TWO_NODES, {"1": 0.1, "2": 1.0, "3": 0.1}) == ["1"]  # 2 (which beast) is not asked


def test_a_turn_of_several_questions_keeps_the_tree_order(focus) -> None:
    text = "Which beast should I summon? " + TWO_NODES
    assert reveal(focus, text, {"1": 0.0, "2": 0.1, "3": 1.0}) == ["1"]


@pytest.mark.parametrize(
    ("piece", "text", "said"),
    [
        ("羊在哪里", "羊在哪里？", True),
        ("羊在哪里", "羊现在在哪里？", True),  # a word put inside the explanation's question
        ("羊在哪里", "羊吃的草长在河对岸哪里？", False),  # too far apart: another question
        ("羊在哪里", "哪里有羊？", False),  # out of order
    ],
)
def test_the_explanations_own_question_may_take_a_word_inside_it(piece: str, text: str, said: bool) -> None:
    assert _says(piece, text) is said


def test_a_chinese_count_is_no_part_of_a_name() -> None:
    assert name_terms("一根长撑杆", "zh") == name_terms("长撑杆", "zh")
    groups = kind_groups(["一根长撑杆", "一根绳子", "一支短桨"], "zh")
    assert len(set(groups)) == 3  # "一根" joins no kinds


def test_a_clear_match_asks_a_chinese_node_alone_and_never_an_english_one(focus) -> None:
    from types import SimpleNamespace

    from clarq_bench.provider.answering import CLEAR_FLOOR, CLEAR_GAP, _clearly_asked

    questions = focus.questions("Which gem does Henry need?")  # a real question (it has a question class)
    assert questions and questions[0].classes
    zh = SimpleNamespace(language="zh", lists_things=lambda question: False)
    en = SimpleNamespace(language="en", lists_things=lambda question: False)
    listing = SimpleNamespace(language="zh", lists_things=lambda question: True)
    sure = {"1": CLEAR_FLOOR, "2": CLEAR_FLOOR - CLEAR_GAP - 0.01}
    order = ["1", "2"]
    assert _clearly_asked(zh, questions, order, {"1", "2"}, sure, set()) == {"1"}
    assert _clearly_asked(en, questions, order, {"1", "2"}, sure, set()) == frozenset()
    assert _clearly_asked(listing, questions, order, {"1", "2"}, sure, set()) == frozenset()  # a list asks none
    assert _clearly_asked(zh, questions * 2, order, {"1", "2"}, sure, set()) == frozenset()  # one question only
    assert _clearly_asked(zh, questions, order, {"2"}, sure, set()) == frozenset()  # proposed by the matcher only
    close = {"1": CLEAR_FLOOR, "2": CLEAR_FLOOR - CLEAR_GAP + 0.01}
    assert _clearly_asked(zh, questions, order, {"1", "2"}, close, set()) == frozenset()  # not far surer
    low = {"1": CLEAR_FLOOR - 0.01, "2": 0.0}
    assert _clearly_asked(zh, questions, order, {"1", "2"}, low, set()) == frozenset()


def test_multi_info_reads_a_lone_question_with_the_single_info_readers_candidates_too(focus) -> None:
    frontier = ["1", "2", "3"]
    lone = "How do I carry the fire crystal safely?"  # node 3's detail (R105), no options offered
    two = "How do I carry the fire crystal safely? Who is Henry?"
    assert read_turn(focus, turns(lone), [], multi_info=True, frontier=frontier).revealed == []
    assert read_turn(focus, turns(lone), [], multi_info=True, frontier=frontier, lone=["3"]).revealed == ["3"]
    assert read_turn(focus, turns(two), [], multi_info=True, frontier=frontier, lone=["3"]).revealed == []
    assert read_turn(focus, turns(lone), [], multi_info=False, frontier=frontier, lone=["3"]).revealed == []
