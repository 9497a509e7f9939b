"""The offline providers by name (core/provider_names.py registers them): read by registry.py (what a name means) and
identity.py (what an offline build is), which must not import each other."""

from __future__ import annotations

from ..core.provider_names import OFFLINE

__all__ = ["OFFLINE"]
