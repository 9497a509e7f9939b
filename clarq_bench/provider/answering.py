"""Which questions of a turn are answered, and with which node: one owner of that rule for every provider.

A turn is read as its questions (focus.py). Only the first `ANSWERED_QUESTIONS` questions are read, as a person
answers the first things asked of them and not the tenth: asking more questions in one turn buys no more chances.
In single-info mode at most one node is revealed per turn, to the best-focused question (the first candidate node,
in the tree's order, that a question focuses; a turn of one question gets the node it asks most clearly, see
`_owner`: one whose choice it names before one whose thing it only speaks of). In multi-info mode each question
takes at most one node (its `_owner`), and at most `MULTI_INFO_NODES` nodes are revealed per turn. A candidate is a
frontier node that the provider's own reading (the offline matcher, or the LLM provider's model) judged answerable
(a turn of one question in multi-info mode: the single-info matcher's too); the focus rule may only take candidates
away, except that the matcher alone may give a lone question a node it is far surer of (R108, `_clearly_asked`).
Neither bound is a detector a template can sit under: a seeker that asks fewer questions simply has fewer chances.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from ..core.transcript import Speaker, Turn
from .detail_kinds import ASKED_KINDS
from .focus import FocusIndex
from .intents import TAG_QUESTION
from .lexical import joined
from .question_lists import Question
from .question_words import ASKS, ASKS_FOR
from .shortfall import asks_shortfall
from .word_order import strings_his_words

#: Questions of one turn that are read at all (released GPT-4o turns: the reference's node was asked by one of the
#: first three questions in 97% of its reveals, types 1-13).
ANSWERED_QUESTIONS = 3
#: Questions of one turn read in multi-info mode, where every question may take its own node.
MULTI_INFO_QUESTIONS = 4
#: A question that focuses several nodes asks the later one only when the reader's confidence in it is this much
#: higher (chosen on types 1-13 among 0.2, 0.25 and 0.3: 0.25 agrees best there, Chat.En +0.2 and multi-info +0.4
#: points over 0.3; on 14-26 Chat.En -0.2, the others unchanged, and the natural suite +1 wording a language).
PREFER_MARGIN = 0.25
#: A lone question the reader is this sure asks a node (CLEAR_FLOOR), far surer than of any other frontier node
#: (by CLEAR_GAP), asks it even where no lexical rule names how (R108): Chinese terms are character pairs, so a
#: question naming "桨" or "羊" by one character escapes the rules a person reads through; an English question asks a
#: detail in words of its own ("Will the guard let me over the bridge without a permit?"). Never a question that
#: names a choice (it asks that one) or lists three things or more (0.85 / 0.4 chosen on types 1-13; see
#: docs/providers.md for the figures).
CLEAR_FLOOR = 0.85
CLEAR_GAP = 0.4
#: R108's looser tier: a question the reader is this sure of (by this much) asks the node when it says so in words
#: of its own that the node's answer says too (FocusIndex.asks_in_own_words, provider/own_words.py). 0.6 / 0.25 from
#: a grid of floors 0.5-0.7 and gaps 0.2-0.3, read on the natural suite, agreement on both halves of the types and
#: the red team: the most natural wordings kept with agreement within 0.3 points (docs/providers.md has the figures).
LOOSE_FLOOR = 0.6
LOOSE_GAP = 0.25
CLEAR_LANGUAGES = frozenset({"zh", "en"})
#: (en) Where R108 also never reads a bet on one of the node's options or an offer of another choice's options: a
#: walker of the brief's options would otherwise be answered by score. Chinese names are read as character pairs,
#: too loosely to say which choice a name belongs to, and R108 was measured there without these two guards.
OPTIONS_READ = frozenset({"en"})
#: Rules by which a question names the choice it asks (its kind, its options): a question that names one choice and
#: merely speaks of another's thing ("Which key should I use on the gate?") asks the one it names.
CHOICE_NAMED = frozenset({"R101", "R102", "R103", "R106"})
#: Nodes one multi-info reply may reveal (the released multi-info provider revealed 4 or more in 5% of its turns).
MULTI_INFO_NODES = 3


class Answer(NamedTuple):
    """One turn read once: the nodes revealed by the rule above, (for the record) every candidate the read
    questions focus before the per-turn limits, and the catalogue rule that let each asked node through."""

    revealed: list[str]
    asked: list[str]
    rules: dict[str, str] = {}  # noqa: RUF012 - a NamedTuple field's default (read, never mutated)
    limited: str | None = None  # the catalogue id of the limit that kept an asked node back (L201, L202)


def answer(
    focus: FocusIndex,
    turns: Sequence[Turn],
    candidates: Iterable[str],
    *,
    multi_info: bool,
    frontier: Sequence[str] = (),
) -> list[str]:
    """The candidate nodes the seeker's latest turn asks about, by the rule above (read_turn(...).revealed)."""
    return read_turn(focus, turns, candidates, multi_info=multi_info, frontier=frontier).revealed


