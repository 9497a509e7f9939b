"""The offline provider's text matcher: tokens, per-task term weights and seeker-turn-to-node similarity features.

Pure Python and per task, so it needs no model and no corpus: a node's document is its text plus its explanation
(which says which uncertainty it resolves); term weights are BM25-style IDF over the task's own nodes, so the
explanations' shared boilerplate ("this response addresses ...") weighs almost nothing while node-specific words
("North Mine", "东方山脉") weigh most. English uses stemmed words, Chinese character bigrams (plus Latin words).
Each node also gets focus terms (what its explanation's "Note" says the seeker must have noticed) and option
terms (the "multiple X" it settles): the reference reveals a node only when the seeker voiced that uncertainty.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from ..core.tasks import ResponseTree
from .ascii_words import PIECE_BREAK_AT, joined_words_en, words_en
from .indirect_questions import QUESTION_MARKERS_ZH, asks_indirectly
from .memo import Table

_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_LATIN_RUN = re.compile(r"[A-Za-z0-9]+")
_SENTENCE_EN = re.compile(r"[^.?!\n]+[.?!]*")
_SENTENCE_ZH = re.compile(r"[^。？！?!；;\n]+[。？！?!；;]*")

STOPWORDS_EN = frozenset(
    """a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having he
    her here hers him his how i if in into is it its itself just let me more most my myself no nor not now of off
    on once only or other our ours out over own same she should so some such than that the their theirs them then
    there these they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself thank thanks please jax hello hi okay ok sure great need
    know tell get go also able like make want much many one sure right correct confirm clarify just well
    response responses previous previously addresses address addressed question questions note use used using
    party noticed notice issue unsure specify specifying specified explain explained mentioned mention did
    uncertainty concerns concern alleviates answer answers there multiple""".split()
)
#: Bigrams of the Chinese explanations' and seekers' boilerplate; the in-task IDF handles the rest.
STOP_BIGRAMS_ZH = frozenset(
    """回复 复用 用于 于解 解答 答应 的疑 疑问 前面 面J 任务 务回 没有 有介 介绍 注： 只有 有在 在对 对方 方注 注意 意到
    存在 在多 多个 且不 不确 确定 定应 应该 才使 使用 用这 这个 个回 谢谢 谢你 你的 请问 问题 我们 我的 你提 提到 是否
    可以 需要 什么 哪个 哪里 如何 怎么 一个 这些 那些 以及 还是 或者 我会 我应 应该 吗？ 是不
    且不 去哪 哪一 用哪 该去 该用 该使 一种 哪种 知道 不知""".split()
)

#: Where an explanation says what the seeker must have noticed ("Note: Use this response only if ... noticed X").
_NOTICED_EN = re.compile(r"noticed\s+(.*?)(?:\.\s|\.$|$)", re.IGNORECASE | re.DOTALL)
_NOTICED_ZH = re.compile(r"注意到了?(.*?)(?:才|。|$)", re.DOTALL)
_FOCUS_PREFIX_ZH = re.compile(r"^(?:存在|有|需要|没有|不知道|无法)?(?:多个|多种|两个|两种|几个|几种|不同的?)?")
#: The competing options a node resolves: "multiple rivers", "two types of traps" / "多个森林", "两种电池" (never
#: "these two substations" / "这两个变电站": the two ends of one thing, not a choice).
_MULTIPLE_EN = re.compile(
    r"(?<!these )(?<!those )(?<!the )\b(?:multiple|two|several|various|different)\s+(?:types? of\s+|kinds? of\s+)?"
    r"([a-z][a-z' -]*?)"
    r"(?=\s+(?:and|in|to|that|for|which|available|visible|on|at|with|but)\b|[,.;]|$)",
    re.IGNORECASE,
)
_MULTIPLE_ZH = re.compile(r"(?<![这那])(?:多个|多种|两个|两种|几个|几种|不同的?)(.+?)(?:且|而|，|,|。|但|才|$)")
_FIRST_SENTENCE = re.compile(r"^[^.。]*[.。]?")
#: Boilerplate of the "noticed ..." phrases, on top of STOPWORDS_EN.
FOCUS_STOP_EN = frozenset(
    """lack information need needs needed sure which one ones choose unsure that there multiple various two several
    different type types kind kinds specific exact way ways where how what go find obtain get""".split()
)


def focus_phrase(explanation: str | None, language: str) -> str:
    """What the seeker must have noticed for this node to be used (the explanation's "Note" clause), else the
    explanation's first sentence (which states the gap the node fills)."""
    if not explanation:
        return ""
    match = (_NOTICED_ZH if language == "zh" else _NOTICED_EN).search(explanation)
    if match and match.group(1).strip():
        phrase = match.group(1).strip()
        return _FOCUS_PREFIX_ZH.sub("", phrase) if language == "zh" else phrase
    first = _FIRST_SENTENCE.match(explanation.strip())
    return first.group(0) if first else ""


def competing_options(explanation: str | None, language: str) -> list[str]:
    """The "multiple X" heads an explanation names (X = the options the seeker must choose between)."""
    if not explanation:
        return []
    pattern = _MULTIPLE_ZH if language == "zh" else _MULTIPLE_EN
    return [m.group(1).strip() for m in pattern.finditer(explanation) if m.group(1).strip()]


#: The English wh-words: the one list every "does this ask something?" rule of the provider builds on.
WH_WORDS_EN = ("which", "what", "where", "how", "who", "when", "why", "whom", "whose")
#: The Chinese interrogatives every such rule shares; each rule adds what its purpose needs (see its comment).
WH_ZH = ("哪", "什么", "怎么", "如何", "怎样", "多少")
#: Matches any English wh-word as a whole word.
WH_EN_PATTERN = r"\b(" + "|".join(WH_WORDS_EN) + r")\b"
QUESTION_WORDS_EN = (*WH_WORDS_EN, "should i", "do i", "can i", "could you", "is there", "are there", "would")

#: Bounds of the memo tables below: a run reads each turn's texts several times (screen, matcher, focus rule), and
#: every task's brief and tree on each provider built for it; the tables hold recent texts only.
TEXT_CACHE = 16384
WORD_CACHE = 65536


#: Endings of short words whose final s makes no plural ("boss", "plus", "this", "bias").
_NOT_PLURAL = ("ss", "us", "is", "as", "os")


@lru_cache(maxsize=WORD_CACHE)
def _stem(word: str) -> str:
    """A deliberately crude English stemmer: enough to meet `mines`/`mine`, `digging`/`dig`, `boxes`/`box`, and
    the plurals of short words, `gems`/`gem`, `labs`/`lab` (not `boss`, `plus`, `this`)."""
    if len(word) <= 4:
        return word[:-1] if len(word) == 4 and word.endswith("s") and not word.endswith(_NOT_PLURAL) else word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            return stem[:-1] if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "ls" else stem
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokens(text: str, language: str) -> list[str]:
    """Content tokens: stemmed non-stopwords (en) or CJK character bigrams plus lower-cased Latin words (zh)."""
    return list(_TEXTS[text, language])


#: Whitespace after a sentence's end. No token spans whitespace, so a text's tokens are its pieces' tokens in order:
#: a turn, its question sentences and everything Jax has said so far are read sentence by sentence, each sentence
#: once (the rules tokenise the same sentences inside many different texts).
_PIECE_BREAK = re.compile(r"(?<=[.?!。？！;；])\s+")


def _read_text(key: tuple[str, str]) -> tuple[str, ...]:
    text, language = key
    pieces = _PIECE_BREAK.split(text) if PIECE_BREAK_AT.search(text) else (text,)  # (most texts have no break)
    if len(pieces) == 1:
        return _PIECES[key]  # (a text of one piece is read as one: a sentence is often both)
    return tuple(itertools.chain.from_iterable(_PIECES[piece, language] for piece in pieces))


#: Each text's tokens, and each piece's (a piece has no break inside it: it is read whole, never split again).
_TEXTS = Table(_read_text, TEXT_CACHE)
_PIECES = Table(lambda key: _read_piece(*key), TEXT_CACHE)
#: What a piece break follows (_PIECE_BREAK), so a part ending in one (trailing whitespace aside) ends a piece.
_BREAK_ENDS = tuple(".?!。？！;；")


def joined(texts: Iterable[str], language: str) -> str:
    """ " ".join(texts), its tokens read as its parts' when every part but the last ends a sentence: the space between
    two parts is then a piece break, so the whole's tokens (_read_text) are the parts' in order. Every later turn of
    a dialogue joins all Jax has said again, and reading the whole found every break in it anew; each part is read
    once."""
    parts = list(texts)
    text = " ".join(parts)
    key = (text, language)
    if len(parts) > 1 and key not in _TEXTS and all(part.rstrip().endswith(_BREAK_ENDS) for part in parts[:-1]):
        _TEXTS.put(key, tuple(itertools.chain.from_iterable(_TEXTS[part, language] for part in parts)))
    return text


@lru_cache(maxsize=TEXT_CACHE)
def token_set(text: str, language: str) -> frozenset[str]:
    """The distinct tokens of a text (set(tokens(...)), read-only), counted once per text."""
    return frozenset(_TEXTS[text, language])


def _word_token(word: str) -> str:
    """The token of one lower-cased English word, "" for a stopword or a single character."""
    return "" if word in STOPWORDS_EN or len(word) <= 1 else _stem(word)


def _latin_token(word: str) -> str:
    """The token of a Latin word of Chinese text: lower-cased, "" for an English stopword of two letters or more (a
    lone letter is a label: "道路A", "A公司")."""
    lowered = word.lower()
    return "" if lowered in STOPWORDS_EN and len(lowered) > 1 else lowered


#: Each word's token, read once: a turn's words repeat across every text the rules tokenise.
_WORD_TOKENS = Table(_word_token, WORD_CACHE)
_LATIN_TOKENS = Table(_latin_token, WORD_CACHE)


def _read_piece(text: str, language: str) -> tuple[str, ...]:
    """One piece's tokens, as _PIECES holds them (an English piece's built straight into the tuple: most are)."""
    if language == "zh":
        out = list(filter(None, map(_LATIN_TOKENS.__getitem__, _LATIN_RUN.findall(text))))
        for run in _CJK_RUN.findall(text):
            if len(run) == 1:
                out.append(run)
            out.extend(itertools.filterfalse(STOP_BIGRAMS_ZH.__contains__, map(str.__add__, run[:-1], run[1:])))
        return tuple(out)
    return tuple(filter(None, map(_WORD_TOKENS.__getitem__, words_en(text.lower()))))


_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=TEXT_CACHE)
def char_grams(text: str, language: str) -> frozenset[str]:
    """Character n-grams, robust to inflection and word segmentation: 4-grams over the lower-cased words of English
    text (with word-boundary spaces), character unigrams and bigrams of Chinese text (spaces removed)."""
    lowered = text.lower()
    # (each gram built by zip, straight into the frozenset: no set comprehension copied into a frozenset)
    if language == "zh":
        compact = _SPACE.sub("", lowered)
        return frozenset(compact).union(map(str.__add__, compact, compact[1:]))
    padded = " " + joined_words_en(lowered) + " "
    return frozenset(map("".join, zip(padded, padded[1:], padded[2:], padded[3:])))


