"""Token and dollar accounting: per call (litellm's price table), per role and model (a client's run), per scope.

Every figure is added, never assigned: a run's cost is the sum of its calls' costs. `track_usage()` opens a scope
(a contextvar, so it follows asyncio tasks created inside it) whose meter sums the calls made within; scopes nest,
and a call counts in every open scope. Cache hits count as cached calls with no tokens and no cost.
"""

from __future__ import annotations

import threading
from contextvars import ContextVar

from ..core.transcript import Usage
from . import model_facts
from .models import is_scripted, litellm_module

_UNPRICED: set[str] = set()

#: Per-model (dollars per prompt token, per completion token) once the model's pricing proved linear; models with
#: tiered prices (above 128k tokens, ...) are left out and priced by litellm on every call.
_RATES: dict[str, tuple[float, float]] = {}
_TIERED: set[str] = set()

#: Token counts used to check that a model's price is linear (they cross the 128k and 200k tiers some models have).
_PROBES = ((1, 0), (0, 1), (300_000, 0), (0, 300_000), (150_000, 150_000))


def _litellm_cost(resolved: str, prompt_tokens: int, completion_tokens: int) -> float:
    prompt_cost, completion_cost = litellm_module().cost_per_token(
        model=resolved, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens
    )
    return float(prompt_cost) + float(completion_cost)


def _learn_rates(resolved: str) -> tuple[float, float] | None:
    """The model's two per-token rates if litellm prices it linearly at every probe, else None (tiered)."""
    rate_in, rate_out = _litellm_cost(resolved, 1, 0), _litellm_cost(resolved, 0, 1)
    for prompt_tokens, completion_tokens in _PROBES[2:]:
        expected = prompt_tokens * rate_in + completion_tokens * rate_out
        if abs(_litellm_cost(resolved, prompt_tokens, completion_tokens) - expected) > 1e-9 * max(expected, 1e-12):
            return None
    return rate_in, rate_out


def call_cost(resolved: str, prompt_tokens: int, completion_tokens: int) -> float:
    """Dollars for one call from litellm's local price table; 0.0 for scripted or unpriced models.

    litellm's cost_per_token costs ~0.5 ms of CPU per call, a third of the direct transport's whole budget, so a
    model's two rates are read from it once and multiplied here; models whose price is not linear in the tokens
    (tiers above 128k/200k tokens) keep going through litellm on every call. Either way the figures are litellm's.
    """
    rates = _RATES.get(resolved)
    if rates is not None:
        return prompt_tokens * rates[0] + completion_tokens * rates[1]
    if is_scripted(resolved) or resolved in _UNPRICED:
        return 0.0
    if resolved not in _TIERED:
        kept = model_facts.known("rates", resolved)  # litellm's answer of an earlier run, without importing it
        if kept == "unpriced":
            _UNPRICED.add(resolved)
            return 0.0
        if kept == "tiered":
            _TIERED.add(resolved)
        elif isinstance(kept, list) and len(kept) == 2 and all(type(rate) is float for rate in kept):
            _RATES[resolved] = (kept[0], kept[1])
            return prompt_tokens * kept[0] + completion_tokens * kept[1]
    try:
        if resolved in _TIERED:
            return _litellm_cost(resolved, prompt_tokens, completion_tokens)
        learned = _learn_rates(resolved)
        if learned is None:
            _TIERED.add(resolved)
            model_facts.remember("rates", resolved, "tiered")
            return _litellm_cost(resolved, prompt_tokens, completion_tokens)
    except Exception:  # litellm raises a bare Exception for models missing from its table
        _UNPRICED.add(resolved)
        model_facts.remember("rates", resolved, "unpriced")
        return 0.0
    _RATES[resolved] = learned
    model_facts.remember("rates", resolved, [learned[0], learned[1]])
    return prompt_tokens * learned[0] + completion_tokens * learned[1]


def is_priced(resolved: str) -> bool:
    """False once a model turned out to be missing from litellm's price table (its cost is then reported as 0)."""
    return resolved not in _UNPRICED


class _Sums:
    """Running sums for one role or model (plain attributes: adding is on every call's path)."""

    __slots__ = ("prompt_tokens", "completion_tokens", "cost_usd", "calls", "cached_calls")

    def __init__(self) -> None:
        self.prompt_tokens = self.completion_tokens = self.calls = self.cached_calls = 0
        self.cost_usd = 0.0

    def add(self, usage: Usage) -> None:
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens
        self.cost_usd += usage.cost_usd
        self.calls += usage.calls
        self.cached_calls += usage.cached_calls

    def usage(self) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            cost_usd=self.cost_usd,
            calls=self.calls,
            cached_calls=self.cached_calls,
        )


class UsageMeter:
    """Sums of usage per role (seeker/provider/judge) and per model for the calls made inside one scope or client.

    `add` only adds numbers; `by_role`, `by_model` and `total` build Usage records when read.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.served_by: list[str] = []  # router deployments that answered, one entry per call, in order
        self._by_role: dict[str, _Sums] = {}
        self._by_model: dict[str, _Sums] = {}
        self._cost_usd = 0.0

    def add(self, role: str, model: str, usage: Usage) -> None:
        with self._lock:
            sums = self._by_role.get(role)
            if sums is None:
                sums = self._by_role[role] = _Sums()
            sums.add(usage)
            sums = self._by_model.get(model)
            if sums is None:
                sums = self._by_model[model] = _Sums()
            sums.add(usage)
            self._cost_usd += usage.cost_usd

    @property
    def by_role(self) -> dict[str, Usage]:
        with self._lock:
            return {role: sums.usage() for role, sums in self._by_role.items()}

    @property
    def by_model(self) -> dict[str, Usage]:
        with self._lock:
            return {model: sums.usage() for model, sums in self._by_model.items()}

    @property
    def total(self) -> Usage:
        """Every role's sums in one record (read after every agent call: one Usage built, not one per role)."""
        with self._lock:
            sums = list(self._by_role.values())
        return Usage(
            prompt_tokens=sum(s.prompt_tokens for s in sums),
            completion_tokens=sum(s.completion_tokens for s in sums),
            cost_usd=sum(s.cost_usd for s in sums),
            calls=sum(s.calls for s in sums),
            cached_calls=sum(s.cached_calls for s in sums),
        )

    @property
    def cost_usd(self) -> float:
        """Dollars so far (a running sum: the budget check reads it before every dialogue)."""
        with self._lock:
            return self._cost_usd


_OPEN_METERS: ContextVar[tuple[UsageMeter, ...]] = ContextVar("clarq_usage_meters", default=())


class track_usage:  # named as the function it replaces: `with track_usage() as meter`
    """A scope whose meter sums every call made inside it (including in asyncio tasks it starts). A class, not a
    generator context manager: the runner enters one around every agent call."""

    __slots__ = ("meter", "token")

    def __enter__(self) -> UsageMeter:
        self.meter = UsageMeter()
        self.token = _OPEN_METERS.set(_OPEN_METERS.get() + (self.meter,))
        return self.meter

    def __exit__(self, *_: object) -> None:
        _OPEN_METERS.reset(self.token)


def record_in_scopes(role: str, model: str, usage: Usage, served_by: str = "") -> None:
    """Add one call's usage to every open track_usage() scope (and the router deployment that served it, if any)."""
    for meter in _OPEN_METERS.get():
        meter.add(role, model, usage)
        if served_by:
            meter.served_by.append(served_by)
