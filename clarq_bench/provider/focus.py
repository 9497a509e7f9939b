"""What a question asks about, and which node answers it: the provider answers questions, not words.

A seeker turn is read as its questions. Each node of the tree resolves one uncertainty, which its explanation names:
- a *choice* among options of one kind ("multiple taverns ... unsure which one", "which gem Henry needs"): a question
  asks it when an interrogative governs the kind ("which tavern", "what kind of gem", "哪家酒馆"), or when it offers
  two or more of the options as alternatives ("the Frost Castle or the Twilight Castle?", or in short: "Kerosene or
  whale oil?"). The options are the brief's names of one kind, or the names of one list the node weighs though they
  share no word (the fuels "Lamp kerosene" and "Whale oil"). Naming one option alone is a bet on the answer, not the
  question, and a list of options of several kinds is no choice at all;
- an open *detail* of one thing ("unsure where to buy the helmet", "how to stun the dragon"): a question asks it when
  it names that thing (the weightiest term of the explanation's "noticed" clause, or most of the clause) and asks the
  right kind of thing about it: where / which place for a place, how for a way, who for a person, when for a time,
  how many for a number (a bare yes/no question about a place asks nothing about where it is).
A list of alternatives holds one kind of option (a pasted note, the task name or another kind makes it a spray); a
bare "Which X exactly?" asks only a choice of kind X that Jax has raised or that the seeker names in words of its own;
an interrogative governs the word right after it, never a list; a kind named as one of several listed things is not
what is asked. Interrogatives joined by and / or ("which X and which Y") are questions of their own.
Twin choices (sibling nodes settling the same options for different things: which key for the entrance, which for
the chest) are asked once without saying which (twins.py).
A node is revealed only to a question that focuses it; overlapping words decide nothing by themselves. Each way a
question may ask has a catalogue id (catalogue.py; asking_rule names it). Pure functions of the task and the turn:
the offline provider's reading, and the LLM provider's under `--provider-reading strict`.
"""

from __future__ import annotations

from functools import cached_property
from typing import NamedTuple

from ..core.tasks import ROOT_ID, ResponseNode, Task, parent_id
from .brief_options import BriefOption, brief_options, names_entity, names_of, notes_of
from .detail_kinds import ASKED_KINDS, kinds_asking, other_wording
from .kind_governance import KindGovernance
from .lexical import TaskIndex, competing_options, focus_phrase, tokens
from .memo import per_reader
from .offers import CHOICE_SAID, OfferReading
from .option_groups import (
    answer_group,
    kind_members,
    named_by_own_part,
    one_choice_per_kind,
    own_parts,
    place_group,
    route_ends,
    shared_ending,
    shared_terms,
    unspoken,
    which_kinds,
)
from .own_words import OwnWordsReading
from .prices import PriceReading
from .question_lists import Question
from .question_reading import QuestionReading
from .question_words import (
    ALTERNATIVE,
    ASK_PIECES,
    ASKED,
    ASKS_FOR,
    ASKS_THING,
    BOILERPLATE,
    CHOICE_OF_A_THING,
    CHOICE_WORDS,
    FIRST_SENTENCE,
    FRAME_WHICH,
    FUNCTION_ZH,
    GAP,
    GENERIC_KIND_EN,
    GENERIC_KIND_ZH,
    GOVERNS,
    LIST_JOINT,
    MENTIONED,
    NEEDS,
    NEEDS_WORDS,
    NOT_A_CHOICE,
    NOT_A_THING,
    PRONOUN,
    WHICH,
)
from .said_in_order import says_in_order
from .shortfall import asks_shortfall, names_shortfall
from .twins import TwinReading

#: (zh) Bigrams of a choice's anchor a question must carry to ask about the thing the choice is for in its own words
#: (one is a fragment of any word of Jax's: "风力" of "风力发电站").
ZH_CHOICE_ANCHOR = 2
#: The brief's list of skills / actions (items 0, skills 1, scenes 2): a choice among them is a choice of how.
SKILLS = 1
#: One option of the brief (brief_options.py owns what a kind is).
Option = BriefOption


