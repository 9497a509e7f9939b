"""Tasks and their response trees.

A Task is what one dialogue is played on: a seeker-facing brief and the provider's annotated tree of responses.
The tree owns the gating rule (only the frontier can be revealed, a child never before its parent), so every
provider, the judge and the oracle seeker share one definition. Nothing here reads files (see data.py).
"""

from __future__ import annotations

import hashlib
import json
import weakref
from collections.abc import Callable, Iterable
from enum import Enum
from functools import cached_property, lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Language = Literal["en", "zh"]
ROOT_ID = "0"

#: Task types 1-26 form the test split, 27-31 the dev split (the upstream README's "25-31" is a typo).
FIRST_DEV_TYPE = 27


class Split(str, Enum):
    test = "test"
    dev = "dev"


def split_of_type(type_number: int) -> Split:
    return Split.dev if type_number >= FIRST_DEV_TYPE else Split.test


@lru_cache(maxsize=16384)  # the same few ids, sorted again at every provider turn
def node_sort_key(node_id: str) -> tuple[int, ...]:
    """Order ids by their full numeric path (`1.1.2` after `1.1.1`, `10` after `9`), never by set order."""
    return tuple(int(part) for part in node_id.split("."))


def parent_id(node_id: str) -> str | None:
    """`1.2.3` -> `1.2`; top-level ids hang under the root `0`; the root has no parent."""
    if node_id == ROOT_ID:
        return None
    head, dot, _ = node_id.rpartition(".")
    return head if dot else ROOT_ID