def read_turn(
    focus: FocusIndex,
    turns: Sequence[Turn],
    candidates: Iterable[str],
    *,
    multi_info: bool,
    frontier: Sequence[str] = (),
    confidence: Mapping[str, float] | None = None,
    lone: Iterable[str] = (),
    lone_confidence: Mapping[str, float] | None = None,
) -> Answer:
    """The candidate nodes the seeker's latest turn (the last seeker turn of `turns`) asks about, by the rule above,
    in the frontier's order. Jax's earlier replies in `turns` say which choices he has raised and which nodes he has
    given (twin choices, focus.picks_twin). A `frontier` node whose options a read question offers as its
    alternatives is a candidate whatever the matcher or model proposed: such a question can ask nothing else (a real
    choice question is never refused). `confidence`: the reader's score of each frontier node (`_owner`, R108);
    `lone`, `lone_confidence`: the single-info matcher's candidates and scores, for a multi-info turn of one question."""
    last = max((i for i, t in enumerate(turns) if t.speaker == Speaker.seeker), default=-1)
    turn = turns[last].text if last >= 0 else ""
    earlier = [t for t in turns[: max(last, 0)] if t.speaker == Speaker.provider]
    said = tuple(t.text for t in earlier)
    heard = joined(said, focus.language)  # (" ".join, its tokens read from each reply's)
    read = MULTI_INFO_QUESTIONS if multi_info else ANSWERED_QUESTIONS
    answered = focus.unnamed_answers(turns[: max(last, 0)], read)
    questions = focus.questions(turn, heard, read)
    # (L204, L205: questions that only say Jax's words back ask nothing of their own)
    background = focus.task.brief.background
    scrambled = [q for q in questions if strings_his_words(q.text, heard, background, focus.language, said)]
    handled = [q for q in questions if q not in scrambled and focus.handles_his_words(q, heard)]
    questions = [q for q in questions if q not in handled and q not in scrambled]
    proposed = set(candidates)
    if multi_info and len(questions) == 1:
        # a turn of one question is read as in single-info mode: that matcher's candidates and confidences too
        proposed |= set(lone)
        confidence = lone_confidence or confidence
    offered = {  # (a node already proposed needs no offer read; whether there is enough asks nothing else either)
        node_id
        for node_id in frontier
        if node_id not in proposed
        and any(focus.offers_options(q, node_id) or _asks_shortfall_of(focus, q, node_id) for q in questions)
    }
    if len(questions) == 1 and not offered:
        offered = _overruled(focus, questions[0], frontier, proposed, answered)
    order = list(frontier) or list(candidates)
    ordered = [node_id for node_id in order if node_id in proposed | offered]
    if not ordered or not questions:
        return Answer([], [], {}, None if questions else "L205" if scrambled else "L204" if handled else None)
    rules: dict[str, str] = {}
    for node_id in ordered:
        rule = next((r for r in (focus.focus_rule(q, node_id, answered) for q in questions) if r is not None), None)
        if rule is not None:
            rules[node_id] = rule
    clear = _clearly_asked(focus, questions, ordered, proposed, confidence or {}, rules, heard)
    if clear:
        rules.update(dict.fromkeys(clear, "R108"))
        rules = {node_id: rules[node_id] for node_id in ordered if node_id in rules}
    if len(questions) == 1:  # a lone "Which tavern should I ... for the deal?" asks the tavern, not the gem
        rules = {
            node_id: rule
            for node_id, rule in rules.items()
            if rule in CHOICE_NAMED or not focus.governs_another_kind(questions[0], focus.nodes[node_id])
        }
    asked = list(rules)
    if not asked and ordered:
        late = focus.questions(turn, heard)[read:]  # asked past the questions read at all (L201)
        if any(focus.focus_rule(q, node_id, answered) for q in late for node_id in ordered):
            return Answer([], [], {}, "L201")
    if not multi_info:
        # the first node, in the tree's order, that a question focuses (L202: one node a turn); a turn of one
        # question is answered with the node that question asks most clearly (_owner)
        if len(questions) == 1:
            owner = _owner(focus, questions[0], asked, answered, confidence or {}, clear)
            return Answer([owner] if owner else [], asked, rules, "L202" if len(asked) > 1 else None)
        return Answer(asked[:1], asked, rules, "L202" if len(asked) > 1 else None)
    taken: list[str] = []
    for question in questions:
        left = [node_id for node_id in asked if node_id not in taken]
        owner = _owner(focus, question, left, answered.union(taken), confidence or {}, clear)
        if owner is not None:
            taken.append(owner)
        if len(taken) >= MULTI_INFO_NODES:
            break
    return Answer(sorted(taken, key=ordered.index), asked, rules, "L202" if len(taken) < len(asked) else None)


