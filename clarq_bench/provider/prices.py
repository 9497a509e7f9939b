"""A price: what a thing costs, when a node's answer says it (mixed into FocusIndex; R105).

Why apart: a node that settles which model to buy, or how to get a thing, often states what it costs ("这个模块的售价是
200个金币", "A portable painting kit costs 600 coins"), and a seeker with a purse of coins asks the price ("摄像头模块
多少钱？", "How much does the camera module cost?"). A person answers such a question with that node, yet it asks no
choice and no missing detail by the other rules' words: a which over the kind, a where / how of the thing.

What counts: a question that asks a price and names the thing the node is about (more words of its kind and its thing
than of any other priced node's, and no fewer than of any node's), where the node's answer states a price, naming
none of the choice's options (the price of one option is a bet on it). What does not: "how many" of anything else
("How many lenses?"), a price asked of a node whose answer states none, or of a thing another node is about.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any

from ..core.tasks import Task
from .caseblind import TextPattern, case_blind
from .question_lists import Question

#: An answer that states a price: a sum of coins or money, or a word for a price.
STATES_PRICE: dict[str, TextPattern] = {
    "en": case_blind(r"\b(?:costs?|priced|prices?)\b|\b\d+\s+(?:gold|silver|copper)?\s*(?:coins?|dollars?)\b|\$\s?\d"),
    "zh": re.compile(r"售价|价格|价钱|(?:\d+|[一二三四五六七八九十百千两]+)\s*[个枚]?(?:金币|银币|铜币|元)"),
}
#: A question that asks a price: "how much does it cost", "what is the price", "多少钱", "几个金币".
ASKS_PRICE: dict[str, TextPattern] = {
    "en": case_blind(
        r"\bhow much\b[^.?!]*\b(?:cost|costs|charge|pay|price)\b|\bhow much (?:money|gold|is|are)\b"
        r"|\b(?:cost|costs|price|prices|priced)\b|\bhow many (?:gold |silver |copper )?coins\b"
    ),
    "zh": re.compile(r"多少钱|多少(?:个|枚)?(?:金币|银币|铜币)|几个金币|价格|价钱|售价|贵不贵|多贵"),
}


class PriceReading:
    """The price reading of FocusIndex: it needs the task, its language and the question readings below."""

    task: Task
    language: str
    nodes: dict[str, Any]  # focus.NodeFocus (not imported: focus.py imports this module)

    def named_options(self, question: Question) -> list[Any]:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    def _own_terms(self, question: Question) -> set[str]:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    @cached_property
    def priced(self) -> frozenset[str]:
        """The required nodes whose answer states a price."""
        states = STATES_PRICE[self.language]
        return frozenset(node.id for node in self.task.tree.required if states.search(node.text))

    def asks_price_of(self, question: Question, focus: Any) -> bool:
        """Does the question ask the price of the thing this node (a focus.NodeFocus) is about, betting on none of
        its options, where the node's answer states the price?"""
        if focus.node_id not in self.priced or not ASKS_PRICE[self.language].search(question.text):
            return False
        groups = {option.group for option in focus.options}
        if any(option.group in groups for option in self.named_options(question)):
            return False  # the price of one option: a bet on the answer
        # the thing named: more of the node's kind and thing than of any other priced node's ("the camera module",
        # not the power module, where both kinds say "module"), and no less than of any node's
        terms = self._own_terms(question)
        mine = len(terms & (focus.kind | focus.anchor))
        others = [
            (other.node_id in self.priced, len(terms & (other.kind | other.anchor)))
            for other in self.nodes.values()
            if other is not focus
        ]
        return mine > 0 and all(named < mine or (named == mine and not priced) for priced, named in others)


__all__ = ["ASKS_PRICE", "STATES_PRICE", "PriceReading"]
