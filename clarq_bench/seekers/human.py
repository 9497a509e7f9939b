"""The `human` seeker: a person types the seeker's lines at the terminal (the paper's H2L setting).

The person sees what any seeker sees: the brief and the provider's replies, never the tree. Input and output are
injectable (`ask`, `show`) so the seeker can be driven from tests or another front end; reading happens in a
worker thread so the event loop stays free.
"""

from __future__ import annotations

import asyncio
from typing import Callable

from ..core.transcript import Speaker
from .base import DialogueView
from .registry import SeekerConfig, SeekerTask


class HumanSeeker:
    """A person at the terminal types the seeker's turns (run with --concurrency 1)."""

    def __init__(
        self,
        task: SeekerTask,
        config: SeekerConfig | None = None,
        *,
        ask: Callable[[str], str] | None = None,
        show: Callable[[str], None] | None = None,
    ) -> None:
        self.task = task
        self.ask = ask or (lambda prompt: input(prompt))
        self.show = show or print
        self.shown = 0

    async def respond(self, view: DialogueView) -> str:
        if self.shown == 0:
            self.show(f"== {self.task.id}: {self.task.brief.task_name}\n{self.task.brief.background}\n")
        for turn in view.turns[self.shown:]:
            if turn.speaker == Speaker.provider:
                self.show(f"Jax: {turn.text}")
        self.shown = len(view.turns) + 1  # our own line is next; no need to echo it back
        while True:
            line = (await asyncio.to_thread(self.ask, "you> ")).strip()
            if line:
                return line
