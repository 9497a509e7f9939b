"""How a question lists things and offers alternatives, read against the brief's names (mixed into FocusIndex).

Why apart: what a list is ("A, B or C"), when it offers alternatives and what its frame asks are one question of
reading, separate from which node a question focuses (focus.py). The rules are README "What a provider reveals":
- a which / what that governs a list, three names or more joined by an "or", or "Is it the A or the B?" with no other
  question word offers alternatives: it asks which of them, and otherwise only what its frame asks;
- a name of the brief is one item of a list, whatever words lead into it;
- a list of alternatives that holds a choice's options holds nothing else (another kind, a pasted note, the task
  name or the role makes it a spray);
- a question listing three things or more that asks nothing particular of them asks no detail of any of them; one
  listing two asks about the first.
"""

from __future__ import annotations

import re
from functools import cached_property, lru_cache
from typing import NamedTuple

from .brief_options import BriefOption, names_entity
from .lexical import TEXT_CACHE, absent_phrase, lowered_for_search, token_set, tokens
from .memo import per_reader
from .question_words import (
    ALTERNATIVE_TERMS,
    ASKS_WHICH_OR,
    BARE_SCAFFOLD_ZH,
    CJK_WORD,
    CLAUSE_START,
    CLAUSE_WORDS,
    LIST_ITEM_OWN,
    LIST_ITEM_TERMS,
    LIST_JOINT,
    LISTED_THINGS,
    OFFERS,
    PASTED,
    TAG_WORDS,
    WHICH,
    WHICH_OF_LIST,
)

#: What a name of the brief becomes when a list is read: one item, whatever its words.
NAME_MARK = "\u2022"


class Question(NamedTuple):
    """One question sentence of a seeker turn, read once."""

    text: str
    terms: frozenset[str]
    classes: frozenset[str]
    context: str = ""  # the statement just before it ("There are two mines. Which one has rubies?")
    bare: bool = False  # "Which X exactly?": one word of its own and nothing asked but which / what (see _is_bare)
    heard: frozenset[str] | None = None  # the terms of Jax's replies so far (None: not known, not checked)


@lru_cache(maxsize=TEXT_CACHE)
def _name_pattern(name: str) -> re.Pattern[str]:
    """A brief's name, case-blind, compiled once (re's own cache of 512 patterns thrashes over a run's briefs)."""
    return re.compile(re.escape(name), re.I)


@lru_cache(maxsize=4)
def _joint_split(language: str) -> re.Pattern[str]:
    """LIST_JOINT with its joints kept, for cutting a list into pieces and joints."""
    return re.compile(f"({LIST_JOINT[language].pattern})", re.I)


@lru_cache(maxsize=TEXT_CACHE)
def _without_phrases(lowered_phrases: tuple[str, ...], text: str, mark: str) -> str:
    """ListReading._without_names, memoized: every rule of the focus reading asks it of the same question."""
    lowered = text.lower()
    for name in lowered_phrases:
        lowered = lowered.replace(name, mark)
    return lowered


