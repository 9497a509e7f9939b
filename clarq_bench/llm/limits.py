"""Concurrency limits per model (or per router deployment): an adaptive cap on calls in flight and an optional
requests-per-minute pace.

Why adaptive: the right number of calls in flight is the server's, not the user's, and it changes (other users of the
key, a GPU box shared with others). The cap starts at --model-concurrency (or a deployment's max_parallel_requests),
is halved when the server says "too many" (429, or any reply with Retry-After), and grows by one after a window of
successes (as many as the cap) while the cap is what holds calls back, up to where it started: additive increase,
multiplicative decrease, as in TCP. Only calls sent after the latest cut can cut again (the calls of one burst are
one signal, not thirty). The level below the last refusal is remembered (`ceiling`): growing past it takes ten
windows, and a refusal of that probe only steps back to it, so against a server that refuses beyond K calls the cap
settles at K instead of bouncing between K and K/2. A level that holds a full window becomes the remembered one, so
a stray refusal lowers it only until the cap has grown back through it.

asyncio futures belong to one event loop, so gates are kept per (loop, key); a client can then be used from several
`asyncio.run` calls or threads. The RPM pace spaces request starts evenly (60/rpm seconds apart), which never exceeds
the provider's per-minute budget and needs no bookkeeping of past requests.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
import weakref
from collections import deque
from contextvars import ContextVar

from ..core.defaults import DEFAULT_MODEL_CONCURRENCY
from .retry import retry_after

#: Successes a window needs, as a multiple of the cap, to grow past the level that was last throttled.
PAST_CEILING_WINDOWS = 10


def is_throttle(exc: BaseException | None) -> bool:
    """The server asked us to slow down: HTTP 429, or any failure that carries Retry-After."""
    if exc is None:
        return False
    return getattr(exc, "status_code", None) == 429 or retry_after(exc) is not None


class QueueClock:
    """How long the calls of one agent turn waited in clarq's own queue (a gate or the RPM pace), so that a turn
    timeout counts only the time the calls were really under way: at --concurrency 260 and --model-concurrency 8 a
    turn may wait minutes for a slot without anything being wrong. Overlapping waits count once."""

    __slots__ = ("waiting", "since", "total")

    def __init__(self) -> None:
        self.waiting = 0
        self.since = 0.0
        self.total = 0.0

    def enter(self) -> None:
        if self.waiting == 0:
            self.since = time.monotonic()
        self.waiting += 1

    def leave(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.total += time.monotonic() - self.since

    def queued(self) -> float:
        """Seconds spent waiting so far, the wait under way included."""
        return self.total + (time.monotonic() - self.since if self.waiting else 0.0)


_CLOCK: ContextVar[QueueClock | None] = ContextVar("clarq_queue_clock", default=None)


class queue_clock:  # named as the function it replaces: `with queue_clock() as clock`
    """Measure the queue waits of the calls made inside (a contextvar: it follows the tasks created inside). A class,
    not a generator context manager: it is entered around every agent call."""

    __slots__ = ("clock", "token")

    def __enter__(self) -> QueueClock:
        self.clock = QueueClock()
        self.token = _CLOCK.set(self.clock)
        return self.clock

    def __exit__(self, *_: object) -> None:
        _CLOCK.reset(self.token)


class _Pace:
    """Evenly spaced start times; reservation is atomic across threads."""

    def __init__(self, rpm: float) -> None:
        self.interval = 60.0 / rpm
        self._next = 0.0
        self._lock = threading.Lock()

    def reserve(self) -> float:
        """Seconds to wait before this request may start."""
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
            return start - now


class AdaptiveGate:
    """An AIMD cap on calls in flight (one event loop). `limit` is the current cap, `cuts` how often it was halved."""

    __slots__ = ("limit", "cap", "in_flight", "waiters", "successes", "ceiling", "last_cut", "cuts", "adaptive")

    def __init__(self, cap: int, adaptive: bool = True) -> None:
        self.adaptive = adaptive  # False: a fixed cap (a router deployment's max_parallel_requests)
        self.cap = self.limit = self.ceiling = cap
        self.in_flight = 0
        self.waiters: deque[asyncio.Future[None]] = deque()
        self.successes = 0
        self.last_cut = -math.inf
        self.cuts = 0

    async def acquire(self) -> float:
        """Wait for a slot; returns the time it was granted (for `throttled`)."""
        if self.in_flight < self.limit and not self.waiters:
            self.in_flight += 1
            return time.monotonic()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiters.append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # granted just as we were cancelled: hand the slot on
            elif future in self.waiters:
                self.waiters.remove(future)
            raise
        return time.monotonic()

    def release(self) -> None:
        self.in_flight -= 1
        self._wake()

    def _wake(self) -> None:
        while self.waiters and self.in_flight < self.limit:
            future = self.waiters.popleft()
            if not future.done():
                self.in_flight += 1
                future.set_result(None)

    def succeeded(self) -> None:
        """One more call went through: after a window of them, if the gate was full, the level is known good and the
        cap grows by one (ten windows past the ceiling). Called before the call's slot is released."""
        if self.limit >= self.cap or self.in_flight < self.limit:
            return
        self.successes += 1
        window = self.limit if self.limit < self.ceiling else self.limit * PAST_CEILING_WINDOWS
        if self.successes >= window:
            # The level held a full window without a refusal: it is known good. Without this a single stray 429
            # (another user's burst, a server counting a closing connection) would lower the ceiling for good.
            self.ceiling = max(self.ceiling, self.limit)
            self.limit += 1
            self.successes = 0
            self._wake()

    def throttled(self, sent_at: float) -> None:
        """The server refused a call sent at `sent_at`: halve the cap, unless an earlier refusal already did."""
        if sent_at < self.last_cut:
            return
        if self.limit > self.ceiling:  # a probe past the known level failed: back to it
            self.limit = self.ceiling
        else:
            self.ceiling = max(1, self.limit - 1)
            self.limit = max(1, self.limit // 2)
        self.successes = 0
        self.last_cut = time.monotonic()
        self.cuts += 1


class ModelLimits:
    """`async with limits.slot(key):` waits for the key's RPM pace, then holds one of its in-flight slots.

    A key is a model name (adaptive), or a router deployment (`deployment:<id>`, a fixed cap: its
    max_parallel_requests). A pooled model's own gate adapts to the refusals its pool could not absorb; a refusal by
    one deployment is the Router's business (another deployment serves the call, the Router may cool it down), so a
    deployment that refuses 10% of calls at random does not drag the whole pool's cap down.
    """

    def __init__(self, max_in_flight: int = DEFAULT_MODEL_CONCURRENCY, rpm: float | None = None) -> None:
        if max_in_flight < 1:
            raise ValueError("max_in_flight must be at least 1")
        if rpm is not None and rpm <= 0:
            raise ValueError("rpm must be positive")
        self.max_in_flight = max_in_flight
        self.rpm = rpm
        self._lock = threading.Lock()
        self._gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, AdaptiveGate]] = (
            weakref.WeakKeyDictionary()
        )
        self._paces: dict[str, _Pace] = {}
        #: The loop and per-key gates of the latest call: the common case needs no lock and no weak lookup.
        self._last: tuple[asyncio.AbstractEventLoop, dict[str, AdaptiveGate]] | None = None

    def gate(self, key: str, cap: int | None = None, adaptive: bool = True) -> AdaptiveGate:
        loop = asyncio.get_running_loop()
        last = self._last
        if last is not None and last[0] is loop:
            gate = last[1].get(key)
            if gate is not None:
                return gate
        with self._lock:
            per_loop = self._gates.setdefault(loop, {})
            if key not in per_loop:
                per_loop[key] = AdaptiveGate(min(self.max_in_flight, cap or self.max_in_flight), adaptive)
            self._last = (loop, per_loop)
            return per_loop[key]

    def _pace(self, key: str, rpm: float | None = None) -> _Pace | None:
        rate = rpm or self.rpm
        if rate is None:
            return None
        with self._lock:
            return self._paces.setdefault(key, _Pace(rate))

    def current(self) -> dict[str, int]:
        """key -> current cap, for the event loop that made the latest call (the progress line shows it)."""
        last = self._last
        return {key: gate.limit for key, gate in sorted(last[1].items())} if last is not None else {}

    def describe(self) -> str:
        """`in flight <= gpt-4o-2024-05-13 16/32, d1 8/16`: every key's current cap over its starting cap; "" before
        the first call."""
        last = self._last
        if last is None or not last[1]:
            return ""
        shown = [f"{key} {gate.limit}/{gate.cap}" for key, gate in sorted(last[1].items()) if gate.adaptive]
        return "in flight <= " + ", ".join(shown) if shown else ""

    def slot(self, key: str, cap: int | None = None, adaptive: bool = True, rpm: float | None = None) -> _Slot:
        """An async context manager holding one in-flight slot of `key` (after its RPM pace, if any: `rpm`, else
        --rpm); leaving it with a throttle error halves the key's cap, leaving it cleanly counts a success (unless
        `adaptive` is False)."""
        return _Slot(self, key, cap, adaptive, rpm)


