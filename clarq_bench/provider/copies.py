"""What a seeker's question copies from Jax's replies or the brief, in runs of words (characters in Chinese).

Why apart: two screen rules read the same runs. A question made mostly of copied runs is not the seeker's own
(MAX_COPIED_SHARE); a question that wraps copied runs in a frame naming nothing of the task ("Which one should I pick
to <his words>?") fits any clause Jax said, so it asks about none of them (adds_nothing). A person answers neither.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ..data.loader import strip_speaker
from .echo import words
from .growing import Growing
from .lexical import TEXT_CACHE, sentences, tokens
from .question_words import GOVERNS, NOTICED_MANY, SPECIFIC_WH, UNJOINED_FRAME

#: A run of this many words (en) / characters (zh) found in Jax's replies or the brief is copied.
COPY_GRAM = {"en": 4, "zh": 6}
#: A question sentence made mostly (this share) of copied runs is not the seeker's own question (a pasted brief,
#: even with words taken out, asks nothing).
MAX_COPIED_SHARE = 0.8
#: Languages whose questions are checked for a bare frame around copied runs. Not Chinese: a question there names its
#: thing in a few characters that one copied run takes whole ("是哪一座灯塔熄灭了？" is all frame and copy).
FRAME_CHECKED = frozenset({"en"})
#: ... and there a question says a sentence of his back with this many of its content terms in a row, in his order,
#: or this many in a row in any order.
TERM_RUN = 3
TERM_SET = 4


#: (en) A question word run together with its verb is two words of the seeker's own ("Where's" as "Where is"), so a
#: contraction does not make a question look more copied than its spelled-out twin.
WH_CONTRACTED = re.compile(r"^(what|where|who|how|when|which|why)'(s|re|d|ll|ve)$")


def units(text: str, language: str) -> list[str]:
    """Characters (zh, spaces and punctuation dropped) or lower-cased words (en), quotes around a word dropped (a
    clause in single quotes is still his), a question word's contraction as two words."""
    if language == "zh":
        return [ch for ch in text if ch.isalnum()]
    found: list[str] = []
    for word in words(text):
        bare = word.strip("'")
        contracted = WH_CONTRACTED.match(bare)
        found += [contracted.group(1), contracted.group(2)] if contracted else [bare] if bare else []
    return found


#: Joins the units of a run into one string: no unit holds it (nor any whitespace), so runs and their keys match one
#: to one, and a key's hash is counted once (a tuple's is counted again on every lookup).
_JOIN = "\x1f"


def _runs(said: list[str], n: int) -> list[str]:
    """The key of every run of n units, in order."""
    return list(map(_JOIN.join, zip(*(said[k:] for k in range(n)))))


@lru_cache(maxsize=TEXT_CACHE)
def text_grams(text: str, language: str) -> frozenset[str]:
    """Every run of COPY_GRAM units of an earlier text (its speaker tag left out), by its key (_runs)."""
    return frozenset(_runs(units(strip_speaker(text), language), COPY_GRAM[language]))


#: Every run of Jax's replies so far (the union of their text_grams), grown a reply a turn.
_HEARD_GRAMS = Growing(lambda language: frozenset(), lambda read, text, language: read | text_grams(text, language))


def heard_grams(earlier: Sequence[str], language: str) -> frozenset[str]:
    """The runs of all the earlier texts together (read-only): CopiedRuns reads one set as it reads them apart."""
    return _HEARD_GRAMS(earlier, language)


@lru_cache(maxsize=TEXT_CACHE)
def sentence_terms(text: str, language: str) -> tuple[tuple[str, ...], ...]:
    """The content terms of each sentence of an earlier text, in order (sentences of TERM_RUN terms or more)."""
    found = (tuple(tokens(sentence, language)) for sentence in sentences(strip_speaker(text), language))
    return tuple(terms for terms in found if len(terms) >= TERM_RUN)


@lru_cache(maxsize=TEXT_CACHE)
def _said_terms(text: str, language: str) -> tuple[tuple[frozenset[str], ...], frozenset[tuple[str, ...]]]:
    """One earlier text's sentences as SaidTerms reads them (term sets, runs of TERM_RUN terms), read once per text:
    every later turn of the dialogue reads all of Jax's replies again."""
    said = sentence_terms(text, language)
    runs = frozenset(terms[i : i + TERM_RUN] for terms in said for i in range(len(terms) - TERM_RUN + 1))
    return tuple(frozenset(terms) for terms in said), runs


def _add_said_terms(
    read: tuple[tuple[frozenset[str], ...], frozenset[tuple[str, ...]]], text: str, language: str
) -> tuple[tuple[frozenset[str], ...], frozenset[tuple[str, ...]]]:
    sets, runs = _said_terms(text, language)
    return read[0] + sets, read[1] | runs


#: All of Jax's replies as SaidTerms reads them, each turn's grown from the last turn's by his newest reply.
_SAID_TERMS = Growing(lambda language: ((), frozenset()), _add_said_terms)


class SaidTerms:
    """What Jax said, sentence by sentence, as content terms. A question says a sentence of his back with TERM_RUN of
    its terms in a row, in his order ("complete deal henry": the small words left out), or with TERM_SET of them in
    a row in any order ("henry deal complete trade"); his terms spread among words of the seeker's own ("multiple
    magic shops and unsure which one to go to for the teleportation artefact") are no copy."""

    def __init__(self, earlier: list[str], language: str) -> None:
        self.sets, self.runs = _SAID_TERMS(earlier, language)

    def covered(self, said: list[str]) -> set[int]:
        """The positions of `said` (terms) that say back a sentence of his."""
        at: set[int] = set()
        present = set(said)
        for terms in self.sets:
            if len(present & terms) < TERM_SET:
                continue
            start = 0
            for end in range(len(said) + 1):  # runs of consecutive terms all of this sentence of his
                if end == len(said) or said[end] not in terms:
                    if end - start >= TERM_SET:
                        at.update(range(start, end))
                    start = end + 1
        for i in range(len(said) - TERM_RUN + 1):
            if tuple(said[i : i + TERM_RUN]) in self.runs:
                at.update(range(i, i + TERM_RUN))
        return at


