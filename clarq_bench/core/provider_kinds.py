"""The offline providers by name, registered on core.registry, and the kind a recorded provider name is: read by
provider/registry.py (what a name means), provider/identity.py (what an offline build is), and by scoring and the
leaderboard, which read recorded runs and sit beside or above provider/ (so the rule lives below them all)."""

from __future__ import annotations

from typing import Literal

from .registry import Registry, looks_like_import_path

Kind = Literal["offline", "llm", "import"]

#: The providers that need no model and no key, by name -> whether the matcher uses sentence embeddings.
OFFLINE: Registry[bool] = Registry("provider")
OFFLINE.add("offline", False)
OFFLINE.add("offline-e5", True)


def recorded_kind(name: str) -> Kind:
    """The kind of a provider as a file records it (a submission, a transcript): the same rule as resolving a name,
    never importing and never refusing; a name the rule does not know counts as a model (its replies are
    self-reported)."""
    if name in OFFLINE:
        return "offline"
    return "import" if looks_like_import_path(name) else "llm"
