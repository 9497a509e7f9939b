"""The anti-gaming guards at both sides of the bounds the README states, in English and Chinese, and the rules that
decide what a seeker obtained, written from the README and the module docs (issue 32), not from the constants:

- a turn longer than any real question: 3,000 characters en, 1,200 zh (README "Providers and their fidelity");
- more separate questions than a person asks: twelve pass, thirteen are read as a spray (screen.py's module doc:
  released seekers ask at most ten);
- one question naming five kinds of thing or more, seven questions each about a name, three short questions that
  each throw in a name: one fewer passes;
- multi-info mode: no more nodes than the things a turn asks (its interrogatives);
- the leakage share counts only the node's distinctive n-grams (those the provider has not already said);
- the judge: a node is obtained only from a provider turn after the root, never from the root turn itself.
"""

from __future__ import annotations

import asyncio

import pytest
from test_provider_screen import PADDED, REAL, after_root, make_task

from clarq_bench.core.transcript import AgentInfo, EndReason, ReplyKind, Speaker, Transcript, Turn
from clarq_bench.provider.asks import MAX_THINGS, count_asks
from clarq_bench.provider.leakage import find_leaks, leak_score, ngrams
from clarq_bench.provider.offline.provider import OfflineProvider
from clarq_bench.provider.screen import Verdict, screen
from clarq_bench.scoring.judge import NodeStatus, judge, judge_deterministic

README_MAX_CHARS = {"en": 3000, "zh": 1200}  # "3,000 characters en, 1,200 zh"


def verdict(language: str, turn: str) -> Verdict | None:
    task = make_task(language)
    return screen(task, after_root(task, last=turn)).verdict


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_real_question_of_exactly_the_readme_length_passes_and_one_more_character_is_too_long(language: str):
    question = REAL[language][0]
    at_bound = question + " " * (README_MAX_CHARS[language] - len(question))
    assert len(at_bound) == README_MAX_CHARS[language]
    assert verdict(language, at_bound) is None
    assert verdict(language, at_bound + " ") == Verdict.too_long


