"""The offline providers by name, registered on core.registry: read by registry.py (what a name means) and
identity.py (what an offline build is), which must not import each other."""

from __future__ import annotations

from ..core.registry import Registry

#: The providers that need no model and no key, by name -> whether the matcher uses sentence embeddings.
OFFLINE: Registry[bool] = Registry("provider")
OFFLINE.add("offline", False)
OFFLINE.add("offline-e5", True)
