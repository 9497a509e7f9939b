"""Which node one question gets (provider/answering.py `_owner`): the first in the tree's order that it focuses,
unless the reader is far surer of a later one it also focuses. And the Chinese reading of the explanation's own
question and of counted names (said_in_order.py, brief_options.py `name_terms`)."""

from __future__ import annotations

import pytest
from test_provider_focus import task
from upstream_paths import UPSTREAM_DATA, needs_upstream

from clarq_bench.core.transcript import ReplyKind, Speaker, Turn
from clarq_bench.provider.answering import PREFER_MARGIN, read_turn
from clarq_bench.provider.brief_options import kind_groups, name_terms
from clarq_bench.provider.focus import FocusIndex
from clarq_bench.provider.said_in_order import says_in_order

#: Asks node 1 (what Henry takes in the trade, R104) and names node 3's thing (the fire crystal, R105). ("Which gem
#: should I trade for the fire crystal?" asks the gem alone: its which governs another choice's kind than node 3's.)
TWO_NODES = "What should I trade Henry for the fire crystal?"


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
    text = "Which gem does Henry need for the trade?"
    assert reveal(focus, text, {"1": 0.1, "2": 1.0, "3": 0.1}) == ["1"]  # 2 (which beast) is not asked


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
    assert says_in_order(piece, text) is said


def test_a_chinese_count_is_no_part_of_a_name() -> None:
    assert name_terms("一根长撑杆", "zh") == name_terms("长撑杆", "zh")
    groups = kind_groups(["一根长撑杆", "一根绳子", "一支短桨"], "zh")
    assert len(set(groups)) == 3  # "一根" joins no kinds


def test_a_clear_match_asks_a_node_alone_unless_the_question_bets_or_names_a_choice(focus) -> None:
    from types import SimpleNamespace

    from clarq_bench.provider.answering import CLEAR_FLOOR, CLEAR_GAP, LOOSE_FLOOR, LOOSE_GAP, _clearly_asked

    questions = focus.questions("Which gem does Henry need?")  # a real question (it has a question class)
    assert questions and questions[0].classes

    def reader(
        language: str,
        lists: bool = False,
        bets: bool = False,
        offers: bool = False,
        own: bool = False,
        his: bool = False,
    ) -> SimpleNamespace:
        return SimpleNamespace(
            language=language,
            says_jax_back=lambda question, heard: his,
            lists_things=lambda question: lists,
            bets=lambda question, node_id: bets,
            offers_others=lambda question, node_id: offers,
            asks_in_own_words=lambda question, node_id, heard: own,
            nodes={},  # (no node's kind of answer known: _asks_another_kind has its own test)
        )

    zh, en = reader("zh"), reader("en")
    sure = {"1": CLEAR_FLOOR, "2": CLEAR_FLOOR - CLEAR_GAP - 0.01}
    order = ["1", "2"]
    assert _clearly_asked(zh, questions, order, {"1", "2"}, sure, {}) == {"1"}
    assert _clearly_asked(en, questions, order, {"1", "2"}, sure, {}) == {"1"}
    assert _clearly_asked(reader("en", bets=True), questions, order, {"1", "2"}, sure, {}) == frozenset()
    assert _clearly_asked(reader("en", offers=True), questions, order, {"1", "2"}, sure, {}) == frozenset()
    assert _clearly_asked(reader("zh", bets=True), questions, order, {"1", "2"}, sure, {}) == {"1"}  # en only
    assert _clearly_asked(zh, questions, order, {"1", "2"}, sure, {"2": "R101"}) == frozenset()  # names a choice
    assert _clearly_asked(zh, questions, order, {"1", "2"}, sure, {"2": "R105"}) == {"1"}
    assert _clearly_asked(reader("zh", lists=True), questions, order, {"1", "2"}, sure, {}) == frozenset()
    assert _clearly_asked(reader("en", his=True), questions, order, {"1", "2"}, sure, {}) == frozenset()  # his words
    assert _clearly_asked(zh, questions * 2, order, {"1", "2"}, sure, {}) == frozenset()  # one question only
    tagged = focus.questions("Henry is at the castle, right? Which gem does Henry need?")
    assert len(tagged) == 2  # a tag question asks nothing open: the other is read alone
    assert _clearly_asked(en, tagged, order, {"1", "2"}, sure, {}) == {"1"}
    two = focus.questions("Where is Henry, right? Which gem does Henry need?")  # (an interrogative: no tag)
    assert _clearly_asked(en, two, order, {"1", "2"}, sure, {}) == frozenset()
    assert _clearly_asked(zh, questions, order, {"2"}, sure, {}) == frozenset()  # proposed by the matcher only
    close = {"1": CLEAR_FLOOR, "2": CLEAR_FLOOR - CLEAR_GAP + 0.01}
    assert _clearly_asked(zh, questions, order, {"1", "2"}, close, {}) == frozenset()  # not far surer
    low = {"1": CLEAR_FLOOR - 0.01, "2": 0.0}
    assert _clearly_asked(zh, questions, order, {"1", "2"}, low, {}) == frozenset()
    # fairly sure: asked only in words of its own (own_words.py), and never under the loose floor and gap
    mine = reader("zh", own=True)
    assert _clearly_asked(mine, questions, order, {"1", "2"}, close, {}) == {"1"}
    assert _clearly_asked(mine, questions, order, {"1", "2"}, low, {}) == {"1"}
    fair = {"1": LOOSE_FLOOR, "2": LOOSE_FLOOR - LOOSE_GAP}
    assert _clearly_asked(mine, questions, order, {"1", "2"}, fair, {}) == {"1"}
    assert _clearly_asked(zh, questions, order, {"1", "2"}, fair, {}) == frozenset()
    for unsure in ({"1": LOOSE_FLOOR - 0.01, "2": 0.0}, {"1": LOOSE_FLOOR, "2": LOOSE_FLOOR - LOOSE_GAP + 0.01}):
        assert _clearly_asked(mine, questions, order, {"1", "2"}, unsure, {}) == frozenset()
    assert _clearly_asked(reader("en", own=True, bets=True), questions, order, {"1", "2"}, fair, {}) == frozenset()


