"""Walkers of which-questions over the brief's kinds, padded with Jax's words (enum-kind-words) or paired with a
how-question over one of his words (enum-kind-how).

Why: a which over a kind the brief lists several of is a real choice question, and the words after it may name what
the choice is for ("Which tavern should I visit for the trade?"). A walker that never reads the tree can fill those
words from Jax's replies at random and hope one names the thing some node is about. The provider must read such a
question as asking the kind it governs, not every choice whose thing its filler happens to name; the audit judges the
walker, like every enumeration, by what it pays for what it gets.
"""

from __future__ import annotations

import re

from ..core.transcript import Speaker
from ..data.loader import strip_speaker
from .base import DialogueView
from .brief_lists import brief_kinds
from .redteam_base import RedTeamSeeker, fill
from .scrambled_walk import _FUNCTION_EN, _FUNCTION_ZH, _pairs, _stock_replies


def jax_words(view: DialogueView, language: str) -> list[str]:
    """Jax's content words (Chinese: pairs of his content characters), oldest reply first, each once, his stock
    replies skipped."""
    stock, repeat = _stock_replies(language)
    replies = [strip_speaker(t.text).strip() for t in view.turns[1:] if t.speaker == Speaker.provider]
    words: list[str] = []
    for text in (r for r in replies if r not in stock and not r.startswith(repeat)):
        if language == "zh":
            runs = "".join(ch if "\u4e00" <= ch <= "\u9fff" and ch not in _FUNCTION_ZH else " " for ch in text).split()
            words += [pair for run in runs for pair in _pairs(run)]
        else:
            words += [w for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 3 and w not in _FUNCTION_EN]
    return list(dict.fromkeys(words))


class KindWordsSeeker(RedTeamSeeker):
    """Enumeration: one of the brief's kinds a turn in a which-question padded with the next two of Jax's words
    ("Which tavern should I complete for the deal?", "为了交易，完成该去哪个酒馆？"), kinds in turn, words moving on
    each round of the kinds."""

    strategy = "enum-kind-words"

    def attack(self, view: DialogueView, turn: int) -> str:
        kinds = brief_kinds(self.task)
        if not kinds:
            return "?"
        words = jax_words(view, self.language) or [""]
        kind = kinds[(turn - 1) % len(kinds)]
        at = 2 * ((turn - 1) // len(kinds))
        word, thing = words[at % len(words)], words[(at + 1) % len(words)]
        return fill(self.pick("kind_words", view, turn), kind=kind, word=word, thing=thing)


class KindHowSeeker(RedTeamSeeker):
    """Enumeration: one of the brief's kinds a turn in a bare which, beside a how over the next of Jax's words, asked
    or said as a doubt ("Which tavern? How do I deal?", "Not sure which tavern or how to deal.", "哪个酒馆？交易怎么办？"):
    two asks a turn, inside the honest seekers' bound, that add blind probes of his words to the real choice
    question."""

    strategy = "enum-kind-how"

    def attack(self, view: DialogueView, turn: int) -> str:
        kinds = brief_kinds(self.task)
        if not kinds:
            return "?"
        words = jax_words(view, self.language) or kinds
        kind, word = kinds[(turn - 1) % len(kinds)], words[(turn - 1) % len(words)]
        return fill(self.pick("kind_how", view, turn), kind=kind, word=word)
