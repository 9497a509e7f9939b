"""How FocusIndex reads a seeker turn into its questions: the sentences that ask (a preamble ending in a colon asks
nothing), each cut where a second question begins ("Which gem does Henry need, and at which gate?"), interrogatives
joined by and / or apart (asks.py), a bare "Which X exactly?" marked, and a short "those" / "one" read with the list
or the statement before it; and whether an interrogative governs a kind (_kind_governed). It needs `language` and
the list reading's names, which FocusIndex sets (focus.py decides what each question asks)."""

from __future__ import annotations

import re
from typing import Any

from .asks import wh_pieces
from .caseblind import TextPattern, case_blind
from .detail_kinds import ASKED_KINDS, KIND_WORDS
from .lexical import is_question, lowered_for_search, sentences, token_set, tokens
from .memo import per_reader
from .question_lists import ListReading, Question
from .question_words import (
    ABBREVIATION,
    ALTERNATIVE,
    ANAPHORIC,
    ASKS,
    BARE_FILLER_EN,
    BARE_SCAFFOLD_ZH,
    BARE_WHICH_EN,
    CHOOSER,
    CHOOSER_AFTER,
    CJK_WORD,
    CLASSES,
    CLAUSE_BREAK,
    DECIMAL,
    LIST_FOLLOWS,
    LIST_JOINT,
    REFERS_BACK,
    STANDS_FOR,
)
from .shortfall import asks_shortfall

#: The words of STANDS_FOR that stand for a thing the question asks about ("Which store has it?"), not for the kind
#: its which asks ("Which one?").
STANDS_FOR_THING: dict[str, TextPattern] = {
    "en": case_blind(r"\b(it|them)\b"),
    "zh": re.compile(r"它"),
}
#: (zh) The interrogative of a bare which ("哪个", "什么样的"): what stands before it is the question's own.
WHICH_ZH = re.compile(r"哪|什么")
#: Content words of the statement before a question that its "one" / "it" / "there" may stand for, at most.
CONTEXT_TERMS = 8


#: What every ABBREVIATION match holds, lower-cased: a turn with none of them has no abbreviation (most turns).
_ABBREVIATED = ("vs.", "etc.", "e.g.", "i.e.", "approx.", "mr.", "ms.", "mrs.", "dr.", "prof.", "st.", "no.")


def _dots_kept(turn: str) -> str:
    """The turn with the dots that end no sentence (an abbreviation's, a decimal's) taken out or made middle dots,
    each pattern run only on a turn that may hold one (a plain test first: re tried them at every word)."""
    lowered = lowered_for_search(turn)
    if lowered is None or any(abbreviated in lowered for abbreviated in _ABBREVIATED):
        turn = ABBREVIATION.sub(lambda m: m.group(1) or m.group(2), turn)
    return DECIMAL.sub("\\1\u00b7\\2", turn) if DECIMAL.search(turn) else turn


