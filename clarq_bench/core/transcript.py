"""The record of one played dialogue: what was said, by whom, what it revealed and what it cost.

One Transcript is one JSON line in a run's transcripts.jsonl. The judge and metrics read only this; the leaderboard
verifies submissions from it. Closed vocabularies (speaker, intent, reply kind, end reason) are enums.
"""

from __future__ import annotations

from enum import Enum, IntEnum

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from .tasks import Language, Task


class Speaker(str, Enum):
    seeker = "seeker"
    provider = "provider"


class Intent(IntEnum):
    """The provider's reading of a post-root seeker turn (the paper's six intents)."""

    confirm_task = 1  # consulting about or confirming the whole task
    answerable = 2  # a clear question one frontier node answers
    unanswerable = 3  # a clear question no frontier node answers
    repeat = 4  # repeats an already answered question
    unrelated = 5  # chat unrelated to the task
    vague = 6  # "what's next?", "anything else?"


class ReplyKind(str, Enum):
    """What kind of provider utterance a turn is."""

    greeting = "greeting"  # turn 0
    root = "root"  # the deliberately incomplete first answer (node 0)
    off_topic = "off_topic"  # before the root: the seeker turn was not about the task
    response_i = "response_i"  # one or more tree nodes revealed verbatim
    response_ii = "response_ii"  # a generated reply that reveals nothing
    enough = "enough"  # frontier empty: "you already have enough information"


class EndReason(str, Enum):
    goodbye = "goodbye"
    turn_cap = "turn_cap"
    error = "error"
    budget = "budget"
    released = "released"  # imported from a released dialogue file; how it ended was not recorded


class Usage(BaseModel):
    """Tokens and dollars; added up per turn, per role and per run."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    calls: int = 0
    cached_calls: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
            calls=self.calls + other.calls,
            cached_calls=self.cached_calls + other.cached_calls,
        )


class Turn(BaseModel):
    """One utterance."""

    speaker: Speaker
    text: str
    intent: Intent | None = Field(default=None, description="Provider turns after the root: the seeker turn's intent.")
    kind: ReplyKind | None = Field(default=None, description="Provider turns: what kind of reply this is.")
    revealed: list[str] = Field(default_factory=list, description="Node ids the provider claims this turn reveals.")
    usage: Usage = Field(default_factory=Usage, description="Model usage spent producing this turn.")
    latency_s: float = 0.0
    notes: dict[str, object] = Field(
        default_factory=dict, description="Agent-specific facts: rationale, leakage-guard hits, model version, ..."
    )


class AgentInfo(BaseModel):
    """Who played a side: registry name, model (resolved version) and settings that matter for reproduction, plus
    what the leaderboard needs to tell rows apart: the endpoint the model was called at, the name a server answered
    as when it differs, whether a seeker was handed the response tree, and a deterministic provider's fingerprint."""

    name: str
    model: str | None = None
    settings: dict[str, object] = Field(default_factory=dict)
    endpoint: str | None = Field(default=None, description="Normalized --api-base (no credentials); None = default.")
    reported_model: str | None = Field(default=None, description="The model name the server reported, if different.")
    tree_access: bool = Field(
        default=False, description="Seeker built with the response tree (needs_tree): oracle-class."
    )
    fingerprint: str | None = Field(default=None, description="Deterministic provider: provider/identity.py digest.")


class OmitsUnsetScripted(BaseModel):
    """A model with an optional `scripted` replay record that dumps exactly as before the field existed when it is
    unset (None), so old records round-trip unchanged and sealed digests stay valid."""

    @model_serializer(mode="wrap")
    def _without_unset_scripted(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        data = handler(self)
        if data.get("scripted", 0) is None:
            del data["scripted"]
        return data


class ScriptedReplay(BaseModel):
    """A dialogue whose seeker replayed recorded turns (open loop): where our provider first decided differently.

    After that turn the recorded seeker goes on citing answers it never got from our provider, so the dialogue is
    no longer a measure of any seeker; reports show in-sync and diverged dialogues apart.
    """

    source: str = Field(description="The file the seeker turns were replayed from.")
    diverged_at: int | None = Field(
        default=None,
        description="Seeker turn (1 = the opening request) whose reply first differs from the recorded "
        "provider's decision (node ids newly revealed, the root included); None = in sync throughout.",
    )
    compared: int = Field(default=0, description="Seeker turns whose reply was compared with the recorded one.")


class Transcript(OmitsUnsetScripted):
    """One finished dialogue."""

    task_id: str
    language: Language
    type_number: int
    split: str = "test"
    task_hash: str = ""
    trial: int = 0
    seed: int = 0
    seeker: AgentInfo
    provider: AgentInfo
    turns: list[Turn]
    end_reason: EndReason
    error: str | None = None
    usage: dict[str, Usage] = Field(default_factory=dict, description="Usage per role: seeker, provider.")
    started_at: str | None = None
    finished_at: str | None = None
    scripted: ScriptedReplay | None = Field(default=None, description="Set when the seeker replayed recorded turns.")

    @classmethod
    def of_task(cls, task: Task, **fields: object) -> Transcript:
        """A transcript of `task`: its id, language, type, split and content hash filled in, the rest from fields."""
        return cls(
            task_id=task.id,
            language=task.language,
            type_number=task.type_number,
            split=task.split.value,
            task_hash=task.content_hash(),
            **fields,
        )

    @property
    def seeker_turns(self) -> list[Turn]:
        return [turn for turn in self.turns if turn.speaker == Speaker.seeker]

    @property
    def provider_turns(self) -> list[Turn]:
        return [turn for turn in self.turns if turn.speaker == Speaker.provider]

    @property
    def key(self) -> tuple[str, int]:
        """What a resume skips on: the (task, trial) pair."""
        return (self.task_id, self.trial)
