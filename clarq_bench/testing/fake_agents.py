"""A fake-server responder that plays both LLM agents, so whole runs go through the real HTTP stack without a model.

The provider model answers its relatedness gate with "related" and its decision call with the first answer the
prompt offers (so every dialogue walks its whole tree); the seeker model asks until the provider says it has enough,
then says goodbye. Reads our own prompt files for the phrases it keys on, so it follows prompt edits.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from ..core import prompts

#: A frontier line of the provider's decision prompt (prompts/provider/llm_node_line.*.md).
OFFERED = re.compile(r'^- (?:id|编号) "([^"]+)"', re.MULTILINE)
CJK = re.compile(r"[\u4e00-\u9fff]")


def both_agents(seeker_model: str, provider_model: str) -> Callable[[dict[str, Any]], str]:
    """A responder for FakeOpenAIServer: requests for `seeker_model` get seeker turns, the rest provider JSON."""
    seeker_name = seeker_model.split("/", 1)[-1]
    enough = [prompts.load("provider/llm_enough", language).strip() for language in ("en", "zh")]

    def respond(body: dict[str, Any]) -> str:
        prompt = str(body["messages"][-1]["content"])
        if body.get("model") == seeker_name:
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
