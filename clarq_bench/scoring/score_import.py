"""Released dialogue files -> our Transcripts, so `clarq score` and `clarq compare` read them like any run.

The released text is kept as it is. What the files do not record is reconstructed and marked as such: the seeker is
"released", the provider "released-gpt-4o"; the provider turn after the greeting is the root (the released
convention); the node ids a provider turn reveals are inferred with the released matching rule
(clarq_bench.data.textmatch.carries_node); intents are unknown; the end reason is `released`.
"""

from __future__ import annotations

from pathlib import Path

from ..core.tasks import Task
from ..core.transcript import AgentInfo, EndReason, ReplyKind, Speaker, Transcript, Turn
from ..data.textmatch import carries_node
from ..data.upstream import ReleasedDialogue, load_released_dialogues, released_files

SEEKER_NAME = "released"
PROVIDER_NAME = "released-gpt-4o"


def transcript_from_released(dialogue: ReleasedDialogue) -> Transcript:
    """One released dialogue as a Transcript (the task stays on the dialogue)."""
    task = dialogue.task
    turns: list[Turn] = []
    revealed: list[str]
    provider_count = 0
    for position, line in enumerate(dialogue.lines):
        if position % 2 == 1:
            turns.append(Turn(speaker=Speaker.seeker, text=line))
            continue
        if provider_count == 0:
            kind, revealed = ReplyKind.greeting, []
        elif provider_count == 1:
            kind, revealed = ReplyKind.root, []
        else:
            revealed = [node.id for node in task.tree.required if carries_node(line, node.text, task.language)]
            kind = ReplyKind.response_i if revealed else ReplyKind.response_ii
        provider_count += 1
        turns.append(Turn(speaker=Speaker.provider, text=line, kind=kind, revealed=revealed))
    source = Path(dialogue.source).name
    return Transcript.of_task(
        task,
        seeker=AgentInfo(name=SEEKER_NAME, model="gpt-4o", settings={"source": source}),
        provider=AgentInfo(name=PROVIDER_NAME, model="gpt-4o-2024-05-13", settings={"source": source}),
        turns=turns,
        end_reason=EndReason.released,
    )


def import_released(path: str | Path) -> list[tuple[Transcript, Task]]:
    """Every dialogue of one released results file (or of every results file in a folder), with its task."""
    pairs: list[tuple[Transcript, Task]] = []
    for file in released_files(path):
        pairs.extend((transcript_from_released(d), d.task) for d in load_released_dialogues(file))
    return pairs
