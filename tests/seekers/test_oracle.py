"""The oracle (seekers/oracle.py) is the ceiling: it asks about the first node of the human path it has not obtained,
rephrases when a question got nothing, never says a node's text, and stops when it has everything or nothing left to
ask. A question that got another node than the one it was written for costs a turn, not the dialogue."""

from __future__ import annotations

import pytest

from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import ReplyKind, Speaker, Turn
from clarq_bench.data.textmatch import carries_node
from clarq_bench.seekers.base import DialogueView
from clarq_bench.seekers.baselines import goodbye
from clarq_bench.seekers.oracle import OracleSeeker, listed_choice, oracle_candidates

NODES = [
    ("0", "Meet Henry at the castle and give him a gem.", None),
    (
        "1",
        "Henry wants the starlight gem.",
        "There are three gems in the backpack (Starlight Gem, Moon Gem, Sun Gem). The previous response did not specify "
        "which gem to give. This response addresses the question of which gem Henry wants. Note: Use this response only "
        "if the other party has noticed the lack of information on which gem to give.",
    ),
    (
        "2",
        "Henry waits at the Frost Castle.",
        "There are multiple castles in the game scenario, and the previous response did not specify which castle to go "
        "to. Note: Use this response only if the other party has noticed that there are multiple castles and is unsure "
        "which one to go to.",
    ),
]
BRIEF = TaskBrief(
    role="adventurer",
    task_name="trading with Henry",
    items=("Starlight Gem", "Moon Gem", "Sun Gem"),
    scenes=("Frost Castle", "Dawn Castle"),
    background="Trade with Henry.",
)


def task() -> Task:
    return Task(
        id="en/14/0",
        language="en",
        type_number=14,
        type_name="Trade",
        index=0,
        split=Split.test,
        brief=BRIEF,
        tree=ResponseTree.build(NODES),
    )


def view(*exchanges: tuple[str, str | None]) -> DialogueView:
    """The greeting, then (seeker, Jax) exchanges; Jax None: a reply that reveals nothing."""
    turns = [Turn(speaker=Speaker.provider, text="what can help you?", kind=ReplyKind.greeting)]
    for seeker, jax in exchanges:
        turns.append(Turn(speaker=Speaker.seeker, text=seeker))
        turns.append(
            Turn(
                speaker=Speaker.provider,
                text=jax or "Ask me something specific.",
                kind=ReplyKind.response_i if jax else ReplyKind.response_ii,
            )
        )
    return DialogueView(task_id="en/14/0", language="en", brief=BRIEF, turns=tuple(turns))


@pytest.mark.asyncio
async def test_the_oracle_rephrases_a_refused_question_and_goes_on_when_answered() -> None:
    oracle = OracleSeeker(task())
    opening = await oracle.respond(view())
    first = await oracle.respond(view((opening, NODES[0][1])))
    again = await oracle.respond(view((opening, NODES[0][1]), (first, None)))
    assert again != first  # refused: the same node, another phrasing
    assert again in oracle_candidates(task(), "1", choice=True)
    # A question that got node 2 instead: the oracle still asks node 1 next, and never node 2 again.
    after_other = await oracle.respond(view((opening, NODES[0][1]), (first, NODES[2][1])))
    assert after_other in oracle_candidates(task(), "1", choice=True) and after_other != first
    done = await oracle.respond(view((opening, NODES[0][1]), (first, NODES[1][1]), ("x", NODES[2][1])))
    assert done == goodbye("en")


@pytest.mark.asyncio
async def test_the_oracle_stops_when_no_phrasing_is_left() -> None:
    oracle = OracleSeeker(task())
    exchanges: list[tuple[str, str | None]] = [(await oracle.respond(view()), NODES[0][1])]
    asked = []
    for _ in range(10):
        text = await oracle.respond(view(*exchanges))
        if text == goodbye("en"):
            break
        asked.append(text)
        exchanges.append((text, None))
    assert asked and len(asked) == len(set(asked))  # each phrasing once, then goodbye
    assert len(asked) < 10


def test_the_oracle_offers_the_options_the_explanation_or_the_brief_lists_and_never_a_node_text() -> None:
    assert listed_choice(task(), NODES[1][2]) == ["Starlight Gem", "Moon Gem", "Sun Gem"]
    assert listed_choice(task(), NODES[2][2]) == ["Frost Castle", "Dawn Castle"]  # "multiple castles": the brief's
    for node_id in ("1", "2"):
        for question in oracle_candidates(task(), node_id, choice=True):
            assert not carries_node(question, task().tree[node_id].text, "en")
