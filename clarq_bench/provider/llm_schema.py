"""The JSON replies the LLM provider asks its model for: one decision per seeker turn.

Kept apart from the provider so the schema (what the model may say) can be read, tested and versioned on its own.
The decision is deliberately small: an intent, the frontier ids the model thinks answer the turn, whether the turn
is a summary asking for confirmation, and a one-sentence rationale. Anything it says about ids is advice only: the
provider keeps only frontier ids (tree gating) and records the rest.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator


class GateDecision(BaseModel):
    """Before the root: is the seeker's turn about the task at all?"""

    related: bool = Field(description="True when the message asks for help with the task (or greets and asks).")
    rationale: str = Field(default="", description="One short sentence saying why.")


class TurnDecision(BaseModel):
    """After the root: the seeker turn's intent (1-6) and the prepared answers, by id, that address it."""

    intent: int = Field(
        ge=1,
        le=6,
        description="1 whole-task consult/confirm, 2 answerable, 3 unanswerable, 4 repeat, 5 unrelated, 6 vague.",
    )
    node_ids: list[str] = Field(default_factory=list, description="Ids of offered answers that address the turn.")
    summary_confirmation: bool = Field(
        default=False, description="The turn restates the plan and asks whether it is right."
    )
    rationale: str = Field(default="", description="One short sentence saying why.")

    @field_validator("node_ids", mode="before")
    @classmethod
    def _ids_as_strings(cls, value: object) -> object:
        """Models often write ids as numbers (1, 1.1) or one bare id; ids are strings without blanks."""
        if value is None:
            return []
        if isinstance(value, (str, int, float)):
            value = [value]
        if isinstance(value, list):
            return [str(item).strip() for item in value if str(item).strip()]
        return value
