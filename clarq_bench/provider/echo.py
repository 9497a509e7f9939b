"""Echoes: whole sentences of earlier turns that a seeker turn copies, found and taken out.

Why apart: the screen's echo rule (a turn whose questions name the task only in sentences copied from Jax or the
brief asks nothing of its own) needs the earlier sentences in the form it compares (lower-cased words, or characters
for Chinese), prepared once per turn and reused for every question of it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from ..data.loader import strip_speaker
from .growing import Growing
from .lexical import TEXT_CACHE, sentences, token_set

#: A sentence of an earlier provider turn copied whole, of this many words (en) / characters (zh) or more.
ECHO_WORDS = 5
ECHO_CHARS = 6

#: What a Chinese comparison ignores: spaces, punctuation and underscores.
NON_TEXT = re.compile(r"[\s\W_]+")
_WORD_OR_MARK = re.compile(r"[A-Za-z0-9']+|[^\sA-Za-z0-9']")


def words(text: str) -> list[str]:
    """The lower-cased words of English text, marks left out (read once per text)."""
    return list(_word_tuple(text))


@lru_cache(maxsize=TEXT_CACHE)
def _word_tuple(text: str) -> tuple[str, ...]:
    return tuple(piece.lower() for piece in _pieces(text) if piece[0].isalnum() or piece[0] == "'")


@lru_cache(maxsize=TEXT_CACHE)
def _pieces(text: str) -> tuple[str, ...]:
    """The text's words and marks (_WORD_OR_MARK), cut once: its words are read from them, and without_spans joins
    them again for most questions."""
    return tuple(_WORD_OR_MARK.findall(text))


def without_echo(text: str, earlier: list[str], language: str) -> str:
    """The text with every whole sentence it copies from `earlier` texts taken out, punctuation kept (sentences of
    at least ECHO_WORDS words / ECHO_CHARS characters; a copied phrase inside a real question stays)."""
    return without_spans(text, echo_spans(earlier, language), language)


#: A text's sentences to echo, by their first unit (what echo_spans gives).
Spans = Mapping[str, tuple[list[str], ...]]


def echo_spans(earlier: Sequence[str], language: str) -> Spans:
    """The sentences of `earlier` texts as the echo rule compares them (characters / lower-cased words), long enough
    to count, each once, by their first unit: prepared once for all the questions of a turn (read-only), and grown
    by a text a turn (the order of the spans under one unit makes no difference to without_spans)."""
    return _SPANS(earlier, language)


def _add_spans(spans: Spans, turn: str, language: str) -> Spans:
    grown: dict[str, tuple[list[str], ...]] | None = None
    for _, span in _said_spans(turn, language):
        have = (spans if grown is None else grown).get(span[0], ())
        if span not in have:  # (a span is its sentence's units: the same span, the same sentence)
            grown = dict(spans) if grown is None else grown
            grown[span[0]] = (*have, span)
    return spans if grown is None else grown


_SPANS: Growing[Spans] = Growing(lambda language: {}, _add_spans)


@lru_cache(maxsize=TEXT_CACHE)
def _said_spans(turn: str, language: str) -> tuple[tuple[str, list[str]], ...]:
    minimum = ECHO_CHARS if language == "zh" else ECHO_WORDS
    spans = ((sentence, list(sentence) if language == "zh" else sentence.split()) for sentence in _said(turn, language))
    return tuple((sentence, span) for sentence, span in spans if len(span) >= minimum)


def without_spans(text: str, spans: Spans, language: str) -> str:
    """The text with every run of `spans` (echo_spans) it holds taken out."""
    # (most questions hold no unit that opens a span: then nothing is taken out, and no unit is listed)
    if language == "zh":
        if spans.keys().isdisjoint(text):  # (a span opens on a character str.isalnum() keeps)
            return text
    elif spans.keys().isdisjoint(_word_tuple(text)):
        return " ".join(_pieces(text))
    if language == "zh":  # compare characters, ignoring spaces and punctuation
        units = [(i, ch) for i, ch in enumerate(text) if ch.isalnum()]  # (text: not NON_TEXT)
    else:  # compare lower-cased words
        pieces = _pieces(text)
        units = [(i, p.lower()) for i, p in enumerate(pieces) if p[0].isalnum() or p[0] == "'"]
    keys = [unit for _, unit in units]
    covered: set[int] = set()
    for k, key in enumerate(keys):
        for span in spans.get(key, ()):
            n = len(span)
            if k + n <= len(keys) and keys[k : k + n] == span:
                covered.update(index for index, _ in units[k : k + n])
    if language == "zh":  # (most questions copy nothing: then the text stays whole)
        return "".join(ch for i, ch in enumerate(text) if i not in covered) if covered else text
    return " ".join(piece for i, piece in enumerate(pieces) if i not in covered) if covered else " ".join(pieces)


def terms_without_spans(text: str, spans: Spans, language: str) -> frozenset[str]:
    """token_set(without_spans(text, spans, language)), read from the text's own tokens when nothing is taken out of
    an ASCII English text: its words joined back by single spaces are the same words (most questions copy none)."""
    if language != "zh" and text.isascii() and spans.keys().isdisjoint(_word_tuple(text)):
        return token_set(text, language)
    return token_set(without_spans(text, spans, language), language)


@lru_cache(maxsize=TEXT_CACHE)
def _said(turn: str, language: str) -> frozenset[str]:
    """The sentences of one earlier turn as the echo rule compares them (characters / lower-cased words)."""
    said = sentences(strip_speaker(turn), language)
    if language == "zh":
        return frozenset(NON_TEXT.sub("", s) for s in said)
    return frozenset(" ".join(words(s)) for s in said)
