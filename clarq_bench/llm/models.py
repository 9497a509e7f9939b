"""Model names: aliases pinned to dated versions, litellm's lazy import, JSON-mode support, and the credential check.

litellm is imported here and only on first need (it takes seconds and would slow `clarq --help`); the environment
switch that stops it fetching a price list over the network is set before the import.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterable, Mapping
from functools import lru_cache
from types import ModuleType

from .errors import LLMCredentialsError

#: Short names -> the exact versions the paper used; every call records the resolved name.
ALIASES: dict[str, str] = {
    "gpt-4o": "gpt-4o-2024-05-13",
    "gpt-4": "gpt-4-0613",
    "gpt-3.5": "gpt-3.5-turbo-0613",
    "llama3.1-405b": "bedrock/meta.llama3-1-405b-instruct-v1:0",
}

#: Models answered by a ScriptedModel (tests and demos): no HTTP, no key, no cache.
SCRIPTED_PREFIX = "scripted/"

#: Dated models older than OpenAI's JSON mode; litellm's parameter table says otherwise, the API refuses it.
NO_JSON_MODE = frozenset({"gpt-4-0613", "gpt-3.5-turbo-0613", "gpt-4-0314", "gpt-3.5-turbo-0301"})

#: Providers that usually run on the user's machine or behind --api-base: no key is required.
LOCAL_PROVIDERS = frozenset({"ollama", "ollama_chat", "hosted_vllm", "lm_studio", "llamafile", "vllm"})

#: Ways to satisfy a provider's credentials other than the variables litellm names.
ALTERNATIVE_CREDENTIALS: dict[str, tuple[str, ...]] = {
    "bedrock": ("AWS_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"),
}


_CONFIGURE_LOCK = threading.Lock()


def litellm_module() -> ModuleType:
    """litellm, imported on first use with the local price table (no network fetch at import), configured once."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    if not getattr(litellm, "_clarq_configured", False):
        with _CONFIGURE_LOCK:
            if not getattr(litellm, "_clarq_configured", False):
                litellm.suppress_debug_info = True
                litellm.telemetry = False
                litellm.turn_off_message_logging = True  # clarq registers no callbacks; never hand prompts to loggers
                _discard_background_logging()
                _skip_litellm_cost(litellm)
                _freeze_import_heap()
                from .reply_cap import install

                install()  # the direct transport's reply cap, on litellm's reads too
                litellm._clarq_configured = True  # type: ignore[attr-defined]  # our mark on the module: configured once
    return litellm


def _skip_litellm_cost(litellm: ModuleType) -> None:
    """Stop litellm pricing every response for its own logging (~0.3 ms of CPU per call, ~8% of its path).

    clarq prices calls itself (accounting.call_cost reads litellm's price table once per model) and reads nothing
    from litellm's `_hidden_params["response_cost"]`, which is left None. litellm is pinned to one release, whose
    Logging object has this method; if a later pin lacks it, nothing is patched.
    """
    from litellm.litellm_core_utils import litellm_logging

    logging_class = getattr(litellm_logging, "Logging", None)
    if logging_class is not None and hasattr(logging_class, "_response_cost_calculator"):

        def no_cost(self: object, *args: object, **kwargs: object) -> None:
            return None

        logging_class._response_cost_calculator = no_cost


def _freeze_import_heap() -> None:
    """Move the ~250k objects litellm's import leaves behind out of the cyclic garbage collector's sight.

    They live as long as the process, yet every full collection walked them: one such pass took ~200 ms, a stall of
    every call in flight (the p95 of a busy run), and younger collections cost more too. gc.freeze() after a
    collection (so no import garbage is kept) is the standard remedy for a large, long-lived startup heap; objects
    created afterwards are collected as usual.
    """
    gc.collect()
    gc.freeze()


