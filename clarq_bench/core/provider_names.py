"""What a provider's name says of it, as a file records it: the one rule every layer may ask (scoring compares runs
by it, the provider registry builds by it), so it lives below them all.

The offline providers are registered here by name (-> whether their matcher uses sentence embeddings); any other
name is an import path (`package.module:Class`) or a model (an LLM provider, whose replies are self-reported).
"""

from __future__ import annotations

from typing import Literal

from .registry import Registry, looks_like_import_path

Kind = Literal["offline", "llm", "import"]

#: The providers that need no model and no key, by name -> whether the matcher uses sentence embeddings.
OFFLINE: Registry[bool] = Registry("provider")
OFFLINE.add("offline", False)
OFFLINE.add("offline-e5", True)


def recorded_kind(name: str) -> Kind:
    """The kind of a provider as a file records it (a submission, a transcript): never importing and never
    refusing; a name the rule does not know counts as a model (its replies are self-reported)."""
    if name in OFFLINE:
        return "offline"
    return "import" if looks_like_import_path(name) else "llm"
