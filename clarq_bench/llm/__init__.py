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
