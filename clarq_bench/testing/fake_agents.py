"""A fake-server responder that plays both LLM agents, so whole runs go through the real HTTP stack without a model.

The provider model answers its relatedness gate with "related" and its decision call with the first answer the
prompt offers (so every dialogue walks its whole tree); the seeker model asks until the provider says it has enough,
then says goodbye. Reads our own prompt files for the phrases it keys on, so it follows prompt edits. `both_agents_one_model` plays
both behind one model name (a pool serving both roles), telling them apart by the provider prompts' JSON keys.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from ..core import prompts

#: A frontier line of the provider's decision prompt (prompts/provider/llm_node_line.*.md).
OFFERED = re.compile(r'^- (?:id|编号) "([^"]+)"', re.MULTILINE)
CJK = re.compile(r"[\u4e00-\u9fff]")
#: What only the provider's gate and decision prompts ask for (prompts/provider/llm_gate.*, llm_decide.*).
PROVIDER_KEYS = re.compile(r'"(?:related|intent)"')


def both_agents_one_model() -> Callable[[dict[str, Any]], str]:
    """Both agents behind one model name: the provider's requests are told apart by their prompts."""
    return both_agents(None, None)


def both_agents(seeker_model: str | None, provider_model: str | None) -> Callable[[dict[str, Any]], str]:
    """A responder for FakeOpenAIServer: requests for `seeker_model` get seeker turns, the rest provider JSON (with
    None for both: requests whose prompt asks for the provider's JSON keys are the provider's)."""
    seeker_name = seeker_model.split("/", 1)[-1] if seeker_model else ""
    enough = [prompts.load("provider/llm_enough", language).strip() for language in ("en", "zh")]

    def respond(body: dict[str, Any]) -> str:
        prompt = str(body["messages"][-1]["content"])
        is_seeker = body.get("model") == seeker_name if seeker_name else not PROVIDER_KEYS.search(prompt)
        if is_seeker:
            done = any(phrase in prompt for phrase in enough)
            step = prompt.count("\n")  # grows every turn: the same question twice would be a repeat (intent 4)
            if CJK.search(prompt):
                return "谢谢，再见！" if done else f"第{step}步我应该选哪一个？具体怎么做？"
            return "Thank you, goodbye!" if done else f"For step {step}, which one should I choose, and how?"
        if '"related"' in prompt:
            return json.dumps({"related": True, "rationale": "asks about the task"})
        offered = OFFERED.findall(prompt)[:1]
        return json.dumps({"intent": 2, "node_ids": offered, "summary_confirmation": False, "rationale": "clear"})

    return respond
