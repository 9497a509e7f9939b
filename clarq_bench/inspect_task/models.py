"""inspect's model API behind clarq's client interface, so the LLM provider and the LLM judge run unchanged.

Why: under `inspect eval` every model call should be inspect's (its providers, keys, retries, cache, logged model
events, `--model-role provider=...`), while the provider and judge stay clarq's own code. They only ever call
`client.complete(messages, model=, role=, schema=, temperature=, seed=, trial=, max_tokens=)` and
`client.resolve_model(name)`; InspectModels answers those by the model bound to the call's role, with clarq's own
JSON parsing and re-ask (llm/jsonreply.py) and its usage accounting scopes (llm/accounting.py), so a transcript's
provider usage is measured as in `clarq run`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..core.transcript import Usage
from ..llm.accounting import record_in_scopes
from ..llm.client import Completion
from ..llm.errors import LLMJSONError
from ..llm.jsonreply import ask_until_valid


def chat_messages(messages: list[dict[str, Any]]) -> list[Any]:
    """clarq's role/content dicts as inspect chat messages."""
    from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageUser

    kinds = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}
    return [kinds[message["role"]](content=str(message["content"])) for message in messages]


def usage_of(output: Any) -> Usage:
    """One inspect ModelOutput's tokens as clarq Usage (inspect prices nothing by default: dollars stay 0)."""
    usage = getattr(output, "usage", None)
    cost = getattr(usage, "total_cost", None) if usage is not None else None
    return Usage(
        prompt_tokens=int(getattr(usage, "input_tokens", 0) or 0),
        completion_tokens=int(getattr(usage, "output_tokens", 0) or 0),
        cost_usd=float(cost or 0.0),
        calls=1,
    )


async def generate(
    model: Any, messages: list[dict[str, Any]], role: str, *, seed: int | None = None, max_tokens: int | None = None
) -> tuple[str, Usage]:
    """One call of an inspect Model; its usage goes to clarq's open accounting scopes under `role`."""
    from inspect_ai.model import GenerateConfig

    config = GenerateConfig(seed=seed, max_tokens=max_tokens)
    output = await model.generate(chat_messages(messages), config=config)
    usage = usage_of(output)
    record_in_scopes(role, str(model), usage)
    return output.completion, usage


class InspectModels:
    """clarq's LLMClient interface on inspect models: role "provider" and "judge" use the model bound to that role
    (`--model-role provider=openai/gpt-4o`), else the model under evaluation."""

    def __init__(self, json_retries: int = 2) -> None:
        self.json_retries = json_retries

    @staticmethod
    def model_for(role: str) -> Any:
        from inspect_ai.model import get_model

        return get_model(role=role, default=get_model())

    def resolve_model(self, name: str) -> str:
        return name

    async def complete(
        self,
        messages: list[dict[str, Any]],
        *,
        model: str,
        role: str = "seeker",
        schema: type[BaseModel] | None = None,
        temperature: float = 0.0,
        seed: int | None = None,
        trial: int = 0,
        max_tokens: int | None = None,
    ) -> Completion:
        """Ask the role's model; with `schema`, the reply must be JSON valid for it (re-asked like LLMClient)."""
        bound = self.model_for(role)
        total = Usage()

        async def ask(conversation: list[dict[str, Any]]) -> str:
            nonlocal total
            text, usage = await generate(bound, conversation, role, seed=seed, max_tokens=max_tokens)
            total = total + usage
            return text

        def failed(asks: int, why: str, text: str) -> LLMJSONError:
            return LLMJSONError(
                f"{bound}: {why}", "try another model for this role", model=str(bound), attempts=asks, text=text
            )

        text, parsed, asks = await ask_until_valid(ask, messages, schema, self.json_retries, failed)
        return Completion.model_construct(
            text=text,
            parsed=parsed,
            usage=total,
            model=str(bound),
            requested_model=model,
            role=role,
            latency_s=0.0,
            cached=False,
            attempts=asks,
            asks=asks,
        )
