"""The rule catalogue drives these tests: every rule's example fires it, and its counter-example does not."""

from __future__ import annotations

import pytest

from clarq_bench.core.tasks import ROOT_ID
from clarq_bench.core.transcript import ReplyKind, Speaker, Turn
from clarq_bench.data.loader import SAMPLE_TASKS, load_tasks
from clarq_bench.provider.catalogue import RULES, SCREEN_RULES, example, named
from clarq_bench.provider.offline.provider import OfflineProvider
from clarq_bench.provider.screen import Verdict

TASKS = {task.id: task for task in load_tasks(SAMPLE_TASKS, ("en", "zh"), split=None)}


def play(rule_task: str, history: tuple[str, ...], text: str) -> dict[str, object]:
    """The notes of the offline provider's reply to `text`, asked after the root and the `history` questions."""
    task = TASKS[rule_task]
    provider = OfflineProvider(task)
    turns = [
        provider.greeting().to_turn(),
        Turn(speaker=Speaker.seeker, text="How do I do it?"),
        Turn(speaker=Speaker.provider, text=task.tree.root.text, kind=ReplyKind.root, revealed=[ROOT_ID]),
    ]
    for question in history:
        turns.append(Turn(speaker=Speaker.seeker, text=question))
        turns.append(provider.decide(turns).to_turn())
    turns.append(Turn(speaker=Speaker.seeker, text=text))
    return provider.decide(turns).notes


@pytest.mark.parametrize("rule", RULES, ids=[rule.id for rule in RULES])
def test_the_example_fires_its_rule_and_the_counter_example_does_not(rule) -> None:
    assert rule.id in named(play(rule.task, rule.history, example(rule, fires=True)))
    assert rule.id not in named(play(rule.task, rule.history, example(rule, fires=False)))


def test_ids_are_unique_and_every_screen_verdict_has_a_rule() -> None:
    assert len({rule.id for rule in RULES}) == len(RULES)
    assert set(SCREEN_RULES) == set(Verdict)
    assert set(SCREEN_RULES.values()) <= {rule.id for rule in RULES}


def test_every_reading_rule_the_reader_can_name_is_in_the_catalogue() -> None:
    import inspect
    import re

    from clarq_bench.provider import answering, focus

    source = inspect.getsource(focus) + inspect.getsource(answering)
    used = set(re.findall(r'"([RL]\d{3})"', source))
    assert used <= {rule.id for rule in RULES}


def test_the_same_words_asked_with_another_question_word_are_no_repeat() -> None:
    """S008 needs the same question again: "Which wick?" answered, "How do I fit the wick?" asks something new."""
    history = ("Which wick should I fit?",)
    assert "S008" in named(play("en/01/0", history, "Which wick should I fit?"))
    assert "S008" not in named(play("en/01/0", history, "How should I fit the wick?"))


def test_a_detail_asked_of_a_thing_the_brief_names_is_read_by_the_detail_rule() -> None:
    """R105: the thing whose detail is missing may be named by one of the brief's names (the island's lighthouse)."""
    assert play("en/01/1", (), "How do I get to Rock Island Lighthouse?").get("rules") == {"1": "R105"}
    # two names offered ask a choice between them, not the detail of either (a walker of option pairs gains nothing)
    assert "R105" not in named(play("en/01/1", (), "How do I get to Rock Island Lighthouse or the Boat Jetty?"))
