"""Twin choices, read against the tree (mixed into FocusIndex): one uncertainty per thing a choice is for.

Why apart: which nodes are twins and when a question asks one of them is a rule about the dialogue so far (which twin
Jax gave, to what question), not about one question alone. Several sibling nodes may settle the same choice for
different things (which key for the main entrance, which for the treasure chest; which line type for each
connection). A question that says which thing it asks about asks that choice; one that names none of them asks it
once, so "the A or the B?" asked again and again does not walk the twins one by one (README "What a provider
reveals", twin choices).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from ..core.tasks import Task
from ..core.transcript import Speaker, Turn
from .lexical import tokens
from .question_lists import Question


class TwinReading:
    """The twin reading of FocusIndex: it needs `task`, `language`, `nodes` (each required node's NodeFocus),
    `questions()` and `_asks_uncertainty()`, which FocusIndex has."""

    task: Task
    language: str
    nodes: dict[str, Any]  # focus.NodeFocus (not imported: focus.py imports this module)

    def questions(self, turn: str, heard: str | None = None, limit: int | None = None) -> list[Question]:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    def _asks_uncertainty(self, question: Question, node_id: str, framed: bool = False) -> bool:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    @cached_property
    def twins(self) -> dict[str, tuple[str, ...]]:
        """Sibling choice nodes that settle the same options, of the same kind in their explanations' own words, for
        the same kind of detail, in the tree's order: node id -> all of them ("which line type, ultra-high or high
        voltage?" once per connection). Twins our reading cannot tell apart (one has no anchor word the others lack)
        are none: no question could say which one it asks."""
        found: dict[tuple[object, ...], list[str]] = {}
        for node in self.task.tree.required:
            focus = self.nodes[node.id]
            if focus.is_choice:  # siblings settling the same options of the same kind, for the same kind of detail
                key = (
                    node.parent,
                    frozenset(o.name for o in focus.options),
                    focus.said_kind or focus.kind,
                    focus.needs,
                )
                found.setdefault(key, []).append(node.id)
        twins = {}
        for group in (tuple(g) for g in found.values() if len(g) > 1):
            if all(self._own_words(twin, group) for twin in group):
                twins.update(dict.fromkeys(group, group))
        return twins

    def _own_words(self, node_id: str, group: tuple[str, ...]) -> frozenset[str]:
        """The words of a twin's anchor that not every twin of its group shares: what names it apart."""
        return self.nodes[node_id].anchor - frozenset.intersection(*(self.nodes[twin].anchor for twin in group))

    @cached_property
    def twin_words(self) -> dict[str, frozenset[str]]:
        """Each twin's own words (_own_words), read once per task."""
        return {node_id: self._own_words(node_id, group) for node_id, group in self.twins.items()}

    def picks_twin(self, question: Question, node_id: str, answered: frozenset[str] = frozenset()) -> bool:
        """Of twin choices (see twins), a question that names none of their own things (the words of a twin's anchor
        that not every twin shares, in the question or the statement before it: "which key opens the treasure
        chest?") asks the choice once: after Jax has given a twin to such a question (`answered`, see
        unnamed_answers), the same choice asked again without saying which one is a repeat, not a way to walk the
        twins one after another. A question that names one ("Which line goes to the Ocean City substation?") asks
        that one, not the first in the tree's order: a person answers what was named. (The released provider
        often gives the first twin instead: this reading costs up to half a point of agreement with it.)"""
        twins = self.twins.get(node_id)
        if not twins:
            return True
        named = self._named_twins(question, twins)
        if named:
            return node_id in named
        return not answered.intersection(twins)

    def _names_twin(self, question: Question, twins: tuple[str, ...]) -> bool:
        return bool(self._named_twins(question, twins))

    def _named_twins(self, question: Question, twins: tuple[str, ...]) -> list[str]:
        """The twins whose own words the question (or the statement before it) says; of several, the ones it names
        by a word no other twin has ("coconut water" names the coconut water's twin, not the coconut chicken's)."""
        said = question.terms | frozenset(tokens(question.context, self.language))
        named = [twin for twin in twins if self.twin_words[twin] & said]
        if len(named) < 2:
            return named
        alone = [twin for twin in named if self._words_alone[twin] & said]
        return alone or named

    @cached_property
    def _words_alone(self) -> dict[str, frozenset[str]]:
        """Each twin's own words that no other twin of its group has."""
        return {
            node_id: self.twin_words[node_id].difference(*(self.twin_words[t] for t in group if t != node_id))
            for node_id, group in self.twins.items()
        }

    def unnamed_answers(self, turns: Sequence[Turn], read: int) -> frozenset[str]:
        """The twins Jax gave in reply to a question that asked their choice without naming which one (what makes
        the same choice asked again a repeat). A twin given to another question ("which river?" answered with the
        river's trap) leaves the choice unasked: the seeker may still ask it plainly once. `read`: the questions of a
        turn that were read (answering.py)."""
        if not self.twins:
            return frozenset()
        found: set[str] = set()
        for index in range(len(turns) - 1):
            turn, reply = turns[index], turns[index + 1]
            given = [node_id for node_id in reply.revealed if node_id in self.twins]
            if turn.speaker != Speaker.seeker or reply.speaker != Speaker.provider or not given:
                continue
            heard = " ".join(t.text for t in turns[:index] if t.speaker == Speaker.provider)
            questions = self.questions(turn.text, heard, read)
            found.update(
                node_id
                for node_id in given
                if any(
                    self._asks_uncertainty(q, node_id) and not self._names_twin(q, self.twins[node_id])
                    for q in questions
                )
            )
        return frozenset(found)


__all__ = ["TwinReading"]