def sentences(text: str, language: str) -> list[str]:
    return list(_sentences(text, language))


@lru_cache(maxsize=TEXT_CACHE)
def _sentences(text: str, language: str) -> tuple[str, ...]:
    pattern = _SENTENCE_ZH if language == "zh" else _SENTENCE_EN
    return tuple(s.strip() for s in pattern.findall(text) if s.strip())


@lru_cache(maxsize=TEXT_CACHE)
def is_question(sentence: str, language: str) -> bool:
    """A sentence that asks something: a question mark, or (zh) a question particle / (en) a leading wh-word."""
    if language == "zh":
        return any(marker in sentence for marker in QUESTION_MARKERS_ZH)
    lowered = sentence.lower().lstrip("0123456789.-*) ")
    return sentence.rstrip().endswith("?") or lowered.startswith(QUESTION_WORDS_EN) or asks_indirectly(lowered)


@lru_cache(maxsize=TEXT_CACHE)
def question_text(text: str, language: str) -> str:
    """The asking part of a seeker turn (its question sentences), or the whole turn when nothing looks asked."""
    asked = [s for s in sentences(text, language) if is_question(s, language)]
    return " ".join(asked) if asked else ""


#: The only characters outside ASCII that re's case-blind matching matches to an ASCII letter (İ ı ſ K).
_FOLDS_TO_ASCII = re.compile("[\u0130\u0131\u017f\u212a]")
#: Characters re's case-blind matching matches only to themselves: ASCII other than letters, CJK ideographs and
#: CJK punctuation.
_CASELESS = re.compile(r"[\x00-\x40\x5b-\x60\x7b-\x7f\u3000-\u303f\u4e00-\u9fff]*")
_ASCII_OR_CASELESS = re.compile(r"[\x00-\x7f\u3000-\u303f\u4e00-\u9fff]*")