def _overruled(
    focus: FocusIndex, question: Question, frontier: Sequence[str], proposed: set[str], answered: frozenset[str]
) -> set[str]:
    """The one frontier node a lone question asks by the rules when the matcher proposed only nodes it does not ask
    ("Where can I find Henry?", the matcher sure of "Henry needs a starlight gem", the rules of which tavern he is
    in): the matcher's guess is overruled, not the question. Nothing when the rules read it as asking several nodes,
    or none, or when the matcher proposed a node it asks; nor in Chinese, whose rules read character pairs, one of
    which may be a fragment of the thing ("进森林…" shares 森林 with "玄幻森林的地图"): too little to overrule it."""
    if focus.language != "en" or not proposed or any(focus.focus_rule(question, n, answered) for n in proposed):
        return set()
    asked = [n for n in frontier if n not in proposed and focus.focus_rule(question, n, answered) is not None]
    return set(asked) if len(asked) == 1 else set()


def _asks_shortfall_of(focus: FocusIndex, question: Question, node_id: str) -> bool:
    """Does the question ask whether there is enough of what this node's explanation says may fall short? Such a
    question asks nothing else, so, like an offer of a choice's options, it needs no matcher's support."""
    return node_id in focus.short_of and asks_shortfall(question.text, focus.language)


def _owner(
    focus: FocusIndex,
    question: Question,
    nodes: Sequence[str],
    answered: frozenset[str],
    confidence: Mapping[str, float],
    clear: frozenset[str] = frozenset(),
) -> str | None:
    """The node one question asks: the first of `nodes` (tree order) it focuses, unless it names a later one's choice
    (`CHOICE_NAMED`) and only speaks of the first one's thing ("Which key should I use on the gate?" names the gate
    in passing but asks the key) while the reader is not far surer of the first, or the reader is far surer (by
    `PREFER_MARGIN`) of a later one it also focuses.
    Without confidences, tree order alone decides the rest. `clear`: nodes asked by R108."""
    focused = [node_id for node_id in nodes if node_id in clear or focus.focuses(question, node_id, answered)]
    if not focused:
        return None
    named = [node_id for node_id in focused if focus.focus_rule(question, node_id, answered) in CHOICE_NAMED]
    first = focused[0]
    names_later = named and named[0] != first and focus.focus_rule(question, first, answered) not in CHOICE_NAMED
    if names_later and confidence.get(first, 0.0) - confidence.get(named[0], 0.0) < PREFER_MARGIN:
        return named[0]  # (unless the reader is far surer of the first)
    best = max(focused, key=lambda node_id: confidence.get(node_id, 0.0))
    return best if confidence.get(best, 0.0) - confidence.get(focused[0], 0.0) >= PREFER_MARGIN else focused[0]


