"""The clarification track's parts on hand-made tasks and banks: need grades, states, pools, BM25, the baselines,
chance by permutation, and the correlation coefficients, each against values worked out by hand."""

from __future__ import annotations

import asyncio
import math

import pytest

from clarq_bench.clarify.bank import Bank, BankEntry
from clarq_bench.clarify.bm25 import bm25_scores, tokens
from clarq_bench.clarify.coefficients import average_ranks, kendall_tau_b, pearson, spearman
from clarq_bench.clarify.pool import pool_for, relevant_ids
from clarq_bench.clarify.random_baseline import random_expectation
from clarq_bench.clarify.rank_states import run_states
from clarq_bench.clarify.rankers import (
    BestQuestion,
    BM25Ranker,
    Item,
    NoQuestion,
    RandomRanker,
    Selection,
    WorstQuestion,
)
from clarq_bench.clarify.states import need_grade, task_states, view_of
from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import Speaker


def make_task(type_number: int = 1, index: int = 0) -> Task:
    tree = ResponseTree.build(
        [
            ("0", "Go to the mine and dig.", None),
            ("1", "Take the west mine.", "The user has noticed that there are two mines."),
            ("1.1", "Carry a lamp inside.", "The user has noticed that the mine is dark."),
            ("2", "Sell the ore at the market.", "The user has noticed that the ore must be sold."),
        ]
    )
    brief = TaskBrief(
        role="miner",
        task_name="collect ore",
        items=("lamp",),
        scenes=("west mine", "east mine"),
        background="A miner must collect ore.",
    )
    return Task(
        id=f"en/{type_number:02d}/{index}",
        language="en",
        type_number=type_number,
        type_name="Gather",
        index=index,
        split=Split.test,
        brief=brief,
        tree=tree,
    )


def entry(number: int, task_id: str, text: str, nodes: tuple[str, ...], origin: str = "released") -> BankEntry:
    type_number = int(task_id.split("/")[1]) if task_id else 0
    return BankEntry(
        id=f"en-{number:05d}",
        language="en",
        task_id=task_id,
        type_number=type_number,
        text=text,
        origin=origin,
        nodes=nodes,
    )


BANK = Bank(
    language="en",
    entries=(
        entry(1, "", "Anything else?", (), "content_free"),
        entry(2, "en/01/0", "Which mine should I use, west or east?", ("1",)),
        entry(3, "en/01/0", "What do I need inside the dark mine?", ("1.1",)),
        entry(4, "en/01/0", "Where do I sell the ore?", ("2",)),
        entry(5, "en/01/1", "Which mine has the most gold?", ("1",)),
        entry(6, "en/02/0", "How do I bake bread?", ("1",)),
    ),
)


@pytest.mark.parametrize(
    ("unrevealed", "required", "grade"),
    [(0, 5, 1), (1, 3, 2), (2, 6, 2), (2, 3, 3), (3, 5, 3), (3, 4, 4), (5, 5, 4), (1, 0, 1)],
)
def test_need_grade_by_share_missing(unrevealed: int, required: int, grade: int) -> None:
    assert need_grade(unrevealed, required) == grade


def test_a_need_outside_1_to_4_is_refused() -> None:
    from pydantic import ValidationError

    state = task_states(make_task())[0]
    with pytest.raises(ValidationError):
        state.model_validate({**state.model_dump(), "need": 5})


def test_states_walk_the_human_path() -> None:
    states = task_states(make_task())
    assert [s.revealed for s in states] == [(), ("1",), ("1", "1.1"), ("1", "1.1", "2")]
    assert [s.frontier for s in states] == [("1", "2"), ("1.1", "2"), ("2",), ()]
    assert [s.need for s in states] == [4, 3, 2, 1] and [s.needed for s in states] == [True, True, True, False]
    last = states[-1].turns
    assert [t.speaker for t in last[:3]] == [Speaker.provider, Speaker.seeker, Speaker.provider]
    assert last[2].text == "Go to the mine and dig." and len(last) == 3 + 2 * 3
    assert [t.text for t in last if t.speaker == Speaker.provider][-1] == "Sell the ore at the market."
    seeker_turns = [t.text for t in last[3:] if t.speaker == Speaker.seeker]
    assert len(set(seeker_turns)) == 3 and not any("west mine" in q.lower() for q in seeker_turns)  # never the node


