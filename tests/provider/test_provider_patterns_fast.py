"""The provider's prefiltered patterns find exactly what re finds with the plain pattern, on any text."""

from __future__ import annotations

import random

import pytest

from clarq_bench.provider.lexical import tokens
from clarq_bench.provider.question_words import CHOOSER, CHOOSER_AFTER

WORDS = [
    "which",
    "Which",
    "WHICH",
    "whıch",
    "one",
    "ones",
    "of",
    "them",
    "these",
    "those",
    "kind",
    "type",
    "sort",
    "what",
    "where",
    "best",
    "right",
    "exact",
    "the",
    "mine",
    "x_y",
    "42",
    ",",
    ".",
    "?",
    " ",
    "-",
    "'",
    "whichone",
    "which-one",
    "哪",
    "哪个",
    "什么",
    "最好的",
    "矿山",
    "里",
    "é",
]


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 30))) for _ in range(count)]


@pytest.mark.parametrize("patterns", [CHOOSER, CHOOSER_AFTER])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_same_matches_as_re(patterns, language):
    fast, plain = patterns[language], patterns[language].pattern
    for text in _texts(7, 3000):
        expected = [(m.span(), m.groups()) for m in plain.finditer(text)]
        assert [(m.span(), m.groups()) for m in fast.finditer(text)] == expected, text
        first = plain.search(text)
        found = fast.search(text)
        assert (found.span() if found else None) == (first.span() if first else None), text


def test_memoized_tokens_are_fresh_lists():
    """Callers may change what they get: the memo hands out a new list each time."""
    first = tokens("Which mines hold rubies?", "en")
    first.append("mutated")
    assert "mutated" not in tokens("Which mines hold rubies?", "en")


def test_names_taken_out_as_by_each_case_blind_pattern():
    """The screen skips a phrase the lower-cased ASCII text lacks: the result is what every pattern's sub gives."""
    import re

    from clarq_bench.provider.screen import _without_phrases

    phrases = ("North Mine", "mine", "Salt and Pepper Shop", "ſalt", "K", "哪个矿", "Mine (old)")
    rng = random.Random(3)
    pieces = [
        "the",
        "north",
        "NORTH",
        "Mine",
        "mine",
        "salt",
        "and",
        "pepper",
        "shop",
        "SALT",
        "k",
        "K",
        "哪个矿",
        "(old)",
        ",",
        "?",
    ]
    for _ in range(2000):
        text = " ".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        for language in ("en", "zh"):
            expected = text
            for phrase in phrases:
                expected = re.compile(re.escape(phrase), re.I).sub("，" if language == "zh" else " , ", expected)
            assert _without_phrases(phrases, text, language) == expected, text
