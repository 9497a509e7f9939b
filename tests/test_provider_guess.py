"""Guessing the answer is not asking for it (provider/guess.py): a turn that names the option a choice node settles,
none of its competitors and not the kind itself, and has no "which"/"where", does not reveal that node; every way
of actually asking the choice still does."""

from __future__ import annotations

import pytest

from clarq_bench.core.transcript import ReplyKind
from clarq_bench.provider.guess import GuessCheck
from clarq_bench.provider.offline import OfflineProvider

from test_provider_screen import after_root, make_task

FRONTIER = ["1.1", "2"]


def test_choice_nodes_are_those_naming_one_option_with_competitors_of_its_kind() -> None:
    # "1" names the Starlight Gem: no other "gem" is listed in English (Sapphire is its own kind), while in Chinese
    # 蓝宝石 shares the head 宝石; "2" names two listed options (fire magic, North Gate): which it settles is unclear.
    assert set(GuessCheck(make_task("en")).choices) == {"1.1"}
    assert set(GuessCheck(make_task("zh")).choices) == {"1", "1.1"}
    answer, competitors = GuessCheck(make_task("en")).choices["1.1"]
    assert answer.name == "Mystery Tavern" and {c.name for c in competitors} == {"Forest Tavern", "Riverside Tavern"}


@pytest.mark.parametrize(("language", "turn", "guessed"), [
    ("en", "How do I use the Mystery Tavern?", {"1.1"}),
    ("en", "What should I do with the Mystery Tavern?", {"1.1"}),
    ("en", "What should I do with the North Gate?", set()),
    ("en", "Which tavern is Henry at?", set()),
    ("en", "Where is the Mystery Tavern?", set()),  # "where" asks a place: a question, not a bet
    ("en", "Is it the Mystery Tavern or the Forest Tavern?", set()),  # names a competitor: a real choice
    ("en", "There are several taverns; is the Mystery Tavern the right one?", set()),  # names the kind itself
    ("zh", "我该怎么用神秘酒馆？", {"1.1"}),
    ("zh", "亨利在哪个酒馆？", set()),
    ("zh", "是神秘酒馆还是森林酒馆？", set()),
    ("zh", "有好几个酒馆，神秘酒馆对吗？", set()),
])  # fmt: skip
def test_guesses(language: str, turn: str, guessed: set[str]) -> None:
    assert GuessCheck(make_task(language)).guesses(turn, FRONTIER) == guessed


def test_a_node_outside_the_frontier_is_never_reported() -> None:
    assert GuessCheck(make_task("en")).guesses("How do I use the Mystery Tavern?", ["2"]) == set()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_offline_provider_answers_the_choice_and_not_the_bet(language: str) -> None:
    task = make_task(language)
    provider = OfflineProvider(task)
    found = {"en": ("Henry needs which gem?", "1"), "zh": ("亨利需要哪种宝石？", "1")}[language]
    bet = {"en": "How do I use the Mystery Tavern?", "zh": "我该怎么用神秘酒馆？"}[language]
    ask = {"en": "There are several taverns: which tavern is Henry at, the Mystery Tavern?",
           "zh": "有好几个酒馆，亨利在哪个酒馆？神秘酒馆吗？"}[language]  # fmt: skip
    turn = provider.decide(after_root(task, found, last=bet))
    assert "1.1" not in turn.revealed
    turn = provider.decide(after_root(task, found, last=ask))
    assert turn.kind == ReplyKind.response_i and turn.revealed == ["1.1"]


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_the_llm_provider_does_not_reveal_a_bet_whatever_the_model_decides(language: str) -> None:
    from test_provider_screen import Recorder, llm_provider

    decision = {"intent": 2, "node_ids": ["1.1"], "summary_confirmation": False, "rationale": "they named it"}
    task = make_task(language)
    found = {"en": ("Henry needs which gem?", "1"), "zh": ("亨利需要哪种宝石？", "1")}[language]
    bet = {"en": "How do I use the Mystery Tavern?", "zh": "我该怎么用神秘酒馆？"}[language]
    recorder = Recorder(decision, "Keep going, you are on the right track.")
    turn = await llm_provider(language, recorder).respond(after_root(task, found, last=bet))
    assert turn.revealed == [] and turn.kind == ReplyKind.response_ii and turn.notes["guessed_ids"] == ["1.1"]
    ask = {"en": "Which tavern is Henry at?", "zh": "亨利在哪个酒馆？"}[language]
    turn = await llm_provider(language, Recorder(decision)).respond(after_root(task, found, last=ask))
    assert turn.revealed == ["1.1"]
