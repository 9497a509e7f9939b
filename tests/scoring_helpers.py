"""Hand-made tasks and transcripts for the judge, metrics, score and compare tests."""

from __future__ import annotations

from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import AgentInfo, EndReason, Intent, ReplyKind, Speaker, Transcript, Turn

ROOT = "You need to collect the gem from the cave."
CAVE = "The cave is behind the waterfall."
TORCH = "Bring a torch because the cave is dark."
SILK = "The gem must be wrapped in silk."
GREETING = "Jax: what can help you?"


def make_task(language: str = "en", type_number: int = 1, index: int = 0, texts: dict[str, str] | None = None) -> Task:
    """Root + nodes 1, 1.1, 2: three required nodes, depth 2."""
    texts = texts or {"0": ROOT, "1": CAVE, "1.1": TORCH, "2": SILK}
    tree = ResponseTree.build((node_id, text, None) for node_id, text in texts.items())
    return Task(
        id=f"{language}/{type_number:02d}/{index}",
        language=language,  # type: ignore[arg-type]
        type_number=type_number,
        type_name="Gather Resources",
        index=index,
        split=Split.test if type_number <= 26 else Split.dev,
        brief=TaskBrief(role="adventurer", task_name="collect the gem", background="Collect the gem."),
        tree=tree,
    )


def seeker(text: str) -> Turn:
    return Turn(speaker=Speaker.seeker, text=text)


def provider(
    text: str, kind: ReplyKind | None = None, intent: Intent | None = None, revealed: list[str] | None = None
) -> Turn:
    return Turn(speaker=Speaker.provider, text=text, kind=kind, intent=intent, revealed=revealed or [])


def make_transcript(
    task: Task, turns: list[Turn], *, end: EndReason = EndReason.goodbye, trial: int = 0, name: str = "scripted"
) -> Transcript:
    return Transcript.of_task(
        task,
        trial=trial,
        seeker=AgentInfo(name=name),
        provider=AgentInfo(name="offline"),
        turns=turns,
        end_reason=end,
    )


def perfect_turns() -> list[Turn]:
    """Opening, three questions that each obtain a node, goodbye (no provider reply after it)."""
    return [
        provider(GREETING, ReplyKind.greeting),
        seeker("Hi Jax, I need to collect the gem."),
        provider(f"Jax: {ROOT}", ReplyKind.root),
        seeker("Where is the cave?"),
        provider(f"Jax: {CAVE}", ReplyKind.response_i, Intent.answerable, ["1"]),
        seeker("Is it dark inside?"),
        provider(f"Sure. {TORCH[:-1]}!", ReplyKind.response_i, Intent.answerable, ["1.1"]),
        seeker("How do I carry the gem?"),
        provider(SILK.upper(), ReplyKind.response_i, Intent.answerable, ["2"]),
        seeker("Thanks, Goodbye."),
    ]
