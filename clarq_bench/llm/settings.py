"""How a client calls models (LLMSettings, safe to write into a run's config) and what one answered request gives
back (Completion): the records of llm/client.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from ..core.transcript import Usage
from .endpoint import check_api_base


class LLMSettings(BaseModel):
    """How a client calls models. Safe to write into a run's config: the API key is excluded from dumps."""

    cache_path: Path | None = Field(None, description="SQLite cache file; None = the user cache dir.")
    use_cache: bool = Field(True, description="Answer repeated identical requests from the cache.")
    max_concurrency_per_model: int = Field(32, ge=1, description="Calls in flight per model.")
    rpm: float | None = Field(None, gt=0, description="Request starts per minute per model; None = unpaced.")
    api_base: str | None = Field(None, description="An OpenAI-compatible base URL, e.g. http://localhost:8000/v1.")
    api_key: SecretStr | None = Field(None, exclude=True, description="Key for api_base; else the environment's.")
    max_cost: float | None = Field(None, ge=0, description="Dollar budget: no new dialogues once it is spent.")
    timeout_s: float = Field(120.0, gt=0, description="Per-attempt timeout.")
    max_attempts: int = Field(6, ge=1, description="Attempts per request, counting the first.")
    retry_base_wait: float = Field(1.0, ge=0, description="First backoff ceiling in seconds; doubles per retry.")
    retry_max_wait: float = Field(60.0, ge=0, description="Longest single wait, also caps Retry-After.")
    json_retries: int = Field(2, ge=0, description="Re-asks after an invalid JSON reply.")
    router_file: Path | None = Field(None, description="A litellm Router model_list YAML: pooled model names.")
    transport: Literal["litellm", "auto", "direct"] = Field(
        "auto",
        description="auto (recommended) / direct: plain HTTP for OpenAI-compatible models at api_base, "
        "litellm for the rest (rule in llm/transports.py); litellm: every model via litellm.",
    )

    @field_validator("api_base")
    @classmethod
    def _no_credentials(cls, value: str | None) -> str | None:
        return check_api_base(value)  # a ClarqError (one line), not a validation error


class Completion(BaseModel):
    """One answered request (all of its re-asks and retries included)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    text: str = Field(description="The final reply text.")
    parsed: Any = Field(None, description="The validated schema instance when a schema was given.")
    usage: Usage = Field(description="Tokens and dollars of every billed request made for this completion.")
    model: str = Field(description="The resolved model version that answered.")
    requested_model: str = Field(description="The name the caller asked for (alias or full).")
    role: str = "seeker"
    latency_s: float = 0.0
    cached: bool = Field(False, description="Every request was answered from the cache.")
    attempts: int = Field(0, description="HTTP attempts made (0 when all came from the cache).")
    asks: int = Field(1, description="Requests in the conversation: 1 + JSON re-asks.")

    @property
    def cost(self) -> float:
        return self.usage.cost_usd