def lowered_for_search(text: str) -> str | None:
    """The text lower-cased for absent_phrase, or None when it holds a character that folds to an ASCII letter."""
    return text.lower() if text.isascii() or not _FOLDS_TO_ASCII.search(text) else None  # (isascii: a flag read)


def absent_phrase(phrase: str, text: str, lowered: str | None) -> bool:
    """Can the phrase's case-blind pattern (re.escape, re.IGNORECASE) not match the text, by a plain search? Exact,
    so a caller may skip the pattern: a phrase of ASCII and characters without case (CJK, digits, punctuation)
    matches where its lower-cased form is in the lower-cased text (`lowered`, from lowered_for_search; None:
    unknown), a phrase of characters without case only where it is itself."""
    folded, caseless = phrase_form(phrase)
    if lowered is not None and folded is not None:
        return folded not in lowered
    if caseless:
        return phrase not in text
    return False


def replace_folded(text: str, lowered: str, folded: str, mark: str) -> str:
    """The text with every case-blind occurrence of a phrase replaced by `mark`, as re.sub(re.escape(phrase), mark,
    text, flags=re.IGNORECASE) gives, where absent_phrase reads the phrase exactly (`lowered` from lowered_for_search
    and `folded` from phrase_form, neither None, `folded` not empty; `mark` no template): lower() keeps such a text's
    length, so its matches are where the folded phrase is in `lowered`, left to right (no pattern compiled per
    phrase of every brief)."""
    pieces: list[str] = []
    start, size = 0, len(folded)
    found = lowered.find(folded)
    while found >= 0:
        pieces += (text[start:found], mark)
        start = found + size
        found = lowered.find(folded, start)
    pieces.append(text[start:])
    return "".join(pieces)


