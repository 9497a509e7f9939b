"""CaseBlind answers exactly as its re.IGNORECASE pattern, including on the characters re folds to ASCII letters."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clarq_bench.provider.caseblind import CaseBlind, case_blind
from clarq_bench.provider.question_words import CHOOSER_AFTER, CLASSES, LIST_JOINT, WH_JOINED

PATTERNS = [
    r"\b(which|what|where|how)\b",
    r"\s*(?:[,;/]|\b(?:or|and|either|versus|vs)\b)\s*",
    r"((?:\w+\W+){0,3})\b(which one|which of (?:them|these))\b",
    r"^\s*(?:do|does|is|are|kill)\b",
    r"[a-z]+ing\b",
]
#: Texts that fold in re's case-blind matching but not in str.lower (İ ı ſ K), mixed case, CJK, empty.
TEXTS = [
    "",
    "Which One? And WHICH of them, or the Other?",
    "İs it the ſhop or the Kiln, which one?",
    "ıt is here; what about the keys / the locks",
    "DOES the Kelvin work? 哪个 which ONE",
    "Ask: how, then WHERE; tIng-tING singing",
]
_TEXT = st.text(alphabet=st.sampled_from(list("aAbiIsSkK wWhHcon,;?/\u0130\u0131\u017f\u212a哪é")), max_size=40)


def _same(blind: CaseBlind, text: str) -> None:
    real = blind.real
    spans = lambda ms: [(m.span(), m.groups()) for m in ms]  # noqa: E731
    found, expected = blind.search(text), real.search(text)
    assert (found and (found.span(), found.groups())) == (expected and (expected.span(), expected.groups()))
    assert spans(blind.finditer(text)) == spans(real.finditer(text))
    assert blind.findall(text) == real.findall(text)
    assert blind.split(text) == real.split(text)
    assert blind.split(text, 1) == real.split(text, 1)
    assert blind.sub("#", text) == real.sub("#", text)
    assert blind.sub(" , ", text, 1) == real.sub(" , ", text, 1)
    assert blind.sub(r"<\g<0>>", text) == real.sub(r"<\g<0>>", text)
    assert bool(blind.match(text)) == bool(real.match(text))
    assert bool(blind.fullmatch(text)) == bool(real.fullmatch(text))
    for pos in range(0, len(text) + 1, 3):
        hit, want = blind.search(text, pos), real.search(text, pos)
        assert (hit and hit.span()) == (want and want.span())
        assert blind.findall(text, pos) == real.findall(text, pos)


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("text", TEXTS)
def test_case_blind_matches_its_pattern(pattern: str, text: str) -> None:
    _same(case_blind(pattern), text)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PATTERNS), _TEXT)
def test_case_blind_matches_its_pattern_on_any_text(pattern: str, text: str) -> None:
    _same(case_blind(pattern), text)


def test_the_provider_tables_are_case_blind_and_exact() -> None:
    tables = [LIST_JOINT["en"], WH_JOINED["en"], *CLASSES["en"].values()]
    assert all(isinstance(p, CaseBlind) for p in tables)
    for pattern in tables:
        assert isinstance(pattern, CaseBlind)
        for text in TEXTS:
            _same(pattern, text)


def test_chooser_after_finds_what_its_pattern_finds() -> None:
    chooser = CHOOSER_AFTER["en"]
    for text in [
        *TEXTS,
        "castle is it, which one do I pick? and which of them is good",
        "which which one",
        "WHICH TYPE",
    ]:
        assert [m.span() for m in chooser.finditer(text)] == [m.span() for m in chooser.pattern.real.finditer(text)]


@pytest.mark.parametrize("pattern", [r"\bWhich\b", r"caf\u00e9"])
def test_a_pattern_with_upper_case_or_other_cased_letters_is_refused(pattern: str) -> None:
    with pytest.raises(ValueError):
        case_blind(pattern)


def test_a_pattern_without_ignorecase_is_refused() -> None:
    with pytest.raises(ValueError):
        CaseBlind(re.compile(r"\bwhich\b"))