def test_english_bets_and_offers_of_other_options_are_read_off_the_brief() -> None:
    raft = sample("en/04/0")  # node 2: the long pole or the short paddle; node 1: the fords
    bet, offer, both = (
        raft.questions(text)[0]
        for text in (
            "Do I take the long pole?",
            "The Upper Ford or the Lower Ford?",
            "The long pole or the short paddle?",
        )
    )
    assert raft.bets(bet, "2") and not raft.bets(both, "2") and not raft.bets(bet, "3")
    assert raft.offers_others(offer, "2") and not raft.offers_others(offer, "1") and not raft.offers_others(both, "2")


def test_multi_info_reads_a_lone_question_with_the_single_info_readers_candidates_too(focus) -> None:
    frontier = ["1", "2", "3"]
    lone = "How do I carry the fire crystal safely?"  # node 3's detail (R105), no options offered
    two = "How do I carry the fire crystal safely? Who is Henry?"
    assert read_turn(focus, turns(lone), [], multi_info=True, frontier=frontier).revealed == []
    assert read_turn(focus, turns(lone), [], multi_info=True, frontier=frontier, lone=["3"]).revealed == ["3"]
    assert read_turn(focus, turns(two), [], multi_info=True, frontier=frontier, lone=["3"]).revealed == []
    assert read_turn(focus, turns(lone), [], multi_info=False, frontier=frontier, lone=["3"]).revealed == []


def test_a_question_that_names_a_later_choice_gets_it_over_one_whose_thing_it_speaks_of(focus) -> None:
    text = "Which beast should I summon when I trade the gem?"  # names the beast (R101), speaks of the gem's trade
    read = read_turn(focus, turns(text), ["1", "2", "3"], multi_info=False, frontier=["1", "2", "3"])
    assert read.rules == {"2": "R101"} and read.revealed == ["2"]  # its which governs the beast: no gem is asked
    assert reveal(focus, text, {"1": 0.9, "2": 0.85 - PREFER_MARGIN}) == ["2"]  # however sure the reader is of 1
    assert reveal(focus, "Which beast should I summon? Which gem does Henry need?", None) == ["1"]  # two questions


def sample(task_id: str) -> FocusIndex:
    from clarq_bench.data.loader import SAMPLE_TASKS, load_tasks

    return FocusIndex(next(t for t in load_tasks(SAMPLE_TASKS, (task_id[:2],), split=None) if t.id == task_id))


def test_options_the_explanation_speaks_of_outrank_a_kind_the_answer_only_names() -> None:
    raft = sample("en/04/0").nodes["2"]  # "the apprentice has a pole and a paddle"; its answer names the Lower Ford
    assert {o.name for o in raft.options} == {"A long pole", "A short paddle"}
    fords = sample("en/04/0").nodes["1"]  # "the river has two fords": still the fords
    assert {o.name for o in fords.options} == {"Upper Ford", "Lower Ford"}
    fuels = sample("en/01/0").nodes["3"]  # names that share no word, spoken of by name
    assert {o.name for o in fuels.options} == {"Lamp kerosene", "Whale oil"}


def test_a_lone_latin_letter_of_chinese_text_is_a_label_not_a_stopword() -> None:
    from clarq_bench.provider.lexical import tokens

    assert "a" in tokens("走道路A还是道路B？", "zh") and "b" in tokens("走道路A还是道路B？", "zh")
    assert "the" not in tokens("the 道路", "zh")  # a longer English stopword still goes


def test_options_set_against_each_other_are_a_choice_and_options_merely_mentioned_are_not() -> None:
    from clarq_bench.provider.brief_options import BriefOption
    from clarq_bench.provider.offers import _coordinated

    van = BriefOption("An off-road vehicle", frozenset({"road", "vehicle"}), 0, False, frozenset({"vehicle"}))
    sedan = BriefOption("A bulletproof sedan", frozenset({"bulletproof", "sedan"}), 1, False, frozenset({"sedan"}))
    said = [van, sedan]
    assert _coordinated(said, "The off-road vehicle should be used instead of the bulletproof sedan.") == said
    assert _coordinated(said, "You have an off-road vehicle and a bulletproof sedan.") == said
    assert _coordinated(said, "Drive the off-road vehicle to the city, where a bulletproof sedan waits.") == []
    assert _coordinated(said, "The vehicle to set, specifying that the sedan waits.") == []  # a comma far apart


@needs_upstream
def test_r108_never_answers_a_question_of_another_kind_than_the_node() -> None:
    """(en) "Where should I go to <his clause>?" asks a place; the reader's confidence alone (R108) never gives it a
    node that answers which thing (here which crystal), as no rule of the reader would."""
    from clarq_bench.data.loader import load_tasks
    from clarq_bench.provider.answering import _asks_another_kind

    focus = FocusIndex(next(t for t in load_tasks(UPSTREAM_DATA, ("en",)) if t.id == "en/14/3"))
    where = "Where should I go to exchange the gem he needs for a crystal you need with magic casting potential?"
    assert _asks_another_kind(focus, focus.questions(where)[0], "3")
    assert not _asks_another_kind(focus, focus.questions("Which crystal do I need for the magic?")[0], "3")
    assert not _asks_another_kind(focus, focus.questions("Will Henry trade a crystal for it?")[0], "3")
    assert _asks_another_kind(focus, focus.questions("Who has the crystal?")[0], "3")
