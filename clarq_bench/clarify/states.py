"""Clarification states: every point of a task's human path, each with its need label and the dialogue so far.

A task with n required nodes gives n + 1 states. State k has the first k nodes of the human path revealed (the
oracle's order: always the first frontier node) and its frontier is what a question could elicit next; state n is
the "complete" control, where every required node was given and no question is needed.

Need on ClariQ's 1-4 scale, read from the tree alone: the share s of required nodes still unrevealed gives 1 when
s = 0 (nothing left to ask), 2 when s <= 1/3 (most is known; asking helps but an answer could be attempted), 3 when
s <= 2/3, and 4 when more than two thirds are missing (no answer is possible without asking). The binary label is
need > 1. The dialogue so far is the greeting, the seeker's opening request, the root answer, then for each
revealed node the oracle's question about it (phrased from its explanation) and the node's text as the reply.
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field

from ..core import prompts
from ..core.tasks import ROOT_ID, Language, Task
from ..core.transcript import ReplyKind, Speaker, Turn
from ..seekers import DialogueView, SeekerTask
from ..seekers.baselines import opening
from ..seekers.oracle import oracle_path, oracle_script


class ClarifyState(BaseModel):
    """One decision point: what was revealed, what could be elicited next, and how much a question is needed."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="`<task id>#<k>`: k nodes of the human path revealed.")
    task_id: str
    language: Language
    type_number: int
    step: int
    revealed: tuple[str, ...]
    frontier: tuple[str, ...] = Field(description="Nodes a question could elicit now (empty for the control).")
    need: int = Field(ge=1, le=4, description="Gold need, 1 (none) to 4 (cannot answer without asking).")
    turns: tuple[Turn, ...] = Field(description="The dialogue so far, greeting first; seeker to speak next.")

    @property
    def needed(self) -> bool:
        return self.need > 1


def need_grade(unrevealed: int, required: int) -> int:
    """The 1-4 need of a state with `unrevealed` of `required` nodes still missing (see the module docstring)."""
    if unrevealed <= 0 or required <= 0:
        return 1
    share = Fraction(unrevealed, required)
    return 2 if share <= Fraction(1, 3) else 3 if share <= Fraction(2, 3) else 4


def task_states(task: Task) -> list[ClarifyState]:
    """The n + 1 states of one task along its human path."""
    path = oracle_path(task)
    questions = oracle_script(task)
    language = task.language
    turns = [
        Turn(speaker=Speaker.provider, text=prompts.load("clarify/greeting", language), kind=ReplyKind.greeting),
        Turn(speaker=Speaker.seeker, text=opening(SeekerTask.of(task))),
        Turn(speaker=Speaker.provider, text=task.tree.root.text, kind=ReplyKind.root, revealed=[ROOT_ID]),
    ]
    states = []
    for step in range(len(path) + 1):
        revealed = tuple(path[:step])
        states.append(
            ClarifyState(
                id=f"{task.id}#{step}",
                task_id=task.id,
                language=language,
                type_number=task.type_number,
                step=step,
                revealed=revealed,
                frontier=tuple(task.tree.frontier(revealed)),
                need=need_grade(len(path) - step, len(path)),
                turns=tuple(turns),
            )
        )
        if step < len(path):
            node = path[step]
            turns += [
                Turn(speaker=Speaker.seeker, text=questions[step]),
                Turn(speaker=Speaker.provider, text=task.tree[node].text, kind=ReplyKind.response_i, revealed=[node]),
            ]
    return states


def build_states(tasks: list[Task]) -> list[ClarifyState]:
    """Every state of every task, in task order."""
    return [state for task in tasks for state in task_states(task)]


def view_of(state: ClarifyState, task: Task, *, seed: int = 0) -> DialogueView:
    """What a seeker sees at this state: the brief and the dialogue so far, never the tree."""
    return DialogueView(task_id=task.id, language=task.language, brief=task.brief, turns=state.turns, seed=seed)
