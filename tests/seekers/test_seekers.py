"""Seeker registry, name resolution and the shipped seekers (no-question, oracle, heuristic, replay, llm, human)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from runner_helpers import TreeWalkingProvider, make_task
from upstream_paths import UPSTREAM_RESULTS, needs_upstream

from clarq_bench.core.errors import ClarqError
from clarq_bench.core.prompts import PROMPT_ROOT
from clarq_bench.core.tasks import Task
from clarq_bench.core.transcript import Speaker
from clarq_bench.runner.dialogue import is_goodbye, play_dialogue
from clarq_bench.seekers import SeekerConfig, SeekerTask, build_seeker, register_seeker, seekers
from clarq_bench.seekers.baselines import option_groups, restrictions
from clarq_bench.seekers.oracle import oracle_path
from clarq_bench.seekers.registry import describe, looks_like_model, resolve_seeker

COMP_EN = UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json"


def seeker_lines(transcript: Any) -> list[str]:
    return [turn.text for turn in transcript.seeker_turns]


async def play(name: str, task: Task | None = None, **config: Any) -> Any:
    task = task or make_task()
    seeker = build_seeker(name, task, SeekerConfig(name=name, **config))
    return await play_dialogue(task, seeker, TreeWalkingProvider(task))


def test_shipped_seekers_are_registered() -> None:
    assert {"llm", "no-question", "oracle", "heuristic", "replay", "human"} <= set(seekers.names())


@pytest.mark.parametrize(
    "name",
    [
        "gpt-4o",
        "gpt-4o-2024-05-13",
        "openai/gpt-4o",
        "claude-3-5-sonnet",
        "o3-mini",
        "bedrock/meta.llama3-1-405b-instruct-v1:0",
        "scripted/echo",
        "qwen2.5-72b",
    ],
)
def test_model_like_names_mean_the_llm_seeker(name: str) -> None:
    assert looks_like_model(name)
    spec = resolve_seeker(SeekerConfig(name=name))
    assert spec.factory is seekers.get("llm") and spec.config.model == name
    assert (spec.name, spec.model) == describe(SeekerConfig(name=name)) == ("llm", name)


@pytest.mark.parametrize("name", ["heuristc", "my-seeker", "oracles"])
def test_unknown_seeker_is_one_clear_error(name: str) -> None:
    assert not looks_like_model(name)
    with pytest.raises(ClarqError) as caught:
        build_seeker(name, make_task())
    assert f"unknown seeker {name!r}" in str(caught.value) and "known: " in str(caught.value)
    assert "heuristic" in str(caught.value)


def test_custom_seeker_by_decorator_and_by_import_path_sees_no_tree() -> None:
    seen: list[Any] = []

    @register_seeker("test-echo-once")
    class Echo:
        """Asks one thing."""

        def __init__(self, task: Any, config: SeekerConfig) -> None:
            seen.append(task)

        async def respond(self, view: Any) -> str:
            return "goodbye"

    build_seeker("test-echo-once", make_task())
    build_seeker("runner_helpers:ScriptedSeeker", make_task())
    assert isinstance(seen[0], SeekerTask) and not hasattr(seen[0], "tree")
    with pytest.raises(ClarqError, match="already registered"):
        register_seeker("test-echo-once")(Echo)


def test_factories_may_take_fewer_arguments() -> None:
    class NoArgs:
        async def respond(self, view: Any) -> str:
            return "goodbye"

    seekers.add("test-no-args", NoArgs)
    assert isinstance(build_seeker("test-no-args", make_task()), NoArgs)


async def test_no_question_states_goal_then_goodbye() -> None:
    lines = seeker_lines(await play("no-question"))
    assert len(lines) == 2 and "collect rubies" in lines[0] and is_goodbye(lines[1])


async def test_oracle_asks_one_question_per_node_along_the_human_path() -> None:
    task = make_task()
    assert oracle_path(task) == ["1", "1.1", "2"]
    transcript = await play("oracle", task)
    assert len(transcript.seeker_turns) == 1 + 3 + 1
    revealed = [turn.revealed for turn in transcript.provider_turns[2:]]
    assert revealed == [["1"], ["1.1"], ["2"]]
    assert "noticed the monsters" in seeker_lines(transcript)[1]
    texts = seeker_lines(await play("oracle", task, options={"oracle_source": "text"}))
    assert "Stun the monsters first" in texts[1] and "?" in texts[1]


def test_heuristic_reads_options_and_restrictions_from_the_brief() -> None:
    task = make_task()
    groups = option_groups(task.brief.scenes, "en")
    assert groups == [["West Mine", "North Mine"], ["Mist Forest", "Fantasy Forest"]]
    assert option_groups(task.brief.skills, "en") == [["Summon the excavator to dig", "Summon the small shovel to dig"]]
    assert restrictions(task.brief.scenes) == [(["West Mine", "North Mine"], "monsters guard it")]
    assert option_groups(("西矿山（有怪物）", "北矿山", "迷雾森林", "玄幻森林", "码头"), "zh") == [
        ["西矿山", "北矿山"],
        ["迷雾森林", "玄幻森林"],
    ]


async def test_heuristic_follows_answers_asks_choices_and_stops() -> None:
    transcript = await play("heuristic")
    lines = seeker_lines(transcript)
    assert transcript.end_reason.value == "goodbye" and len(lines) <= 12
    assert any("West or North" in line for line in lines)
    assert not any("Go to the mine and dig for rubies" in line for line in lines)  # never quotes the provider
    assert len(set(lines)) == len(lines)  # each question once
    again = seeker_lines(await play("heuristic"))
    assert again == lines  # deterministic
    short = seeker_lines(await play("heuristic", max_questions=2))
    assert len(short) == 4 and is_goodbye(short[-1])


async def test_replay_from_our_transcripts_picks_task_and_trial(tmp_path: Path) -> None:
    task = make_task()
    recorded = tmp_path / "transcripts.jsonl"
    with recorded.open("w", encoding="utf-8") as out:
        for trial, lines in ((0, "How?|Which mine?"), (1, "What now?")):
            seeker = build_seeker(
                "runner_helpers:ScriptedSeeker", task, SeekerConfig(name="x", options={"lines": lines})
            )
            played = await play_dialogue(task, seeker, TreeWalkingProvider(task), trial=trial)
            out.write(played.model_dump_json() + "\n")
        out.write('{"task_id": "en/01/0", "tri')  # partial line of an interrupted run
    config = SeekerConfig(name="replay", replay=str(recorded))
    replay = build_seeker("replay", task, config)
    again = await play_dialogue(task, replay, TreeWalkingProvider(task), trial=1)
    assert seeker_lines(again) == ["What now?", "Thanks. Goodbye!"]
    with pytest.raises(ClarqError, match="no dialogue for task en/01/5"):
        build_seeker("replay", make_task(index=5), config)
    with pytest.raises(ClarqError, match="needs a file"):
        build_seeker("replay", task)


@needs_upstream
async def test_replay_of_a_released_results_file_says_the_released_seeker_lines() -> None:
    from clarq_bench.data.upstream import load_released_dialogues

    released = load_released_dialogues(COMP_EN)[0]
    seeker = build_seeker("replay", released.task, SeekerConfig(name="replay", replay=str(COMP_EN)))
    transcript = await play_dialogue(released.task, seeker, TreeWalkingProvider(released.task), max_turns=30)
    assert (
        seeker_lines(transcript)[: len(released.seeker_lines)] == released.seeker_lines[: len(transcript.seeker_turns)]
    )
    assert seeker_lines(transcript)[0] == released.seeker_lines[0]


class RecordingClient:
    """Stands in for LLMClient: records each call and answers from a list."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies
        self.calls: list[dict[str, Any]] = []

    async def complete(self, messages: list[dict[str, str]], **kwargs: Any) -> Any:
        self.calls.append({"messages": messages, **kwargs})
        return SimpleNamespace(text=self.replies[len(self.calls) - 1])


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_llm_seeker_completion_mode_one_user_message(language: str) -> None:
    task = make_task(language=language)
    client = RecordingClient(["You: How do I start?", "Which mine? Goodbye"])
    seeker = build_seeker("gpt-4o", task, SeekerConfig(name="gpt-4o", client=client))
    transcript = await play_dialogue(task, seeker, TreeWalkingProvider(task), trial=1, seed=8849)
    assert seeker_lines(transcript)[0] == "How do I start?"  # speaker label dropped
    second = client.calls[1]
    assert second["model"] == "gpt-4o" and second["role"] == "seeker"
    assert (second["seed"], second["trial"], second["temperature"]) == (8849, 1, 0.0)
    [message] = second["messages"]
    assert message["role"] == "user"
    for text in ("collect rubies", "West Mine", "what can help you?", "How do I start?", task.tree.root.text):
        assert text in message["content"]


