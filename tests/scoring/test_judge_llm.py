"""The model-backed leftover check: its prompt in both languages, and a scripted model deciding a node."""

from __future__ import annotations

import json

import pytest
from scoring_helpers import SILK, make_task, make_transcript, perfect_turns, provider

from clarq_bench.core.transcript import Intent, ReplyKind
from clarq_bench.scoring.judge import NodeStatus, judge
from clarq_bench.scoring.judge_llm import NodeCheckReply, node_check_messages


@pytest.mark.parametrize("language", ["en", "zh"])
def test_messages_number_the_candidates_and_carry_the_node(language):
    messages = node_check_messages("The gem must be wrapped in silk.", ["Wrap it softly.", "Go now."], language)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert '"carried"' in messages[0]["content"]  # the reply format is spelled out
    user = messages[1]["content"]
    assert "The gem must be wrapped in silk." in user
    assert "[1] Wrap it softly." in user and "[2] Go now." in user


def test_reply_schema():
    assert NodeCheckReply.model_validate_json('{"carried": true, "turn": 2, "reason": "same"}').carried
    assert NodeCheckReply.model_validate({"carried": False}).turn is None


async def test_scripted_model_marks_the_leftover_node(tmp_path):
    from clarq_bench import llm, testing
    from clarq_bench.scoring.judge_llm import llm_node_check

    seen = []

    def answer(messages):
        seen.append(messages)
        carried = "silk" in messages[-1]["content"].lower()
        return json.dumps({"carried": carried, "turn": 1 if carried else None, "reason": "scripted"})

    settings = llm.LLMSettings(cache_path=tmp_path / "cache.sqlite", use_cache=False)
    client = llm.LLMClient(settings, scripted={"scripted/judge": testing.ScriptedModel(answer)})
    task = make_task()
    turns = perfect_turns()
    turns[8] = provider("Wrap it in a silk cloth.", ReplyKind.response_i, Intent.answerable)
    verdict = await judge(make_transcript(task, turns), task, llm_node_check(client, "scripted/judge"))
    assert verdict.success and verdict.nodes[2].status == NodeStatus.llm
    assert len(seen) == 1 and SILK in seen[0][-1]["content"]
