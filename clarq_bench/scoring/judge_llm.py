"""The model-backed leftover-node check for the judge: asks one model whether a node the deterministic stage missed
was delivered (or contradicted) by one of the unmatched provider turns.

It plugs into judge.judge as its `check`; prompt wording lives in prompts/judge/ (en, zh); the reply is JSON
validated against NodeCheckReply. Only this module touches the LLM layer, and only when a check is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from ..core import prompts
from ..core.defaults import DEFAULT_SEED
from .judge import NodeCheck

if TYPE_CHECKING:  # the LLM layer imports litellm; keep it out of module import time
    from ..llm import LLMClient


class NodeCheckReply(BaseModel):
    """The judge model's answer for one node."""

    carried: bool = Field(description="The information was delivered, or clearly contradicted, in some reply.")
    turn: int | None = Field(default=None, description="1-based number of the reply that delivers it.")
    reason: str = ""


def node_check_messages(node_text: str, candidate_turns: list[str], language: str) -> list[dict[str, str]]:
    """The chat messages of one check (system rules, then the node and the numbered replies)."""
    numbered = "\n".join(
        prompts.render("judge/node_check_turn", language, number=n, text=text)
        for n, text in enumerate(candidate_turns, start=1)
    )
    return [
        {"role": "system", "content": prompts.load("judge/node_check_system", language)},
        {"role": "user", "content": prompts.render("judge/node_check_user", language, node=node_text, turns=numbered)},
    ]


def llm_node_check(client: LLMClient, model: str, *, seed: int = DEFAULT_SEED) -> NodeCheck:
    """A `check` for judge.judge backed by `client`: temperature 0, JSON reply, accounted as role "judge"."""

    async def check(node_text: str, candidate_turns: list[str], language: str) -> bool:
        completion = await client.complete(
            node_check_messages(node_text, candidate_turns, language),
            model=model,
            role="judge",
            schema=NodeCheckReply,
            temperature=0.0,
            seed=seed,
        )
        reply = completion.parsed
        if not isinstance(reply, NodeCheckReply):
            reply = NodeCheckReply.model_validate(reply)
        return reply.carried

    return check
