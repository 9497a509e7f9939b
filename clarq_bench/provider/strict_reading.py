"""The LLM provider's strict reading: the offline provider's reading of a seeker turn laid over its model's decision.

Why a separate, named setting: the paper's provider is its model, so by default nothing lexical overrules it. A user
who wants the offline provider's guards as well (the screen of sprays, repeats and instructions before the model;
the focus rule of what a question asks after it) asks for `--provider-reading strict`, and the run records it. This
module is the only place the LLM provider calls the shared reading modules (screen.py, answering.py, focus.py), through
`StrictReading.read`, so the reading behind it can change without touching the provider.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..core.tasks import Task
from ..core.transcript import Intent, Turn
from .base import ProviderMode
from .colloquial import written_turns
from .replies import SCREEN_TEMPLATES
from .verdicts import Screened, Verdict

if TYPE_CHECKING:  # the reader itself loads with the first strict provider: the default reading never needs it
    from .focus import FocusIndex
    from .screen import TurnScreen

#: Screened turns answered with fixed wording and no model call (screen.py): they ask no one specific question.
FIXED_SCREEN_REPLIES = {
    verdict: SCREEN_TEMPLATES[verdict.value].removeprefix("provider/")
    for verdict in Verdict
    if verdict.value in SCREEN_TEMPLATES
}


class TurnReading(NamedTuple):
    """A turn as a reading sees it: its screening (None: not screened) and, once the model has proposed, the proposed
    nodes the reading reveals and those a question of the turn asks about (before one reply's limits)."""

    screened: Screened | None = None
    revealed: Sequence[str] = ()
    asked: Sequence[str] = ()

    @property
    def verdict(self) -> Verdict | None:
        return self.screened.verdict if self.screened is not None else None

    @property
    def blocks_reveal(self) -> bool:
        return self.screened is not None and self.screened.blocks_reveal

    @property
    def intent(self) -> Intent | None:
        return self.screened.intent if self.screened is not None else None


class StrictReading:
    """The shared reading of one task, prepared once per provider."""

    def __init__(self, task: Task, mode: ProviderMode) -> None:
        from .prepared import prepared  # (the reader's modules: see TYPE_CHECKING above)

        shared = prepared(task)  # (built once per task content, shared with its other providers)
        self.screen: TurnScreen = shared.screen
        self.focus: FocusIndex = shared.focus
        self.multi_info = mode == ProviderMode.multi_info

    def read(
        self, turns: list[Turn], frontier: Sequence[str], proposed: list[str] | None, before: TurnReading | None = None
    ) -> TurnReading:
        """Without `proposed`: the screen (before the model is asked). With the model's frontier ids: what the focus
        rule lets through, none when `before` screened the turn out."""
        turns = written_turns(turns, self.focus.language)  # (as the offline provider reads it: colloquial.py)
        screened = before.screened if before is not None and before.screened is not None else self.screen(turns)
        if proposed is None:
            return TurnReading(screened)
        if screened.blocks_reveal:
            return TurnReading(screened)
        from .answering import read_turn

        answer = read_turn(self.focus, turns, proposed, multi_info=self.multi_info, frontier=frontier)
        return TurnReading(screened, answer.revealed, answer.asked)
