"""The judge: node outcomes, claim checks, root finding, turn labels and the injected LLM check."""

from __future__ import annotations

import pytest
from scoring_helpers import (
    CAVE,
    GREETING,
    ROOT,
    SILK,
    TORCH,
    make_task,
    make_transcript,
    perfect_turns,
    provider,
    seeker,
)

from clarq_bench.core.transcript import EndReason, Intent, ReplyKind
from clarq_bench.scoring.judge import NodeStatus, TurnLabel, is_goodbye, judge, judge_deterministic


def test_perfect_dialogue_obtains_every_node_and_says_how():
    task = make_task()
    verdict = judge_deterministic(make_transcript(task, perfect_turns()), task)
    assert verdict.success
    assert [(n.node_id, n.status) for n in verdict.nodes] == [
        ("1", NodeStatus.exact),  # "Jax: " stripped
        ("1.1", NodeStatus.substring),  # inside a longer turn, trailing punctuation differs
        ("2", NodeStatus.exact),  # upper-cased: English compares lower-cased
    ]
    assert [n.turn for n in verdict.nodes] == [4, 6, 8]
    assert verdict.root_turn == 2
    assert [t.label for t in verdict.seeker_turns] == [
        TurnLabel.opening,
        TurnLabel.obtained,
        TurnLabel.obtained,
        TurnLabel.obtained,
        TurnLabel.goodbye,
    ]
    assert [t.nodes for t in verdict.seeker_turns] == [[], ["1"], ["1.1"], ["2"], []]
    assert verdict.unverified_claims == []


def test_claim_without_the_text_is_claimed_but_absent():
    task = make_task()
    turns = perfect_turns()
    turns[8] = provider("Wrap it in something soft.", ReplyKind.response_i, Intent.answerable, ["2"])
    verdict = judge_deterministic(make_transcript(task, turns), task)
    assert not verdict.success
    assert verdict.nodes[2].status == NodeStatus.claimed_absent
    assert verdict.nodes[2].claimed_turn == 8
    assert [(c.turn, c.node_id) for c in verdict.unverified_claims] == [(8, "2")]
    # a claim is not an obtained node, so the question is labelled by the recorded intent
    assert verdict.seeker_turns[3].label == TurnLabel.unanswered


def test_node_text_before_the_root_does_not_count():
    task = make_task()
    turns = [
        provider(GREETING, ReplyKind.greeting),
        seeker("Nice weather."),
        provider(CAVE, ReplyKind.off_topic),  # pretend the off-topic reply leaked a node
        seeker("I need the gem."),
        provider(ROOT, ReplyKind.root),
        seeker("bye"),
    ]
    verdict = judge_deterministic(make_transcript(task, turns), task)
    assert verdict.nodes[0].status == NodeStatus.missing
    assert [t.label for t in verdict.seeker_turns] == [TurnLabel.unrelated, TurnLabel.opening, TurnLabel.no_reply]
    assert verdict.queries_after_root == 1


def test_root_found_without_recorded_kinds():
    task = make_task()
    turns = [t.model_copy(update={"kind": None, "intent": None}) for t in perfect_turns()]
    verdict = judge_deterministic(make_transcript(task, turns), task)
    assert verdict.root_turn == 2
    assert verdict.success
    assert verdict.seeker_turns[0].label == TurnLabel.opening


def test_labels_from_intents_and_from_text():
    task = make_task()
    turns = [
        provider(GREETING, ReplyKind.greeting),
        seeker("I need the gem."),
        provider(ROOT, ReplyKind.root),
        seeker("Where is the cave?"),
        provider(CAVE, ReplyKind.response_i, Intent.answerable, ["1"]),
        seeker("Where was the cave again?"),
        provider(f"As I said: {CAVE}", ReplyKind.response_ii, Intent.repeat),
        seeker("Anything else?"),
        provider("Not really, you are fine.", ReplyKind.response_ii, Intent.vague),
        seeker("Do you like football?"),
        provider("That is not related.", ReplyKind.response_ii, Intent.unrelated),
        seeker("So I go to the cave and take the gem, right?"),
        provider("Right.", ReplyKind.response_ii, Intent.confirm_task),
        seeker("Cave again, where?"),
        provider(f"Still: {CAVE}"),  # nothing recorded: the text repeats an obtained node
        seeker("Hmm."),
        provider("Take your time."),  # nothing recorded, no node text
    ]
    verdict = judge_deterministic(make_transcript(task, turns, end=EndReason.turn_cap), task)
    assert [t.label for t in verdict.seeker_turns] == [
        TurnLabel.opening,
        TurnLabel.obtained,
        TurnLabel.redundant,
        TurnLabel.vague,
        TurnLabel.unrelated,
        TurnLabel.summary,
        TurnLabel.redundant,
        TurnLabel.unclassified,
    ]


def test_goodbye_is_case_insensitive_and_word_bounded():
    assert is_goodbye("Thanks, goodbye!")
    assert is_goodbye("GOOD-BYE")
    assert is_goodbye("谢谢，再见。")
    assert not is_goodbye("goodbyes are hard")


def test_transcript_and_task_must_match():
    with pytest.raises(ValueError):
        judge_deterministic(make_transcript(make_task(index=1), perfect_turns()), make_task(index=0))


def _missing_silk_turns():
    turns = perfect_turns()
    turns[8] = provider("Wrap it in a silk cloth.", ReplyKind.response_i, Intent.answerable, ["2"])
    return turns


async def test_scripted_check_rescues_exactly_the_chosen_node():
    task = make_task()
    transcript = make_transcript(task, _missing_silk_turns())
    calls = []

    async def check(node_text: str, candidates: list[str], language: str) -> bool:
        calls.append((node_text, candidates, language))
        return node_text == SILK

    verdict = await judge(transcript, task, check, judge_name="scripted")
    assert verdict.success and verdict.judge == "scripted"
    assert verdict.nodes[2].status == NodeStatus.llm
    # only the leftover node is checked, against the one post-root turn that carried no node text
    assert calls == [(SILK, ["Wrap it in a silk cloth."], "en")]


async def test_check_answering_no_leaves_the_verdict_failed_and_none_skips_it():
    task = make_task()
    transcript = make_transcript(task, _missing_silk_turns())

    async def never(node_text: str, candidates: list[str], language: str) -> bool:
        return False

    assert not (await judge(transcript, task, never)).success
    deterministic = await judge(transcript, task, None)
    assert deterministic.judge == "none" and deterministic.nodes[2].status == NodeStatus.claimed_absent


async def test_check_is_not_called_without_candidates():
    task = make_task()
    turns = perfect_turns()[:3] + [seeker("Goodbye")]

    async def explode(*_: object) -> bool:
        raise AssertionError("no candidate turns: no call expected")

    verdict = await judge(make_transcript(task, turns), task, explode)
    assert [n.status for n in verdict.nodes] == [NodeStatus.missing] * 3


def test_torch_substring_uses_trailing_punctuation_rule():
    task = make_task()
    turns = perfect_turns()
    turns[6] = provider(f"{TORCH[:-1]} and a rope.", ReplyKind.response_i)
    verdict = judge_deterministic(make_transcript(task, turns), task)
    assert verdict.nodes[1].status == NodeStatus.substring