async def test_llm_seeker_chat_mode_roles() -> None:
    task = make_task()
    client = RecordingClient(["How do I start?", "goodbye"])
    seeker = build_seeker("llm", task, SeekerConfig(name="llm", model="scripted/x", mode="chat", client=client))
    await play_dialogue(task, seeker, TreeWalkingProvider(task))
    messages = client.calls[1]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert "collect rubies" in messages[0]["content"] and messages[3]["content"] == task.tree.root.text


def test_llm_seeker_needs_model_and_client() -> None:
    with pytest.raises(ClarqError, match="needs a model"):
        build_seeker("llm", make_task(), SeekerConfig(name="llm", client=object()))
    with pytest.raises(ClarqError, match="needs an LLM client"):
        build_seeker("gpt-4o", make_task())


async def test_human_seeker_reads_lines_and_shows_replies() -> None:
    from clarq_bench.seekers.human import HumanSeeker

    typed = iter(["", "How do I collect rubies?", "goodbye"])
    shown: list[str] = []
    task = make_task()
    seeker = HumanSeeker(SeekerTask.of(task), ask=lambda prompt: next(typed), show=shown.append)
    transcript = await play_dialogue(task, seeker, TreeWalkingProvider(task))
    assert seeker_lines(transcript) == ["How do I collect rubies?", "goodbye"]
    assert any(task.tree.root.text in line for line in shown)
    assert not any("Stun the monsters" in line for line in shown)  # never the tree


