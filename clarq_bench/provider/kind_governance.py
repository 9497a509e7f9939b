"""Which kind a question's which / what governs, and whether that is another choice than a node's (mixed into
FocusIndex).

Why apart: "Which tavern should I visit for the deal?" names the deal (the thing the gem choice is for) but asks for a
tavern. A walker that pads a which over each of the brief's kinds with Jax's words would otherwise be answered with
every choice whose thing its padding names. The reading here is of the question's governed head alone; focus.py
decides what the question asks.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any

from .brief_options import BriefOption
from .caseblind import TextPattern, case_blind
from .lexical import TaskIndex, tokens
from .memo import per_reader
from .question_classes import MEASURE_ZH
from .question_lists import Question

#: (en) A which / what and the words after it: the last of the brief's words that run on from the first is the head it
#: governs ("which electronic component store would ...": the store).
GOVERNED_PHRASE = case_blind(
    r"\b(?:which|what)\s+(?:(?:kind|type|sort) of\s+|specific\s+|particular\s+)?((?:[\w'-]+\s*){1,4})"
)

#: (zh) 哪 with a measure word and the two characters after it: the kind it governs ("哪家酒馆").
GOVERNED_ZH = re.compile(rf"哪一?[{MEASURE_ZH}]([\u4e00-\u9fff]{{2}})")

#: Words that say the question is about getting a thing at the place it asks ("which store ... to get the tires").
GETS: dict[str, TextPattern] = {
    "en": case_blind(r"\b(?:get|gets|getting|got|buy|buying|bought|purchas\w*|obtain\w*|acquir\w*|sell\w*|sold)\b"),
    "zh": re.compile(r"买|购|卖|售|弄到|得到|拿到|获得"),
}


class KindGovernance:
    """The kind-governance reading of FocusIndex: it needs `language`, `options`, `scene_groups`, `brief_terms`,
    `kind_terms` and the question readings below, which FocusIndex has."""

    language: str
    index: TaskIndex
    options: list[BriefOption]
    scene_groups: set[int]
    brief_terms: frozenset[str]

    @property
    def kind_terms(self) -> frozenset[str]:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    def _without_names(self, text: str) -> str:
        raise NotImplementedError  # pragma: no cover - ListReading's

    def _overlaps(self, anchor: frozenset[str], terms: set[str], least: int = 1) -> bool:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    def _own_terms(self, question: Question) -> set[str]:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    def governs_another_kind(self, question: Question, focus: Any) -> bool:
        """Does its which / what (哪个 / 哪家 ...) govern the kind of another choice (a kind a node of the task
        chooses, or the head of other names of the brief), nothing this node chooses or is about ("Which tavern should
        I visit for the deal?" asks the tavern, not which gem the deal needs)? A which over a place may ask a node
        whose answer is such a place, or where to get what the question names of this node when it says get or buy
        ("Which store should I visit to get the tires?")."""
        governed = self._which_governs(question)
        if not governed & self.other_kinds or governed & (focus.kind | focus.anchor):
            return False
        if not governed & self.place_heads:
            return True
        # a node whose answer is such a place ("You can buy it at the Volt Store": "Which store ...?"), or says of
        # such a place what it does not say otherwise ("小精灵只出现在昨晚刚发生大火的森林里": "小精灵在哪片森林？")
        place = bool(governed & self.index.text_terms[focus.node_id]) and (
            focus.needs in ("place", None) or any(o.group in self.scene_groups for o in focus.options)
        )
        # or where to get what the question names of this node ("Which store should I visit to buy a metal detector?",
        # "... to get the tires?")
        thing = focus.kind | focus.anchor
        gets = bool(thing) and bool(GETS[self.language].search(question.text))
        return not place and not (gets and self._overlaps(thing, self._own_terms(question) - governed))

    @cached_property
    def place_heads(self) -> frozenset[str]:
        """The heads the brief's places go by ("store", "tavern")."""
        return frozenset().union(*(o.head for o in self.options if o.scene))

    @per_reader
    def _which_governs(self, question: Question) -> frozenset[str]:
        """The terms a which / what of the question governs, outside the brief's names."""
        rest = self._without_names(question.text)
        heads = set()
        if self.language == "zh":  # (the two characters right after 哪个 / 哪家 ...: "哪家酒馆")
            return frozenset(match.group(1) for match in GOVERNED_ZH.finditer(rest))
        for match in GOVERNED_PHRASE.finditer(rest):
            words: list[str] = []
            for word in match.group(1).split():
                term = tokens(word, "en")
                if not term or (words and term[0] not in self.brief_terms):
                    break  # the phrase ends at a grammar word or a word the brief never uses ("goes", "would")
                words.append(term[0])
            heads.update(words[-1:])
        return frozenset(heads)

    @cached_property
    def other_kinds(self) -> frozenset[str]:
        """The kinds a question may ask a choice by: every node's, and the heads the brief's names go by."""
        return self.kind_terms.union(*(o.head for o in self.options))


__all__ = ["GOVERNED_PHRASE", "KindGovernance"]
