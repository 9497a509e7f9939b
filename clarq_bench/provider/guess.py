"""Guessing the answer is not asking for it.

Why: a seeker with no skill can walk the brief's options one by one ("How do I use the Frost Castle?", then the next
one) and collect every node that names the option it happens to hit. A node that settles a choice among options of
one kind (it names exactly one listed option, and the brief lists others of the same kind) answers the question
"which <kind>?": a turn that names that option, names none of its competitors and never names the kind apart from
the option's own name, and has no "which" or "where" (哪), asks nothing about the choice: it bets on one answer.
Such a turn does not reveal the node.

Measured on the released GPT-4o dialogues, the reference revealed a node to such a turn 5 / 5 / 3 times (Comp.En /
Chat.En / Comp.Ch), and most of those turns name the kind ("which launch center"), which this rule allows.
"Which castle is Henry at: the Frost Castle?" and "Frost Castle or Twilight Castle?" still ask, and are answered.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..core.tasks import Task
from .lexical import tokens
from .screen import entities, names_entity


#: Words that ask for a choice or a place: a turn with one asks something about its options, whatever it names.
CHOICE = {"en": re.compile(r"\b(which|where)\b", re.IGNORECASE), "zh": re.compile("哪")}


class Option(NamedTuple):
    name: str
    terms: frozenset[str]
    kind: str  # the head that options of one kind share (last word in English, last two characters in Chinese)


class GuessCheck:
    """For one task: which frontier nodes a turn only guesses at."""

    def __init__(self, task: Task) -> None:
        self.language = language = task.language
        options = []
        for name in entities(task):
            words = tokens(name, language)
            if words:
                options.append(Option(name, frozenset(words), words[-1] if language == "en" else name[-2:]))
        self.names = sorted({option.name for option in options}, key=lambda n: (-len(n), n))
        #: node id -> (its answer, the competitors of the answer's kind) for nodes that settle one choice
        self.choices: dict[str, tuple[Option, list[Option]]] = {}
        for node in task.tree.required:
            present = set(tokens(node.text, language))
            named = [option for option in options if names_entity(present, option.terms)]
            if len(named) != 1:
                continue
            answer = named[0]
            competitors = [o for o in options if o.kind == answer.kind and o.name != answer.name]
            if competitors:
                self.choices[node.id] = (answer, competitors)

    def _kind_apart(self, text: str, kind: str) -> bool:
        """Does the text name the kind outside every option's name ("which castle", "哪家商店")?"""
        rest = text.lower()
        for name in self.names:
            rest = rest.replace(name.lower(), " ")
        if self.language == "zh":
            return kind in rest
        return kind in set(tokens(rest, self.language))

    def guesses(self, turn: str, frontier: list[str]) -> set[str]:
        """The frontier nodes this turn names the answer of without asking the choice."""
        if CHOICE[self.language].search(turn):
            return set()
        present = set(tokens(turn, self.language))
        guessed = set()
        for node_id in frontier:
            if node_id not in self.choices:
                continue
            answer, competitors = self.choices[node_id]
            if not names_entity(present, answer.terms) or any(names_entity(present, c.terms) for c in competitors):
                continue
            if not self._kind_apart(turn, answer.kind):
                guessed.add(node_id)
        return guessed