class ListReading:
    """The list and alternatives reading of FocusIndex: it needs `language`, `options` (the brief's options),
    `names` and `pasted_phrases` (names, longest first; with the task name and the role), `pasted` (the terms of
    phrases that are no option) and `scene_groups`, which FocusIndex sets."""

    language: str
    options: list[BriefOption]
    names: list[str]
    pasted_phrases: list[str]
    pasted: list[frozenset[str]]
    scene_groups: set[int]

    @per_reader
    def _without_names(self, text: str, mark: str = " , ") -> str:
        """The text, lower-cased, with each name of the brief (and the task name, the role) replaced by `mark`: a
        comma by default (what is left is the question's own words), NAME_MARK to read each name as one list item."""
        return _without_phrases(self._lowered_phrases, text, mark)

    @cached_property
    def _lowered_phrases(self) -> tuple[str, ...]:
        """The pasted phrases lower-cased, in order, once per task."""
        return tuple(name.lower() for name in self.pasted_phrases)

    @cached_property
    def _options_by_term(self) -> tuple[dict[str, list[BriefOption]], list[BriefOption]]:
        """The brief's options by each of their terms, and the options without terms: which options a piece of a
        list may name is read from its terms, not by trying every option (_list_items)."""
        by_term: dict[str, list[BriefOption]] = {}
        for option in self.options:
            for term in option.terms:
                by_term.setdefault(term, []).append(option)
        return by_term, [option for option in self.options if not option.terms]

    def asks_which_of(self, question: Question) -> bool:
        """Does the question offer alternatives and ask which of them (see alternatives_frame)?"""
        return self.alternatives_frame(question) is not None

    @per_reader
    def alternatives_frame(self, question: Question) -> str | None:
        """What a question that offers alternatives says besides them, or None when it offers none. Alternatives are
        a list a which / what governs ("Which A, B or C exactly?", "你说的是哪个A、B还是C？", "A、B还是C具体是哪个？"),
        three things or more joined by an "or" ("How do I use the A, B, C or D?"), or two joined by an "or" / 还是
        whose second is a thing, not a clause ("Is it the A or the B?", "A还是B在哪里用？"; not "..., or do I need to
        ...?"). Such a question asks about one of them without knowing which: it is answered by the choice whose
        options it offers or whose kind its which governs, and otherwise only by what its frame asks ("Can I pay for
        the trade with coins or gems?" asks how to pay; "Is it the henry or the exchanging?" asks nothing)."""
        language = self.language
        rest = self._without_names(question.text)
        if not OFFERS[language].search(rest):
            return None
        which = WHICH_OF_LIST[language].search(rest)
        if which:  # the frame: what precedes the which, and what follows the list it governs
            return (
                self._without_short_pieces(rest[: which.start()])
                + " "
                + self._without_short_pieces(rest[which.start() :])
            )
        run = self._alternatives_run(self._without_names(question.text, f" {NAME_MARK} "))
        if run is not None:
            return run.replace(NAME_MARK, " ")
        offered = ASKS_WHICH_OR[language].search(rest)
        if not offered:
            return None
        # "Is it the A or the B?", "A还是B在哪里用？", "Can I pay with coins or gems?": two things offered, the question
        # asks about one of them without knowing which; what else it asks is its frame (not the things).
        before, after = rest[: offered.start()], rest[offered.end() :]
        item = LIST_JOINT[language].split(after)[0]
        if language == "en" and (CLAUSE_START.match(item) or CLAUSE_WORDS.search(item)):
            return None  # "..., or do I need to find it elsewhere?" is a second question, not an alternative
        if not item.strip() or len(set(tokens(item, language)) - TAG_WORDS) > ALTERNATIVE_TERMS[language]:
            return None
        # the first alternative ends what comes before, as long as the second ("with coins or gems")
        if language == "zh":
            size = len(CJK_WORD.findall(item))
            kept = before[: max(0, len(before) - size)] if size else before
        else:
            words, size = before.split(), len(item.split())
            kept = " ".join(words[: max(0, len(words) - size)])
        return kept + " " + after[len(item) :]

    def _offers_of_kind(self, question: Question, kind: frozenset[str]) -> bool:
        """Are the alternatives things of the choice's kind, each set apart by a word of its own ("the north or the
        west mine?", "北矿还是西矿？")? The last one names the kind as its head, after a word of its own; a bare kind
        among other words ("the needs or the crystal?") offers no option of it."""
        if not kind:
            return False
        last = ASKS_WHICH_OR[self.language].split(self._without_names(question.text))[-1]
        terms = [t for t in tokens(last, self.language) if t not in TAG_WORDS]
        if self.language == "zh":
            return len(CJK_WORD.findall(last)) >= 3 and bool(terms) and terms[-1] in kind
        return len(terms) >= 2 and terms[-1] in kind

    def _item_terms(self, piece: str) -> set[str]:
        """A list piece's own terms, for telling a name from a clause: (zh) the which-scaffolding fused to the last
        item ("支付具体是哪个") is not the item's."""
        if self.language == "zh":
            piece = BARE_SCAFFOLD_ZH.sub("", piece)
        return set(tokens(piece, self.language)) - TAG_WORDS

    def _without_short_pieces(self, text: str) -> str:
        """The text without its list items (pieces between joints of at most LIST_ITEM_TERMS terms)."""
        limit = LIST_ITEM_TERMS[self.language]
        pieces = LIST_JOINT[self.language].split(text)
        return " ".join(piece for piece in pieces if len(self._item_terms(piece)) > limit)

    def _is_item(self, piece: str) -> bool:
        """Can a list piece be a thing rather than a clause ("the lens cloth", not "if you rush it" or "asks where to
        get some")? (en) No pronoun, auxiliary or question word in it; (zh) no way to tell, any short piece."""
        return self.language == "zh" or not CLAUSE_WORDS.search(piece)

    def _alternatives_run(self, text: str) -> str | None:
        """Three names or more in a row listed as alternatives ("A, B, C or D", "A、B、C还是D"): short pieces (the first
        counted only when it is a name itself, with no frame around it) with an "or" / 或 / 还是 among the joints
        between them ("除了A、B和C之外，还有其他食材或调料吗" lists a set, then asks apart). Returns the text without the
        run (the question's frame), or None."""
        language = self.language
        parts = _joint_split(language).split(text)
        pieces, joints = parts[0::2], parts[1::2]
        limit = LIST_ITEM_TERMS[language]
        run: list[int] = []
        offered = False
        for index, piece in enumerate(pieces):
            terms = self._item_terms(piece.replace(NAME_MARK, " "))
            if NAME_MARK in piece:
                terms = {NAME_MARK}  # a name of the brief: an item, whatever frame leads into it ("buy at the X")
            if not terms and not piece.strip(" ,，、"):
                continue  # (an empty piece, or "..., right?" as no item)
            if not terms or len(terms) > limit or (NAME_MARK not in piece and not self._is_item(piece)):
                if len(run) >= LISTED_THINGS and offered:
                    break
                run, offered = [], False
                continue
            if run:
                offered = offered or bool(OFFERS[language].search(joints[index - 1]))
            run.append(index)
        if len(run) < LISTED_THINGS or not offered:
            return None
        # the frame: every piece outside the run, and the words around a name inside it ("Where should I buy the
        # materials: A, B or C?" asks where to buy the materials); the piece that leads into the run ends on the
        # run's first thing ("How do I use the trade, the castle or the coins?"), as long as the second one
        lead = run[0] - 1
        while lead >= 0 and not pieces[lead].strip():
            lead -= 1
        kept = list(pieces)
        if lead < 0 and self.language == "zh" and NAME_MARK not in pieces[run[0]] and len(run) > 1:
            # (zh) the run's first piece may carry the frame before its item ("香料是在ABC、XYZ还是…买"): the item is
            # said as long as the next one, the rest leads into the run
            first, size = pieces[run[0]], len(pieces[run[1]].replace(NAME_MARK, "xx").strip())
            if len(first.strip()) > size:
                pieces = [*pieces]
                kept[run[0]] = pieces[run[0]] = first.strip()[-size:]
                kept.insert(run[0], first.strip()[:-size])
                pieces.insert(run[0], kept[run[0]])
                run = [index + 1 for index in run]
        if lead >= 0 and lead not in run:
            size = len(pieces[run[0]]) if self.language == "zh" else len(pieces[run[0]].split())
            words = kept[lead] if self.language == "zh" else kept[lead].split()
            trimmed = words[: max(0, len(words) - size)]
            kept[lead] = trimmed if self.language == "zh" else " ".join(trimmed)
        return " ".join(
            piece if index not in run else piece.replace(NAME_MARK, " ") if NAME_MARK in piece else ""
            for index, piece in enumerate(kept)
        )

    def lists_without_asking(self, question: Question) -> bool:
        """Does the question list three things or more and ask nothing particular of them (no where, how, who, when
        or how many: "What do I need to know about the A, the B and the C?")?"""
        return not question.classes - {"identity", "polar"} and self.lists_things(question, items_only=True)

    @per_reader
    def first_thing_only(self, question: Question) -> Question:
        """The question as it asks: one that asks nothing particular of two things or more ("Could you tell me more
        about the A and the B?", "What do I need to know about the A and the B?": no where, how, who, when or which,
        no alternatives) asks about the first of them, as a person answers what such a request opens with. Without
        it an open request over two words of Jax's at a time asks twice as much as one about one thing (three things
        or more ask nothing of any: lists_without_asking)."""
        language = self.language
        if (
            question.classes - {"identity", "polar"}
            or OFFERS[language].search(question.text)
            or WHICH[language].search(question.text)
        ):
            return question
        first = self._before_first_joint(question.text)
        if first == question.text:
            return question
        return question._replace(text=first, terms=frozenset(tokens(first, language)))

    def _before_first_joint(self, text: str) -> str:
        """The text without the things its closing list adds after the first ("..., could you tell me more about the
        A and the B?" -> "..., could you tell me more about the A"). A name of the brief is one thing whatever it
        holds ("the Salt and Pepper Shop", "Bow and arrows"), and a joint before the list ("Also, ...") cuts nothing."""
        language = self.language
        names: dict[str, str] = {}

        def mark(match: re.Match[str]) -> str:
            key = f"qq{len(names)}qq"
            names[key] = match.group(0)
            return key

        masked = text
        lowered = lowered_for_search(masked)
        for name in self.pasted_phrases:
            if absent_phrase(name, masked, lowered):
                continue  # (the pattern would not match: nothing to mark)
            masked = _name_pattern(name).sub(mark, masked)
            lowered = lowered_for_search(masked)
        parts = _joint_split(language).split(masked)
        pieces = parts[0::2]
        first = len(pieces)  # where the closing run of things after the lead piece starts
        for index in range(len(pieces) - 1, 0, -1):
            piece = pieces[index]
            terms = set(tokens(piece, language)) - TAG_WORDS
            if not terms and first == index + 1 and index == len(pieces) - 1:
                first = index  # "..., right?" closes the list without being a thing
                continue
            if not terms or len(tokens(piece, language)) > LIST_ITEM_TERMS[language] or not self._is_item(piece):
                break
            first = index
        if first >= len(pieces):
            return text
        kept = "".join(parts[: 2 * first - 1])
        for key, name in names.items():
            kept = kept.replace(key, name)
        return kept

    @per_reader
    def lists_things(self, question: Question, items_only: bool = False) -> bool:
        """Does the question list three things or more ("the fire, the crystal, the magic or the deal")? Such a
        question asks about none of them in particular: it may ask a choice among options it lists (path 2) or a
        kind by name, never a detail or a choice by the words around it. The pieces after the first must be short
        (a name, not a clause), so "Where do I go, what do I bring and who do I ask?" is three questions, not a list.
        `items_only`: the pieces after the first must be things, not clauses ("..., or asks about the lens or the
        cloth?" lists nothing), and they end the question."""
        pieces = [
            piece
            for piece in LIST_JOINT[self.language].split(question.text)
            if set(tokens(piece, self.language)) - TAG_WORDS
        ]  # ("..., right?" is no item)
        short = [
            len(tokens(piece, self.language)) <= LIST_ITEM_TERMS[self.language]
            and (not items_only or self._is_item(piece))
            for piece in pieces
        ]
        run = best = 0
        for index, is_short in enumerate(short[1:], start=1):
            run = run + 1 if is_short else 0
            # the first piece leads the list ("What about the A, the B and the C"); later, a run stands alone
            best = max(best, run + (1 if run == index else 0))
        if items_only:  # the things end the question ("..., twice and slowly; if you rush it ..." lists nothing)
            return run + (1 if run == len(short) - 1 else 0) >= LISTED_THINGS
        return best >= LISTED_THINGS

    @per_reader
    def _list_items(self, question: Question) -> list[tuple[set[int], int]]:
        """The question cut at list joints ("A, B or C"): each item with the option groups it names (`PASTED` for a
        note, the task name or the role) and how many words of its own it has besides them. A name written whole
        is read before the cut, so "Salt and Pepper Shop" stays one item."""
        text = question.text.lower()
        marks: dict[str, tuple[int, frozenset[str]]] = {}
        for number, name in enumerate(self.names):
            if name.lower() in text:
                option = next(o for o in self.options if o.name == name)
                marks[f"qq{number}qq"] = (option.group, option.terms)
                text = text.replace(name.lower(), f" qq{number}qq ")
        items = []
        by_term, termless = self._options_by_term
        for piece in LIST_JOINT[self.language].split(text):
            present = token_set(piece, self.language)
            named: set[int] = set()
            covered: set[str] = set()
            for mark, (group, _terms) in marks.items():
                if mark in piece:
                    named.add(group)
                    covered |= {mark}
            # (an option with one term present at least, or with none: names_entity)
            for option in {o for term in present for o in by_term.get(term, ())}.union(termless):
                if names_entity(present, option.terms):
                    named.add(option.group)
                    covered |= option.terms
            for terms in self.pasted:
                if (not terms or not terms.isdisjoint(present)) and names_entity(present, terms):
                    named.add(PASTED)
                    covered |= terms
            items.append((named, len(present - covered)))
        return items

    def _lists_of(self, question: Question, groups: set[int]) -> tuple[bool, bool]:
        """(pure, offered): does every list of alternatives in the question that holds our options hold nothing
        else, and does one of them offer two or more of our options as its items ("A, B or C")? A list is a run of
        items that each name something of the brief; its first item may carry the question's frame ("Should I
        use the X"), a later one only a word or two besides its name ("which store, A or B, carries the C key
        shafts?": the last piece is what the question says of the store, not a third option). An item naming only
        other things (another kind, a note, the task name) makes it a list of everything, not a choice among ours.
        Scenes are all places: a list of scenes is a choice of where to go, whatever their kinds. Names scattered
        through a sentence ("can I repair the car tires here, or take the car to the shop?") are no list."""
        places = groups <= self.scene_groups
        runs: list[list[set[int]]] = [[]]
        items = self._list_items(question)
        for index, (named, own) in enumerate(items):
            if not named:
                inside = runs[-1] and index + 1 < len(items) and items[index + 1][0] and 0 < own <= 2
                if inside:  # a word of its own between two names ("X, the study or Y"): a thing of the list
                    runs[-1].append({PASTED})
                elif runs[-1]:
                    runs.append([])
            elif runs[-1] and own > LIST_ITEM_OWN[self.language]:
                runs.append([named])  # a name with a clause of its own: the run ends, this may lead another
            else:
                runs[-1].append(named)
        offered = False
        for run in runs:
            ours = sum(1 for item in run if item & groups)
            if not ours:
                continue
            for item in run:
                if not item & groups and not (places and item <= self.scene_groups):
                    return False, False
            offered = offered or ours >= 2
        return True, offered


__all__ = ["NAME_MARK", "ListReading", "Question"]
