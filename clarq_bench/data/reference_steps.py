"""The released provider's decisions, turn by turn: a released dialogue as teacher-forced steps, each the dialogue
prefix (reference-annotated) up to a seeker turn and the node ids the released provider newly revealed in reply.

Reveals are inferred with the released judge's deterministic rule (textmatch.carries_node) over the task's nodes.
Read by the provider replay (fidelity/provider_eval.py) and the replay seeker; imports core and data only.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, Field

from ..core.tasks import ROOT_ID, Task, node_sort_key
from ..core.transcript import ReplyKind, Speaker, Turn
from .textmatch import carries_node
from .upstream import ReleasedDialogue


class ReplayStep(BaseModel):
    """One post-root seeker turn of a released dialogue, with the reference provider's decision on it."""

    task_id: str
    language: str
    type_number: int
    source: str
    turn_index: int = Field(description="Index of the seeker turn in the dialogue's lines.")
    prefix: list[Turn] = Field(description="The dialogue up to and including this seeker turn, reference-annotated.")
    frontier: list[str]
    reference: list[str] = Field(description="Node ids the reference newly revealed in its reply (empty: none).")
    reference_text: str


def reference_reveals(task: Task, utterance: str, already: Iterable[str]) -> list[str]:
    """Non-root nodes the utterance carries that were not revealed before, in id order."""
    done = set(already)
    return [
        node.id
        for node in task.tree.required
        if node.id not in done and carries_node(utterance, node.text, task.language)
    ]


def replay_steps(dialogue: ReleasedDialogue) -> list[ReplayStep]:
    """The teacher-forced steps of one released dialogue (the root turn is provider_lines[1]; the final seeker
    turn, which got no reply, is not a step)."""
    task, lines = dialogue.task, dialogue.lines
    turns: list[Turn] = [Turn(speaker=Speaker.provider, text=lines[0], kind=ReplyKind.greeting)]
    revealed: list[str] = []
    steps: list[ReplayStep] = []
    for index in range(1, len(lines)):
        text = lines[index]
        if index % 2 == 1:  # seeker
            turns.append(Turn(speaker=Speaker.seeker, text=text))
            continue
        seeker_index = index - 1
        if index == 2:  # the root turn
            turns.append(Turn(speaker=Speaker.provider, text=text, kind=ReplyKind.root, revealed=[ROOT_ID]))
            continue
        new = reference_reveals(task, text, revealed)
        steps.append(
            ReplayStep(
                task_id=task.id,
                language=task.language,
                type_number=task.type_number,
                source=dialogue.source,
                turn_index=seeker_index,
                prefix=list(turns),
                frontier=task.tree.frontier(revealed),
                reference=new,
                reference_text=text,
            )
        )
        kind = ReplyKind.response_i if new else ReplyKind.response_ii
        turns.append(Turn(speaker=Speaker.provider, text=text, kind=kind, revealed=new))
        revealed = sorted(set(revealed) | set(new), key=node_sort_key)
    return steps