def test_every_seeker_template_exists_in_both_languages() -> None:
    folder = PROMPT_ROOT / "seeker"
    names = {path.name.split(".")[0] for path in folder.glob("*.md")}
    assert {"brief", "completion", "chat_system", "open", "goodbye", "choose", "use_item", "oracle"} <= names
    for name in names:
        for language in ("en", "zh"):
            assert (folder / f"{name}.{language}.md").is_file(), f"{name}.{language}.md missing"
    assert "goodbye" in (folder / "goodbye.en.md").read_text().lower()
    assert "再见" in (folder / "goodbye.zh.md").read_text()


def test_replay_reads_only_seeker_turns(tmp_path: Path) -> None:
    line = json.dumps(
        {
            "task_id": "en/01/0",
            "trial": 0,
            "language": "en",
            "turns": [{"speaker": "provider", "text": "hi"}, {"speaker": "seeker", "text": "q1"}],
        }
    )
    path = tmp_path / "transcripts.jsonl"
    path.write_text(line + "\n" + "not json\n", encoding="utf-8")
    from clarq_bench.core.errors import DataError
    from clarq_bench.seekers.replay import recorded_seeker_turns

    with pytest.raises(DataError, match=r"line 2|record 2"):
        recorded_seeker_turns(path)
    path.write_text(line + "\n", encoding="utf-8")
    assert recorded_seeker_turns(path) == {("en/01/0", 0): ["q1"]}
    assert Speaker.seeker.value == "seeker"
