"""Providers by name: `offline`, `offline-e5` (with embeddings), or any litellm model name for the LLM provider.

Kept tiny on purpose so that the replay (`clarq provider-eval`) and the runner build providers one way.
"""

from __future__ import annotations

from ..core.tasks import Task
from .base import Provider, ProviderMode


#: Offline provider names -> whether the matcher uses sentence embeddings (provider/embeddings.py).
OFFLINE_PROVIDERS = {"offline": False, "offline-e5": True}


def is_offline(name: str) -> bool:
    """True for the providers that need no model and no key."""
    return name in OFFLINE_PROVIDERS


def make_provider(name: str, task: Task, mode: ProviderMode | str = ProviderMode.single, **options: object) -> Provider:
    """A provider for one task. `mode` multi-info reveals every frontier node a turn answers."""
    mode = ProviderMode(mode)
    if is_offline(name):
        from .offline import OfflineProvider

        return OfflineProvider(task, multi_info=mode == ProviderMode.multi_info, embeddings=OFFLINE_PROVIDERS[name])
    return _llm_provider(name, task, mode, **options)


def _llm_provider(name: str, task: Task, mode: ProviderMode, **options: object) -> Provider:
    """Any other name is a litellm model for the LLM provider. Options: client (an LLMClient; else one with
    default settings), seed (8848), trial (0), and the leakage-guard knobs of LLMProvider."""
    from .llm_provider import LLMProvider

    client = options.pop("client", None)
    if client is None:
        from ..llm import LLMClient, LLMSettings

        client = LLMClient(LLMSettings())
    return LLMProvider(task, client, model=name, mode=mode, **options)  # type: ignore[arg-type]
