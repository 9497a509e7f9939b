"""What a question asks about, and which node answers it: the provider answers questions, not words.

A seeker turn is read as its questions. Each node of the tree resolves one uncertainty, which its explanation names:
- a *choice* among options of one kind ("multiple taverns ... unsure which one", "which gem Henry needs"): a question
  asks it when an interrogative governs the kind ("which tavern", "what kind of gem", "哪家酒馆"), or when it offers
  two or more of the options as alternatives ("the Frost Castle or the Twilight Castle?"). Naming one option alone is
  a bet on the answer, not the question, and a list of options of several kinds is no choice at all;
- an open *detail* of one thing ("unsure where to buy the helmet", "how to stun the dragon"): a question asks it when
  it names that thing (the weightiest term of the explanation's "noticed" clause, or most of the clause) and asks the
  right kind of thing about it: where / which place for a place, how for a way, who for a person, when for a time,
  how many for a number (a bare yes/no question about a place asks nothing about where it is).
A node is revealed only to a question that focuses it; overlapping words decide nothing by themselves. Pure
functions of the task and the turn, shared by the offline and the LLM provider, so both answer by the same rule.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import NamedTuple

from ..core.tasks import ResponseNode, Task
from .lexical import FOCUS_STOP_EN, TaskIndex, competing_options, focus_phrase, is_question, sentences, tokens
from .brief_options import BriefOption, brief_options, names_entity, notes_of

#: Interrogative classes of a question (what kind of thing it asks for), per language.
_CLASSES: dict[str, dict[str, re.Pattern[str]]] = {
    "en": {
        "quantity": re.compile(r"\bhow\s+(many|much|long|far|often)\b", re.IGNORECASE),
        "place": re.compile(r"\bwhere\b|\bwhich\s+(place|location|spot|area|one)\b|\bwhat\s+(place|location)\b",
                            re.IGNORECASE),
        "person": re.compile(r"\b(who|whom|whose)\b", re.IGNORECASE),
        "time": re.compile(r"\bwhen\b|\b(time|times|timing|day|days|date|hour|hours|schedule|o'clock|noon|midnight|"
                           r"morning|evening|afternoon|night)\b", re.IGNORECASE),
        "manner": re.compile(r"\bhow\b(?!\s+(many|much|long|far|often|about)\b)|\b(way|ways|method|steps?)\b",
                             re.IGNORECASE),
        "identity": re.compile(r"\b(which|what|whether)\b|\b(specify|recommend|suggest|advise|tell me|let me know|"
                               r"clarify|explain|identify|name|inform me|confirm|provide|guide me|describe)\b"
                               r"|\bor\b[^?]*\?", re.IGNORECASE),
    },
    "zh": {
        "quantity": re.compile(r"多少|几[个种条家位次天点]?|多久|多长"),
        "place": re.compile(r"哪里|哪儿|在哪|去哪|何处|什么地方|哪个地方|哪家|哪座|哪间|哪所|地点|位置"),
        "person": re.compile(r"谁|哪位|什么人"),
        "time": re.compile(r"什么时候|何时|几点|时间|时候|哪天|哪一天|几号|日期|时刻|早上|晚上|中午|上午|下午"),
        "manner": re.compile(r"怎么|怎样|如何|方法|办法"),
        "identity": re.compile(r"哪|什么|是否|还是|具体|告诉|说明|建议|推荐|指点|确认|怎么办|该怎么做|如何是好"),
    },
}
#: The kind of thing a detail node's explanation says was missing, read from its "noticed" clause and first sentence.
_NEEDS: dict[str, list[tuple[str, re.Pattern[str]]]] = {
    "en": [
        ("place", re.compile(r"\b(where|location|locations|located|place to|places to|whereabouts)\b", re.I)),
        ("person", re.compile(r"\b(who|whom|which person|which people)\b", re.I)),
        ("time", re.compile(r"\b(when|what time|timing|(?:best|right|exact|specific|proper|meeting) time|time to)\b",
                            re.I)),
        ("quantity", re.compile(r"\b(how many|how much|how long|amount|quantity|number of|duration)\b", re.I)),
        ("manner", re.compile(r"\b(how to|how he|how she|how they|how you|method|way to)\b", re.I)),
    ],
    "zh": [
        ("place", re.compile(r"哪里|在哪|去哪|哪儿|地点|位置|何处|什么地方")),
        ("person", re.compile(r"谁|哪位|什么人")),
        ("time", re.compile(r"什么时候|何时|时间")),
        ("quantity", re.compile(r"多少|数量|几个")),
        ("manner", re.compile(r"如何|怎么|怎样|方法|办法")),
    ],
}
#: Question classes that may ask for each kind of missing detail ("which shop sells it?" asks a place too).
ASKS_FOR = {
    "place": {"place", "identity", "manner"},
    "person": {"person", "identity"},
    "time": {"time", "quantity", "manner", "identity"},  # ("which movement?" asks no time: _asks_other_thing)
    "quantity": {"quantity", "identity"},
    "manner": {"manner", "identity", "place"},
    None: {"place", "person", "time", "quantity", "manner", "identity", "polar"},
}
#: An interrogative that governs a kind: the kind is the first word or two after it, past "of the", "kind of" and the
#: like ("which castle", "which of the two castles", "what kind of gem", "哪家酒馆", "什么宝石"): "which step needs the
#: crystal" governs a step, and "what complete, exchanging, crystal or magic" governs no crystal.
_CHOOSER = {
    "en": re.compile(r"\b(?:which|what|where|specific|particular|exact|right|correct|best)\b"
                     r"(?:\s+(?:is|are|was|were|the|a|an|of|kind|type|sort|kinds|types|specific|particular|exact|one|ones|"
                     r"two|three|four|several|other|this|that|these|those))*"
                     r"\s+([\w'-]+(?:\s+[\w'-]+)?)", re.IGNORECASE),
    "zh": re.compile(r"(?:哪|什么)(?:一)?[个种家座条位所间把件只首款张部台辆本类]?(?:样的|类型的|种类的|种)?([\u4e00-\u9fffA-Za-z]{2})"),
}
#: A list going on right after the governed word ("what crystal, magic or release", "什么宝石、晶石还是魔法").
_LIST_FOLLOWS = {"en": re.compile(r"\s*(?:,|\bor\b|\band\b|/)\s*(?!(?:and|or|which|what|where|how|when|who|why)\b)\w", re.I),
                 "zh": re.compile(r"\s*(?:[、，,/]|还是|或者|或|和|与)(?!哪|什么|怎么|如何|多少|谁|几|是否|为什么|何时)")}
#: ... or come before it within a few characters ("酒馆是哪一家", "castle is it, which one").
_CHOOSER_AFTER = {"en": re.compile(r"((?:\w+\W+){0,8})\b(which one|which ones|which of (?:them|these|those)|"
                                   r"which (?:type|kind|sort))\b", re.I),
                  "zh": re.compile(r"(.{0,6})(哪)")}
#: Abbreviations whose full stop ends no sentence ("A vs. B", "e.g. the X").
_ABBREVIATION = re.compile(r"\b(vs|etc|e\.g|i\.e|approx|Mr|Ms|Mrs|Dr|Prof|St)\.|\b(No)\.(?=\s*\d)", re.IGNORECASE)
#: A which / what and the word it governs ("which movement", "what specific magic", "哪首曲子").
_GOVERNS = {"en": re.compile(r"\b(?:which|what)\s+(?:specific\s+|particular\s+|kind of\s+|type of\s+|sort of\s+)?"
                             r"([a-z]+)", re.I),
            "zh": re.compile(r"哪一?[个种首把条位家座件只张款]([\u4e00-\u9fff])")}
#: Words after a which / what that are no thing asked for ("what should I do", "what exactly", "哪个时候").
_NOT_A_THING = frozenset(
    "should do does did can could would will is are was were exactly about else i we you he she they it to if "
    "happens happened time times day days date hour hours moment point stage o'clock 时".split())
#: What Jax mentioned before the gap ("Jax mentioned the need for herbicide but did not ..."), and the pronoun in
#: the gap that stands for it ("... where to buy it").
_MENTIONED = {"en": re.compile(r"\bmentioned\s+(.*?)\s+but\b", re.I), "zh": re.compile(r"提到(?:了)?(.+?)(?:，|,)?但")}
_PRONOUN = {"en": re.compile(r"\b(it|them|they|one|these|those|him|her)\b", re.I), "zh": re.compile(r"它|它们|他|她|这些|其")}
#: Missing details that no choice among the brief's options settles, when the gap does not say "which".
_NOT_A_CHOICE = frozenset({"time", "quantity", "person"})
_WHICH = {"en": re.compile(r"\bwhich\b", re.I), "zh": re.compile(r"哪")}
#: A decimal point ends no sentence ("a 14.2-inch screen"): read as one number.
_DECIMAL = re.compile(r"(\d)\.(\d)")
#: Where a sentence may hold a second question, and the question words that make each side one.
_CLAUSE_BREAK = {"en": re.compile(r"\s*[,;]\s*(?:and\s+|also\s+|plus\s+)?", re.I), "zh": re.compile(r"\s*[，；,;]\s*")}
_ASKS = {"en": re.compile(r"\b(which|what|where|how|who|whom|when|why|whether)\b", re.I),
         "zh": re.compile(r"哪|什么|怎么|如何|怎样|多少|谁|几|是否|为什么|何时")}
#: "which one", "which of them", "哪一个": a choice whose kind was named just before.
_ANAPHORIC = {"en": re.compile(r"\bwhich (one|ones|of them|of these|of those)\b", re.I),
              "zh": re.compile(r"哪一?[个种家座条位所间把件只]|哪一")}
#: Question classes that ask for a thing (a choice's option): not a yes/no, how many, when or who question.
_ASKS_THING = frozenset({"identity", "place", "manner"})
#: Words that join alternatives: "A or B", "A还是B", "A或B".
_ALTERNATIVE = {"en": re.compile(r"\b(or|either|versus|vs)\b", re.I), "zh": re.compile(r"还是|或者|或|哪")}
_CHOICE_WORDS = {"en": re.compile(r"\b(which|whether|among|between|choose|choosing|choice)\b", re.I),
                 "zh": re.compile(r"哪|还是|是否|选择|之间|之中")}
#: Generic heads that name no kind of their own ("which one", "what option").
_GENERIC_KIND_EN = frozenset({"one", "option", "choic", "choice", "thing", "way", "step", "kind", "type", "sort"})
_GENERIC_KIND_ZH = frozenset({"一个", "一种", "选择", "方式", "东西", "步骤", "种类", "类型"})
#: "which gem Henry needs" / "哪一种宝石": a kind named right after an interrogative in the explanation.
_WHICH_KIND = {"en": re.compile(r"\bwhich\s+(?:specific\s+|particular\s+|kind of\s+|type of\s+)?([a-z][a-z-]+"
                                r"(?:\s+[a-z][a-z-]+(?=\s+(?:to|should|would|is|are|was|were|that|for)\b))?)", re.I),
               "zh": re.compile(r"哪(?:一)?[个种家座条位所间把件只]?(.{2})")}


#: Words of the explanations' boilerplate that name no thing ("unable to", "the appropriate", "is unsure").
_BOILERPLATE = FOCUS_STOP_EN | frozenset(tokens(
    "unable able appropriate suitable available due choose chose choosing proper correct right best exact specific "
    "lack lacking information issue issues concern concerns problem need needs needed necessary unsure sure "
    "explain explained specify specified mention mentioned previous previously response responses jax provide "
    "provided detail details regarding required require requirement clarify clarified indicate indicated "
    "whether should safely successfully first next", "en")) | frozenset(
    "回复 之前 没有 说明 指出 明确 具体 信息 问题 不知 知道 确定 应该 需要 哪个 哪里 如何 怎么 什么 选择 使用 可以".split())
#: Characters that make a Chinese bigram a piece of grammar rather than a name ("的弱", "才需", "厂且").
_FUNCTION_ZH = frozenset("的了且才需要该应在到个是有和与或及对不能会把被就也都还只而则从向给让使用于为以之其这那哪些什么怎如何吗呢吧啊")
#: Where an explanation says what Jax left out: "did not specify where to buy the power supply", "没有介绍如何进入".
_GAP = {
    "en": re.compile(r"did not (?:specify|explain|mention|clarify|say|provide|indicate|tell|state|give)\s+(.*?)(?:\.|,|$)",
                     re.IGNORECASE),
    "zh": re.compile(r"没有(?:明确)?(?:指出|给出|说明|提到|提及|解释|介绍|提供|告诉)(.+?)(?:[。，,]|$)"),
}
#: ... or what the seeker must ask: "only if the other party asks where to ...", "仅当对方询问...时".
_ASKED = {"en": re.compile(r"only if the other party\b[^.]*?\basks (.+?)(?:\.|$)", re.IGNORECASE),
          "zh": re.compile(r"仅当对方[^。]*?(?:询问|问到|问)(.+?)(?:时|$)")}
_FIRST_SENTENCE = re.compile(r"^[^.。]*[.。]?")
#: Words around a bare "which X" that say nothing of their own ("exactly", "do you mean", "具体是哪个", "你说的").
_BARE_FILLER_EN = frozenset(tokens("exactly precisely mean meant specifically specific particular exact kind type sort "
                                   "please tell know refer referring talking choose chose pick select use go take need "
                                   "get want prefer best right correct proper", "en"))
_BARE_SCAFFOLD_ZH = re.compile(r"具体|到底|究竟|你说的|你指的|指的|说的|是|哪一?[个种家座条位所间把件只]?|什么|的|吗|呢|呀|啊|请问|"
                               r"我|应该|应当|需要|要|选择|挑选|选|使用|用|去|拿|买|最好|合适")
_CJK_WORD = re.compile(r"[\u4e00-\u9fff]")
#: What joins the members of one list of alternatives ("A, B or C", "A、B还是C"): a list is cut there into items.
_LIST_JOINT = {"en": re.compile(r"\s*(?:[,;/]|\b(?:or|and|either|versus|vs)\b)\s*", re.I),
               "zh": re.compile(r"\s*(?:[，,、;；/]|还是|或者|或是|或|以及|和|与|及)\s*")}
#: Things listed in one question that make it a list of everything (lists_things), and the content terms (en) /
#: bigrams (zh) a listed thing has at most.
LISTED_THINGS = 3
_TAG_WORDS = frozenset(tokens("right correct ok okay true yes please thanks exactly", "en")) | {"对吧", "对吗", "是吧", "好吗"}
_LIST_ITEM_TERMS = {"en": 3, "zh": 4}
#: Words (en) / bigrams (zh) of its own a list item may carry besides its name and still be one of the list.
_LIST_ITEM_OWN = {"en": 2, "zh": 3}
#: An item of a list that names a phrase of the brief which is no option (a note, the task name, the role).
_PASTED = -1




def _shared_terms(members: tuple["Option", ...]) -> set[str]:
    """Terms that two or more options share: the heads their kind goes by ("shop", "store", "bicycle")."""
    seen: dict[str, int] = {}
    for option in members:
        for term in option.terms:
            seen[term] = seen.get(term, 0) + 1
    return {term for term, count in seen.items() if count >= 2}


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

    @property
    def is_choice(self) -> bool:
        return bool(self.options or self.kind)


class Question(NamedTuple):
    """One question sentence of a seeker turn, read once."""

    text: str
    terms: frozenset[str]
    classes: frozenset[str]
    context: str = ""  # the statement just before it ("There are two mines. Which one has rubies?")
    bare: bool = False  # "Which X exactly?": one word of its own and nothing asked but which / what (see _is_bare)
    heard: frozenset[str] | None = None  # the terms of Jax's replies so far (None: not known, not checked)


class FocusIndex:
    """For one task: the options of the brief, and the uncertainty of every required node."""

    def __init__(self, task: Task, index: TaskIndex | None = None) -> None:
        self.task = task
        self.language = language = "zh" if task.language == "zh" else "en"
        self.index = index or TaskIndex(task.tree, language)
        brief = task.brief
        self.options: list[Option] = brief_options(task, language)
        self.scene_groups: set[int] = {o.group for o in self.options if o.scene}
        self.names = sorted({o.name for o in self.options}, key=lambda n: (-len(n), n))
        #: Phrases of the brief a question may paste without saying anything of its own: the names, the task name
        #: and the role ("how does trading with Henry come in?" asks nothing about Henry).
        framing = {p.strip() for p in (brief.task_name, brief.role) if p.strip()}
        self.pasted_phrases = sorted(set(self.names) | framing, key=lambda n: (-len(n), n))
        notes = notes_of(task)
        #: Phrases of the brief that are no option: pasted into a list of alternatives, they make it a spray.
        self.pasted = [frozenset(tokens(p, language)) for p in (*notes, brief.task_name, brief.role) if p.strip()]
        self.pasted = [terms for terms in self.pasted if terms]
        shared: dict[int, set[str]] = {}
        for group in {o.group for o in self.options}:
            members = tuple(o for o in self.options if o.group == group)
            shared[group] = _shared_terms(members) if len(members) > 1 else set()
        self._distinct = {o: o.terms - shared[o.group] for o in self.options}
        self.nodes = {node.id: self._focus(node) for node in task.tree.required}

    # --- nodes -------------------------------------------------------------------------------------------------
    def _focus(self, node: ResponseNode) -> NodeFocus:
        language, explanation = self.language, node.explanation or ""
        present = set(tokens(node.text, language))
        named = [o for o in self.options if names_entity(present, o.terms)]
        kind_phrases = competing_options(explanation, language)
        kind_phrases += [m.group(1) for m in _WHICH_KIND[language].finditer(explanation)]
        generic = _GENERIC_KIND_ZH if language == "zh" else _GENERIC_KIND_EN
        kind = {t for phrase in kind_phrases for t in self._content(phrase)} - generic
        options: tuple[Option, ...] = ()
        if kind:  # "multiple castles", "which route": the brief's options whose names carry the kind (maybe none)
            groups = {o.group for o in self.options if o.terms & kind}
            members = tuple(o for o in self.options if o.group in groups)
            if len(members) >= 2:
                options = members
                kind |= _shared_terms(members)
        sizes = {g: sum(o.group == g for o in self.options) for g in {o.group for o in named}}
        choosable = [g for g, size in sizes.items() if size >= 2]
        if not options and len(choosable) == 1:  # it names options of one kind: a choice among them
            group = choosable[0]
            members = tuple(o for o in self.options if o.group == group)
            if len(members) >= 2:
                options = members
                kind |= set(frozenset.intersection(*(o.terms for o in members)))
        phrase = focus_phrase(explanation, language)
        asked = _ASKED[language].search(explanation)
        if asked:  # "use this response only if the other party asks where to build the stage"
            phrase = asked.group(1) + " " + phrase
        gaps = " ".join(m.group(1) for m in _GAP[language].finditer(explanation))
        first = _FIRST_SENTENCE.match(explanation.strip())
        context = " ".join((phrase, gaps, first.group(0) if first else ""))
        option_terms = {t for o in options for t in o.terms}
        anchor = (set(self._content(phrase)) | set(self._content(gaps))) - kind - option_terms
        mentioned = _MENTIONED[language].search(explanation)
        if mentioned and _PRONOUN[language].search(gaps):  # "mentioned the herbicide but did not say where to buy it"
            anchor |= set(self._content(mentioned.group(1))) - kind - option_terms
        if not anchor:
            anchor = set(self._content(context)) - kind - option_terms
        if not explanation.strip():  # an unannotated node (a custom task): its own words are all there is to go by
            anchor = set(self._content(node.text)) - set(tokens(self.task.tree.root.text, language))
        needs = next((name for name, pattern in _NEEDS[language] if pattern.search(context)), None)
        asked_of = " ".join((phrase, gaps))
        if (options or kind) and needs in _NOT_A_CHOICE and not _WHICH[language].search(asked_of):
            # "multiple castles ... unsure when Henry will appear": what is missing is a time, not the castle
            anchor |= set(self._content(asked_of))
            options, kind = (), set()
        key = max(anchor, key=lambda t: (self.index.weight(t), t)) if anchor else None
        if needs is None and options and all(o.group in self.scene_groups for o in options):
            needs = "place"  # a choice among the brief's scenes is a choice of where to go
        return NodeFocus(node.id, options, frozenset(kind), frozenset(anchor), key, needs)

    def _content(self, text: str) -> list[str]:
        """Content terms of explanation text: no boilerplate, and (zh) no bigram with a function character."""
        found = [t for t in tokens(text, self.language) if t not in _BOILERPLATE]
        if self.language == "zh":
            found = [t for t in found if not set(t) & _FUNCTION_ZH]
        return found

    # --- questions ---------------------------------------------------------------------------------------------
    def questions(self, turn: str, heard: str | None = None) -> list[Question]:
        """The question sentences of a turn, in order; `heard`: what Jax has said so far (every provider turn
        before this one), which a kind must come from to be asked by name (see _kind_governed)."""
        language = self.language
        jax = frozenset(tokens(heard, language)) if heard is not None else None
        found = []
        context = ""
        for sentence in sentences(_DECIMAL.sub("\\1\u00b7\\2", _ABBREVIATION.sub(lambda m: m.group(1) or m.group(2), turn)), language):
            if not is_question(sentence, language) or sentence.rstrip().endswith((":", "：")):
                context = sentence  # (a preamble such as "I have a few questions:" asks nothing itself)
                continue
            for clause in self._clauses(sentence):
                classes = {name for name, pattern in _CLASSES[language].items() if pattern.search(clause)}
                classes = classes or {"polar"}
                found.append(Question(clause, frozenset(tokens(clause, language)), frozenset(classes), context,
                                      classes <= {"identity", "polar"} and self._is_bare(clause), jax))
            context = ""
        return found

    def _is_bare(self, clause: str) -> bool:
        """A question of one word of its own around its which / what ("Which trade exactly?", "What crystal, precisely?",
        "具体是哪个酒馆？"): it can only ask which of several such things is meant, so it asks a choice whose kind is that
        word and nothing else."""
        if self.language == "zh":
            return len(_CJK_WORD.findall(_BARE_SCAFFOLD_ZH.sub("", clause))) <= 4
        return len([t for t in tokens(clause, "en") if t not in _BARE_FILLER_EN]) <= 1

    def _clauses(self, sentence: str) -> list[str]:
        """One question sentence cut where a second question begins ("Which gem does Henry need, and at which gate
        ...?" asks two things): at a comma or semicolon, only when both sides carry a question word of their own."""
        pieces = _CLAUSE_BREAK[self.language].split(sentence)
        clauses: list[str] = []
        for piece in pieces:
            if clauses and _ASKS[self.language].search(piece) and _ASKS[self.language].search(clauses[-1]):
                clauses.append(piece)
            elif clauses:
                clauses[-1] = clauses[-1] + ", " + piece
            else:
                clauses.append(piece)
        return [clause.strip() for clause in clauses if clause.strip()]

    def _without_names(self, text: str) -> str:
        lowered = text.lower()
        for name in self.pasted_phrases:
            lowered = lowered.replace(name.lower(), " , ")
        return lowered

    def _kind_governed(self, question: Question, kind: frozenset[str]) -> bool:
        """An interrogative governs a term of the kind outside every option's name ("which castle")."""
        if not kind:
            return False
        language = self.language
        rest = self._without_names(question.text)
        for match in _CHOOSER[language].finditer(rest):
            if _LIST_FOLLOWS[language].match(rest, match.end()):
                continue  # "what crystal, magic or release": it governs a list of things, not the crystal
            if set(tokens(match.group(1), language)) & kind:
                return True
        for match in _CHOOSER_AFTER[language].finditer(rest):  # only what stands right before it, past no joint
            before = _LIST_JOINT[language].split(match.group(1))[-1]
            if set(tokens(before, language)) & kind:
                return True
        # "There are two mines. Which one has rubies?": an anaphoric "which one" takes its kind from the statement
        # just before the question, never from an option's name there.
        if question.context and _ANAPHORIC[language].search(rest):
            return bool(set(tokens(self._without_names(question.context), language)) & kind)
        return False

    def named_options(self, question: Question) -> list[Option]:
        """The brief's options a question names (each once): all or most of its name, including a word that sets it
        apart from the other options of its kind ("the black markets" names none of the three black markets)."""
        present = set(question.terms)
        return [
            o for o in self.options
            if names_entity(present, o.terms) and (not self._distinct[o] or self._distinct[o] & present)
        ]

    def asks_choice(self, question: Question, focus: NodeFocus) -> bool:
        """Does the question ask the choice this node settles? (1) An interrogative governs the kind ("which
        castle", "which of the castles"); or (2) it offers two or more of the options as alternatives, in a list
        that holds ours alone, and they are most of the names it names; or (3) it asks about the kind or the thing
        the choice is for ("where can I get the sleeping medicine?") without betting on one option. Naming one
        option alone is a bet (3 fails)."""
        if self._kind_governed(question, focus.kind):
            return True
        named = self.named_options(question)
        groups = {o.group for o in focus.options}
        ours = [o for o in named if o.group in groups]
        if not focus.options:  # a choice among things the brief does not list ("which route up the mountain")
            return bool(question.classes - {"polar"}) and (
                self._kind_apart(question, focus.kind) or self._overlaps(focus.anchor, self._own_terms(question)))
        if len(ours) >= 2:
            alternatives = _ALTERNATIVE[self.language].search(question.text) or \
                _CHOICE_WORDS[self.language].search(question.text)
            # A list of names of several kinds is a spray, not a choice among ours: ours must be most of what it
            # names, and a list that holds ours holds nothing else.
            return bool(alternatives) and len(ours) > len(named) - len(ours) and self._lists_of(question, groups)[0]
        if ours and not self._kind_apart(question, focus.kind, alternative=True):
            return False  # one option named, no other offered: a bet on the answer
        if named and len(named) > 2:
            return False  # names of other kinds thrown in: no question about this choice
        if not question.classes & _ASKS_THING:
            return False  # a yes/no question, or one asking how many / when / who, asks no choice of a thing
        return self._kind_apart(question, focus.kind) or self._overlaps(focus.anchor, self._own_terms(question))

    def lists_things(self, question: Question) -> bool:
        """Does the question list three things or more ("the fire, the crystal, the magic or the deal")? Such a
        question asks about none of them in particular: it may ask a choice among options it lists (path 2) or a
        kind by name, never a detail or a choice by the words around it. The pieces after the first must be short
        (a name, not a clause), so "Where do I go, what do I bring and who do I ask?" is three questions, not a list."""
        pieces = [piece for piece in _LIST_JOINT[self.language].split(question.text)
                  if set(tokens(piece, self.language)) - _TAG_WORDS]  # ("..., right?" is no item)
        short = [len(tokens(piece, self.language)) <= _LIST_ITEM_TERMS[self.language] for piece in pieces[1:]]
        run = best = 0
        for is_short in short:
            run = run + 1 if is_short else 0
            best = max(best, run)
        return best + 1 >= LISTED_THINGS

    def _list_items(self, question: Question) -> list[tuple[set[int], int]]:
        """The question cut at list joints ("A, B or C"): each item with the option groups it names (`_PASTED` for a
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
        for piece in _LIST_JOINT[self.language].split(text):
            present = set(tokens(piece, self.language))
            named: set[int] = set()
            covered: set[str] = set()
            for mark, (group, terms) in marks.items():
                if mark in piece:
                    named.add(group)
                    covered |= {mark}
            for option in self.options:
                if names_entity(present, option.terms):
                    named.add(option.group)
                    covered |= option.terms
            for terms in self.pasted:
                if names_entity(present, terms):
                    named.add(_PASTED)
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
        for named, own in self._list_items(question):
            if not named:
                if runs[-1]:
                    runs.append([])
            elif runs[-1] and own > _LIST_ITEM_OWN[self.language]:
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

    def _kind_apart(self, question: Question, kind: frozenset[str], alternative: bool = False) -> bool:
        """Does the question name the kind outside every option's name (with an alternative word, when asked:
        "Night Scene mode or another mode?")?"""
        if not kind:
            return False
        rest = self._without_names(question.text)
        if self.lists_things(question):  # a kind named as one thing of a list of several is not what is asked
            pieces = _LIST_JOINT[self.language].split(rest)
            rest = pieces[0] if len(pieces) > 1 else rest
        if not set(tokens(rest, self.language)) & kind:
            return False
        return not alternative or bool(_ALTERNATIVE[self.language].search(rest))

    def asks_detail(self, question: Question, focus: NodeFocus) -> bool:
        """Does the question name the thing whose detail is missing, and ask the right kind of thing about it?"""
        if not focus.anchor or focus.key is None:
            return False
        if not question.classes & ASKS_FOR[focus.needs]:
            return False
        if focus.needs == "time" and "time" not in question.classes and self._asks_other_thing(question):
            return False  # "Which movement do I play at the gate?" asks a movement, not when to play
        return self._overlaps(focus.anchor, self._own_terms(question))

    def _asks_other_thing(self, question: Question) -> bool:
        """Does a which / what govern a thing ("which movement", "哪首曲子"), so the question asks for that thing?"""
        for match in _GOVERNS[self.language].finditer(question.text):
            if match.group(1).lower() not in _NOT_A_THING:
                return True
        return False

    def _overlaps(self, anchor: frozenset[str], terms: set[str]) -> bool:
        """Does the question carry a term of the anchor? (English: or a word of the same stem the crude stemmer
        left apart, "purchase" / "purchasing": a shared prefix of five letters or more.)"""
        if anchor & terms:
            return True
        if self.language == "zh":
            return False
        return any(len(a) >= 5 and len(t) >= 5 and a[:5] == t[:5] for a in anchor for t in terms)

    def _own_terms(self, question: Question) -> set[str]:
        """The question's terms outside the brief's names: what it says in its own words (a pasted name of the
        brief is no question about the thing the name's words also describe)."""
        return set(tokens(self._without_names(question.text), self.language))

    def focuses(self, question: Question, node_id: str) -> bool:
        """Does the question ask the uncertainty this node resolves?"""
        focus = self.nodes.get(node_id)
        if focus is None:
            return False
        if question.bare:  # "Which X exactly?" asks which X is meant: a choice of kind X, nothing else, and only once
            # Jax has spoken of X ("go to the castle"): "Which castle?" before any castle came up is a guess at what
            # may be asked, not a question about his answer
            heard = question.heard is None or bool(focus.kind & question.heard)
            return focus.is_choice and heard and self._kind_governed(question, focus.kind)
        if focus.is_choice:
            # "Where can I find the ropes?" asks the choice of a place as well as "which coast?" does; only a
            # question of exactly the missing kind (never a bare "which"/"what") takes that second way.
            return self.asks_choice(question, focus) or (
                focus.needs is not None and focus.needs in question.classes and self.asks_detail(question, focus)
            )
        return self.asks_detail(question, focus)

    def offers_options(self, question: Question, node_id: str) -> bool:
        """Does the question offer two or more of this node's options as its alternatives ("the Frost Castle or
        the Twilight Castle?")? Such a question can ask nothing else, so it needs no matcher's support."""
        focus = self.nodes.get(node_id)
        if focus is None or not focus.options or question.bare:
            return False
        return self.asks_choice(question, focus) and self._lists_of(question, {o.group for o in focus.options})[1]

    @cached_property
    def choice_nodes(self) -> list[str]:
        return [node_id for node_id, focus in self.nodes.items() if focus.is_choice]


__all__ = ["FocusIndex", "NodeFocus", "Question", "Option"]
