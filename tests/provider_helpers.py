"""Hand-made tasks for the provider tests: a brief and a tree of nodes, as one released task would give them."""

from __future__ import annotations

from collections.abc import Iterable

from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief


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