class _Slot:
    """`async with limits.slot(key)` (a plain class: cheaper per call than an @asynccontextmanager generator)."""

    __slots__ = ("limits", "key", "cap", "adaptive", "rpm", "gate", "sent_at")

    def __init__(self, limits: ModelLimits, key: str, cap: int | None, adaptive: bool, rpm: float | None) -> None:
        self.limits = limits
        self.key = key
        self.cap = cap
        self.adaptive = adaptive
        self.rpm = rpm
        self.gate: AdaptiveGate | None = None
        self.sent_at = 0.0

    async def __aenter__(self) -> None:
        gate = self.limits.gate(self.key, self.cap, self.adaptive)
        clock = _CLOCK.get()
        if clock is not None:
            clock.enter()
        try:
            self.sent_at = await gate.acquire()
            self.gate = gate
            try:
                pace = self.limits._pace(self.key, self.rpm)
                if pace is not None:
                    wait = pace.reserve()
                    if wait > 0:
                        await asyncio.sleep(wait)
            except BaseException:
                gate.release()
                self.gate = None
                raise
        finally:
            if clock is not None:
                clock.leave()

    async def __aexit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        gate = self.gate
        if gate is None:
            return
        self.gate = None
        if not gate.adaptive:
            pass
        elif exc is None:
            gate.succeeded()
        elif is_throttle(exc):
            gate.throttled(self.sent_at)
        gate.release()
