"""The seeker protocol and what a seeker may see: the brief and the dialogue so far, never the tree."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from ..core.tasks import Language, TaskBrief
from ..core.transcript import Speaker, Turn


class DialogueView(BaseModel):
    """The seeker's window on a dialogue: task brief, language, and the turns so far (greeting first)."""

    model_config = ConfigDict(frozen=True)

    task_id: str
    language: Language
    brief: TaskBrief
    turns: tuple[Turn, ...]
    trial: int = 0
    seed: int = 0

    @property
    def last_provider_text(self) -> str:
        for turn in reversed(self.turns):
            if turn.speaker == Speaker.provider:
                return turn.text
        return ""


@runtime_checkable
class Seeker(Protocol):
    """The system under test: given the view, say the next seeker utterance."""

    async def respond(self, view: DialogueView) -> str: ...
