"""Jax's words out of his order (L205): a question that strings his words together as he never said them.

Why: a walker that never reads the tree can say each clause of Jax's back as a bag of his content words ("How do I get
henry transaction complete?", "How do I get complete transaction henry?" after "complete the transaction with Henry",
"交易完成亨利，选哪个？"). The bag defeats every test of copied runs, and its words are what the rules read: a thing
named and a kind asked. A person's question puts his words into a sentence of its own, with its own grammar between
them ("Where do I complete the transaction with Henry?"); it does not set two or more pairs of his words side by side,
nothing between, in an order he never put them side by side. An honest phrase of two of his words turned about ("the
sprite's habitat") is one pair; a compound he said ("fire crystal", "Star City Substation") is his own order.

What counts as between (the pair is parted): an English grammar word, a mark (a comma, a bracket, a hyphen, an
apostrophe), and a name Jax capitalised that the question capitalises too ("which gem Henry needs"). In Chinese, where
words are not spaced, a pair is two of his two-character pieces running on that run on nowhere in his replies or the
brief, though he said them near each other: the other way round ("交易完成" for his "完成交易"), or in this order with
one character dropped between ("后续魔法" for his "后续的魔法"). Two pieces of his he never said near each other are
not read so: Chinese runs his words together in new orders so often ("海洋城变电站的线路") that any pair of them
would refuse honest questions (agreement on the released Chinese file fell from 79.8 to 75.0).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from .growing import Growing
from .lexical import STOPWORDS_EN, TEXT_CACHE, sentences, token_set, tokens
from .memo import Table
from .question_words import BARE_FILLER_EN, BOILERPLATE

#: Pairs of his words side by side out of his order that make a question his words strung together (L205).
OUT_OF_ORDER = 2
#: An English word, or one mark between words.
_UNIT_EN = re.compile(r"[A-Za-z0-9]+|[^A-Za-z0-9\s]")
#: Prepositions the stopword list leaves as content: grammar between two words all the same.
_PREPOSITIONS_EN = frozenset(
    "within along onto across behind beside near inside outside toward towards upon via among around beyond".split()
)
#: A capitalised word inside a sentence of Jax's (after a lower-case word or a comma): a name. (The space is matched
#: first, outside the group: re scans for it rather than trying the look-behind at every place.)
_NAME_EN = re.compile(r" (?<=[a-z,] )([A-Z][a-z]+)")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")


def _terms_en(text: str, names: frozenset[str] = frozenset()) -> list[str | None]:
    """An English text as its content terms in order, None for what parts two of them (see the module docstring)."""
    read = map(_UNITS.__getitem__, _UNIT_EN.findall(text))
    if not names:
        return [term for term, _ in read]
    return [None if capital is not None and capital in names else term for term, capital in read]


def _read_unit(unit: str) -> tuple[str | None, str | None]:
    """One unit's term (None: a mark, a preposition or a grammar word) and, for a capitalised word with a term, its
    lower-cased form (a name of Jax's parts two terms as a mark does: _terms_en)."""
    lowered = unit.lower()
    if not unit[0].isalnum() or lowered in _PREPOSITIONS_EN:
        return None, None
    return _term(lowered), lowered if unit[0].isupper() else None


#: Each unit read once (_read_unit): a question's words repeat across turns and Jax's replies.
_UNITS = Table(_read_unit, 65536)


@lru_cache(maxsize=65536)
def _term(word: str) -> str | None:
    """The content term of one lower-cased word, None for a grammar word (a question's words repeat across turns)."""
    read = tokens(word, "en")
    return read[0] if read else None


def _pairs(terms: list[str | None]) -> set[tuple[str, str]]:
    return {(a, b) for a, b in pairwise(terms) if a and b and a != b}


@lru_cache(maxsize=TEXT_CACHE)
def _read_sentence_en(sentence: str) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    terms = _terms_en(sentence)
    return frozenset(t for t in terms if t), frozenset(_pairs(terms))


def _read_en(text: str) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """The content terms of an English text and its pairs of terms side by side, each sentence read once (Jax's
    replies grow a reply a turn, and the brief is the same every turn)."""
    read = [_read_sentence_en(sentence) for sentence in sentences(text, "en")]
    return frozenset().union(*(t for t, _ in read)), frozenset().union(*(p for _, p in read))


@lru_cache(maxsize=1024)
def _brief_pairs(background: str) -> frozenset[tuple[str, str]]:
    """The brief's pairs of terms side by side (_read_en), read once per brief rather than on every turn."""
    return _read_en(background)[1]


class _Said:
    """What Jax and the brief have said, read once per dialogue state: his terms, his names, the pairs of terms side
    by side (English) or the text itself (Chinese)."""

    def __init__(self, heard: str, background: str, language: str, parts: tuple[str, ...] = ()) -> None:
        self.language = language
        if language == "zh":
            self.text = f"{heard}\n{background}"
            self.heard = heard
            self._near: dict[tuple[str, str], bool] = {}
            return
        if len(parts) > 1 and all(part.rstrip().endswith(_SENTENCE_ENDS) for part in parts[:-1]):
            # (each reply ends a sentence: the whole's sentences and names are its replies', each read once)
            self.names, terms, pairs = _PARTS_EN(parts, language)
        else:
            self.names = frozenset(name.lower() for name in _NAME_EN.findall(heard))
            terms, pairs = _read_en(heard)
        self.terms = terms - BARE_FILLER_EN - BOILERPLATE - STOPWORDS_EN
        self.pairs, self.brief_pairs = pairs, _brief_pairs(background)  # (his and the brief's: each looked up alone)

    def near(self, first: str, second: str) -> bool:
        """(Chinese) Did Jax say these two pieces near each other, but not run on in this order: the other way round
        (up to two characters between), or in this order with one character between (a dropped 的, 在, 和)?"""
        key = (first, second)
        found = self._near.get(key)
        if found is None:
            heard = self.heard
            found = self._near[key] = first in heard and second in heard and _near_in(first, second, heard)
        return found


def _near_in(first: str, second: str, text: str) -> bool:
    """re.search(f"{second}.{{0,2}}{first}|{first}.{second}", text) (both escaped) found a match, read with str.find:
    one pattern compiled per pair of pieces cost more than all the rest of the rule. ("." is any character but a
    newline.)"""
    at = text.find(second)
    while at >= 0:
        end = at + len(second)
        for gap in range(3):
            if gap and text[end + gap - 1 : end + gap] in ("\n", ""):
                break
            if text.startswith(first, end + gap):
                return True
        at = text.find(second, at + 1)
    at = text.find(first)
    while at >= 0:
        end = at + len(first)
        if text[end : end + 1] not in ("\n", "") and text.startswith(second, end + 1):
            return True
        at = text.find(first, at + 1)
    return False


@lru_cache(maxsize=512)
def _said(heard: str, background: str, language: str, parts: tuple[str, ...] = ()) -> _Said:
    return _Said(heard, background, language, parts)


#: What ends an English sentence (lexical._SENTENCE_EN): a reply ending in one (trailing whitespace aside) ends its
#: last sentence in the join of his replies too, and no name of his (_NAME_EN) runs over into the next reply.
_SENTENCE_ENDS = (".", "?", "!")


_PartRead = tuple[frozenset[str], frozenset[str], frozenset[tuple[str, str]]]


@lru_cache(maxsize=TEXT_CACHE)
def _read_part_en(part: str) -> _PartRead:
    """One reply's names, terms and pairs (_Said), read once: every later turn of a dialogue joins his replies
    again, and reading the whole found every sentence and name in it anew."""
    return frozenset(name.lower() for name in _NAME_EN.findall(part)), *_read_en(part)


def _add_part_en(read: _PartRead, part: str, language: str) -> _PartRead:
    names, terms, pairs = _read_part_en(part)
    return read[0] | names, read[1] | terms, read[2] | pairs


#: His replies' names, terms and pairs together, grown a reply a turn (every later turn joins them all again).
_PARTS_EN: Growing[_PartRead] = Growing(lambda language: (frozenset(), frozenset(), frozenset()), _add_part_en)


def out_of_his_order(question: str, heard: str, background: str, language: str, parts: tuple[str, ...] = ()) -> int:
    """How many pairs of Jax's words (`heard`: all he has said; `parts`: his replies, when `heard` is " ".join of
    them) the question sets side by side in an order neither he nor the brief (`background`) has them."""
    if not heard:
        return 0
    said = _said(heard, background, language, parts)
    if language == "zh":
        found = set()
        for run in _CJK_RUN.findall(question):
            for i in range(len(run) - 3):
                first, second = run[i : i + 2], run[i + 2 : i + 4]
                if first + second not in said.text and said.near(first, second):
                    found.add((first, second))
        return len(found)
    terms = _terms_en(question, said.names)
    return sum(
        a in said.terms and b in said.terms and (a, b) not in said.pairs and (a, b) not in said.brief_pairs
        for a, b in _pairs(terms)
    )


def strings_his_words(question: str, heard: str, background: str, language: str, parts: tuple[str, ...] = ()) -> bool:
    """Does the question set OUT_OF_ORDER pairs or more of Jax's words side by side out of his order (L205)?"""
    if not heard or (language == "en" and heard.isascii() and not _may_string(question, heard)):
        return False
    return out_of_his_order(question, heard, background, language, parts) >= OUT_OF_ORDER


def _may_string(question: str, heard: str) -> bool:
    """(en, his text in ASCII) Has the question OUT_OF_ORDER pairs of terms side by side (a name of his only takes
    pairs away) whose terms are both among the tokens of his text (which hold every term of his)? Most questions
    have fewer, and then all he has said need not be read as pairs (_Said) at all."""
    his = token_set(heard, "en")
    return sum(a in his and b in his for a, b in _pairs(_terms_en(question))) >= OUT_OF_ORDER
