"""Hand-made tasks for the provider tests: a brief and a tree of nodes, as one released task would give them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import ReplyKind, Speaker, Turn


def synthetic_task(
    language: str,
    brief: TaskBrief,
    nodes: Iterable[tuple[str, str, str | None]],
    type_number: int = 15,
    type_name: str = "Exploration Task",
) -> Task:
    """A test-split task of the given type with this brief and these (id, text, explanation) nodes."""
    return Task(
        id=f"{language}/{type_number}/0",
        language=language,
        type_number=type_number,
        type_name=type_name,
        index=0,
        split=Split.test,
        brief=brief,
        tree=ResponseTree.build(nodes),
    )


def after_root(root: str, question: str) -> list[Turn]:
    """A dialogue of the greeting, an opening request, Jax's root reply `root`, and then `question`."""
    return [
        Turn(speaker=Speaker.provider, text="hi", kind=ReplyKind.greeting),
        Turn(speaker=Speaker.seeker, text="What do I do?"),
        Turn(speaker=Speaker.provider, text=root, kind=ReplyKind.root, revealed=["0"]),
        Turn(speaker=Speaker.seeker, text=question),
    ]


def revealed_after_root(task: Task, root: str, question: str, frontier: Sequence[str]) -> list[str]:
    """The nodes the offline reading gives `question` asked right after the root `root`, the matcher proposing every
    node of `frontier`."""
    from clarq_bench.provider.answering import answer
    from clarq_bench.provider.focus import FocusIndex

    nodes = list(frontier)
    return answer(FocusIndex(task), after_root(root, question), nodes, multi_info=False, frontier=nodes)
