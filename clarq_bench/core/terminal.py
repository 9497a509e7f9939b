"""Reading a person's line at the terminal for the human seeker and provider (`clarq play`, `--seeker human`).

Why: input() in a worker thread cannot be interrupted: Ctrl-C then waits for Enter, because the event loop joins
the thread at exit. `clarq play` plays one dialogue, so it reads on the calling thread (`in_thread=False`), where
Ctrl-C interrupts input() at once; a run of many dialogues keeps the worker thread so the others go on. Ctrl-D
(EOFError) is returned as None: each side decides what ending the input means.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def read_line(ask: Callable[[str], str], prompt: str, *, in_thread: bool = True) -> str | None:
    """One stripped line, or None at end of input (Ctrl-D)."""
    try:
        line = await asyncio.to_thread(ask, prompt) if in_thread else ask(prompt)
    except EOFError:
        return None
    return line.strip()
