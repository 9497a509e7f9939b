"""The dialogue loop: goodbye rule, turn cap, errors and budget as end reasons, what the seeker is shown."""

from __future__ import annotations

import pytest
from runner_helpers import TreeWalkingProvider, make_task

from clarq_bench.core.run_config import AgentSettings
from clarq_bench.core.transcript import EndReason, ReplyKind, Speaker
from clarq_bench.runner.dialogue import is_goodbye, play_dialogue
from clarq_bench.seekers.base import DialogueView


@pytest.mark.parametrize(
    "text",
    # what the released rule (case-sensitive "Goodbye", 再见 only) missed
    [
        "ok, goodbye",
        "GOODBYE!",
        "good-bye, Jax",
        "Good Bye.",
        "Good - bye",
        "谢谢goodbye",
        "好的Goodbye！",
        "谢谢，再見！",
        "那我们再会了",
        "thanks.goodbye",
    ],
)
def test_goodbyes_the_released_rule_missed(text: str) -> None:
    assert is_goodbye(text)


def test_judge_and_dialogue_share_one_goodbye_rule() -> None:
    from clarq_bench.core import goodbye
    from clarq_bench.scoring import judge

    assert judge.is_goodbye is goodbye.is_goodbye and is_goodbye is goodbye.is_goodbye


@pytest.mark.parametrize(
    "text",
    [
        "goodbye",
        "Goodbye!",
        "GOODBYE.",
        "Thanks Jax, goodbye.",
        "good-bye then",
        "Good bye!",
        "ok... goodbye",
        "谢谢你，再见！",
        "好的，再见",
        "再會",
        "Thanks! Goodbye, Jax",
    ],
)
def test_goodbye_is_seen_in_any_case_and_both_languages(text: str) -> None:
    assert is_goodbye(text)


@pytest.mark.parametrize(
    "text",
    [
        "Goodbyes are hard, but which mine?",
        "a goodbye-party",
        "bye",
        "goodbyeing",
        "Is the good byelaw relevant?",
        "我想再见到他一次，该去哪里？",
        "我们还会再见面吗？",
        "what can help you?",
        "",
        "say-goodbye",
        "goodbye_note",
        "goodbye2",
        "我们再見面吧",
        "再见过他吗？",
    ],
)
def test_no_false_goodbye(text: str) -> None:
    assert not is_goodbye(text)


class ListSeeker:
    """Says its lines in order; records every view it was shown."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.views: list[DialogueView] = []

    async def respond(self, view: DialogueView) -> str:
        self.views.append(view)
        return self.lines[len(self.views) - 1] if len(self.views) <= len(self.lines) else "more?"


async def test_dialogue_alternates_and_ends_on_lowercase_goodbye() -> None:
    task = make_task()
    seeker = ListSeeker(["How do I collect rubies?", "Which mine?", "ok, goodbye"])
    transcript = await play_dialogue(task, seeker, TreeWalkingProvider(task), trial=2, seed=8850)
    speakers = [turn.speaker for turn in transcript.turns]
    assert speakers == [Speaker.provider, Speaker.seeker] * 3
    assert transcript.end_reason == EndReason.goodbye
    assert transcript.turns[0].kind == ReplyKind.greeting
    assert transcript.turns[2].kind == ReplyKind.root and transcript.turns[4].revealed == ["1"]
    assert (transcript.trial, transcript.seed) == (2, 8850)
    assert transcript.key == ("en/01/0", 2) and transcript.task_hash == task.content_hash()
    assert all(view.seed == 8850 and view.trial == 2 for view in seeker.views)


async def test_seeker_sees_text_only_never_provider_annotations() -> None:
    task = make_task()
    seeker = ListSeeker(["How?", "And then?", "goodbye"])
    await play_dialogue(task, seeker, TreeWalkingProvider(task))
    last = seeker.views[-1]
    assert [t.text for t in last.turns][2] == task.tree.root.text
    assert all(t.revealed == [] and t.kind is None and t.intent is None for t in last.turns)
    assert not hasattr(last, "tree")


async def test_turn_cap_counts_seeker_turns_and_last_turn_gets_no_reply() -> None:
    task = make_task()
    transcript = await play_dialogue(task, ListSeeker([]), TreeWalkingProvider(task), max_turns=3)
    assert transcript.end_reason == EndReason.turn_cap
    assert len(transcript.seeker_turns) == 3
    assert transcript.turns[-1].speaker == Speaker.seeker
    assert len(transcript.turns) == 1 + 3 + 2


async def test_default_cap_is_twelve_seeker_turns() -> None:
    task = make_task()
    transcript = await play_dialogue(task, ListSeeker([]), TreeWalkingProvider(task))
    assert len(transcript.seeker_turns) == 12 and len(transcript.turns) == 24


async def test_failing_provider_call_ends_dialogue_with_recorded_error() -> None:
    task = make_task()
    provider = TreeWalkingProvider(task, AgentSettings(name="x", options={"fail_on": 2}))
    transcript = await play_dialogue(task, ListSeeker(["a", "b", "c"]), provider)
    assert transcript.end_reason == EndReason.error
    assert transcript.error == "provider: RuntimeError: provider model failed"
    assert len(transcript.seeker_turns) == 2 and transcript.turns[-1].speaker == Speaker.seeker


async def test_failing_or_bad_seeker_ends_dialogue_with_recorded_error() -> None:
    class Broken:
        async def respond(self, view: DialogueView) -> str:
            raise ValueError("seeker model timed out")

    class NotText:
        async def respond(self, view: DialogueView):  # type: ignore[no-untyped-def]
            return None

    task = make_task()
    broken = await play_dialogue(task, Broken(), TreeWalkingProvider(task))
    assert broken.end_reason == EndReason.error and broken.error == "seeker: ValueError: seeker model timed out"
    assert len(broken.turns) == 1
    wrong = await play_dialogue(task, NotText(), TreeWalkingProvider(task))
    assert wrong.end_reason == EndReason.error and "seeker returned NoneType, not str" in (wrong.error or "")


async def test_budget_ends_dialogue_before_the_next_seeker_turn() -> None:
    task = make_task()
    spent = {"turns": 0}

    class Counting(ListSeeker):
        async def respond(self, view: DialogueView) -> str:
            spent["turns"] += 1
            return await super().respond(view)

    transcript = await play_dialogue(
        task, Counting([]), TreeWalkingProvider(task), budget_exhausted=lambda: spent["turns"] >= 2
    )
    assert transcript.end_reason == EndReason.budget
    assert len(transcript.seeker_turns) == 2


async def test_max_turns_must_be_positive() -> None:
    task = make_task()
    with pytest.raises(ValueError):
        await play_dialogue(task, ListSeeker([]), TreeWalkingProvider(task), max_turns=0)
