"""Scripted answers for `clarq fake-server`: the provider's and the judges' JSON decisions, and a short echo otherwise.

Why: the fake server's plain echo is no valid decision, so the LLM provider (and a model judge) pointed at it failed
every dialogue after its JSON re-asks. This responder answers a request that asks for a JSON object with one object
valid for every decision clarq asks a model for: the provider's relatedness gate (`related`), its turn decision
(`intent`, `node_ids`: the first prepared answer offered, so each question gets the next available piece), the
node judge (`carried`: false, leaving the verdict to the text match) and, when asked, the pairwise judges (`A`).
It is plumbing, not a model: the dialogues it plays mean nothing, but every call, re-ask, cache entry and cost is
real. Standard library only.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: A prepared answer as the provider's decision prompt lists it (`- id "1.2": "..."`, `- 编号 "1.2"："..."`).
OFFERED = re.compile(r'^- \S+ "([^"\n]+)"\s*[:：]', re.MULTILINE)
PAIRWISE_KEYS = ("questions", "economy", "naturalness")
ECHO_CHARS = 300


def request_text(body: dict[str, Any]) -> str:
    """Every message's text of a chat request, one after another."""
    parts = []
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts += [item.get("text", "") for item in content if isinstance(item, dict)]
    return "\n".join(parts)


def decision(text: str) -> dict[str, Any]:
    """One JSON object that every decision schema of clarq reads (each ignores the others' fields)."""
    offered = OFFERED.findall(text)
    answer: dict[str, Any] = {
        "related": True,
        "intent": 2 if offered else 3,
        "node_ids": offered[:1],
        "summary_confirmation": False,
        "carried": False,
        "turn": None,
        "rationale": "scripted by clarq fake-server",
        "reason": "scripted by clarq fake-server",
    }
    if all(f'"{key}"' in text for key in PAIRWISE_KEYS):
        answer.update(dict.fromkeys(PAIRWISE_KEYS, "A"))
    return answer


def role_responder(body: dict[str, Any]) -> str:
    """The reply to one chat request: a scripted decision where JSON is asked for, else an echo of the last line."""
    text = request_text(body)
    wants_json = (body.get("response_format") or {}).get("type") == "json_object" or "JSON" in text
    if wants_json:
        return json.dumps(decision(text), ensure_ascii=False)
    messages = body.get("messages") or [{}]
    last = messages[-1].get("content", "") if isinstance(messages[-1], dict) else ""
    lines = [line.strip() for line in last.splitlines() if line.strip()] if isinstance(last, str) else []
    # The last line only, cut short: an echo of a whole prompt that holds earlier echoes would double every turn.
    return f"echo: {lines[-1][:ECHO_CHARS]}" if lines else "echo"