class ResponseNode(BaseModel):
    """One line of the human provider's answer: the root (`0`) or a piece of required information."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="Dotted path: `0` root, `1`, `1.1`, ...")
    text: str = Field(description="The provider's words, speaker prefix stripped; revealed verbatim.")
    explanation: str | None = Field(
        default=None, description="Which uncertainty this node resolves and when to use it (absent in dev files)."
    )
    parent: str | None = Field(default=None, description="Parent id; None for the root.")
    children: tuple[str, ...] = Field(default=(), description="Child ids in numeric order.")

    @property
    def depth(self) -> int:
        """Root 0, top-level nodes 1, their children 2, ..."""
        return 0 if self.id == ROOT_ID else len(self.id.split("."))


class ResponseTree(BaseModel):
    """The annotated tree of one task. Nodes are stored in numeric id order."""

    model_config = ConfigDict(frozen=True)

    nodes: tuple[ResponseNode, ...]

    @classmethod
    def build(cls, items: Iterable[tuple[str, str, str | None]]) -> ResponseTree:
        """Build from (id, text, explanation) triples; parents and children are derived, ids sorted numerically.

        Raises ValueError on a missing root, a duplicate id, a malformed id or a missing parent.
        """
        entries = list(items)
        seen: dict[str, tuple[str, str | None]] = {}
        for node_id, text, explanation in entries:
            if not node_id or not all(part.isdigit() for part in node_id.split(".")):
                raise ValueError(f"malformed node id {node_id!r}")
            if node_id in seen:
                raise ValueError(f"duplicate node id {node_id!r}")
            seen[node_id] = (text, explanation)
        if ROOT_ID not in seen:
            raise ValueError("no root node (id 0)")
        for node_id in seen:
            parent = parent_id(node_id)
            if parent is not None and parent not in seen:
                raise ValueError(f"node {node_id!r} has no parent {parent!r}")
            if node_id != ROOT_ID and node_id.startswith("0."):
                raise ValueError(f"node id {node_id!r} may not hang under the root's own id")
        ordered = sorted(seen, key=node_sort_key)
        children: dict[str, list[str]] = {node_id: [] for node_id in ordered}
        for node_id in ordered:
            parent = parent_id(node_id)
            if parent is not None:
                children[parent].append(node_id)
        return cls(
            nodes=tuple(
                ResponseNode(
                    id=node_id,
                    text=seen[node_id][0],
                    explanation=seen[node_id][1],
                    parent=parent_id(node_id),
                    children=tuple(children[node_id]),
                )
                for node_id in ordered
            )
        )

    @cached_property
    def _by_id(self) -> dict[str, ResponseNode]:
        return {node.id: node for node in self.nodes}

    def __getitem__(self, node_id: str) -> ResponseNode:
        return self._by_id[node_id]

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._by_id

    @property
    def root(self) -> ResponseNode:
        return self._by_id[ROOT_ID]

    @property
    def required_ids(self) -> list[str]:
        """Every non-root node: all of them must be obtained for success."""
        return [node.id for node in self.nodes if node.id != ROOT_ID]

    @property
    def required(self) -> list[ResponseNode]:
        return [node for node in self.nodes if node.id != ROOT_ID]

    @property
    def depth(self) -> int:
        """Depth of the deepest node (0 for a root-only tree)."""
        return max(node.depth for node in self.nodes)

    def initial_frontier(self) -> list[str]:
        """What may be revealed right after the root: the top-level nodes."""
        return list(self.root.children)

    def frontier(self, revealed: Iterable[str]) -> list[str]:
        """Unrevealed nodes whose parent is the root or already revealed, in numeric order."""
        done = set(revealed)
        return [
            node.id
            for node in self.nodes
            if node.id != ROOT_ID and node.id not in done and (node.parent == ROOT_ID or node.parent in done)
        ]

    def reveal(self, frontier: Iterable[str], node_id: str) -> list[str]:
        """The frontier after revealing `node_id`: it leaves, its children join. Only a frontier node may go."""
        current = list(frontier)
        if node_id not in current:
            raise ValueError(f"node {node_id!r} is not on the frontier {current}")
        merged = [other for other in current if other != node_id] + list(self[node_id].children)
        return sorted(merged, key=node_sort_key)


class TaskBrief(BaseModel):
    """Everything the seeker may see: role, task, items, skills, scenes and the prose background."""

    model_config = ConfigDict(frozen=True)

    role: str
    task_name: str
    items: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    scenes: tuple[str, ...] = ()
    background: str


class Task(BaseModel):
    """One benchmark task: a brief for the seeker and a response tree for the provider."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="Stable id `language/type/index`, e.g. `en/03/3` (index 0-based in its file).")
    language: Language
    type_number: int
    type_name: str
    index: int
    split: Split
    brief: TaskBrief
    tree: ResponseTree
    source: str = Field(default="", description="File the task was read from (for messages only).")

    @property
    def required_count(self) -> int:
        return len(self.tree.required_ids)

    def content_hash(self) -> str:
        """SHA-256 of what decides the task's behaviour (brief and tree), independent of where it was read from.
        Computed once per task object (a task is immutable all the way down; a run asks for it per dialogue)."""
        kept = _CONTENT_HASHES.get(id(self))
        if kept is not None and kept[0]() is self:
            return kept[1]
        digest = self._content_hash()
        _CONTENT_HASHES[id(self)] = (weakref.ref(self, _forget(id(self))), digest)
        return digest

    def _content_hash(self) -> str:
        payload = {
            "language": self.language,
            "type": self.type_number,
            "index": self.index,
            "brief": self.brief.model_dump(mode="json"),
            "tree": [node.model_dump(mode="json") for node in self.tree.nodes],
        }
        blob = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()


#: id(task) -> (a weak reference to it, its content hash); the entry goes when the task does.
_CONTENT_HASHES: dict[int, tuple[weakref.ref[Task], str]] = {}


def _forget(key: int) -> Callable[[object], None]:
    """The weak reference's callback: drop the task's entry when it is gone."""

    def forget(_: object) -> None:
        _CONTENT_HASHES.pop(key, None)

    return forget


def make_task_id(language: str, type_number: int, index: int) -> str:
    return f"{language}/{type_number:02d}/{index}"