def _discard_background_logging() -> None:
    """Drop litellm's per-call success-logging coroutines instead of queueing them.

    clarq keeps its own accounting and registers no litellm callbacks, so the queue only costs CPU per call; worse,
    its worker task processes the backlog when cancelled, which made `asyncio.run` hang at exit after ~300 calls.
    """
    from litellm.litellm_core_utils import logging_worker

    def discard(coroutine: object) -> None:
        close = getattr(coroutine, "close", None)
        if close is not None:
            close()

    logging_worker.GLOBAL_LOGGING_WORKER.enqueue = discard  # type: ignore[method-assign]


def resolve_model(name: str) -> str:
    """The pinned version for an alias (`gpt-4o` -> `gpt-4o-2024-05-13`, also `openai/gpt-4o`); others unchanged."""
    name = name.strip()
    if name in ALIASES:
        return ALIASES[name]
    prefix, slash, bare = name.partition("/")
    if slash and bare in ALIASES and "/" not in ALIASES[bare]:
        return f"{prefix}/{ALIASES[bare]}"
    return name


def is_scripted(resolved: str) -> bool:
    return resolved.startswith(SCRIPTED_PREFIX)


def bare_name(resolved: str) -> str:
    """The model name without its provider prefix (`openai/gpt-4o-2024-05-13` -> `gpt-4o-2024-05-13`)."""
    return resolved.split("/", 1)[1] if "/" in resolved else resolved


@lru_cache(maxsize=256)
def provider_of(resolved: str) -> str:
    """litellm's provider name for a model ("openai", "bedrock", ...), or "" when litellm cannot tell."""
    if is_scripted(resolved):
        return "scripted"
    try:
        return str(litellm_module().get_llm_provider(resolved)[1])
    except Exception:  # litellm raises a bare BadRequestError for names it cannot place
        return resolved.split("/", 1)[0] if "/" in resolved else ""


@lru_cache(maxsize=256)
def supports_json_mode(resolved: str) -> bool:
    """Whether to send response_format={"type": "json_object"} to this model."""
    if is_scripted(resolved) or bare_name(resolved) in NO_JSON_MODE:
        return False
    from . import model_facts

    kept = model_facts.known("json_mode", resolved)  # litellm's answer of an earlier run, without importing it
    if isinstance(kept, bool):
        return kept
    try:
        params = litellm_module().get_supported_openai_params(resolved) or []
    except Exception:
        model_facts.remember("json_mode", resolved, False)
        return False
    supported = "response_format" in params
    model_facts.remember("json_mode", resolved, supported)
    return supported


def missing_credentials(resolved: str, environ: Mapping[str, str] | None = None) -> list[str]:
    """Environment variables a hosted model needs but does not have (empty when it can be called)."""
    env = os.environ if environ is None else environ
    provider = provider_of(resolved)
    if is_scripted(resolved) or provider in LOCAL_PROVIDERS:
        return []
    if any(env.get(name) for name in ALTERNATIVE_CREDENTIALS.get(provider, ())):
        return []
    try:
        report = litellm_module().validate_environment(resolved)
    except Exception:
        return []  # a model litellm cannot place: the call itself will say what is wrong
    missing = [str(name) for name in report.get("missing_keys", [])]
    # litellm reads os.environ itself; honour an explicit mapping by re-checking each name there
    missing = [name for name in missing if not env.get(name)]
    return [name for name in missing if not name.endswith(("_API_BASE", "_BASE_URL"))]


def check_credentials(
    models: Iterable[str | None],
    *,
    api_base: str | None = None,
    api_key: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> None:
    """Raise LLMCredentialsError naming the variable to set when a hosted model has no key.

    Call before a run starts. With an explicit `api_key`, or an `api_base` (a local OpenAI-compatible server may
    need no key), nothing is required.
    """
    if api_key:
        return
    for name in models:
        if not name:
            continue
        resolved = resolve_model(name)
        if api_base and provider_of(resolved) in ("openai", "text-completion-openai", "custom_openai"):
            continue
        missing = missing_credentials(resolved, environ)
        if missing:
            variables = " and ".join(missing)
            raise LLMCredentialsError(
                f"model {name} ({resolved}) needs {variables}, which is not set",
                f"export {missing[0]}=..., or run without hosted models: --provider offline",
                model=resolved,
            )
