"""What a question says in words of its own (mixed into FocusIndex): the reading behind R108's looser tier and L204.

Why: the reader's confidence alone (R108) may give a lone question a node no rule names, since a person asks
"她的店招要怎么挂？" or "What rating should it be?" without the words the rules read. Confidence alone is also what a
template leans on: a brief's name in a stock frame ("<name>要怎么处理？"), a clause of Jax's with "which one?" after
it, a "Which <thing> exactly?" over every noun. Such a template says nothing of its own that the node says too. So a
question the reader is only fairly sure of must share a word with the node's answer, or with what its explanation says
is missing ("did not specify the type or cost": "How much does it cost?"), that is its own: not one of the brief's
names, not copied from Jax's replies or the brief's background (runs of `COPIED_RUN` words / characters), not filler. And it must not be a question the choice rules read fully: a which in English (its kind is a word R101 and
R106 read), a which that governs nothing in Chinese ("……需要哪一个？"; "哪种刀" names a kind of one character, which the
rules' character pairs miss). It names at most one of the brief's options: two are an offer the rules read.

Nor is a question read by confidence alone that mostly says Jax's own terms back, in any order (says_jax_back):
reordered, his words defeat any test of copied runs, yet they are what the reader's confidence comes from. And a
question that only asks what to do with such words ("How should I handle henry find tavern?") is read by no rule at
all (handles_his_words, L204): it names his things without asking anything of them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..core.tasks import Task
from .lexical import token_set
from .question_lists import Question
from .question_words import BARE_FILLER_EN, BOILERPLATE, CJK_WORD, FUNCTION_ZH

#: Words (en) / characters (zh) in a row that make a stretch of the question a copy of Jax's or the brief's text. In
#: Chinese a pair is enough: his two-character words said back in a new order ("交易亨利完成") are still his.
COPIED_RUN = {"en": 3, "zh": 2}
#: A question whose content terms are at least half his, and at least this many, says his words back in any order
#: ("How should I handle henry find tavern?", "亨利 酒馆，该去哪里？"): the reader's confidence in it is his, not its own.
HIS_TERMS = 2
#: ... and a do-frame over his words asks nothing (L204) from three of his terms (Chinese: three pairs of his): "How do
#: I handle the castle and the trade?" still asks how of each thing it names.
HANDLED_TERMS = 3
_WORD_EN = re.compile(r"[a-z0-9']+")
_WHICH_EN = re.compile(r"\bwhich\b", re.IGNORECASE)
#: A Chinese which over nothing, closing the question: "……需要哪一个？", "用哪样？".
_BARE_WHICH_ZH = re.compile(r"哪一?[个样][？?。！!]?$")
#: A frame that asks only what to do with what follows ("How should I handle ...?", "……怎么办？"), and the
#: interrogatives that ask something of their own beside it.
DO_FRAME = {
    # (en) not over a pronoun: "I have noticed <...>, so what should I do about it?" asks about its own statement
    "en": re.compile(r"\b(?:handle|deal with|do about|do with)\b(?!\s+(?:it|this|that|them|these|those)\b)", re.I),
    "zh": re.compile(r"怎么办|处理|怎么弄(?!到)|这个怎么"),
}
_OWN_ASK = {
    "en": re.compile(r"\b(?:which|where|who|whom|when|why)\b", re.IGNORECASE),
    "zh": re.compile(r"哪|谁|什么时候|何时|为什么"),
}


def _uncopied(units: list[str], source: str, run: int, joiner: str) -> list[str]:
    """The units (words or characters) of a question outside every run of `run` units found in `source`."""
    copied: set[int] = set()
    for start in range(len(units) - run + 1):
        piece = joiner.join(units[start : start + run])
        if (f" {piece} " if joiner else piece) in source:
            copied.update(range(start, start + run))
    return [unit for i, unit in enumerate(units) if i not in copied]


class OwnWordsReading:
    """The own-words reading of FocusIndex: it needs `task`, `language`, `names` (the brief's names, longest first),
    `_without_names()` and `named_options()`, which FocusIndex has."""

    task: Task
    language: str
    names: list[str]
    nodes: dict[str, Any]  # focus.NodeFocus (not imported: focus.py imports this module)

    def _without_names(self, text: str, mark: str = " , ") -> str:
        raise NotImplementedError  # pragma: no cover - ListReading's

    def named_options(self, question: Question) -> Sequence[object]:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    def asks_in_own_words(self, question: Question, node_id: str, heard: str) -> bool:
        """Does the question share a word of its own with the node's answer or the thing its explanation says is
        missing (the node's anchor; see the module docstring)? `heard`: everything Jax has said so far."""
        if len(self.named_options(question)) > 1:
            return False
        rest = self._without_names(question.text)  # (lower-cased, each brief name cut out)
        answer = self.task.tree[node_id].text.lower()
        for name in self.names:
            answer = answer.replace(name.lower(), " , ")
        source = f"{heard} {self.task.brief.background}".lower()
        if self.language == "zh":
            if not question.context and _BARE_WHICH_ZH.search(rest.strip()):
                return False
            mine = _uncopied(list(rest), source, COPIED_RUN["zh"], "")
            gap = "".join(self.nodes[node_id].anchor)
            return bool(({ch for ch in mine if CJK_WORD.match(ch)} - FUNCTION_ZH) & set(answer + gap))
        if _WHICH_EN.search(question.text):
            return False
        source = " " + " ".join(_WORD_EN.findall(source)) + " "
        mine = _uncopied(_WORD_EN.findall(rest), source, COPIED_RUN["en"], " ")
        own = token_set(" ".join(mine), "en") - BARE_FILLER_EN - BOILERPLATE
        options = self.nodes[node_id].options  # (the head all its options share is the choice's own word: "chests")
        common = frozenset.intersection(*(o.terms for o in options)) if len(options) >= 2 else frozenset()
        return bool(own & (token_set(answer, "en") | self.nodes[node_id].anchor | common))

    def says_jax_back(self, question: Question, heard: str, least: int = HIS_TERMS) -> bool:
        """Are at least half of the question's content terms (names and filler left out), and `least` of them or
        more, terms of Jax's replies (`heard`), in any order?"""
        language = self.language
        own = set(token_set(self._without_names(question.text), language))
        if language == "en":
            own -= BARE_FILLER_EN | BOILERPLATE
        his = own & token_set(heard.lower(), language)
        return len(his) >= least and 2 * len(his) >= len(own)

    def handles_his_words(self, question: Question, heard: str) -> bool:
        """Does the question only ask what to do with Jax's own words said back in any order ("How should I handle
        henry find tavern?", "交易亨利完成要怎么办？")? A do-frame, no interrogative of its own beside it, and mostly
        his words: in English his terms (says_jax_back), in Chinese his character pairs covering half its characters
        and four at least (the pairs of a reordered Chinese clause are his; the pairs across them are nobody's)."""
        language = self.language
        if not DO_FRAME[language].search(question.text) or _OWN_ASK[language].search(question.text):
            return False
        if language == "en":
            return self.says_jax_back(question, heard, HANDLED_TERMS)
        units = [ch for ch in self._without_names(question.text) if CJK_WORD.match(ch)]
        covered = len(units) - len(_uncopied(units, heard, COPIED_RUN["zh"], ""))  # (his pairs, any order)
        return covered >= 2 * HANDLED_TERMS and 2 * covered >= len(units)
