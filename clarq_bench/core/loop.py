"""Running a run's coroutine to the end whatever the code inside does, and stopping it cleanly on a signal.

Why not asyncio.run: it waits without limit, at exit, for every task it cancels, so a plug-in seeker that swallows
CancelledError kept the process alive after the results were written; a seeker calling loop.stop() made
run_until_complete raise "Event loop stopped before Future completed" and crashed the run; and SIGTERM or SIGHUP (a
closed terminal, a job scheduler, `kill`) ended the process at once without the Ctrl-C message or the final fsync.
Here a stray loop.stop() is ignored, SIGINT, SIGTERM and SIGHUP cancel the main task (so every `finally` runs and what
finished is saved) and then raise KeyboardInterrupt, and tasks still alive at the end get `grace_s` seconds to finish
their cancellation before the loop is closed without them.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

#: Signals that stop a run the way Ctrl-C does.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def new_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop where it is installed (a dependency except on Windows), else asyncio's own;
    CLARQ_EVENT_LOOP=asyncio chooses asyncio's. Why: with hundreds of dialogues in flight, the loop's own scheduling
    and socket work is a large share of a run's CPU, and uvloop's costs a fraction of it."""
    if os.environ.get("CLARQ_EVENT_LOOP", "").strip().lower() != "asyncio":
        try:
            import uvloop
        except ImportError:
            pass
        else:
            return uvloop.new_event_loop()
    return asyncio.new_event_loop()


def run_to_end(coro: Coroutine[Any, Any, T], *, grace_s: float = 2.0) -> T:
    """`asyncio.run(coro)`, with the differences in the module docstring."""
    loop = new_loop()
    main = loop.create_task(coro)
    stopped: list[int] = []

    def stop(signum: int) -> None:
        if stopped:  # a second signal: the user insists
            raise KeyboardInterrupt
        stopped.append(signum)
        main.cancel()

    installed: list[tuple[int, Any]] = []
    for signum in STOP_SIGNALS:
        try:
            before = signal.getsignal(signum)
            loop.add_signal_handler(signum, stop, signum)
            installed.append((signum, before))
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or not a Unix loop
            pass
    try:
        while True:
            try:
                loop.run_until_complete(main)
                break
            except RuntimeError:
                if main.done():
                    raise
                continue  # something inside called loop.stop(): the run is not over
            except asyncio.CancelledError:
                if stopped:
                    raise KeyboardInterrupt from None
                raise
        return main.result()
    finally:
        for signum, before in installed:
            loop.remove_signal_handler(signum)
            if before is not None:  # the handler the command had (asyncio would leave the default: sudden death)
                signal.signal(signum, before)
        try:
            _finish(loop, grace_s)
        finally:
            loop.close()


def _finish(loop: asyncio.AbstractEventLoop, grace_s: float) -> None:
    """Cancel what is left, wait at most `grace_s` for it, then let go of the rest (they cannot hold the exit)."""
    left = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in left:
        task.cancel()
    if left:
        loop.run_until_complete(asyncio.wait(left, timeout=grace_s))
    for task in left:
        if not task.done():
            task._log_destroy_pending = False  # type: ignore[attr-defined]  # abandoned on purpose
        elif not task.cancelled():
            task.exception()  # retrieved: it was the run's business, not something to log at exit
    try:
        loop.run_until_complete(asyncio.wait_for(loop.shutdown_asyncgens(), grace_s))
        loop.run_until_complete(asyncio.wait_for(loop.shutdown_default_executor(), grace_s))
    except (asyncio.TimeoutError, RuntimeError):
        pass