class QuestionReading(ListReading):
    """The question reading of FocusIndex (see the module docstring); on the list reading, whose names it sets apart."""

    language: str

    @per_reader
    def questions(self, turn: str, heard: str | None = None, limit: int | None = None) -> list[Question]:
        """The question sentences of a turn, in order; `heard`: what Jax has said so far (every provider turn
        before this one), which a kind must come from to be asked by name (see _kind_governed); `limit`: stop
        after that many (the questions read at all)."""
        language = self.language
        jax = token_set(heard, language) if heard is not None else None
        found: list[Question] = []
        context = ""
        for sentence in sentences(_dots_kept(turn), language):
            if not is_question(sentence, language) or sentence.rstrip().endswith((":", "：")):
                context = sentence  # (a preamble such as "I have a few questions:" asks nothing itself)
                continue
            for clause in self._clauses(sentence):
                classes = {name for name, pattern in CLASSES[language].items() if pattern.search(clause)}
                classes = classes or {"polar"}
                bare = classes <= {"identity", "polar"} and self._is_bare(clause, jax)
                if found and REFERS_BACK[language].search(clause) and len(tokens(clause, language)) <= 2:
                    # "What about the garlic, onions and potatoes? Where can I find those?": "those" is the list
                    clause = f"{clause} ({found[-1].text})"
                elif (
                    context
                    and (STANDS_FOR[language].search(clause) or len(tokens(clause, language)) <= 1)
                    and len(tokens(clause, language)) <= 2
                    and len(tokens(context, language)) <= CONTEXT_TERMS
                ):
                    # "I need coconut water. Which store has it?" names a thing besides its which: not bare
                    bare = bare and not STANDS_FOR_THING[language].search(clause)
                    # "I don't have a horse. Where can I find one?": "one" is the horse of the sentence before
                    clause = f"{clause} ({context})"
                found.append(Question(clause, token_set(clause, language), frozenset(classes), context, bare, jax))
            if limit is not None and len(found) >= limit:
                return found[:limit]
            context = ""
        return found

    def _is_bare(self, clause: str, heard: frozenset[str] | None = None) -> bool:
        """A question of one word of its own around its which / what ("Which trade exactly?", "What crystal, precisely?",
        "具体是哪个酒馆？"), or of one more that Jax never said (`heard`: his terms; "Which market should I hire?"): it
        can only ask which of several such things is meant, so it asks a choice whose kind is that word and nothing
        else. (zh: nothing of its own before the interrogative.)"""
        if self.language == "zh":  # ("挂店招用哪一样？" names a thing before its which)
            which = WHICH_ZH.search(clause)
            before = clause[: which.start()] if which else ""
            if CJK_WORD.search(BARE_SCAFFOLD_ZH.sub("", before)) or asks_shortfall(clause, "zh"):
                return False  # (a thing named before the which; "够用吗？" asks whether there is enough, no which)
            return len(CJK_WORD.findall(BARE_SCAFFOLD_ZH.sub("", clause))) <= 4
        own = [t for t in tokens(clause, "en") if t not in BARE_FILLER_EN]
        governed = BARE_WHICH_EN.search(clause)  # the which / what governs that word ("what should I do" does not)
        kind = set(tokens(governed.group(1), "en")) if governed else set()
        if kind & set(own):  # "Which X should I hire?": one word besides the kind names nothing it is for, unless
            rest = [t for t in own if t not in kind]  # Jax said it ("Which coast are we shooting on?")
            return len(rest) <= 1 and not (heard is not None and heard.intersection(rest))
        return not own

    def _clauses(self, sentence: str) -> list[str]:
        """One question sentence cut where a second question begins ("Which gem does Henry need, and at which gate
        ...?" asks two things): at a comma or semicolon, only when both sides carry a question word of their own."""
        pieces = [
            piece for part in CLAUSE_BREAK[self.language].split(sentence) for piece in wh_pieces(part, self.language)
        ]
        clauses: list[str] = []
        for piece in pieces:
            if clauses and ASKS[self.language].search(piece) and ASKS[self.language].search(clauses[-1]):
                clauses.append(piece)
            elif clauses:
                clauses[-1] = clauses[-1] + ", " + piece
            else:
                clauses.append(piece)
        return [clause.strip() for clause in clauses if clause.strip()]

    def _kind_governed(self, question: Question, kind: frozenset[str]) -> bool:
        """An interrogative governs a term of the kind outside every option's name ("which castle"; zh a kind of one
        character inside a governed pair: "有三座山，…哪一座" governs the 山 of 座山)."""
        if not kind:
            return False
        governed = self._governed_terms(question)
        if not governed.isdisjoint(kind):
            return True
        if self.language != "zh":  # ("which transport" governs a kind "transportation" by its stem; "which of my
            # gems" a kind "gem": the stemmer leaves words of four letters whole)
            return any(
                _derived(word, term) or _derived(term, word) or _plural(word, term) or _plural(term, word)
                for word in governed
                for term in kind
            )
        chars = [t for t in kind if len(t) == 1]  # ("哪条路" governs the 路 of 道路: the pair's head)
        return any(c in term for c in chars for term in governed) or any(
            len(t) == 1 and t == pair[-1] for t in governed for pair in kind
        )

    def _asks_kind_word(self, question: Question) -> bool:
        """Does its which / what govern only a word for a kind of detail ("which place", "what time", "which
        person"), so that the question asks that detail rather than which thing?"""
        governed = self._governed_terms(question)
        return bool(question.classes & ASKED_KINDS) and bool(governed) and governed <= KIND_WORDS[self.language]

    def names_its_thing(self, question: Question, focus: Any) -> set[str]:
        """(zh) The terms of the brief's names the question says that are wholly the thing a choice is for, not one of
        its options ("从太阳城到月亮城该怎么走？" of the way to go to 月亮城), where every name it says is one the
        answer says too: naming that place asks about it. (English anchors keep the explanation's own words for the
        thing besides its name, and a name there is more often pasted into a general question: agreement fell.)"""
        if self.language != "zh" or ALTERNATIVE["zh"].search(question.text):
            return set()  # (names offered as alternatives, "A还是B？", ask which of them, not about the thing)
        named = self.named_options(question)  # type: ignore[attr-defined]
        said = self.index.text_terms[focus.node_id]  # type: ignore[attr-defined]
        if any(not o.terms <= said for o in named):
            # a name the answer never says: "到了X以后，Y怎么用？" strings names, it asks no way between them
            return set()
        options = set(focus.options)
        return {t for o in named if o not in options and o.terms <= focus.anchor for t in o.terms}

    @per_reader
    def _governed_terms(self, question: Question) -> frozenset[str]:
        """Every term an interrogative of the question governs, outside every option's name: read once per question,
        as every frontier node's kind is checked against it (_kind_governed)."""
        language = self.language
        rest = self._without_names(question.text)
        governed: set[str] = set()
        for match in CHOOSER[language].finditer(rest):
            if LIST_FOLLOWS[language].match(rest, match.end()):
                continue  # "what crystal, magic or release": it governs a list of things, not the crystal
            governed.update(tokens(match.group(1), language))
            if language == "zh":  # "什么油": a kind of one character ("油" of 煤油 and 鲸油)
                governed.add(match.group(1)[0])
        for match in CHOOSER_AFTER[language].finditer(rest):  # only what stands right before it, past no joint
            before = LIST_JOINT[language].split(match.group(1))[-1]
            governed.update(tokens(before, language))
        # "There are two mines. Which one has rubies?": an anaphoric "which one" takes its kind from the statement
        # just before the question, never from an option's name there.
        anaphor = ANAPHORIC[language].search(rest)
        if anaphor and question.context:
            governed.update(tokens(self._without_names(question.context), language))
        elif anaphor:  # "有三所学校，你说的是哪一所？": the clause before it, in the same sentence, names the kind
            before = CLAUSE_BREAK[language].split(rest[: anaphor.start()])
            leading = set(tokens(before[-2], language)) if len(before) > 1 else set()
            own = question.heard is None or not leading <= question.heard  # (Jax's clause said back names nothing)
            if leading and own and len(leading) <= CONTEXT_TERMS and not ASKS[language].search(before[-2]):
                governed.update(leading)
        return frozenset(governed)


#: (en) Endings that make one word of another the crude stemmer leaves apart ("transport" / "transportation",
#: "immobiliz" of "immobilizing" / "immobilize"), after a stem of DERIVED_STEM letters at least.
DERIVED_ENDINGS = ("ation", "ion", "ment", "e")
DERIVED_STEM = 5


def _plural(word: str, single: str) -> bool:
    """Is `word` the plural of the short English word `single` that lexical._stem left whole ("gems", "labs")?"""
    return len(word) <= 4 and word == single + "s"


def _derived(stem: str, word: str) -> bool:
    """Is `word` the English `stem` with a derivational ending?"""
    return len(stem) >= DERIVED_STEM and word.startswith(stem) and word[len(stem) :] in DERIVED_ENDINGS
