"""ScriptedModel: a model that answers from a list or a function, with no HTTP, for tests and offline demos.

Register it with `LLMClient(settings, scripted={"scripted/name": ScriptedModel([...])})`; the client's JSON parsing,
re-asks, accounting and limits all run as for a real model. Token counts come from text length (4 characters per
token), cost is zero.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from .fake_openai import estimate_tokens

Messages = list[dict[str, Any]]
Script = Sequence[str | BaseException] | Callable[[Messages], str | Awaitable[str]]


class ScriptExhausted(RuntimeError):
    """The scripted model was called more times than it has replies (a test bug, so it keeps its traceback)."""


class ScriptedModel:
    """Replies in order from a list (an exception in the list is raised instead), or from `fn(messages)`.

    `calls` records the messages of every call, in order.
    """

    def __init__(self, script: Script) -> None:
        self._fn = script if callable(script) else None
        self._replies = [] if callable(script) else list(script)
        self._lock = threading.Lock()
        self.calls: list[Messages] = []

    def __call__(self, messages: Messages) -> str | Awaitable[str]:
        with self._lock:
            self.calls.append([dict(m) for m in messages])
            if self._fn is not None:
                return self._fn(messages)
            if not self._replies:
                raise ScriptExhausted(f"scripted model called {len(self.calls)} times but has no reply left")
            item = self._replies.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item

    @property
    def remaining(self) -> int:
        """Replies not yet used (0 for a function script)."""
        return len(self._replies)

    @staticmethod
    def usage_for(messages: Messages, text: str) -> tuple[int, int]:
        """(prompt_tokens, completion_tokens) as the fake server would count them."""
        prompt = "".join(str(m.get("content", "")) for m in messages)
        return estimate_tokens(prompt), estimate_tokens(text)