def test_pool_is_the_type_plus_content_free_and_relevance_is_a_frontier_node_of_the_task() -> None:
    state = task_states(make_task())[1]  # revealed 1; frontier 1.1, 2
    pool = pool_for(state, BANK)
    assert sorted(e.id for e in pool) == ["en-00001", "en-00002", "en-00003", "en-00004", "en-00005"]
    assert relevant_ids(pool, state) == {"en-00003", "en-00004"}  # not 2 (node 1 revealed), not 5 (other task)
    assert [e.id for e in pool] == [e.id for e in pool_for(state, BANK)]  # the same shuffle every time


def test_bm25_by_hand() -> None:
    assert tokens("Which Mine?", "en") == ["which", "mine"] and tokens("去矿山a", "zh") == ["去矿", "矿山", "a"]
    assert tokens("Use 矿山 now", "en") == ["use", "now"]  # English text is read as words only
    docs = ["mine mine", "ore", "bread ore"]
    scores = bm25_scores("mine", docs, "en")
    idf = math.log(1 + (3 - 1 + 0.5) / (1 + 0.5))
    average = 5 / 3
    expected = idf * 2 * 2.5 / (2 + 1.5 * (1 - 0.75 + 0.75 * 2 / average))
    assert scores[0] == pytest.approx(expected) and scores[1:] == [0.0, 0.0]


def item_for(step: int) -> Item:
    task = make_task()
    state = task_states(task)[step]
    pool = pool_for(state, BANK)
    return Item(state, task, view_of(state, task), pool, frozenset(relevant_ids(pool, state)))


def test_baselines_named_after_clariqs() -> None:
    item = item_for(1)
    best = asyncio.run(BestQuestion().select(item))
    assert set(best.ranking[:2]) == {"en-00003", "en-00004"} and best.returned == best.ranking[:1] and best.need == 3
    worst = asyncio.run(WorstQuestion().select(item))
    assert set(worst.ranking[-2:]) == {"en-00003", "en-00004"} and worst.need == 1 and len(worst.returned) == 1
    assert asyncio.run(NoQuestion().select(item)).model_dump() == {
        "need": 1,
        "ranking": [],
        "returned": [],
        "error": None,
        "note": None,
    }
    first, again = (asyncio.run(RandomRanker(7).select(item)) for _ in range(2))
    assert first == again and 1 <= len(first.returned) <= 5 and sorted(first.ranking) == sorted(e.id for e in item.pool)


def test_bm25_ranker_puts_asked_questions_last() -> None:
    item = item_for(0)
    asked = item.view.turns[1].text
    bank = Bank(language="en", entries=BANK.entries + (entry(7, "en/01/0", asked, ("9",)),))
    pool = pool_for(item.state, bank)
    selection = asyncio.run(BM25Ranker().select(item._replace(pool=pool)))
    assert selection.ranking[-1] == "en-00007" and selection.need == 4 and 1 <= len(selection.returned) <= 5


def test_run_scores_need_everywhere_and_selection_where_needed() -> None:
    task = make_task()
    states = task_states(task)
    results = asyncio.run(run_states(BestQuestion(), states, {task.id: task}, BANK))
    assert [r.need_pred for r in results] == [4, 3, 2, 1] and results[-1].figures == {}
    assert all(r.figures["mrr"] == 1.0 and r.figures["lar"] == 1.0 for r in results[:3])
    assert [r.relevant for r in results] == [2, 2, 1, 0]

    class Broken:
        name = "broken"

        async def select(self, item: Item) -> None:
            raise RuntimeError("boom sk-abcdefghijklmnopqrstuvwxyz123456")

    failed = asyncio.run(run_states(Broken(), states, {task.id: task}, BANK))
    assert all(r.error and "boom" in r.error and "sk-abcdef" not in r.error for r in failed)
    assert failed[0].figures["mrr"] == 0.0 and failed[0].need_pred == 1

    class Repeater:  # names a relevant question twice: Recall@k would count it twice (2.0 with two relevant)
        name = "repeater"

        async def select(self, item: Item) -> Selection:
            best = await BestQuestion().select(item)
            return best.model_copy(update={"ranking": best.ranking[:1] * 2 + best.ranking[1:]})

    repeated = asyncio.run(run_states(Repeater(), states[:1], {task.id: task}, BANK))
    assert "names a question twice" in repeated[0].error and repeated[0].figures["recall@10"] == 0.0


