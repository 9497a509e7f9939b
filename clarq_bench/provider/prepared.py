"""What a provider reads of its task before any dialogue, prepared once per task content and shared.

Why: a run builds one provider per dialogue, and several dialogues share a task (seekers, samples, replays, both
modes of `clarq provider-eval`). The task's term weights (TaskIndex), its screen (TurnScreen) and its focus reading
(FocusIndex) depend only on its brief and tree and took several ms a task to build. Each is a pure reader of the
task: its memo tables hold pure readings of it, so every provider of the same content may share one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import NamedTuple

from ..core.tasks import Task
from . import prepared_store
from .focus import FocusIndex
from .lexical import TaskIndex, tokens
from .screen import TurnScreen

#: Tasks kept prepared (least recently used first out): the released tasks of both languages fit.
PREPARED_TASKS = 1024


class PreparedTask(NamedTuple):
    """One task's readers, shared by its providers (never mutated by them beyond their pure memo tables)."""

    matcher: TaskIndex  # (the term weights and node documents: TaskIndex)
    screen: TurnScreen
    focus: FocusIndex
    vocabulary: frozenset[str]  # the content terms of the brief and the root (is_related, classify_unmatched)


#: FocusIndex's readings of the task alone that it makes on first use: made here, so they are stored with the
#: readers (prepared_store.py) instead of falling on the first turns of each task in every process.
_PER_TASK = (
    "kind_terms",
    "choice_nodes",
    "place_heads",
    "other_kinds",
    "_explained",
    "_lowered_phrases",
    "_options_by_term",
    "twins",
    "twin_words",
    "_words_alone",
)

_PREPARED: OrderedDict[tuple[str, str], PreparedTask] = OrderedDict()
_LOCK = threading.Lock()


def prepared(task: Task) -> PreparedTask:
    """The task's readers, built on first use (or read back from the store of an earlier process,
    prepared_store.py) and shared by every later provider of the same content."""
    key = (task.content_hash(), task.language)
    with _LOCK:
        found = _PREPARED.get(key)
        if found is not None:
            _PREPARED.move_to_end(key)
            return found
    found = prepared_store.load(*key)
    if not isinstance(found, PreparedTask):  # (absent, or a file that is not a task's readers)
        found = _prepare(task)
        prepared_store.save(*key, found)
    with _LOCK:
        _PREPARED[key] = found
        if len(_PREPARED) > PREPARED_TASKS:
            _PREPARED.popitem(last=False)
    return found


def _prepare(task: Task) -> PreparedTask:
    language = task.language
    index = TaskIndex(task.tree, language)
    brief = task.brief
    words = " ".join([brief.role, brief.task_name, *brief.items, *brief.skills, *brief.scenes, brief.background])
    vocabulary = frozenset(tokens(words, language)) | frozenset(tokens(task.tree.root.text, language))
    focus = FocusIndex(task, index)
    for name in _PER_TASK:
        getattr(focus, name)
    for node_id, node in focus.nodes.items():
        if node.options:
            focus._distinct_terms(node_id)
    return PreparedTask(index, TurnScreen(task, focus.kind_terms), focus, vocabulary)
