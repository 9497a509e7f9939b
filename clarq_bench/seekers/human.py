"""The `human` seeker: a person types the seeker's lines at the terminal (the paper's H2L setting).

The person sees what any seeker sees: the brief and the provider's replies, never the tree. Lines starting with `/`
are commands for the terminal, never sent: /help, /brief (show it again), /quit (or Ctrl-D: say goodbye, which
ends the dialogue as any seeker's goodbye does). Input and output are injectable (`ask`, `show`) so the seeker can
be driven from tests or another front end.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.terminal import read_line
from ..core.transcript import Speaker
from .base import DialogueView
from .registry import SeekerConfig, SeekerTask

HELP = (
    "Type your question to Jax and press Enter. Say goodbye when you have what you need (that ends the "
    "dialogue). Commands (never sent): /help, /brief shows the task again, /quit or Ctrl-D says goodbye, "
    "Ctrl-C stops without a result."
)
GOODBYE = {"en": "Thank you, goodbye.", "zh": "谢谢，再见。"}


class HumanSeeker:
    """A person at the terminal types the seeker's turns (run with --concurrency 1)."""

    person = True  # its turns come from someone at this process (runner/dialogue_pool.py keeps it here)

    def __init__(
        self,
        task: SeekerTask,
        config: SeekerConfig | None = None,
        *,
        ask: Callable[[str], str] | None = None,
        show: Callable[[str], None] | None = None,
        in_thread: bool = True,
    ) -> None:
        self.task = task
        self.ask = ask or (lambda prompt: input(prompt))
        self.show = show or print
        self.in_thread = in_thread
        self.shown = 0

    def _brief(self) -> str:
        return f"== {self.task.id}: {self.task.brief.task_name}\n{self.task.brief.background}\n"

    async def respond(self, view: DialogueView) -> str:
        if self.shown == 0:
            self.show(self._brief() + f"({HELP})\n")
        for turn in view.turns[self.shown :]:
            if turn.speaker == Speaker.provider:
                self.show(f"Jax: {turn.text}")
        self.shown = len(view.turns) + 1  # our own line is next; no need to echo it back
        while True:
            line = await read_line(self.ask, "you> ", in_thread=self.in_thread)
            if line is None or line.lower() in ("/quit", "/exit"):
                goodbye = GOODBYE.get(self.task.language, GOODBYE["en"])
                self.show(f"(you said: {goodbye})")
                return goodbye
            if line.lower() == "/help":
                self.show(HELP)
            elif line.lower() == "/brief":
                self.show(self._brief())
            elif line.startswith("/"):
                self.show(f"unknown command {line.split()[0]}; {HELP}")
            elif line:
                return line
