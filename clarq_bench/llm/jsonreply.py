"""JSON replies: pull a JSON value out of model text, validate it against a pydantic schema, build the re-ask.

Models wrap JSON in code fences or add a sentence after it; parsing tolerates both by decoding the first complete
JSON value in the text. The re-ask wording lives in prompts/llm/json_reask.en.md. `ask_until_valid` is the one
re-ask loop: clarq's own client and the inspect_ai bridge both ask through it, so a bad reply is re-asked the same
way under either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel, ValidationError

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()


class ReplyProblem(ValueError):
    """Why a reply was not accepted, phrased for the model (it is quoted back in the re-ask)."""


def extract_json(text: str) -> Any:
    """The first complete JSON object or array in `text` (inside a code fence if there is one)."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for candidate in candidates:
        for start, char in enumerate(candidate):
            if char not in "{[":
                continue
            try:
                value, _ = _DECODER.raw_decode(candidate, start)
            except json.JSONDecodeError:
                continue
            return value
    raise ReplyProblem("it contained no valid JSON object")


def parse_reply(text: str, schema: type[BaseModel]) -> BaseModel:
    """The reply validated against `schema`; ReplyProblem says what was wrong."""
    value = extract_json(text)
    try:
        return schema.model_validate(value)
    except ValidationError as exc:
        details = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'the object'}: {err['msg']}" for err in exc.errors()[:5]
        )
        raise ReplyProblem(f"the JSON did not match the required fields ({details})") from None


def reask_messages(messages: list[dict[str, Any]], bad_reply: str, problem: str) -> list[dict[str, Any]]:
    """The conversation extended with the rejected reply and a request to answer again in valid JSON."""
    from ..core.prompts import render

    return [
        *messages,
        {"role": "assistant", "content": bad_reply},
        {"role": "user", "content": render("llm/json_reask", "en", problem=problem)},
    ]


async def ask_until_valid(
    ask: Callable[[list[dict[str, Any]]], Awaitable[str]],
    messages: list[dict[str, Any]],
    schema: type[BaseModel] | None,
    retries: int,
    failed: Callable[[int, str, str], Exception],
) -> tuple[str, BaseModel | None, int]:
    """(text, parsed, asks): `ask` the conversation; with a `schema`, re-ask with the problem quoted back until the
    reply is valid JSON for it, at most 1 + `retries` asks, then raise `failed(asks, why, text)` (why: "no valid
    <Schema> JSON after <asks> asks (<problem>)", the caller adds whose reply it was). An empty reply
    (LLMEmptyReplyError from `ask`, already paid) is re-asked like bad JSON while asks remain; without a schema it
    is raised at once. Accounting is the caller's, inside `ask`."""
    from .errors import LLMEmptyReplyError

    conversation = list(messages)
    allowed = 1 + (retries if schema is not None else 0)
    for asks in range(1, allowed + 1):
        try:
            text = await ask(conversation)
        except LLMEmptyReplyError:
            if schema is None or asks == allowed:
                raise
            conversation = reask_messages(conversation, "", "the reply was empty")
            continue
        if schema is None:
            return text, None, asks
        try:
            return text, parse_reply(text, schema), asks
        except ReplyProblem as problem:
            if asks == allowed:
                raise failed(asks, f"no valid {schema.__name__} JSON after {asks} asks ({problem})", text) from None
            conversation = reask_messages(conversation, text, str(problem))
    raise AssertionError("unreachable: the last ask returns or raises")  # pragma: no cover