def _clearly_asked(
    focus: FocusIndex,
    questions: Sequence[Question],
    ordered: Sequence[str],
    proposed: set[str],
    confidence: Mapping[str, float],
    ruled: Mapping[str, str],
    heard: str = "",
) -> frozenset[str]:
    """The proposed nodes a lone real question asks by the reader's confidence alone (R108, `CLEAR_LANGUAGES`). Never
    a question that lists three things or more (the rules read such a list as asking none of them in particular) or
    that names a choice by a rule (`ruled`: node -> rule), nor (`OPTIONS_READ`) a bet or an offer of other options.
    Under the clear floor and gap, only a question in words of its own (LOOSE_FLOOR; `heard`: all Jax has said)."""
    language = focus.language
    if not any(_may_be_clear(node_id, proposed, confidence, ruled) for node_id in ordered):
        return frozenset()  # (no node the reader is sure enough of: the question need not be read)
    real = [q for q in questions if ASKS[language].search(q.text) or not TAG_QUESTION[language].search(q.text)]
    if language not in CLEAR_LANGUAGES or len(real) != 1 or not real[0].classes or not confidence:
        return frozenset()  # (a tag question put before it, "..., right?", asks nothing open: the other is lone)
    question = real[0]
    if focus.lists_things(question) or CHOICE_NAMED & set(ruled.values()) or focus.says_jax_back(question, heard):
        return frozenset()  # a list asks none in particular; a question naming a choice asks that one; his words back
    clear = []
    for node_id in ordered:
        if not _may_be_clear(node_id, proposed, confidence, ruled):
            continue
        value = confidence[node_id]
        rest = max((v for other, v in confidence.items() if other != node_id), default=0.0)
        sure = value >= CLEAR_FLOOR and value - rest >= CLEAR_GAP
        if not sure and not focus.asks_in_own_words(question, node_id, heard):
            continue  # fairly sure only: the question must say it in words of its own
        if focus.language in OPTIONS_READ and (
            focus.bets(question, node_id)
            or focus.offers_others(question, node_id)
            or _asks_another_kind(focus, question, node_id)
        ):
            continue
        clear.append(node_id)
    return frozenset(clear)


def _may_be_clear(node_id: str, proposed: set[str], confidence: Mapping[str, float], ruled: Mapping[str, str]) -> bool:
    """Is the reader sure enough of this proposed node, by LOOSE_FLOOR and LOOSE_GAP over every other, for R108?"""
    value = confidence.get(node_id, 0.0)
    if node_id not in proposed or node_id in ruled or value < LOOSE_FLOOR:
        return False
    return value - max((v for other, v in confidence.items() if other != node_id), default=0.0) >= LOOSE_GAP


def _asks_another_kind(focus: FocusIndex, question: Question, node_id: str) -> bool:
    """Does the question ask a kind of thing (where, who, when, how many) that this node does not answer: a detail of
    another kind, or a choice its class does not ask (focus._choice_asked_by)?"""
    node = focus.nodes.get(node_id)
    specific = question.classes & ASKED_KINDS  # (R108 in English: "Where should I go to <his clause>?" asks no crystal)
    if node is None or not specific:
        return False
    allowed = focus._choice_asked_by(node) if node.is_choice else ASKS_FOR[node.needs]
    return not specific & allowed
