"""A person plays the provider ("Jax") at the terminal, with the response tree on screen (the paper's L2H setting).

The tree is printed once with a legend, and again on /tree; each later turn shows only the seeker's line and the
ids that can be given now. The person types the root's id `0` first (the first answer), then a node id of the
frontier (that node's text is sent verbatim, as Response I) or free text (a Response II reply that reveals
nothing). Nothing that looks like a node id is ever sent as text: an id that is not in the tree, locked or already
given is refused with the reason. Lines starting with `/` are commands, never sent: /help, /tree, /quit (or Ctrl-D:
stop the dialogue; a provider cannot end it). Input and output are injectable for tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.errors import PlayQuit
from ..core.tasks import ROOT_ID, Task
from ..core.terminal import read_line
from ..core.transcript import Intent, ReplyKind, Speaker, Turn
from .base import ProviderState, ProviderTurn

NODE_ID = re.compile(r"^\d+(\.\d+)*$")
LEGEND = (
    "Legend: FRONTIER = can be given now (type its id); locked = its parent is not given yet; given = already "
    "told. Type 0 to give the first answer (the root), then a FRONTIER id or any text (a reply that reveals "
    "nothing). Commands (never sent): /tree, /help, /quit or Ctrl-D stops the dialogue."
)


class HumanProvider:
    """The provider typed by a person who sees the tree, the frontier and the seeker's turns."""

    def __init__(
        self,
        task: Task,
        *,
        ask: Callable[[str], str] | None = None,
        show: Callable[[str], None] | None = None,
        in_thread: bool = True,
    ) -> None:
        from .factory import make_provider

        self.task = task
        self.ask = ask or (lambda prompt: input(prompt))
        self.show = show or print
        self.in_thread = in_thread
        self.tree_shown = False
        self._greeting = make_provider("offline", task).greeting()

    def greeting(self) -> ProviderTurn:
        return self._greeting

    def show_tree(self, state: ProviderState) -> None:
        tree = self.task.tree
        marks = {
            node.id: ("given" if node.id in state.revealed else "FRONTIER" if node.id in state.frontier else "locked")
            for node in tree.required
        }
        self.show(f"\n[0] ({'given' if state.root_given else 'FIRST ANSWER'}) {tree.root.text}")
        for node in tree.required:
            self.show(f"{'  ' * node.depth}[{node.id}] ({marks[node.id]}) {node.text}")
        self.show(LEGEND)

    def _can_give(self, state: ProviderState) -> str:
        if not state.root_given:
            return "0 (the first answer)"
        return ", ".join(state.frontier) or "none left (reply with text)"

    def refusal(self, line: str, state: ProviderState) -> str:
        """Why an id cannot be given now."""
        if line not in self.task.tree:
            return f"there is no node {line} in this tree; type one of: {self._can_give(state)}"
        if line == ROOT_ID:
            return "the first answer (0) was already given; type a FRONTIER id or text"
        if not state.root_given:
            return f"give the first answer first: type 0 (node {line} comes after it)"
        if line in state.revealed:
            return f"node {line} was already given; can be given now: {self._can_give(state)}"
        return f"node {line} is locked (its parent is not given yet); can be given now: {self._can_give(state)}"

    async def respond(self, turns: list[Turn]) -> ProviderTurn:
        state = ProviderState.from_turns(self.task.tree, turns)
        if not self.tree_shown:
            self.show_tree(state)
            self.tree_shown = True
        last = next((t.text for t in reversed(turns) if t.speaker == Speaker.seeker), "")
        self.show(f"\nseeker: {last}\n(can be given now: {self._can_give(state)})")
        while True:
            line = await read_line(self.ask, "jax (node id or text)> ", in_thread=self.in_thread)
            if line is None or line.lower() in ("/quit", "/exit"):
                raise PlayQuit("the provider stopped the dialogue")
            if not line:
                continue
            if line.lower() == "/tree":
                self.show_tree(state)
            elif line.lower() == "/help":
                self.show(LEGEND)
            elif line.startswith("/"):
                self.show(f"unknown command {line.split()[0]}; {LEGEND}")
            elif not state.root_given and line == ROOT_ID:
                return ProviderTurn(text=self.task.tree.root.text, kind=ReplyKind.root, revealed=[ROOT_ID])
            elif line in state.frontier and state.root_given:
                node = self.task.tree[line]
                return ProviderTurn(
                    text=node.text, kind=ReplyKind.response_i, intent=Intent.answerable, revealed=[node.id]
                )
            elif NODE_ID.match(line):
                self.show(self.refusal(line, state))
            else:
                kind = ReplyKind.response_ii if state.root_given else ReplyKind.off_topic
                return ProviderTurn(text=line, kind=kind)
