"""A task's readers are built once per task content and shared (prepared.py), and a present brief phrase is taken out
by a plain search (lexical.replace_folded): both give exactly what the per-provider build and the pattern give."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from test_provider_offline import EN_NODES, ZH_NODES, dialogue, make_task

from clarq_bench.provider.focus import FocusIndex
from clarq_bench.provider.lexical import TaskIndex, absent_phrase, lowered_for_search, phrase_form, replace_folded
from clarq_bench.provider.offline.provider import OfflineProvider
from clarq_bench.provider.prepared import prepared
from clarq_bench.provider.screen import TurnScreen

PHRASES = ["North Mine", "north mine", "mine", "D1电脑电池", "龙息湖", "K2", "sky", "Isle", "3号", "a", "Café"]
TEXTS = [
    "Where is the NORTH MINE? Or the North Mine, or north minE?",
    "the mine of mines: minemine",
    "去d1电脑电池店，D1电脑电池",
    "去龙息湖吗龙息湖",
    "the \u212a2 peak",  # (KELVIN SIGN: folds to k, so no plain search is exact)
    "\u0130sle or \u0131sle",
    "3号仓库 3号",
    "",
]


def _pattern_sub(phrase: str, text: str, mark: str) -> str:
    return re.compile(re.escape(phrase), re.IGNORECASE).sub(mark, text)


def test_replace_folded_is_the_case_blind_pattern_where_absent_phrase_is_exact() -> None:
    compared = 0
    for phrase, text in itertools.product(PHRASES, TEXTS):
        lowered, folded = lowered_for_search(text), phrase_form(phrase)[0]
        if lowered is None or not folded or absent_phrase(phrase, text, lowered):
            continue  # (read by the pattern itself)
        compared += 1
        assert replace_folded(text, lowered, folded, " , ") == _pattern_sub(phrase, text, " , "), (phrase, text)
    assert compared >= 6


def test_replace_folded_agrees_with_the_pattern_on_generated_texts() -> None:
    rng = random.Random(7)
    letters = list("abAB c.,'-") + ["é", "É", "ß", "σ", "Σ", "东", "方", "\u0131", "\u017f"]
    compared = 0
    for _ in range(4000):
        phrase = "".join(rng.choice("abAB c") for _ in range(rng.randint(1, 3))).strip() or "a"
        parts = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 6))) for _ in range(3)]
        variant = "".join(ch.upper() if rng.random() < 0.5 else ch for ch in phrase)
        text = parts[0] + variant + parts[1] + phrase + parts[2]
        lowered, folded = lowered_for_search(text), phrase_form(phrase)[0]
        if lowered is None or not folded or absent_phrase(phrase, text, lowered):
            continue
        compared += 1
        assert replace_folded(text, lowered, folded, "，") == _pattern_sub(phrase, text, "，"), (phrase, text)
    assert compared > 1000


def test_providers_of_the_same_task_content_share_its_readers_and_others_do_not() -> None:
    first, again = make_task("en", EN_NODES), make_task("en", EN_NODES)
    assert first is not again
    shared = prepared(first)
    assert prepared(again) is shared
    assert OfflineProvider(again).focus is shared.focus
    other = make_task("en", [*EN_NODES[:3], ("2", "Go to the West Mine.", EN_NODES[3][2])])
    assert prepared(other).focus is not shared.focus
    assert prepared(make_task("zh", ZH_NODES)).matcher is not shared.matcher


@pytest.mark.parametrize(("language", "nodes"), [("en", EN_NODES), ("zh", ZH_NODES)])
def test_a_shared_reader_decides_as_a_provider_built_alone(language: str, nodes) -> None:
    asks = (
        ["Which mine has rubies?", "How do I enter the mine?", "How do I stun the monsters?", "Any tips?"]
        if language == "en"
        else ["我应该去哪个山脉挖胡萝卜？", "去哪个山脉的高处制造烟雾？", "还有什么？"]
    )
    task = make_task(language, nodes)
    alone = OfflineProvider(task)
    alone.index = TaskIndex(task.tree, task.language)
    alone.screen, alone.focus = TurnScreen(task), FocusIndex(task, alone.index)
    assert alone.focus is not prepared(task).focus
    shared = [OfflineProvider(make_task(language, nodes)) for _ in range(2)]
    opening = "I need help with the task." if language == "en" else "我需要帮助完成任务。"
    root = alone.decide(dialogue((opening, None)))
    assert root.revealed == ["0"]
    revealed = 0
    for ask in asks:
        turns = dialogue((opening, root), (ask, None))
        reply = alone.decide(turns)
        revealed += bool(reply.revealed)
        for provider in shared:
            assert provider.decide(turns) == reply
    assert revealed  # (a real comparison: some asks reveal a node)
