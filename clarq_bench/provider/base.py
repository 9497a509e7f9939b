"""What every provider shares: the reply record, the gating state derived from the dialogue, the protocol.

State is never kept on the side: it is recomputed from the dialogue's provider turns (root given? which ids
revealed?), so a provider can be teacher-forced by handing it any annotated dialogue prefix (provider replay),
and a resumed or replayed dialogue cannot drift from what was actually said.
"""

from __future__ import annotations

from enum import Enum
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

from ..core.tasks import ResponseTree, node_sort_key
from ..core.transcript import Intent, ReplyKind, Speaker, Turn, Usage


class ProviderMode(str, Enum):
    """How many nodes one provider reply may reveal: one (as in the paper) or every frontier node a turn answers."""

    single = "single"
    multi_info = "multi-info"


class ProviderReading(str, Enum):
    """Who decides what an LLM provider's turn asks. `model` (the default, as in the paper): its model decides, within
    the tree's constraints only. `strict`: the offline provider's lexical reading of the turn (its screen and its
    focus rule) may also refuse what the model chose. Recorded with the run: the two are different settings."""

    model = "model"
    strict = "strict"


class ProviderTurn(BaseModel):
    """One provider reply: its text, what kind it is, the seeker intent it answered and the nodes it revealed."""

    text: str
    kind: ReplyKind
    intent: Intent | None = None
    revealed: list[str] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    notes: dict[str, object] = Field(default_factory=dict)

    def to_turn(self, latency_s: float = 0.0) -> Turn:
        return Turn(
            speaker=Speaker.provider,
            text=self.text,
            intent=self.intent,
            kind=self.kind,
            revealed=list(self.revealed),
            usage=self.usage,
            latency_s=latency_s,
            notes=dict(self.notes),
        )


class ProviderState(BaseModel):
    """Gating state: whether the root was given, what was revealed, and what may be revealed next."""

    root_given: bool
    revealed: list[str]
    frontier: list[str]

    @classmethod
    def from_turns(cls, tree: ResponseTree, turns: list[Turn]) -> ProviderState:
        """Fold the provider turns so far: a `root` turn gives the root; `revealed` ids leave the frontier."""
        root_given = False
        revealed: set[str] = set()
        for turn in turns:
            if turn.speaker != Speaker.provider:
                continue
            if turn.kind == ReplyKind.root:
                root_given = True
            revealed.update(node_id for node_id in turn.revealed if node_id in tree)
        ordered = sorted(revealed, key=node_sort_key)
        return cls(root_given=root_given, revealed=ordered, frontier=tree.frontier(ordered))


@runtime_checkable
class Provider(Protocol):
    """A simulated human provider for one task. Created per task; `turns` ends with the seeker's latest turn."""

    async def respond(self, turns: list[Turn]) -> ProviderTurn: ...

    def greeting(self) -> ProviderTurn:
        """Turn 0, before the seeker speaks."""
        ...
