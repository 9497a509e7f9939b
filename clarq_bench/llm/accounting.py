"""Token and dollar accounting: per call (litellm's price table), per role and model (a client's run), per scope.

Every figure is added, never assigned: a run's cost is the sum of its calls' costs. `track_usage()` opens a scope
(a contextvar, so it follows asyncio tasks created inside it) whose meter sums the calls made within; scopes nest,
and a call counts in every open scope. Cache hits count as cached calls with no tokens and no cost.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..transcript import Usage
from .models import is_scripted, litellm_module

_UNPRICED: set[str] = set()


def call_cost(resolved: str, prompt_tokens: int, completion_tokens: int) -> float:
    """Dollars for one call from litellm's local price table; 0.0 for scripted or unpriced models."""
    if is_scripted(resolved) or resolved in _UNPRICED:
        return 0.0
    try:
        prompt_cost, completion_cost = litellm_module().cost_per_token(
            model=resolved, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens
        )
    except Exception:  # litellm raises a bare Exception for models missing from its table
        _UNPRICED.add(resolved)
        return 0.0
    return float(prompt_cost) + float(completion_cost)


def is_priced(resolved: str) -> bool:
    """False once a model turned out to be missing from litellm's price table (its cost is then reported as 0)."""
    return resolved not in _UNPRICED


class UsageMeter:
    """Sums of usage per role (seeker/provider/judge) for the calls made inside one scope or by one client."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.by_role: dict[str, Usage] = {}
        self.by_model: dict[str, Usage] = {}

    def add(self, role: str, model: str, usage: Usage) -> None:
        with self._lock:
            self.by_role[role] = self.by_role.get(role, Usage()) + usage
            self.by_model[model] = self.by_model.get(model, Usage()) + usage

    @property
    def total(self) -> Usage:
        with self._lock:
            return sum(self.by_role.values(), Usage())

    @property
    def cost_usd(self) -> float:
        return self.total.cost_usd


_OPEN_METERS: ContextVar[tuple[UsageMeter, ...]] = ContextVar("clarq_usage_meters", default=())


@contextmanager
def track_usage() -> Iterator[UsageMeter]:
    """A scope whose meter sums every call made inside it (including in asyncio tasks it starts)."""
    meter = UsageMeter()
    token = _OPEN_METERS.set(_OPEN_METERS.get() + (meter,))
    try:
        yield meter
    finally:
        _OPEN_METERS.reset(token)


def record_in_scopes(role: str, model: str, usage: Usage) -> None:
    """Add one call's usage to every open track_usage() scope."""
    for meter in _OPEN_METERS.get():
        meter.add(role, model, usage)