class NodeFocus(NamedTuple):
    """The uncertainty one node resolves."""

    node_id: str
    options: tuple[Option, ...]  # the options of the choice it settles (empty: a detail node)
    kind: frozenset[str]  # terms naming the kind of that choice ("tavern", "crystal stone")
    anchor: frozenset[str]  # the thing whose detail is missing (a detail node; also kept for a choice node)
    key: str | None  # the anchor's weightiest term
    needs: str | None  # the kind of detail missing: place, person, time, quantity, manner, or None (any)
    asks: tuple[str, ...] = ()  # (zh) the questions the explanation says the seeker asks ("羊在哪里"), word for word
    said_kind: frozenset[str] = frozenset()  # the kind in the explanation's own words ("school", not every scene's)

    @property
    def is_choice(self) -> bool:
        return bool(self.options or self.kind)


class FocusIndex(QuestionReading, TwinReading, OfferReading, OwnWordsReading, KindGovernance, PriceReading):
    """For one task: the options of the brief, and the uncertainty of every required node."""

    def __init__(self, task: Task, index: TaskIndex | None = None) -> None:
        self.task = task
        self.language = language = "zh" if task.language == "zh" else "en"
        self.index = index or TaskIndex(task.tree, language)
        brief = task.brief
        self.options: list[Option] = brief_options(task, language)
        self.scene_groups: set[int] = {o.group for o in self.options if o.scene}
        self.names = sorted({o.name for o in self.options}, key=lambda n: (-len(n), n))
        #: Every word of the brief (its names and its prose): a kind taken from here may be a guess (_kind_known).
        self.brief_terms = frozenset(
            tokens(" ".join((brief.background, *brief.items, *brief.skills, *brief.scenes)), language)
        )
        #: Which list of the brief each name comes from (0 items, 1 skills, 2 scenes).
        self._list_of = {
            name: number
            for number, listed in enumerate((brief.items, brief.skills, brief.scenes))
            for name in names_of(listed)
        }
        #: Phrases of the brief a question may paste without saying anything of its own: the names, the task name
        #: and the role ("how does trading with Henry come in?" asks nothing about Henry).
        framing = {p.strip() for p in (brief.task_name, brief.role) if p.strip()}
        self.pasted_phrases = sorted(set(self.names) | framing, key=lambda n: (-len(n), n))
        notes = notes_of(task)
        #: Phrases of the brief that are no option: pasted into a list of alternatives, they make it a spray.
        self.pasted = [frozenset(tokens(p, language)) for p in (*notes, brief.task_name, brief.role) if p.strip()]
        self.pasted = [terms for terms in self.pasted if terms]
        self._distinct, self._core = own_parts(self.options, language)
        self.nodes = one_choice_per_kind({node.id: self._focus(node) for node in task.tree.required})
        #: Nodes whose explanation names a shortfall (not enough coins): a question about enough-ness asks them.
        self.short_of = frozenset(n.id for n in task.tree.required if names_shortfall(n.explanation or "", language))

    # --- nodes -------------------------------------------------------------------------------------------------
    def _focus(self, node: ResponseNode) -> NodeFocus:
        language, explanation = self.language, node.explanation or ""
        present = set(tokens(node.text, language))
        named = [o for o in self.options if names_entity(present, o.terms)]
        named = [o for o in named if o not in route_ends(explanation, named, language)]
        kind_phrases = competing_options(explanation, language)
        kind_phrases += which_kinds(explanation, language)
        generic = GENERIC_KIND_ZH if language == "zh" else GENERIC_KIND_EN
        kind = {t for phrase in kind_phrases for t in self._content(phrase)} - generic
        said_kind = frozenset(kind)  # the kind in the explanation's own words, before the options widen it
        options: tuple[Option, ...] = ()
        if kind:  # "multiple castles", "which route": the brief's options whose names carry the kind (maybe none)
            members = kind_members(self.options, kind, language)
            if len(members) >= 2:
                options = members
                kind |= shared_terms(members) | shared_ending(members, language)
        sizes = {g: sum(o.group == g for o in self.options) for g in {o.group for o in named}}
        choosable = [g for g, size in sizes.items() if size >= 2]
        # options the explanation speaks of ("has a pole and a paddle") outrank a kind the answer merely names
        # ("Use the long pole ... at the Lower Ford": the fords are not what is chosen)
        spoken = (
            self._options_spoken_of(explanation, present, one_list=bool(kind))
            if not options and CHOICE_SAID[language].search(explanation)
            else ()
        )
        if not options and len(choosable) == 1:  # it names options of one kind: a choice among them
            group = choosable[0]
            members = tuple(o for o in self.options if o.group == group)
            if len(members) >= 2 and not (spoken and unspoken(members, explanation, language)):
                options = members
                kind |= set(frozenset.intersection(*(o.terms for o in members)))
        if not options and kind and not spoken:  # a kind no name carries, its options named by their own parts
            listed = set(tokens(explanation, language))  # (in the answer, or listed: "Pink, Blue, and Green")
            options = named_by_own_part(present, self.options, self._distinct, self._list_of, listed)
        if options and not any(names_entity(present, o.terms) for o in options):
            options += answer_group(options, named, self.options, self._list_of)
        if not options and spoken:  # names that share no word: a which over any one's head asks among them
            options = spoken
            kind |= shared_terms(options) or set().union(*(o.head for o in options))
        phrase = focus_phrase(explanation, language)
        asked = ASKED[language].search(explanation)
        if asked:  # "use this response only if the other party asks where to build the stage"
            phrase = asked.group(1) + " " + phrase
        gaps = " ".join(m.group(1) for m in GAP[language].finditer(explanation))
        first = FIRST_SENTENCE.match(explanation.strip())
        context = " ".join((phrase, gaps, first.group(0) if first else ""))
        option_terms = {t for o in options for t in o.terms}
        anchor = (set(self._content(phrase)) | set(self._content(gaps))) - kind - option_terms
        mentioned = MENTIONED[language].search(explanation)
        if mentioned and PRONOUN[language].search(gaps):  # "mentioned the herbicide but did not say where to buy it"
            anchor |= set(self._content(mentioned.group(1))) - kind - option_terms
        if not anchor:
            anchor = set(self._content(context)) - kind - option_terms
        if not explanation.strip():  # an unannotated node (a custom task): its own words are all there is to go by
            anchor = set(self._content(node.text)) - set(tokens(self.task.tree.root.text, language))
        needs = next((name for name, pattern in NEEDS[language] if pattern.search(context)), None)
        anchor |= set(self._content(other_wording(explanation, needs, language))) - kind - option_terms
        asked_of = " ".join((phrase, gaps))
        if not options and needs == "place":  # "不知道哪里购买", answered "亨利肥料厂": a choice among the factories
            options = place_group(named, self.options)
            kind |= shared_terms(options)
        if (options or kind) and needs in NOT_A_CHOICE and not WHICH[language].search(asked_of):
            # "multiple castles ... unsure when Henry will appear": what is missing is a time, not the castle
            anchor |= set(self._content(asked_of))
            options, kind = (), set()
        # what the node says again of the reply it follows is what it is about ("Henry needs the gem." -> "You can
        # find Henry at the Forest Tavern."), whatever words its explanation uses
        # (English only: Chinese texts share pairs that name no thing, "需要", "可以": agreement fell there)
        if language == "en":
            parent = self.task.tree[parent_id(node.id) or ROOT_ID]
            anchor |= (set(self._content(node.text)) & set(self._content(parent.text))) - kind - option_terms
        if needs in NEEDS_WORDS[language] and anchor - NEEDS_WORDS[language][needs]:
            anchor -= NEEDS_WORDS[language][needs]  # "the exact time to meet Henry": the thing is the meeting
        key = max(anchor, key=lambda t: (self.index.weight(t), t)) if anchor else None
        if needs is None and options and all(o.group in self.scene_groups for o in options):
            needs = "place"  # a choice among the brief's scenes is a choice of where to go
        said = (
            tuple(piece for piece in ASK_PIECES.split(asked.group(1)) if len(piece) >= 3)
            if asked and language == "zh"
            else ()
        )
        return NodeFocus(
            node.id,
            options,
            frozenset(kind),
            frozenset(anchor),
            key,
            needs,
            said,
            said_kind if options or kind else frozenset(),
        )

    def _content(self, text: str) -> list[str]:
        """Content terms of explanation text: no boilerplate, and (zh) no bigram with a function character."""
        found = [t for t in tokens(text, self.language) if t not in BOILERPLATE]
        if self.language == "zh":
            found = [t for t in found if not set(t) & FUNCTION_ZH]
        return found

    # --- questions (read, and a kind governed, by question_reading.py) --------------------------------------------
    @per_reader
    def named_options(self, question: Question) -> list[Option]:
        """The brief's options a question names (each once): all or most of its name, including a word that sets it
        apart from the other options of its kind ("the black markets" names none of the three black markets)."""
        present = set(question.terms)
        by_term, termless = self._options_by_term
        if not termless and by_term.keys().isdisjoint(present):
            return []  # (a name with terms is named by one of them at least: no option has a term of the question)
        return [
            o
            for o in self.options
            if (names_entity(present, o.terms) and (not self._distinct[o] or self._distinct[o] & present))
            or (bool(self._core.get(o)) and self._core[o] <= present)
        ]

    def bets(self, question: Question, node_id: str) -> bool:
        """Does the question name one option of this node's choice, and no other, without the kind the explanation
        names: a bet on the answer rather than the question?"""
        focus = self.nodes.get(node_id)
        if focus is None or not focus.options:
            return False
        groups = {o.group for o in focus.options}
        ours = [o for o in self.named_options(question) if o.group in groups]
        return len(ours) == 1 and not self._kind_apart(question, focus.said_kind)

    def offers_others(self, question: Question, node_id: str) -> bool:
        """Does the question offer two or more of the brief's options, fewer than two of them this node's: a choice
        among other things than the one this node settles?"""
        named = self.named_options(question)
        focus = self.nodes.get(node_id)
        groups = {o.group for o in focus.options} if focus is not None else set()
        return len(named) >= 2 and sum(o.group in groups for o in named) < 2

    def asks_choice(self, question: Question, focus: NodeFocus) -> bool:
        """Does the question ask the choice this node settles? (choice_rule names the way.)"""
        return self.choice_rule(question, focus) is not None

    def choice_rule(self, question: Question, focus: NodeFocus) -> str | None:
        """Does the question ask the choice this node settles? (1) An interrogative governs the kind ("which
        castle", "which of the castles"); or (2) it offers two or more of the options as alternatives, in a list
        that holds ours alone, and they are most of the names it names; or (3) it asks about the kind or the thing
        the choice is for ("where can I get the sleeping medicine?") without betting on one option, with a question
        word that asks what the choice answers (_choice_asked_by). Naming one option alone is a bet (3 fails)."""
        if self._kind_governed(question, focus.kind):
            return "R101"
        named = self.named_options(question)
        groups = {o.group for o in focus.options}
        ours = [o for o in named if o.group in groups]
        if not focus.options:  # a choice among things the brief does not list ("which route up the mountain")
            classes = question.classes & self._choice_asked_by(focus)
            if self._asks_kind_word(question) and not classes & ASKED_KINDS:
                return None  # (as below: "which place" asks a place, no choice of another kind)
            asked = bool(classes) and (
                self._kind_apart(question, focus.kind) or self._overlaps(focus.anchor, self._own_terms(question))
            )
            return "R104" if asked else None
        if len(ours) >= 2:
            return "R102" if self._offers_ours(question, focus, named) else None
        if ours and not self._kind_apart(question, focus.kind, alternative=True):
            return None  # one option named, no other offered: a bet on the answer
        if named and len(named) > 2:
            return None  # names of other kinds thrown in: no question about this choice
        allowed = self._choice_asked_by(focus) | self.asks_making_of(question, focus)
        if not question.classes & allowed:
            return None  # a yes/no question, or one that asks another kind of thing (how many, when, who)
        if self._asks_kind_word(question) and not question.classes & ASKED_KINDS & allowed:
            return None  # "Which place should I go to complete the deal?" asks a place, not which gem the deal needs
        own = self._own_terms(question) | self.names_its_thing(question, focus)
        asked = self._kind_apart(question, focus.kind) or self._overlaps(focus.anchor, own, least=ZH_CHOICE_ANCHOR)
        return "R104" if asked else None

    def _choice_asked_by(self, focus: NodeFocus) -> frozenset[str]:
        """The question classes that ask a choice by its kind or its thing rather than its options (asks_choice (3)):
        what the choice's answer is. A choice of a thing (which gem, which line: no kind of detail said) is asked by
        a what / which ("What does Henry need?"), not by a where, how or when over a word of it ("Where do I find
        the gems?", "How do the crystal and magic come in?" ask something else of them); a choice of a place (or
        among options that include the brief's places) by where / how as well ("Where can I get fertilizer?")."""
        classes = ASKS_THING & ASKS_FOR[focus.needs] if focus.needs is not None else CHOICE_OF_A_THING
        if any(o.group in self.scene_groups for o in focus.options):
            classes = classes | {"place"}
        if any(self._list_of.get(o.name) == SKILLS for o in focus.options):
            classes = classes | {"manner"}  # a choice among ways of doing it is asked by how ("How do I seal it?")
        return classes

    def _offers_ours(self, question: Question, focus: NodeFocus, named: list[Option] | None = None) -> bool:
        """Does the question offer two or more of the choice's options as alternatives ("the A or the B?"), in a list
        that holds ours alone, ours being most of the names it names? (A list of names of several kinds is a spray,
        not a choice among ours.) `named`: the question's named options, when the caller has them."""
        named = self.named_options(question) if named is None else named
        groups = {o.group for o in focus.options}
        ours = [o for o in named if o.group in groups]
        if len(ours) < 2:
            return False
        if self._governs_frame(question):
            return False  # "Which step involves the A or the B?" asks for a step, not which of A and B
        alternatives = ALTERNATIVE[self.language].search(question.text) or CHOICE_WORDS[self.language].search(
            question.text
        )
        return bool(alternatives) and len(ours) > len(named) - len(ours) and self._lists_of(question, groups)[0]

    def _asks_choice_by_list(self, question: Question, focus: NodeFocus) -> bool:
        """The two ways a question that lists things may ask a choice: a which governing the kind, or the choice's
        own options offered as its alternatives."""
        return self._kind_governed(question, focus.kind) or (bool(focus.options) and self._offers_ours(question, focus))

    def _kind_apart(self, question: Question, kind: frozenset[str], alternative: bool = False) -> bool:
        """Does the question name the kind outside every option's name (with an alternative word, when asked:
        "Night Scene mode or another mode?")?"""
        if not kind:
            return False
        rest = self._without_names(question.text)
        if self.lists_things(question):  # a kind named as one thing of a list of several is not what is asked
            pieces = LIST_JOINT[self.language].split(rest)
            rest = pieces[0] if len(pieces) > 1 else rest
        if not set(tokens(rest, self.language)) & kind:
            return False
        return not alternative or bool(ALTERNATIVE[self.language].search(rest))

    def asks_detail(self, question: Question, focus: NodeFocus) -> bool:
        """Does the question name the thing whose detail is missing, and ask the right kind of thing about it?"""
        if not focus.anchor or focus.key is None:
            return False
        short = self.asks_short(question, focus)
        explanation = self.task.tree[focus.node_id].explanation or ""  # ("who can give me the map?": how to get it)
        asked = kinds_asking(focus.needs, explanation, self.language, self.task.tree[focus.node_id].text)
        if not question.classes & asked and not (short and "polar" in question.classes):
            return False  # (whether there is enough is asked by a yes / no question too)
        if focus.needs == "time" and "time" not in question.classes and self._asks_other_thing(question):
            return False  # "Which movement do I play at the gate?" asks a movement, not when to play
        # (zh) three things or more listed together are named in a word or two each: one bigram of the thing is a
        # fragment of any of them (two things: "电阻和电容" are whole two-character words, the thing itself)
        least = ZH_CHOICE_ANCHOR if self.language == "zh" and self.lists_things(question) else 1
        # (en) the thing may be one of the brief's names ("How do I get to Rock Island Lighthouse?" when the island is
        # what the detail is about), when it names that one alone (two are offered, a choice between them); Chinese
        # names share character pairs with too much (agreement fell): there only a name that is wholly the place
        # asked ("书房在哪里？"), not one that qualifies the thing ("玄幻森林的地图")
        names = self.named_options(question)
        whole = focus.needs == "place" and len(names) == 1 and names[0].terms <= focus.anchor
        alone = len(names) <= 1 if self.language == "en" else whole
        named = question.terms & focus.anchor if alone else set()
        return short or self._overlaps(focus.anchor, self._own_terms(question) | named, least=least)

    def asks_short(self, question: Question, focus: NodeFocus) -> bool:
        """Does the question ask whether there is enough of what this node's explanation says may fall short?"""
        return focus.node_id in self.short_of and asks_shortfall(question.text, self.language)

    @per_reader
    def _governs_frame(self, question: Question) -> bool:
        """Does a which / what govern a part of the job ("which step", "what stage", "哪一步"), so that the question asks
        where in the job its things come, not which of them?"""
        return bool(FRAME_WHICH[self.language].search(self._without_names(question.text)))

    def _asks_other_thing(self, question: Question) -> bool:
        """Does a which / what govern a thing ("which movement", "哪首曲子"), so the question asks for that thing?"""
        for match in GOVERNS[self.language].finditer(question.text):
            if match.group(1).lower() not in NOT_A_THING:
                return True
        return False

    def _overlaps(self, anchor: frozenset[str], terms: set[str], least: int = 1) -> bool:
        """Does the question carry a term of the anchor? (English: or a word of the same stem the crude stemmer
        left apart, "purchase" / "purchasing": a shared prefix of five letters or more. Chinese: `least` bigrams of
        it, where one bigram is a fragment rather than a word of the thing.)"""
        if self.language == "zh":
            return len(anchor & terms) >= least
        if anchor & terms:
            return True
        return any(len(a) >= 5 and len(t) >= 5 and a[:5] == t[:5] for a in anchor for t in terms)

    def _own_terms(self, question: Question) -> set[str]:
        """The question's terms outside the brief's names: what it says in its own words (a pasted name of the
        brief is no question about the thing the name's words also describe)."""
        return set(tokens(self._without_names(question.text), self.language))

    def focuses(self, question: Question, node_id: str, answered: frozenset[str] = frozenset()) -> bool:
        """Does the question ask the uncertainty this node resolves? Besides what it asks (_asks_uncertainty), a
        choice that several nodes settle with the same options is one uncertainty per thing it is for (which key
        for the entrance, which for the chest): see picks_twin. `answered`: the nodes Jax has given so far."""
        return self.focus_rule(question, node_id, answered) is not None

    def focus_rule(self, question: Question, node_id: str, answered: frozenset[str] = frozenset()) -> str | None:
        """The catalogue id of the rule by which the question asks this node (focuses), or None."""
        rule = self.asking_rule(question, node_id)
        return rule if rule is not None and self.picks_twin(question, node_id, answered) else None

    def _asks_uncertainty(self, question: Question, node_id: str, framed: bool = False) -> bool:
        """What the question asks, by the rules of the module docstring (twins aside)."""
        return self.asking_rule(question, node_id, framed) is not None

    @per_reader
    def asking_rule(self, question: Question, node_id: str, framed: bool = False) -> str | None:
        """The catalogue id of the rule by which the question asks this node's uncertainty (catalogue.py), or None
        when it does not ask it (twins aside)."""
        focus = self.nodes.get(node_id)
        if focus is None:
            return None
        if (
            focus.asks
            and question.classes - {"polar"}
            and any(says_in_order(piece, question.text) for piece in focus.asks)
        ):
            return "R107"  # (zh) the very question the explanation says the seeker asks: "仅当对方询问羊在哪里" / "羊在哪里？"
        if focus.options and not framed and self._offers_by_pieces(question, focus):
            return "R103"  # "Kerosene or whale oil?": its alternatives are this choice's options, said in short
        frame = None if framed else self.alternatives_frame(question)
        if frame is not None:  # "Which A, B or C?": a choice among what it offers, or what its frame asks
            if self._kind_governed(question, focus.kind):
                return "R101"
            if self._asks_choice_by_list(question, focus) or self.offers_of_kind(question, focus.kind):
                return "R102"
            asked = question._replace(text=frame, terms=frozenset(tokens(frame, self.language)), bare=False)
            if not asked.terms:
                return None
            groups = {o.group for o in focus.options}
            if any(o.group in groups for o in self.named_options(question)):
                return None  # its options in a list with other things (or one alone): a spray or a bet, not asked
            return self.asking_rule(asked, node_id, framed=True)
        if self.lists_without_asking(question):
            # "What do I need to know about the A, the B and the C?": nothing is asked of any one of them in particular
            if self._kind_governed(question, focus.kind):
                return "R101"
            return "R102" if bool(focus.options) and self._offers_ours(question, focus) else None
        if self.asks_short(question, focus):  # whether there is enough asks nothing else ("I have 300 coins, enough?")
            return "R105"
        question = self.first_thing_only(question)  # "Tell me more about the A and the B" asks about the A
        if question.bare:  # "Which X exactly?" asks which X is meant: a choice of kind X, nothing else, and only once
            # Jax has spoken of X ("go to the castle"): "Which castle?" before any castle came up is a guess at what
            # may be asked, not a question about his answer
            known = focus.is_choice and self._kind_known(question, focus)
            return "R106" if known and self._kind_governed(question, focus.kind) else None
        if self.governs_another_kind(question, focus) and not self._kind_governed(question, focus.kind):
            return None  # "Which tavern should I trade?" asks the tavern, not which gem the trade needs
        if focus.is_choice:
            # "Where can I find the ropes?" asks the choice of a place as well as "which coast?" does; only a
            # question of exactly the missing kind (never a bare "which"/"what") takes that second way.
            rule = self.choice_rule(question, focus)
            if rule is not None:
                return rule
            if self.asks_price_of(question, focus):
                return "R105"  # "摄像头模块多少钱？" of the node that says which module, at what price
            asks_need = focus.needs in question.classes or self.asks_short(question, focus)
            detail = focus.needs is not None and asks_need and self.asks_detail(question, focus)
            return "R105" if detail else None
        return "R105" if self.asks_detail(question, focus) or self.asks_price_of(question, focus) else None

    @cached_property
    def kind_terms(self) -> frozenset[str]:
        """The terms every node's choice goes by ("fuel", "wick"): the task's own words for what it asks."""
        return frozenset().union(*(focus.kind for focus in self.nodes.values()))

    @cached_property
    def choice_nodes(self) -> list[str]:
        return [node_id for node_id, focus in self.nodes.items() if focus.is_choice]


__all__ = ["FocusIndex", "NodeFocus", "Question", "Option"]
