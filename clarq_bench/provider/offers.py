"""Choices asked by their options or by the seeker's own word for their kind (mixed into FocusIndex).

Why apart: how a question offers a choice's alternatives is one concern with its own rules: a person says them in
short ("Kerosene or whale oil?"), names options that share no word with each other (the fuels "Lamp kerosene" and
"Whale oil", which only the node's own answer shows to be one choice), or names the kind in words the brief never
used ("Which fuel?"), which no seeker walking the brief's words could produce.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from functools import cached_property
from typing import Any

from ..core.tasks import Task
from .brief_options import BriefOption, names_entity
from .caseblind import TextPattern, case_blind
from .detail_kinds import asks_making
from .lexical import tokens
from .memo import per_reader
from .question_lists import Question
from .question_words import ASKS, CJK_WORD, OFFERS

#: Options of one choice an explanation may speak of by name when their names share no word.
SPOKEN_OPTIONS = 4
#: Alternatives of a short offer that may name something the seeker takes for an option though it is none
#: (_may_stray): a person's list of what they have, not a spray.
STRAY_ALTERNATIVES = 1
#: A first piece of alternatives that only asks ("Is there any tool I should use, the excavator or the shovel?").
FRAME_FIRST: dict[str, TextPattern] = {
    "en": case_blind(
        r"\s*(?:(?:and|so|also|then)\s+)?(?:is there|are there|should|shall|do|does|can|could|would|will)\b"
    ),
    "zh": re.compile(r"(?!)"),
}
#: A clause before the alternatives that only sets the scene ("From Sun City, should I take the train, a car or a
#: plane?", "从太阳城出发，坐火车、汽车还是飞机？"): no alternative of its own. (en) A clause opening with a preposition
#: ("For Star City to Fantasy Forest, high voltage or ...?") or before a question frame, up to its comma; (zh)
#: everything up to the last comma before the first 、 or or.
LEAD_CLAUSE: dict[str, TextPattern] = {
    "en": case_blind(
        r"(?:for|from|to|between|at|in|on|after|before)\b[^,?]*,\s*|[^,?]*,\s*(?=(?:should|shall|do|does|can|could|"
        r"would|will|is there|are there)\b)"
    ),
    "zh": re.compile(r"[^、还或？?]*[，,]"),
}
#: An explanation that says a choice is open: "both", "two", "either", "which", "or" ("两", "哪", "还是", "或").
CHOICE_SAID: dict[str, TextPattern] = {
    "en": case_blind(r"\b(?:both|two|three|either|which|several|multiple|or)\b"),
    "zh": re.compile(r"两|哪(?!里|儿)|还是|或|几|多个|不止"),
}
#: Where a question's alternatives part: "or", "versus", commas and slashes before the last or (zh 还是 / 或 / 、).
ALTERNATIVE_PIECES: dict[str, TextPattern] = {
    "en": case_blind(r"(?=[\s,/ov:])\s*(?:,|/|\bor\b|\bversus\b|\bvs\b|:)\s*"),  # (look-ahead: LIST_JOINT)
    "zh": re.compile(r"\s*(?:还是|或者|或是|或|、|，|,|/|：|:)\s*"),
}


#: An explanation that sets the answer against another option ("X should be used instead of Y").
CONTRASTED = {
    "en": re.compile(r"\b(?:instead of|rather than)\b", re.IGNORECASE),
    "zh": re.compile(r"而不是|而非"),
}
#: (en) Words that join alternatives in an explanation ("a pole and a paddle", "coins, wool or silk"), with the words
#: at most between the two names; and the words that set one against the other ("the vehicle should be used instead
#: of the sedan"), which stand further apart.
JOINT_WORDS = frozenset({"and", "or", ","})
JOINT_SPAN = 4
CONTRAST_WORDS = frozenset({"instead", "rather"})
CONTRAST_SPAN = 6


def _coordinated(said: list[BriefOption], explanation: str) -> list[BriefOption]:
    """(en) The names among `said` that the explanation joins with another as alternatives ("has a pole and a
    paddle", "carries coins, wool and silk", "the vehicle instead of the sedan"), not merely mentions in passing
    ("sell the crystals for 100 gold coins")."""
    if len(said) < 2:
        return []  # (one name joins nothing)
    words = re.findall(r"[a-z0-9]+(?:'[a-z]+)?|,", explanation.lower())
    marks: list[tuple[int, BriefOption]] = []
    for at, word in enumerate(words):
        stem = tokens(word, "en")
        marks += [(at, o) for o in said if stem and stem[0] in o.terms]
    joined: set[BriefOption] = set()
    for i, (at, first) in enumerate(marks):
        for later, second in marks[i + 1 :]:
            if later - at > CONTRAST_SPAN + 1:
                break
            between = set(words[at + 1 : later])
            near = later - at <= JOINT_SPAN + 1 and JOINT_WORDS & between
            if second != first and (near or CONTRAST_WORDS & between):
                joined |= {first, second}
    return [o for o in said if o in joined]


class OfferReading:
    """The offers reading of FocusIndex: it needs the brief's `options`, `pasted` phrases, `brief_terms`, `_list_of`
    (name -> list of the brief), `nodes` and the question readings below, which FocusIndex has."""

    language: str
    task: Task
    options: list[BriefOption]
    pasted: list[frozenset[str]]
    brief_terms: frozenset[str]
    _list_of: dict[str, int]
    _distinct: dict[BriefOption, frozenset[str]]
    nodes: dict[str, Any]  # focus.NodeFocus (not imported: focus.py imports this module)

    def _kind_governed(self, question: Question, kind: frozenset[str]) -> bool:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    def lists_things(self, question: Question, items_only: bool = False) -> bool:
        raise NotImplementedError  # pragma: no cover - ListReading's

    def _offers_of_kind(self, question: Question, kind: frozenset[str]) -> bool:
        raise NotImplementedError  # pragma: no cover - ListReading's

    def named_options(self, question: Question) -> list[BriefOption]:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    def _governs_frame(self, question: Question) -> bool:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    def picks_twin(self, question: Question, node_id: str, answered: frozenset[str]) -> bool:
        raise NotImplementedError  # pragma: no cover - TwinReading's

    def asks_choice(self, question: Question, focus: Any) -> bool:
        raise NotImplementedError  # pragma: no cover - FocusIndex's

    def _lists_of(self, question: Question, groups: set[int]) -> tuple[bool, bool]:
        raise NotImplementedError  # pragma: no cover - ListReading's

    def asks_making_of(self, question: Question, focus: Any) -> frozenset[str]:
        """The classes that ask this choice because it makes the thing the question asks how to get (asks_making)."""
        return asks_making(question.text, self.task.tree[focus.node_id].explanation or "", self.language)

    def _options_spoken_of(self, explanation: str, answer: set[str], one_list: bool = False) -> tuple[BriefOption, ...]:
        """Options of a choice whose names share no word ("Lamp kerosene", "Whale oil": the fuels): the brief's names
        of one list (items, skills or scenes) that the explanation speaks of, two to `SPOKEN_OPTIONS` of them, when
        the node's own answer weighs two of them ("Fill the lamp with kerosene. Whale oil gums up the burner"). A name
        is spoken of by most of its words or by a head no other name has ("a pole and a paddle"). Where the
        explanation names the kind (`one_list`), names of several lists spoken of make no choice of it."""
        spoken = set(tokens(explanation, self.language))
        heads: dict[frozenset[str], int] = {}
        for o in self.options:
            heads[o.head] = heads.get(o.head, 0) + 1

        def says(present: set[str], o: BriefOption) -> bool:
            return names_entity(present, o.terms) or (bool(o.head) and heads[o.head] == 1 and o.head <= present)

        found: list[tuple[BriefOption, ...]] = []
        for listed in {self._list_of[o.name] for o in self.options}:
            said = [o for o in self.options if self._list_of[o.name] == listed and says(spoken, o)]
            if self.language == "en":
                said = _coordinated(said, explanation)
            weighed = [o for o in said if says(answer, o)]
            if len(weighed) == 1 and len(said) == 2 and CONTRASTED[self.language].search(explanation):
                weighed = said  # "the off-road vehicle should be used instead of the bulletproof sedan"
            if self.language == "zh" and len(weighed) == 1 and len(said) >= 2 and CHOICE_SAID["zh"].search(explanation):
                # "商人带着银币、羊毛布和丝绸 ... 好几样" answered "染色丝绸": the several goods. (English names of such
                # goods share their count word, "a bolt of wool / of silk", which the kind finds; measured in English,
                # this widening answered blind pairs of names on two more tasks and no natural wording)
                weighed = said
            if 2 <= len(said) <= SPOKEN_OPTIONS and len(weighed) >= 2:
                found.append(tuple(said))
        if one_list and len({self._list_of[o.name] for o in self.options if says(spoken, o)}) > 1:
            return ()
        return found[0] if len(found) == 1 else ()

    def _kind_known(self, question: Question, focus: Any) -> bool:
        """May a which over this choice's kind be asked yet? Once Jax has spoken of the kind ("go to the castle":
        "Which castle?"), or when the kind is the seeker's own word, in neither the brief nor Jax's replies ("Which
        fuel?" where the brief lists kerosene and whale oil): the seeker understood there is a choice. A kind taken
        from the brief's words before Jax raised it is a guess at what may be asked, not a question about his
        answer."""
        if question.heard is None or focus.kind & question.heard:
            return True
        if any(len(k) == 1 and k in term for k in focus.kind for term in question.heard):
            return True  # (zh) a kind of one character inside a pair of his: "加满油" spoke of the 油
        named = question.terms & (focus.said_kind or focus.kind)
        return bool(named) and not named & self.brief_terms

    def offers_options(self, question: Question, node_id: str) -> bool:
        """Does the question offer two or more of this node's options as its alternatives ("the Frost Castle or
        the Twilight Castle?"), or govern the kind the explanation names with a which ("Which fuel should I use?"
        where the keeper has kerosene and whale oil)? Such a question can ask nothing else, so it needs no matcher's
        support."""
        focus = self.nodes.get(node_id)
        if focus is None:
            return False
        if not focus.options:  # a choice among things the brief does not list ("北门、东门还是西门？" of which gate)
            return self.offers_things_of_kind(question, focus.said_kind) and self.picks_twin(
                question, node_id, frozenset()
            )
        # (zh) with the one character every option ends with, their head ("哪个区" of 城东区 and 城北区)
        kind = focus.said_kind | {t for t in focus.kind if len(t) == 1} if focus.said_kind else focus.kind
        if kind and self._kind_governed(question, kind) and not self.lists_things(question):
            return self._kind_known(question, focus) and self.picks_twin(question, node_id, frozenset())
        if self._offers_by_pieces(question, focus):
            return self.picks_twin(question, node_id, frozenset())
        if question.bare:
            return False
        # (the list first: it is read once per question, and most questions offer no list of our options)
        return self._lists_of(question, {o.group for o in focus.options})[1] and self.asks_choice(question, focus)

    def _offers_by_pieces(self, question: Question, focus: Any) -> bool:
        """Alternatives a person says in short ("Kerosene or whale oil?", "Oak or pine for the stage?", "The high
        voltage one or the high temperature one?"): the question joins its alternatives with an or (还是 / 或), and
        every alternative names exactly one of this choice's options by a word that sets it apart from the others,
        two options at least, none of them another name of the brief."""
        alternatives = self._alternatives(question)
        if alternatives is None:
            return False
        ours = set(focus.options)
        distinct = self._distinct_terms(focus.node_id)
        lists = {self._list_of[o.name] for o in ours}
        hit: set[BriefOption] = set()
        strays = 0
        for number, (piece, terms, named, pasted) in enumerate(alternatives):
            mine = {o for o in ours if distinct[o] & terms or _compound_of(distinct[o], terms, self.language)} or {
                o  # ("high voltage or ultra-high voltage": a name whose words the other's all hold, none of its own)
                for o in ours
                if not distinct[o] and o.terms & terms and not any(distinct[p] & terms for p in ours)
            }
            others = [o for o in named if o not in ours] or [
                o  # ("Primeval, Mystical or Tropical": the rainforest, by the word its name alone has)
                for o in self._shortly_named(terms)
                if o not in ours and not mine
            ]
            if not mine and len(others) == 1 and self._may_stray(focus, others[0], lists):
                strays += 1  # a name the seeker takes for an option ("coins, wool or silk?")
                continue
            if len(mine) > 1 or others or pasted:
                return False  # two options in one piece, another name, or the task / a note pasted among them
            asks = ASKS[self.language].search(piece) or (number == 0 and FRAME_FIRST[self.language].match(piece))
            if not mine and not (asks and number in (0, len(alternatives) - 1)):
                # a piece of its own among the options ("the castle"): no choice among ours alone; a question before
                # them or after them asks it ("Primeval, Mystical or Tropical: which one burned?")
                return False
            hit |= mine
        return len(hit) >= 2 and strays <= STRAY_ALTERNATIVES

    def offers_of_kind(self, question: Question, kind: frozenset[str]) -> bool:
        """Does a question that offers alternatives offer things of this kind: its last one names the kind after a
        word of its own ("the north or the west mine?"), or every one is such a thing (offers_things_of_kind)?"""
        return self._offers_of_kind(question, kind) or self.offers_things_of_kind(question, kind)

    def offers_things_of_kind(self, question: Question, kind: frozenset[str]) -> bool:
        """Are its alternatives things of the choice's kind that the brief does not list, each set apart by a word
        of its own ("the north gate or the east gate?", "走北门、东门、南门还是西门？" where the explanation asks which
        gate, 哪个门): two or more, none a name of the brief, no two alike?"""
        alternatives = self._alternatives(question) if kind else None
        if alternatives is None:
            return False
        own = [_own_part_of_kind(piece, kind, self.language) for piece, _, named, pasted in alternatives]
        named_any = any(named or pasted for _, _, named, pasted in alternatives)
        return not named_any and all(own) and len(set(own)) == len(own)

    def _shortly_named(self, terms: frozenset[str]) -> list[BriefOption]:
        """The one brief name a piece of alternatives names by a word no other name of its group has, if one."""
        found = [o for o in self.options if self._distinct[o] & terms]
        return found if len(found) == 1 else []

    def _may_stray(self, focus: Any, other: BriefOption, lists: set[int]) -> bool:
        """May a name that is not one of the choice's options stand among its alternatives? A place among places
        ("Sunset Plains, Galaxy Equestrian Center or Green Meadow?"), or a name of the options' own list of the
        brief that the node's explanation weighs beside them ("the merchant carries coins, wool and silk"; "an oil
        painting instead of a watercolor or a sketch"): never a thing of another kind ("Kerosene, whale oil or the
        lens cloth?")."""
        if other.scene and all(o.scene for o in focus.options):
            return True
        own = other.terms.difference(*(o.terms for o in focus.options))  # (not "制作", which every skill has)
        return self._list_of[other.name] in lists and bool(own & self._explained[focus.node_id])

    @cached_property
    def _explained(self) -> dict[str, frozenset[str]]:
        """Each required node's explanation as terms (read once per task)."""
        return {node.id: frozenset(tokens(node.explanation or "", self.language)) for node in self.task.tree.required}

    @per_reader
    def _distinct_terms(self, node_id: str) -> dict[BriefOption, frozenset[str]]:
        """Each option of the node's choice with the terms no other option of it has, counted once per node (every
        question of every turn asks it of the same options)."""
        ours = set(self.nodes[node_id].options)
        holders = Counter(itertools.chain.from_iterable(o.terms for o in ours))
        return {o: frozenset(t for t in o.terms if holders[t] == 1) for o in ours}

    @per_reader
    def _alternatives(
        self, question: Question
    ) -> tuple[tuple[str, frozenset[str], tuple[BriefOption, ...], bool], ...] | None:
        """The alternatives a question joins with an or (_offers_by_pieces), read once per question: each piece with
        its terms, the brief's options it names and whether it holds the task or a note whole; None when the question
        offers no such alternatives (no or, fewer than two pieces or too many, or a frame governs them)."""
        language = self.language
        if not OFFERS[language].search(question.text):
            return None
        lead = LEAD_CLAUSE[language].match(question.text)
        offered = question.text[lead.end() :] if lead else question.text
        pieces = [p for p in ALTERNATIVE_PIECES[language].split(offered) if p.strip(" ?？.。!！")]
        if len(pieces) < 2 or len(pieces) > SPOKEN_OPTIONS + 1 or self._governs_frame(question):
            return None
        found = []
        for piece in pieces:
            terms = frozenset(tokens(piece, language))
            named = tuple(self.named_options(question._replace(terms=terms)))
            found.append((piece, terms, named, any(phrase <= terms for phrase in self.pasted)))
        return tuple(found)


#: (en) The shortest word a name's own compound word may be said by ("plane" of "airplane", "boat" of "steamboat").
COMPOUND_TAIL = 4


def _compound_of(own: frozenset[str], terms: frozenset[str], language: str) -> bool:
    """(en) Does a piece say an option's own compound word by its last part ("a plane" for "Take an airplane")?"""
    return language == "en" and any(
        len(t) >= COMPOUND_TAIL and len(word) > len(t) and word.endswith(t) for word in own for t in terms
    )


def _own_part_of_kind(piece: str, kind: frozenset[str], language: str) -> str:
    """What sets a thing of this kind apart in one alternative: the words before the kind's word ("north" of "the
    north gate"), (zh) the character right before the kind ("北" of "走北门"); "" when the piece names
    no thing of the kind."""
    if language == "zh":
        for term in sorted(kind, key=len, reverse=True):
            at = piece.find(term)
            if at > 0 and CJK_WORD.match(piece[at - 1]):
                return piece[at - 1]
        return ""
    terms = tokens(piece, language)
    return " ".join(terms[:-1]) if len(terms) >= 2 and terms[-1] in kind else ""
