"""Providers by name: `offline`, `offline-e5` (with embeddings), `package.module:Class`, or any litellm model name
for the LLM provider. What a name means is provider/registry.py's rule; this builds one for a task.

Kept tiny on purpose so that the replay (`clarq provider-eval`), the audit and the runner build providers one way.
"""

from __future__ import annotations

from ..core.tasks import Task
from .base import Provider, ProviderMode
from .registry import resolve_provider

__all__ = ["ProviderMode", "make_provider"]


def make_provider(name: str, task: Task, mode: ProviderMode | str = ProviderMode.single, **options: object) -> Provider:
    """A provider for one task. `mode` multi-info reveals every frontier node a turn answers. Options of an LLM
    provider: client (an LLMClient; else one with default settings), seed (core.defaults.DEFAULT_SEED), trial (0), and the leakage-guard
    knobs of LLMProvider."""
    client = options.pop("client", None)
    return resolve_provider(name).build(task, mode, client=client, **options)
