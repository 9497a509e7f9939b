"""The one door to language models: litellm calls with retries, JSON replies, a response cache, accounting, limits.

Importing this package does not import litellm (that happens on the first real call or credential check). Imports
core only (a scripted model is any object of the shape transports.ScriptedModel).

Transport: for OpenAI-compatible endpoints (`--api-base` with `openai/...` or `hosted_vllm/...` models) the default
LLMSettings(transport="auto") takes a plain aiohttp path with ~0.4 ms CPU per call, against ~5 ms through litellm;
every other provider string goes through litellm either way (transport="litellm" sends every model there). The
rule is in transports.py; the figures come from benchmarks/llm_overhead.py.

Options: ModelCallOptions (options.py) is the one record of the model-call flags, turned into LLMSettings there.
This layer knows no task, agent, run or score.

Pools: LLMSettings(router_file=...) reads a litellm Router model_list (router_file.py); its logical model names are
served by their deployments, litellm's Router picking and cooling down, our transports sending (router_pool.py).
Calls in flight per model adapt to the server's refusals (limits.py).

    client = LLMClient(LLMSettings(...))
    c = await client.complete(messages, model="gpt-4o", role="provider", schema=Reply, seed=DEFAULT_SEED, trial=0)
    with track_usage() as meter: ...   # meter.by_role: usage of the calls made inside
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .accounting import UsageMeter, call_cost, track_usage
    from .cache import ResponseCache, cache_key, default_cache_path
    from .client import Completion, LLMClient, LLMSettings
    from .errors import (
        LLMAuthError,
        LLMBadRequestError,
        LLMConnectionRefusedError,
        LLMContextWindowError,
        LLMCredentialsError,
        LLMError,
        LLMJSONError,
        LLMUnavailableError,
    )
    from .models import ALIASES, check_credentials, resolve_model

#: Where each public name lives: importing this package imports none of them (an offline run needs two small
#: modules of it, not the client, its cache or its accounting), the first use of a name imports its module.
_HOMES = {
    "UsageMeter": "accounting",
    "call_cost": "accounting",
    "track_usage": "accounting",
    "ResponseCache": "cache",
    "cache_key": "cache",
    "default_cache_path": "cache",
    "Completion": "client",
    "LLMClient": "client",
    "LLMSettings": "client",
    "LLMAuthError": "errors",
    "LLMBadRequestError": "errors",
    "LLMConnectionRefusedError": "errors",
    "LLMContextWindowError": "errors",
    "LLMCredentialsError": "errors",
    "LLMError": "errors",
    "LLMJSONError": "errors",
    "LLMUnavailableError": "errors",
    "ALIASES": "models",
    "check_credentials": "models",
    "resolve_model": "models",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "ALIASES",
    "Completion",
    "LLMAuthError",
    "LLMBadRequestError",
    "LLMClient",
    "LLMConnectionRefusedError",
    "LLMContextWindowError",
    "LLMCredentialsError",
    "LLMError",
    "LLMJSONError",
    "LLMSettings",
    "LLMUnavailableError",
    "ResponseCache",
    "UsageMeter",
    "cache_key",
    "call_cost",
    "check_credentials",
    "default_cache_path",
    "resolve_model",
    "track_usage",
]
