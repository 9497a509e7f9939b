"""The API's synchronous calls start their own event loop; inside a running one they cannot, and say what to await."""

from __future__ import annotations


def outside_event_loop(name: str) -> None:
    """asyncio.run cannot start inside a running loop (Jupyter, an async app): say which call to await instead."""
    import asyncio

    from ..core.errors import ClarqError

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise ClarqError(
        f"clarq.{name}() was called inside a running event loop (Jupyter, an async app)",
        f"use `await clarq.{name}_async(...)` there",
    )