class CopiedRuns:
    """The runs of the texts a turn may copy (text_grams of each), for membership only (cheaper than their union)."""

    def __init__(self, *sets: frozenset[str]) -> None:
        self.sets = sets
        self._read: dict[tuple[str, str], tuple[list[str], set[int]]] = {}

    def read(self, sentence: str, language: str) -> tuple[list[str], set[int]]:
        """A sentence's units and the positions of them it copies (read-only), read once per sentence: the screen's
        rules read the same questions against the same runs (copied_share, then split_copied)."""
        key = (sentence, language)
        found = self._read.get(key)
        if found is None:
            said = units(sentence, language)
            found = self._read[key] = (said, self.covered(said, language))
        return found

    def covered(self, said: list[str], language: str) -> set[int]:
        """The positions of `said` (units) inside a run some earlier text holds."""
        n = COPY_GRAM[language]
        # (each run of n units, hashed once: each held set is probed with the few runs; most sentences copy none)
        runs = _runs(said, n)
        wanted = set(runs)
        if not wanted or all(held.isdisjoint(wanted) for held in self.sets):
            return set()
        copied = set().union(*(held & wanted for held in self.sets))
        return {i + k for i, run in enumerate(runs) if run in copied for k in range(n)}


def copied_share(sentence: str, runs: CopiedRuns, language: str) -> float:
    """The share of a sentence's words (characters) inside runs it copies."""
    said, covered = runs.read(sentence, language)
    return len(covered) / len(said) if said else 0.0


def split_copied(sentence: str, runs: CopiedRuns, language: str) -> tuple[str, str] | None:
    """The sentence's own words and its copied words, apart (each joined back into text); None when it copies
    nothing."""
    said, covered = runs.read(sentence, language)
    if not covered:
        return None
    joint = " " if language == "en" else ""
    own = joint.join(u for i, u in enumerate(said) if i not in covered)
    return own, joint.join(u for i, u in enumerate(said) if i in covered)


def adds_nothing(
    sentence: str, runs: CopiedRuns, terms: SaidTerms, language: str, vocabulary: set[str], probed: bool = False
) -> bool:
    """Does a question wrap copied words in a frame that names nothing of the task beyond them ("Which one should I
    pick to <his words>?", "... to <his content words, in any order>?", "About the wick: which one should I pick to
    <his words about a wick>?")? `runs`: his word runs; `terms`: his sentences' terms. It keeps a question
    word of a kind of its own (where, who, when, how), a word of `vocabulary` (the task's own) that the copied
    words do not already say, or a thing of the task its which / what governs ("Which gem should I bring to <his
    words about a gem>?") or it notices several of ("there are multiple <his words> and I am unsure which one").
    `probed`: another question of the turn wraps the same words of his in another question word (reframed), so no
    question word is the question's own."""
    parts = split_copied(sentence, runs, language)
    frame = sentence if parts is None else parts[0]
    dashed = sentence.replace("\u2014", " - ").replace("\u2013", " - ")  # (a long dash closes a clause as " - " does)
    unjoined = language in UNJOINED_FRAME and UNJOINED_FRAME[language].search(dashed)
    if SPECIFIC_WH[language].search(frame) and not unjoined and not probed:
        return False
    said = tokens(sentence, language)
    covered = terms.covered(said)
    if not covered:
        return False
    own = vocabulary.intersection(t for i, t in enumerate(said) if i not in covered)
    copied = {t for i, t in enumerate(said) if i in covered}
    governed = {t for match in GOVERNS[language].finditer(sentence) for t in tokens(match.group(1), language)}
    many = {t for match in NOTICED_MANY[language].finditer(sentence) for t in tokens(match.group(1), language)}
    return not (own - copied or vocabulary & (governed | many))


def reframed(questions: list[str], terms: SaidTerms, language: str) -> set[str]:
    """The questions of a turn that say back the same words of his as another of its questions ("How do I <his
    clause>? Where do I go to <his clause>? Which place ... <his clause>?"): one clause probed with question words."""
    said = []
    for question in questions:
        units = tokens(question, language)
        said.append({units[i] for i in terms.covered(units)})
    return {
        question
        for i, question in enumerate(questions)
        if any(
            j != i and len(said[i] & other) >= TERM_RUN and len(said[i] & other) >= min(len(said[i]), len(other)) / 2
            for j, other in enumerate(said)
        )
    }


def frames_own(statements: list[str], copied: set[str], terms: SaidTerms, language: str, vocabulary: set[str]) -> bool:
    """Does a statement of the turn name the task in words of its own, beyond the `copied` terms its questions say
    back ("There are several cities. Which one is at the edge of Beta?")? Then a "which one" has something of the
    seeker's to refer to."""
    for statement in statements:
        said = tokens(statement, language)
        covered = terms.covered(said)
        if vocabulary.intersection(t for i, t in enumerate(said) if i not in covered) - copied:
            return True
    return False


def copied_terms(questions: list[str], terms: SaidTerms, language: str) -> set[str]:
    """The content terms of his that the questions say back."""
    found: set[str] = set()
    for question in questions:
        said = tokens(question, language)
        found.update(said[i] for i in terms.covered(said))
    return found