SMALL_QUESTIONS = {
    "en": [
        "Is it far from here?",
        "How long does that take?",
        "Is it dangerous at night?",
        "Do I need help with it?",
        "Can I do it alone?",
        "Should I hurry?",
        "Is there a cost?",
        "Will it rain there?",
        "Is the road open?",
        "Do I need a map?",
        "Can I rest first?",
        "Is it hard to do?",
    ],
    "zh": [
        "离这里远吗？",
        "需要多久？",
        "晚上危险吗？",
        "我需要帮手吗？",
        "我能一个人做吗？",
        "我要赶时间吗？",
        "要花钱吗？",
        "那里会下雨吗？",
        "路通吗？",
        "我需要地图吗？",
        "我能先休息吗？",
        "难做吗？",
    ],
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_questions_up_to_the_bound_of_things_pass_and_one_more_is_one_thing_at_a_time(language: str) -> None:
    """Separate short questions pass while the things they ask stay within what released seekers ask in one turn
    (asks.MAX_THINGS); one more is answered "one thing at a time", and thirteen are refused whichever rule says so."""
    joiner = " " if language == "en" else ""
    asked = [REAL[language][0]]
    for question in SMALL_QUESTIONS[language]:
        if count_asks(joiner.join([*asked, question]), language) > MAX_THINGS[language]:
            break
        asked.append(question)
    assert len(asked) >= 6  # the bound leaves room for a real multi-question turn
    assert verdict(language, joiner.join(asked)) is None
    over = SMALL_QUESTIONS[language][len(asked) - 1]
    assert verdict(language, joiner.join([*asked, over])) == Verdict.one_at_a_time
    thirteen = joiner.join([REAL[language][0], *SMALL_QUESTIONS[language]])
    assert verdict(language, thirteen) in (Verdict.spray, Verdict.one_at_a_time)


#: Five kinds as brief_options.py reads them: gems that share no word are kinds of their own, a skill is another,
#: and every scene is one kind (a place).
KINDS = {
    "en": ["the Starlight Gem", "the Mystery Tavern", "the Agate", "unleash fire magic", "the Diamond"],
    "zh": ["星光宝石", "神秘酒馆", "玛瑙石", "释放火魔法", "钻石"],
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_one_question_naming_four_kinds_passes_and_five_kinds_is_a_spray(language: str) -> None:
    def turn(count: int) -> str:
        if language == "en":
            return "Should I use " + " or ".join(KINDS["en"][:count]) + " to finish the deal with Henry?"
        return "我应该用" + "还是".join(KINDS["zh"][:count]) + "来完成和亨利的交易？"

    assert verdict(language, turn(4)) is None
    assert verdict(language, turn(5)) == Verdict.spray


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_choice_among_every_scene_is_one_kind_and_passes(language: str) -> None:
    """Scenes of five different heads in one question are one choice of where to go, not a spray of five kinds."""
    if language == "en":
        turn = "Where is Henry: the Mystery Tavern, the North Gate, the Town Hall, the Forest Tavern or the South Gate?"
    else:
        turn = "亨利在哪里：神秘酒馆、北城门、市政厅、森林酒馆还是南城门？"
    assert verdict(language, turn) is None
    gems = "Should I bring the Agate, the Diamond, the Sapphire, the Starlight Gem or unleash fire magic?"
    assert language == "zh" or verdict(language, gems) == Verdict.spray  # five kinds that are no places: a spray


@pytest.mark.parametrize("language", ["en", "zh"])
def test_six_questions_each_about_a_name_pass_and_seven_are_a_spray(language: str) -> None:
    joiner = " " if language == "en" else ""
    questions = PADDED[language].split(" How ") if language == "en" else PADDED["zh"].split("？")
    questions = [q if language == "zh" or q.startswith("How ") else "How " + q for q in questions if q]
    questions = [q + "？" if language == "zh" else q for q in questions]
    assert len(questions) == 7
    # six are no spray (each "handle and arrange" asks two things, so the count of things may refuse them: that is
    # the one-thing-at-a-time rule, not this one); seven are refused
    assert verdict(language, joiner.join(questions[:6])) != Verdict.spray
    assert verdict(language, joiner.join(questions)) in (Verdict.spray, Verdict.one_at_a_time)


def test_two_short_questions_throwing_in_a_name_pass_and_three_are_a_spray() -> None:
    short = ["Does the Agate matter?", "And the Diamond?", "Tell me about the Sapphire?"]
    assert verdict("en", " ".join(short[:2])) is None
    assert verdict("en", " ".join(short)) == Verdict.spray


MULTI = {  # (one thing asked though both frontier nodes match it, two things asked)
    "en": (
        "Which gem does Henry need to unleash the fire magic at the gate?",
        "Which gem does Henry need, and at which gate do I unleash the fire magic?",
    ),
    "zh": ("亨利需要的宝石和释放火魔法的城门是哪个？", "亨利需要哪种宝石，我应该在哪个城门释放火魔法？"),
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_multi_info_gives_one_node_per_thing_asked(language: str) -> None:
    task = make_task(language)
    one, two = MULTI[language]
    provider = OfflineProvider(task, multi_info=True)
    asked_once = provider.decide(after_root(task, last=one))
    assert len(asked_once.revealed) == 1 and len([s for s in asked_once.notes["scores"].values() if s > 0.5]) == 2
    assert sorted(provider.decide(after_root(task, last=two)).revealed) == ["1", "2"]


def test_leak_share_counts_only_the_distinctive_ngrams_en() -> None:
    # node 1.1 "Collect fog in the Fantasy Forest." has 4 trigrams; "in the fantasy" and "the fantasy forest" were
    # already said, so 2 are distinctive; the reply carries one of those two and both said ones: a share of 1/2
    node = "Collect fog in the Fantasy Forest."
    said = "Walk in the Fantasy Forest."
    reply = "Collect fog in a jar. It is in the Fantasy Forest."
    assert leak_score(reply, node, ngrams(said, "en"), "en") == (0.5, ["collect fog in"])
    from runner_helpers import make_task as small_task  # its node 1.1 is `node`

    hits = find_leaks(reply, small_task().tree, ["0", "1"], "en", said=[said], threshold=0.4)
    assert [(hit.node_id, hit.score, hit.shared) for hit in hits] == [("1.1", 0.5, ["collect fog in"])]


def test_leak_share_counts_only_the_distinctive_ngrams_zh() -> None:
    # "你可以在神秘酒馆找到亨利" has 10 character trigrams; "神秘酒馆找到" said 4 of them; the reply carries two of the
    # six distinctive ones (你可以, 可以在) and all four said ones: a share of 1/3, over the 0.3 default
    node = "你可以在神秘酒馆找到亨利。"
    said = "神秘酒馆找到"
    reply = "你可以在那里。神秘酒馆找到了。"
    score, shared = leak_score(reply, node, ngrams(said, "zh"), "zh")
    assert score == pytest.approx(1 / 3) and shared == sorted(["你可以", "可以在"])
    task = make_task("zh")  # its node 1.1 is `node`
    assert [hit.node_id for hit in find_leaks(reply, task.tree, ["0", "1"], "zh", said=[said])] == ["1.1"]


def root_carrying_node_1() -> tuple[Transcript, object]:
    """A dialogue whose root reply also carries node 1's text; no later provider turn carries any node."""
    from runner_helpers import make_task as small_task

    task = small_task()
    root = f"{task.tree.root.text} {task.tree['1'].text}"
    turns = [
        Turn(speaker=Speaker.provider, text="what can help you?", kind=ReplyKind.greeting),
        Turn(speaker=Speaker.seeker, text="How do I get rubies?"),
        Turn(speaker=Speaker.provider, text=root, kind=ReplyKind.root, revealed=["0"]),
        Turn(speaker=Speaker.seeker, text="Where are the monsters?"),
        Turn(speaker=Speaker.provider, text="Sorry, I cannot say more.", kind=ReplyKind.response_ii),
        Turn(speaker=Speaker.seeker, text="Thanks. Goodbye!"),
    ]
    transcript = Transcript.of_task(
        task,
        trial=0,
        seed=1,
        turns=turns,
        end_reason=EndReason.goodbye,
        seeker=AgentInfo(name="scripted"),
        provider=AgentInfo(name="offline"),
    )
    return transcript, task


def test_a_node_inside_the_root_reply_is_not_obtained() -> None:
    transcript, task = root_carrying_node_1()
    result = judge_deterministic(transcript, task)
    assert result.root_turn == 2
    assert {node.node_id: node.status for node in result.nodes}["1"] == NodeStatus.missing
    assert result.obtained_count == 0 and not result.success


def test_the_llm_check_never_sees_the_root_reply() -> None:
    transcript, task = root_carrying_node_1()
    seen: list[list[str]] = []

    async def check(node_text: str, candidates: list[str], language: str) -> bool:
        seen.append(candidates)
        return any(node_text in text for text in candidates)

    result = asyncio.run(judge(transcript, task, check))
    assert seen and all(candidates == ["Sorry, I cannot say more."] for candidates in seen)
    assert result.obtained_count == 0
