"""Concurrency limits per model: a cap on calls in flight and an optional requests-per-minute pace.

asyncio primitives belong to one event loop, so semaphores are kept per (loop, model); a client can then be used from
several `asyncio.run` calls or threads. The RPM pace spaces request starts evenly (60/rpm seconds apart), which
never exceeds the provider's per-minute budget and needs no bookkeeping of past requests.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref


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


class ModelLimits:
    """`async with limits.slot(model):` waits for the model's RPM pace, then holds one of its in-flight slots."""

    def __init__(self, max_in_flight: int = 32, rpm: float | None = None) -> None:
        if max_in_flight < 1:
            raise ValueError("max_in_flight must be at least 1")
        if rpm is not None and rpm <= 0:
            raise ValueError("rpm must be positive")
        self.max_in_flight = max_in_flight
        self.rpm = rpm
        self._lock = threading.Lock()
        self._semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Semaphore]] = (
            weakref.WeakKeyDictionary()
        )
        self._paces: dict[str, _Pace] = {}
        #: The loop and per-model semaphores of the latest call: the common case needs no lock and no weak lookup.
        self._last: tuple[asyncio.AbstractEventLoop, dict[str, asyncio.Semaphore]] | None = None

    def _semaphore(self, model: str) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        last = self._last
        if last is not None and last[0] is loop:
            semaphore = last[1].get(model)
            if semaphore is not None:
                return semaphore
        with self._lock:
            per_loop = self._semaphores.setdefault(loop, {})
            if model not in per_loop:
                per_loop[model] = asyncio.Semaphore(self.max_in_flight)
            self._last = (loop, per_loop)
            return per_loop[model]

    def _pace(self, model: str) -> _Pace | None:
        if self.rpm is None:
            return None
        with self._lock:
            return self._paces.setdefault(model, _Pace(self.rpm))

    def slot(self, model: str) -> "_Slot":
        """An async context manager holding one in-flight slot of `model` (after its RPM pace, if any)."""
        return _Slot(self, model)


class _Slot:
    """`async with limits.slot(model)` (a plain class: cheaper per call than an @asynccontextmanager generator)."""

    __slots__ = ("limits", "model", "semaphore")

    def __init__(self, limits: ModelLimits, model: str) -> None:
        self.limits = limits
        self.model = model
        self.semaphore: asyncio.Semaphore | None = None

    async def __aenter__(self) -> None:
        semaphore = self.limits._semaphore(self.model)
        await semaphore.acquire()
        self.semaphore = semaphore
        try:
            pace = self.limits._pace(self.model)
            if pace is not None:
                wait = pace.reserve()
                if wait > 0:
                    await asyncio.sleep(wait)
        except BaseException:
            semaphore.release()
            self.semaphore = None
            raise

    async def __aexit__(self, *exc: object) -> None:
        if self.semaphore is not None:
            self.semaphore.release()
            self.semaphore = None