def test_chance_by_permutation_matches_the_analytic_values() -> None:
    chance = random_expectation([(4, 1)] * 3, permutations=20000, seed=1)
    assert chance["mrr"]["mean"] == pytest.approx((1 + 1 / 2 + 1 / 3 + 1 / 4) / 4, abs=0.005)  # 0.5208
    variance = (1 + 1 / 4 + 1 / 9 + 1 / 16) / 4 - ((1 + 1 / 2 + 1 / 3 + 1 / 4) / 4) ** 2
    assert chance["mrr"]["sd"] == pytest.approx(math.sqrt(variance / 3), rel=0.03)  # 0.168
    assert chance["p@1"]["mean"] == pytest.approx(0.25, abs=0.005) and chance["recall@10"] == {"mean": 1.0, "sd": 0.0}
    # a random length L in 1..5 hits when the one relevant item of 4 sits above it: P = mean(min(L,4)/4) = 0.7
    lar = (0.7 + (1 + 1 / 2 + 1 / 3 + 1 / 4 + 1 / 5) / 5) / 2
    assert chance["lar"]["mean"] == pytest.approx(lar, abs=0.005)
    assert random_expectation([(10, 2)] * 4) == random_expectation([(10, 2)] * 4)  # seeded
    # two relevant of three: the relevant positions are {0,1}, {0,2} or {1,2}, each with probability 1/3
    two = random_expectation([(3, 2)], permutations=30000, seed=2)
    ideal = 1 + 1 / math.log2(3)
    ndcg = (1 + (1 + 1 / math.log2(4)) / ideal + (1 / math.log2(3) + 1 / math.log2(4)) / ideal) / 3  # 0.8710
    assert two["ndcg@3"]["mean"] == pytest.approx(ndcg, abs=0.005) and two["recall@10"]["mean"] == 1.0
    assert two["mrr"]["mean"] == pytest.approx(2 / 3 + 1 / 6, abs=0.005)
    # nothing relevant: only the length term is left, E[1/L] for L uniform on 1..5
    inverse = (1 + 1 / 2 + 1 / 3 + 1 / 4 + 1 / 5) / 5
    none = random_expectation([(5, 0)], permutations=30000, seed=3)
    assert none["lar"]["mean"] == pytest.approx(inverse / 2, abs=0.005) and none["mrr"]["mean"] == 0.0
    assert none["olar"]["mean"] == pytest.approx(inverse / 2.0499, abs=0.005)
    assert random_expectation([]) == {}


def test_correlations_by_hand() -> None:
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert pearson([1, 2, 3], [1, 2, 4]) == pytest.approx(3 / math.sqrt(2 * (14 / 3)))  # 0.9820
    assert pearson([1, 1], [2, 3]) is None and pearson([1], [2]) is None
    assert average_ranks([10, 20, 20, 5]) == [2.0, 3.5, 3.5, 1.0]
    assert spearman([1, 2, 3, 4], [10, 20, 20, 5]) == pytest.approx(pearson([1, 2, 3, 4], [2, 3.5, 3.5, 1]))
    # pairs: (1,2)+ (1,3)+ (1,4)- (2,3) tie in y (2,4)- (3,4)-: C=2 D=3, ties_y=1: tau_b = -1/sqrt(6*5)
    assert kendall_tau_b([1, 2, 3, 4], [10, 20, 20, 5]) == pytest.approx(-1 / math.sqrt(30))
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0) and kendall_tau_b([1, 1], [1, 2]) is None
    # a pair tied on both sides is a tie in x and in y: tau_b = 2 / sqrt((3 - 1) (3 - 1)) = 1
    assert kendall_tau_b([1, 1, 2], [3, 3, 4]) == pytest.approx(1.0)
    assert pearson([0, 0.5], [0, 1]) == pytest.approx(1.0)  # a small spread is still a spread


def test_the_track_is_part_of_the_package_api() -> None:
    import clarq_bench
    from clarq_bench import api

    assert clarq_bench.select is api.select and clarq_bench.select_online_offline is api.select_online_offline
    assert clarq_bench.question_bank is api.question_bank
