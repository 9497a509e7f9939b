"""ModelCallOptions: the one record of how a command calls models, named as the flags of every command that calls
them (`--no-cache`, `--cache`, `--api-base`, `--router`, `--transport`, `--max-cost`, `--allow-unpriced`, `--rpm`,
`--model-concurrency`), validated at the boundary and turned into LLMSettings in one place.

Why: the options used to reach the client as an argparse Namespace, a SimpleNamespace and a home-made namespace, each
read with getattr defaults; an unknown or misspelled option was silently ignored. Nothing here opens a client or
checks a key (play.setup.open_client does, once).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..core.defaults import DEFAULT_MODEL_CONCURRENCY
from ..core.errors import ClarqError


class ModelCallOptions(BaseModel):
    """How models are called; the defaults are those of the flags."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    no_cache: bool = Field(False, description="Do not read or write the response cache.")
    cache: Path | None = Field(None, description="Response cache file (default: the user cache dir).")
    api_base: str | None = Field(None, description="An OpenAI-compatible endpoint, e.g. http://localhost:8000/v1.")
    router: Path | None = Field(None, description="A litellm Router model_list YAML: pooled model names.")
    transport: Literal["auto", "litellm", "direct"] = Field("auto", description="llm/transports.py's rule.")
    max_cost: float | None = Field(None, ge=0, allow_inf_nan=False, description="Dollar budget for new work.")
    allow_unpriced: bool = Field(False, description="With max_cost: call models that have no known price.")
    rpm: float | None = Field(None, gt=0, allow_inf_nan=False, description="Request starts per minute per model.")
    model_concurrency: int = Field(DEFAULT_MODEL_CONCURRENCY, ge=1, description="Calls in flight per model.")
    timeout_s: float | None = Field(None, gt=0, allow_inf_nan=False, description="Per-attempt timeout (default 120).")

    @classmethod
    def of(cls, source: Any = None, **changes: Any) -> ModelCallOptions:
        """From a ModelCallOptions, a dict of options (an unknown name is a ClarqError naming it) or any object
        carrying them as attributes (an argparse Namespace, RunOptions), with `changes` on top. None values mean
        "not given": the default stays."""
        if isinstance(source, ModelCallOptions):
            values = source.model_dump()
        elif isinstance(source, dict):
            unknown = sorted(set(source) - set(cls.model_fields))
            if unknown:
                raise ClarqError(f"unknown model-call option {unknown[0]!r}", f"use {', '.join(cls.model_fields)}")
            values = dict(source)
        else:
            values = {name: getattr(source, name) for name in cls.model_fields if hasattr(source, name)}
        values.update(changes)
        try:
            return cls(**{name: value for name, value in values.items() if value is not None})
        except ValidationError as exc:
            first = exc.errors()[0]
            raise ClarqError(
                f"bad model-call option {'.'.join(map(str, first['loc']))}: {first['msg']}",
                "see `clarq run --help`, model calls",
            ) from None

    def settings(self) -> Any:
        """The LLMSettings these options mean."""
        from .client import LLMSettings

        fields: dict[str, Any] = {
            "use_cache": not self.no_cache,
            "cache_path": self.cache,
            "api_base": self.api_base,
            "router_file": self.router,
            "max_cost": self.max_cost,
            "rpm": self.rpm,
            "max_concurrency_per_model": self.model_concurrency,
            "transport": self.transport,
        }
        if self.timeout_s is not None:  # else LLMSettings' own default
            fields["timeout_s"] = self.timeout_s
        return LLMSettings.model_validate(fields)
