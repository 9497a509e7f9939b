"""A person plays the provider ("Jax") at the terminal, with the response tree on screen (the paper's L2H setting).

Each turn the person types a node id from the shown frontier (that node's text is sent verbatim, as Response I;
`0` or the first answer gives the root) or free text (a Response II reply that reveals nothing). Input and output
are injectable for tests; reading runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from typing import Callable

from ..core.tasks import ROOT_ID, Task
from ..core.transcript import Intent, ReplyKind, Speaker, Turn
from .base import ProviderState, ProviderTurn


class HumanProvider:
    """The provider typed by a person who sees the tree, the frontier and the seeker's turns."""

    def __init__(
        self, task: Task, *, ask: Callable[[str], str] | None = None, show: Callable[[str], None] | None = None
    ) -> None:
        from .factory import make_provider

        self.task = task
        self.ask = ask or (lambda prompt: input(prompt))
        self.show = show or print
        self._greeting = make_provider("offline", task).greeting()

    def greeting(self) -> ProviderTurn:
        return self._greeting

    def _show_state(self, state: ProviderState, turns: list[Turn]) -> None:
        tree = self.task.tree
        marks = {node.id: ("given" if node.id in state.revealed else
                           "FRONTIER" if node.id in state.frontier else "locked") for node in tree.required}  # fmt: skip
        self.show(f"\n[0] ({'given' if state.root_given else 'FIRST ANSWER'}) {tree.root.text}")
        for node in tree.required:
            self.show(f"{'  ' * node.depth}[{node.id}] ({marks[node.id]}) {node.text}")
        last = next((t.text for t in reversed(turns) if t.speaker == Speaker.seeker), "")
        self.show(f"\nseeker: {last}")

    async def respond(self, turns: list[Turn]) -> ProviderTurn:
        state = ProviderState.from_turns(self.task.tree, turns)
        self._show_state(state, turns)
        while True:
            line = (await asyncio.to_thread(self.ask, "jax (node id or text)> ")).strip()
            if not line:
                continue
            if not state.root_given and line == ROOT_ID:
                return ProviderTurn(text=self.task.tree.root.text, kind=ReplyKind.root, revealed=[ROOT_ID])
            if line in state.frontier and state.root_given:
                node = self.task.tree[line]
                return ProviderTurn(text=node.text, kind=ReplyKind.response_i, intent=Intent.answerable,
                                    revealed=[node.id])  # fmt: skip
            if line in self.task.tree:
                self.show(f"node {line} cannot be given now (give the root first, then frontier nodes only)")
                continue
            kind = ReplyKind.response_ii if state.root_given else ReplyKind.off_topic
            return ProviderTurn(text=line, kind=kind)
