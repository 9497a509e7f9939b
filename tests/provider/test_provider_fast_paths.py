"""The provider's fast paths give exactly what the plain computation gives: plain searches in place of case-blind
phrase patterns, precounted BM25 and IDF totals, per-frontier exclusive terms, the per-reader memo."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from clarq_bench.core.tasks import ResponseTree
from clarq_bench.provider.ascii_words import joined_words_en
from clarq_bench.provider.lexical import TaskIndex, absent_phrase, lowered_for_search
from clarq_bench.provider.memo import MEMO_SIZE, per_reader

PHRASES = ["North Mine", "north mine", "D1电脑电池", "龙息湖", "Café", "K2", "sky", "Isle", "3号", "é"]
TEXTS = [
    "Where is the NORTH MINE?",
    "Where is the north\u2019s mine?",
    "去d1电脑电池店",
    "去龙息湖吗",
    "The CAFÉ or the cafe?",
    "the \u212a2 peak",  # KELVIN SIGN folds to k
    "\u017fky above",  # long s folds to s
    "\u0130sle or \u0131sle",  # dotted / dotless i fold to i
    "3号仓库",
    "plain text",
    "",
]


@pytest.mark.parametrize(("phrase", "text"), list(itertools.product(PHRASES, TEXTS)))
def test_absent_phrase_never_misses_a_match(phrase: str, text: str) -> None:
    matches = bool(re.compile(re.escape(phrase), re.IGNORECASE).search(text))
    absent = absent_phrase(phrase, text, lowered_for_search(text))
    assert not (absent and matches)
    # and it is a real test: an ASCII or caseless phrase is found absent exactly when the pattern does not match
    if re.fullmatch(r"[\x00-\x7f\u3000-\u303f\u4e00-\u9fff]*", phrase) and lowered_for_search(text) is not None:
        assert absent == (not matches)


def test_lowered_for_search_refuses_the_characters_that_fold_to_ascii() -> None:
    folding = [chr(c) for c in range(128, 0x110000) if re.fullmatch("[a-z]", chr(c), re.IGNORECASE)]
    assert folding and all(lowered_for_search(f"x{ch}y") is None for ch in folding)
    assert lowered_for_search("Where’s the MINE?") == "where’s the mine?"


def _index() -> TaskIndex:
    tree = ResponseTree.build(
        [
            ("0", "You can go to the mine to dig for rubies.", None),
            ("1", "Stun the monsters with fog, then enter the mine.", "Use it if they noticed the monsters."),
            ("2", "Go to the North Mine: only it has rubies.", "There are two mines, North Mine and West Mine."),
            ("3", "Buy the lamp at the market.", "This response addresses where to buy a lamp."),
        ]
    )
    return TaskIndex(tree, "en")


def _plain_bm25(index: TaskIndex, query: set[str], node_id: str, k1: float, b: float) -> float:
    counts: dict[str, int] = {}
    for term in index.doc_terms[node_id]:
        counts[term] = counts.get(term, 0) + 1
    norm = k1 * (1 - b + b * len(index.doc_terms[node_id]) / max(index.average_length, 1e-9))
    return math.fsum(
        index.idf.get(t, 0.0) * counts[t] * (k1 + 1) / (counts[t] + norm) for t in set(query) if t in counts
    )


@pytest.mark.parametrize(("k1", "b"), [(1.2, 0.75), (2.0, 0.5)])
def test_bm25_is_the_formula(k1: float, b: float) -> None:
    index = _index()
    query = {"mine", "north", "ruby", "lamp", "absent"}
    for node_id in index.doc_terms:
        assert index.bm25(query, node_id, k1, b) == _plain_bm25(index, query, node_id, k1, b)
        assert index.bm25(list(query), node_id, k1, b) == index.bm25(query, node_id, k1, b)
    assert index.bm25(query, "2") > index.bm25(query, "1") > 0


def test_cover_of_a_frozen_set_equals_the_cover_of_its_list() -> None:
    index = _index()
    present = {"mine", "monster"}
    for terms in index.doc_terms.values():
        frozen = index.cover(frozenset(terms), present)
        assert frozen == index.cover(list(terms), present) == index.cover(frozenset(terms), present)
    assert index.cover(index.doc_sets["1"], present) > 0
    assert index.cover(frozenset({"nowhere"}), present) == 0.0  # a term with no weight reads 0, not KeyError


def test_frontier_terms_are_those_no_other_frontier_node_has() -> None:
    index = _index()
    frontier = ["1", "2", "3"]
    apart = index.frontier(frontier)
    for position, node_id in enumerate(frontier):
        others = set().union(*(index.doc_terms[o] for o in frontier if o != node_id))
        assert apart.exclusive_docs[position] == {t for t in index.doc_terms[node_id] if t not in others}
        focus_others = set().union(*(index.focus_terms[o] for o in frontier if o != node_id))
        assert apart.exclusive_focus[position] == index.focus_terms[node_id] - focus_others
    assert "north" in index.frontier(["2", "3"]).exclusive_docs[0]


class _Reader:
    def __init__(self) -> None:
        self.calls = 0

    @per_reader
    def double(self, value: int, *, twice: bool = True) -> int:
        self.calls += 1
        return 2 * value if twice else value


def test_per_reader_memo_is_per_instance_keyed_and_bounded() -> None:
    one, two = _Reader(), _Reader()
    assert one.double(3) == 6 and one.double(3) == 6 and one.calls == 1
    assert one.double(3, twice=False) == 3 and one.calls == 2  # keyword arguments are part of the key
    assert two.double(3) == 6 and two.calls == 1  # another reader keeps its own table
    for value in range(MEMO_SIZE + 10):
        one.double(value)
    assert len(one.__dict__["_memo_double"]) <= MEMO_SIZE


WORDY = [
    "Where's the NORTH-MINE?!",
    "  a\tb\nc  ",
    "",
    "...",
    "Café au lait, s'il vous plaît",
    "\u212aelvin K2",
    "x_y z",
]


@pytest.mark.parametrize("text", WORDY + TEXTS)
def test_fast_paths_of_plain_text_give_the_patterns_results(text: str) -> None:
    lowered = text.lower()
    assert joined_words_en(lowered) == re.sub(r"[^a-z0-9]+", " ", lowered).strip()
    folds = re.search("[\u0130\u0131\u017f\u212a]", text)
    assert lowered_for_search(text) == (None if folds else text.lower())


#: Jax's replies as they are joined (each ending a sentence or not), in both languages.
REPLIES = [
    ("Jax: what can help you?", "Jax: Go to the North Mine. Henry waits at the Forest Tavern.  ", "Ask Henry, then"),
    ("Jax: You need the gem!\n", "Jax: The Ruby Cave is east; the West Mine, north.", "Jax: ok"),
    ("Jax: Go to the mine", "Jax: Henry is there.", "Bring a pick"),  # (a reply that ends no sentence)
    ("Jax: 去北矿。", "Jax: 亨利在森林酒馆（Forest Tavern）！ ", "Jax: 带上A1钥匙"),
    ("Jax: 去北矿", "Jax: 亨利在 Forest 酒馆。", "好"),
]


@pytest.mark.parametrize("replies", REPLIES)
def test_joined_replies_read_as_their_whole(replies: tuple[str, ...]) -> None:
    from clarq_bench.provider import lexical

    for language in ("en", "zh"):
        for count in range(1, len(replies) + 1):
            heard = lexical.joined(replies[:count], language)
            assert heard == " ".join(replies[:count])
            assert lexical._TEXTS[heard, language] == lexical._read_text((heard, language))


@pytest.mark.parametrize("replies", REPLIES[:3])
def test_his_words_read_reply_by_reply_as_in_their_whole(replies: tuple[str, ...]) -> None:
    from clarq_bench.provider.word_order import _Said

    for count in range(1, len(replies) + 1):
        heard = " ".join(replies[:count])
        by_reply, whole = _Said(heard, "", "en", replies[:count]), _Said(heard, "", "en")
        assert (by_reply.names, by_reply.terms, by_reply.pairs) == (whole.names, whole.terms, whole.pairs)