@lru_cache(maxsize=TEXT_CACHE)
def phrase_form(phrase: str) -> tuple[str | None, bool]:
    """For absent_phrase, read once per phrase (the brief's names are tried against every sentence): the phrase
    lower-cased when it is all ASCII and characters without case (else None), and whether it is all without case."""
    folded = phrase.lower() if _ASCII_OR_CASELESS.fullmatch(phrase) else None
    return folded, bool(_CASELESS.fullmatch(phrase))


def _shared(sets: Iterable[frozenset[str]]) -> set[str]:
    """The terms two or more of the sets hold (set operations: a frontier's are read on most turns)."""
    seen: set[str] = set()
    shared: set[str] = set()
    for terms in sets:
        shared |= seen & terms
        seen |= terms
    return shared


class _Weights(dict[str, float]):
    """Term (or n-gram) weights that read 0.0 for a term with none, so a sum maps the table straight over a set."""

    def __missing__(self, key: str) -> float:
        return 0.0


def _idf(frequency: dict[str, int], count: int) -> dict[str, float]:
    """BM25-style IDF of each term of `count` documents by its document frequency (one logarithm per frequency)."""
    by_df = {df: math.log(1.0 + (count - df + 0.5) / (df + 0.5)) for df in set(frequency.values())}
    return {term: by_df[df] for term, df in frequency.items()}


def _counts(terms: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for term in terms:
        counts[term] = counts.get(term, 0) + 1
    return counts


class FrontierTerms(NamedTuple):
    """Per frontier node, in frontier order: its document terms and its focus terms no other frontier node has."""

    exclusive_docs: list[frozenset[str]]
    exclusive_focus: list[frozenset[str]]


@dataclass(frozen=True)
class NodeMatch:
    """Similarity features between one seeker turn and one node (all in [0, 1] except `bm25`)."""

    node_id: str
    question_cover: float  # share of the node's weighted terms found in the turn's question sentences
    turn_cover: float  # share of the node's weighted terms found anywhere in the turn
    text_cover: float  # share of the node text's own (answer) terms found in the turn
    exclusive_cover: float  # like question_cover, over terms no other frontier node has
    bm25: float  # BM25 of the question sentences against the node document


class TaskIndex:
    """Term weights and node documents of one task's tree; scores seeker turns against frontier nodes."""

    def __init__(self, tree: ResponseTree, language: str) -> None:
        self.language = language
        self.tree = tree
        self.text_terms: dict[str, frozenset[str]] = {}
        self.doc_terms: dict[str, list[str]] = {}
        self.focus_terms: dict[str, frozenset[str]] = {}
        self.option_terms: dict[str, frozenset[str]] = {}
        # Character n-gram sets of each node's text, explanation and focus phrase, with their own in-task IDF.
        self.text_grams: dict[str, frozenset[str]] = {}
        self.explanation_grams: dict[str, frozenset[str]] = {}
        self.focus_grams: dict[str, frozenset[str]] = {}
        for node in tree.nodes:
            self.text_grams[node.id] = char_grams(node.text, language)
            self.explanation_grams[node.id] = char_grams(node.explanation or "", language)
            self.focus_grams[node.id] = char_grams(focus_phrase(node.explanation, language), language)
            focus = tokens(focus_phrase(node.explanation, language), language)
            self.focus_terms[node.id] = frozenset(t for t in focus if t not in FOCUS_STOP_EN)
            options = " ".join(competing_options(node.explanation, language))
            self.option_terms[node.id] = frozenset(t for t in tokens(options, language) if t not in FOCUS_STOP_EN)
            text_tokens = tokens(node.text, language)
            self.text_terms[node.id] = frozenset(text_tokens)
            self.doc_terms[node.id] = text_tokens + tokens(node.explanation or "", language)
        count = len(self.doc_terms)
        frequency = Counter(itertools.chain.from_iterable(set(terms) for terms in self.doc_terms.values()))
        self.idf = _Weights(_idf(frequency, count))
        self.average_length = sum(len(terms) for terms in self.doc_terms.values()) / max(count, 1)
        gram_frequency = Counter(
            itertools.chain.from_iterable(self.text_grams[n] | self.explanation_grams[n] for n in self.text_grams)
        )
        self.gram_idf = _Weights(_idf(gram_frequency, count))
        # What bm25 and the covers read of a node on every turn, counted once: term counts, length norms, totals.
        self._counts = {node_id: _counts(terms) for node_id, terms in self.doc_terms.items()}
        self._lengths = {node_id: len(terms) for node_id, terms in self.doc_terms.items()}
        self._gram_totals: dict[frozenset[str], float] = {}
        self._term_totals: dict[frozenset[str], float] = {}
        self.doc_sets = {node_id: frozenset(terms) for node_id, terms in self.doc_terms.items()}
        # Each node's BM25 term scores (default k1, b), counted once: a query sums those of its terms.
        self._bm25_terms = {node_id: self._term_scores(node_id, 1.2, 0.75) for node_id in self.doc_terms}
        self._frontiers: dict[tuple[str, ...], FrontierTerms] = {}
        # The totals of every node's own term and n-gram sets, counted here once per task rather than on the turn
        # that first reads the node (a dialogue is a few turns: most of that work fell on them).
        for sets in (self.doc_sets, self.focus_terms, self.text_terms, self.option_terms):
            for terms in sets.values():  # (as cover counts them; cover(terms, frozenset()) stops before the total)
                self._term_totals[terms] = math.fsum(map(self.idf.__getitem__, terms))
        for grams in (self.text_grams, self.focus_grams, self.explanation_grams):
            for node_grams in grams.values():
                self.gram_cover(node_grams, frozenset())
        #: Each node's weightiest focus term (ties: the greater term), None for a node with no focus terms.
        self.focus_keys = {
            node_id: max(focus, key=lambda t: (self.weight(t), t)) if focus else None
            for node_id, focus in self.focus_terms.items()
        }

    def weight(self, term: str) -> float:
        return self.idf.get(term, 0.0)

    def cover(self, terms: Iterable[str], present: set[str] | frozenset[str]) -> float:
        """IDF-weighted share of `terms` found in `present` (0 when `terms` is empty)."""
        idf = self.idf
        present = present if isinstance(present, (set, frozenset)) else set(present)
        # (fsum is exact, so summing over the intersection in any order gives the same float; most intersections
        # are empty, and an empty one covers 0.0 before any total is looked up)
        if isinstance(terms, frozenset):  # a node's own term set: its total is counted once
            found = terms & present
            if not found:
                return 0.0
            total = self._term_totals.get(terms)
            if total is None:
                total = math.fsum(map(idf.__getitem__, terms))
                if len(self._term_totals) < 8 * len(self.doc_terms) + 256:
                    self._term_totals[terms] = total
        else:
            unique = frozenset(terms)
            found = unique & present
            if not found:
                return 0.0
            total = math.fsum(map(idf.__getitem__, unique))
        return math.fsum(map(idf.__getitem__, found)) / total if total else 0.0

    _cover = cover

    def gram_cover(self, grams: frozenset[str], present: frozenset[str] | set[str]) -> float:
        """IDF-weighted share of a node's character n-grams found in `present` (0 when `grams` is empty)."""
        idf = self.gram_idf
        total = self._gram_totals.get(grams) if isinstance(grams, frozenset) else None
        if total is None:
            total = math.fsum(map(idf.__getitem__, grams))
            if isinstance(grams, frozenset) and len(self._gram_totals) < 4 * len(self.doc_terms) + 64:
                self._gram_totals[grams] = total  # the node's own gram sets: a few per node
        found = grams & present
        return math.fsum(map(idf.__getitem__, found)) / total if total and found else 0.0

    def _term_scores(self, node_id: str, k1: float, b: float) -> dict[str, float]:
        counts = self._counts[node_id]
        norm = k1 * (1 - b + b * self._lengths[node_id] / max(self.average_length, 1e-9))
        idf = self.idf
        return {t: idf.get(t, 0.0) * counts[t] * (k1 + 1) / (counts[t] + norm) for t in counts}

    def bm25(self, query: Iterable[str], node_id: str, k1: float = 1.2, b: float = 0.75) -> float:
        scores = self._bm25_terms[node_id] if k1 == 1.2 and b == 0.75 else self._term_scores(node_id, k1, b)
        terms = query if isinstance(query, (set, frozenset)) else set(query)
        found = terms & scores.keys()
        return math.fsum(map(scores.__getitem__, found)) if found else 0.0

    def frontier(self, frontier: list[str]) -> FrontierTerms:
        """What each frontier node has that no other frontier node has (its document terms, its focus terms), in
        frontier order: counted once per frontier, which stays the same over several turns."""
        key = tuple(frontier)
        found = self._frontiers.get(key)
        if found is None:
            nodes = list(dict.fromkeys(frontier))  # (a node's own terms are told apart from the others' by id)
            shared_docs = _shared(self.doc_sets[n] for n in nodes)
            shared_focus = _shared(self.focus_terms[n] for n in nodes)
            docs = [self.doc_sets[n] - shared_docs for n in frontier]
            focus = [self.focus_terms[n] - shared_focus for n in frontier]
            found = FrontierTerms(docs, focus)
            if len(self._frontiers) >= 64:
                self._frontiers.clear()
            self._frontiers[key] = found
        return found

    def match(self, turn: str, frontier: list[str]) -> list[NodeMatch]:
        """Features of `turn` against each frontier node, in frontier order."""
        asked = question_text(turn, self.language)
        asked_terms = set(tokens(asked, self.language))
        turn_terms = set(tokens(turn, self.language))
        exclusive_docs = self.frontier(frontier).exclusive_docs
        out = []
        for position, node_id in enumerate(frontier):
            doc = self.doc_sets[node_id]
            out.append(
                NodeMatch(
                    node_id=node_id,
                    question_cover=self._cover(doc, asked_terms),
                    turn_cover=self._cover(doc, turn_terms),
                    text_cover=self._cover(self.text_terms[node_id], turn_terms),
                    exclusive_cover=self._cover(exclusive_docs[position], asked_terms),
                    bm25=self.bm25(asked_terms, node_id),
                )
            )
        return out
