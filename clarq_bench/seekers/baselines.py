"""Reference seekers that need no model: no-question (floor), heuristic (an honest rule-based baseline, the offline
default); the replay seeker is replay.py, the oracle (ceiling) oracle.py.

All wording comes from prompts/seeker/. These see the brief and the dialogue only, like any seeker; only the oracle
is built from the response tree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..core import prompts
from ..core.transcript import Speaker
from .base import DialogueView
from .phrasing import (
    EN_LEAD,
    PARENTHESES,
    answered_option,
    content_terms,
    group_kind,
    kind_pattern,
    lower_first,
    open_things,
    option_groups,
    plain,
    restrictions,
    said_once,
    short_options,
    skill_kind,
    task_phrase,
    with_article,
)
from .registry import SeekerConfig, SeekerTask
from .reply_details import ENTRY, open_time, persons, placed, steps, whose_places
from .siblings import a_thing, coordinated


def seeker_turn_count(view: DialogueView) -> int:
    return sum(1 for turn in view.turns if turn.speaker == Speaker.seeker)


def opening(brief_task: SeekerTask) -> str:
    """The ordinary opening request, grammatical: "I am an adventurer and I have to train my subordinates ..." or,
    for a task named by a gerund or a noun ("making a deal", "air monitoring"), "... and my task is ..."."""
    brief, language = brief_task.brief, brief_task.language
    if language != "en":
        return prompts.render("seeker/open", language, role=brief.role, task_name=brief.task_name)
    task, verb = task_phrase(brief.task_name)
    return prompts.render(
        "seeker/open" if verb else "seeker/open_noun", language, role=with_article(brief.role), task_name=task
    )


def goodbye(language: str) -> str:
    return prompts.render("seeker/goodbye", language)


def join_options(options: list[str], language: str) -> str:
    """`A, B or C` / `A、B还是C`."""
    last = prompts.load("seeker/options_last", language)
    comma = ", " if language == "en" else "、"
    return options[0] if len(options) == 1 else comma.join(options[:-1]) + last + options[-1]


class NoQuestionSeeker:
    """States the goal, then says goodbye: the floor every seeker should beat."""

    def __init__(self, task: SeekerTask, config: SeekerConfig | None = None) -> None:
        self.task = task

    async def respond(self, view: DialogueView) -> str:
        return opening(self.task) if seeker_turn_count(view) == 0 else goodbye(view.language)


#: The provider's "you already have enough information" reply, in any wording: "enough information / info / details",
#: "(you) have / know everything you need", "that's all you need", or a bare "you have (already) (got) enough." (en); 足够/够 with
#: 信息/情报/了解, or 已经知道/掌握了全部/所有 (zh). Read from the reply's words only, never from provider internals.
ENOUGH = {
    "en": re.compile(
        r"\benough\s+(?:information|info|details)\b"
        r"|\b(?:have|got|know|that's|that\s+is)\s+(?:all|everything)\s+(?:(?:the\s+)?information\s+)?(?:that\s+)?you\s+need"
        r"|^\W*you(?:'ve|\s+have)?\s+(?:already\s+)?(?:got\s+|collected\s+|gathered\s+)?enough\W*$",
        re.IGNORECASE,
    ),
    "zh": re.compile(
        r"(?:足够|够了|足夠).{0,12}(?:信息|情报|資訊|了解)|(?:信息|情报).{0,6}(?:足够|够了)"
        r"|已经(?:知道|掌握|了解)了?(?:所有|全部|一切)"
    ),
}


def told_enough(text: str) -> bool:
    """Does this provider reply say the seeker already has enough information (either language)?"""
    return any(pattern.search(text.strip()) for pattern in ENOUGH.values())


class _Question:
    """One question of the heuristic: its text, what it is about (content terms), a base priority and, for a choice,
    its options and the kind they share (so a choice a reply already settled is never asked, and one Jax raises
    later is asked in his words). `asked`: how often, `at`: how many replies there were when it was last asked."""

    __slots__ = tuple("text terms bonus order options kind mention asked at stock person named read".split())

    def __init__(
        self,
        text: str,
        subject: str,
        language: str,
        bonus: float,
        order: int,
        options: tuple[str, ...] = (),
        kind: str | None = None,
        mention: str = "",
    ) -> None:
        self.text, self.terms, self.bonus, self.order = text, content_terms(subject, language), bonus, order
        self.options, self.kind, self.asked, self.at, self.stock = list(options), kind, 0, 0, True
        self.person = ""  # a person a reply sent the seeker to: not asked once a reply says where they are
        self.mention = kind_pattern(mention, language) if mention else None  # a reply speaking of it raises it
        self.named: str | None = None  # the option the first `read` replies named (answered_option), if any
        self.read = 0


def _choice(template: str, kind: str, options: Sequence[str], language: str, names: Sequence[str]) -> str:
    """A choice of a kind: with the kind named, its options are said in short ("Which mine: West or North?"; the
    brief's `names` tell a short part that stands for no one name)."""
    options = said_once(short_options(list(options), kind, language), language, names)
    return prompts.render(template, language, kind=kind, options=join_options(options, language))


def _subjects(names: list[str], skill: bool, language: str, every: Sequence[str] = ()) -> str:
    """How a restriction question names what the note is on: "the West Mine and the North Mine", a skill in
    quotes, "西矿、北矿" ("使用A、B追踪目标": what they share said once; `every`: the brief's names)."""
    if language != "en":
        return "、".join(said_once(names, language, every))
    named = [f'"{name}"' if skill else name if EN_LEAD.match(name) else f"the {name}" for name in names]
    last = prompts.load("seeker/options_and", language)
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + last + named[-1]


def _plural(kind: str) -> str:
    if kind.endswith(("s", "x", "ch", "sh")):
        return kind + "es"
    return kind[:-1] + "ies" if kind.endswith("y") and kind[-2:-1] not in "aeiou" else kind + "s"


class HeuristicSeeker:
    """No LLM, an honest baseline that listens like a person: it never reads the tree, only the brief and Jax's
    replies, and never quotes the provider back.

    Its stock of questions comes from the brief: which option to take wherever the brief lists real alternatives of
    one kind ("Which one should I choose: West Mine or North Mine?"), how to get past each note that restricts (how to
    get in, where the note keeps you out), how and when to use each other skill and item, and what each other scene
    requires. What Jax says leads: after each reply it first asks about what that reply left open, in the order the
    reply mentions them: a kind of which the brief lists several ("find Henry at the tavern" -> "Which tavern do you
    mean: Mystic Tavern, Forest Tavern or Riverside Tavern?"), a thing named without saying which ("a crystal", "the
    gem he needs" -> "Which gem do you mean?"), a restricted place or thing, a person it sends you to without saying
    where ("Where do I find George?"), a time it leaves open. Things of earlier replies still open come next, then
    the stock question sharing most words with what was said. One question a turn; each question once, except a
    choice asked before Jax spoke of its kind and not answered, which is asked again once when he does (not one asked
    in his words whose reply spoke of that kind again: Jax answered about it, for something else); a choice a reply
    settled (it named one of the options) is never asked, but when it settled it for one of the things Jax said
    together ("the garlic and onion"), it asks which one for each of the others next ("And which supermarket for the
    onion?"). It says goodbye when the provider says it already has
    enough information (detected from the reply's wording, en and zh), when its questions run out, or after
    `max_questions` questions.
    """

    def __init__(self, task: SeekerTask, config: SeekerConfig | None = None) -> None:
        self.task = task
        self.language = language = task.language
        self.max_questions = config.max_questions if config else 10
        self.settled: set[str] = set()  # terms of the choices a reply settled
        self.seen = 0  # replies read so far
        self.agenda: list[_Question] = []  # what Jax's replies left open, next first
        brief = task.brief
        kinds = ((brief.scenes, False), (brief.items, False), (brief.skills, True))
        order = iter(range(10**6))
        self.pending: list[_Question] = []
        covered: set[str] = set()
        group_of: dict[str, str | None] = {}  # name -> its group's kind (nouns only: a skill's last word is no kind)
        self.names = names = [plain(entry) for entry in (*brief.items, *brief.skills, *brief.scenes)]
        self.skill_verbs = frozenset(plain(entry).split()[0].lower() for entry in brief.skills if plain(entry).split())
        for entries, skill in kinds:
            for group in option_groups(entries, language):
                covered.update(group)
                kind = skill_kind(group, language) if skill else group_kind(group, language)
                group_of.update(dict.fromkeys(group, kind))
                self._add(
                    _choice("seeker/choose_of_kind", kind, group, language, names)
                    if kind
                    else prompts.render(
                        "seeker/choose", language, options=join_options(said_once(group, language, names), language)
                    ),
                    " ".join(group),
                    1.5,
                    next(order),
                    tuple(group),
                    kind,
                    kind or group_kind(group, language) or "",  # (a skill's ending still says when Jax speaks of it)
                )
        for entries, skill in kinds:
            for names, note in restrictions(entries, language):
                covered.update(names)
                kinds_of = {group_of.get(name) for name in names}
                kind = kinds_of.pop() if len(names) > 1 and len(kinds_of) == 1 else None
                subject = (
                    (f"the {_plural(kind)}" if language == "en" else kind)
                    if kind
                    else _subjects(names, skill, language, self.names)
                )
                template = "seeker/enter" if ENTRY[language].search(note) and not skill else "seeker/restriction"
                text = prompts.render(template, language, subject=subject, note=note.rstrip("。."))
                mention = kind or ""
                self._add(text, f"{' '.join(names)} {note}", 1.0, next(order), mention=mention)
        for template, entries in (
            ("seeker/use_skill", brief.skills),
            ("seeker/use_item", brief.items),
            ("seeker/scene", brief.scenes),
        ):
            for entry in entries:
                name = plain(entry)
                if name and name not in covered:
                    bare = EN_LEAD.sub("", name) if language == "en" else name  # "An air sucker" -> "air sucker"
                    subject = name if template == "seeker/scene" else lower_first(bare, language)
                    if template == "seeker/use_skill" and language == "en" and not task_phrase(name)[1]:
                        template = "seeker/use_skill_noun"  # "lock picking", "boat construction": no verb
                    self._add(prompts.render(template, language, subject=subject), name, 0.0, next(order))
        listed = " ".join(
            plain(entry) + " " + " ".join(PARENTHESES.findall(entry))
            for entry in (*brief.items, *brief.skills, *brief.scenes)
        )
        self.listed = listed
        self.brief_terms = content_terms(listed, language) - content_terms(brief.task_name, language)
        self.asked_texts: set[str] = set()
        self.people: list[_Question] = []  # the people replies sent the seeker to
        self.task_terms = content_terms(brief.task_name, language)
        self.steps_read = False  # the instructions of Jax's first reply were read (how_step questions)
        self.rest_asked: set[int] = set()  # the settled choices whose things said with theirs were queued (_rest_of)

    def _add(
        self,
        text: str,
        subject: str,
        bonus: float,
        order: int,
        options: tuple[str, ...] = (),
        kind: str | None = None,
        mention: str = "",
        stock: bool = True,
    ) -> None:
        if all(q.text != text for q in self.pending):
            question = _Question(text, subject, self.language, bonus, order, options, kind, mention)
            question.stock = stock
            self.pending.append(question)

    # --- what a reply leaves open ---------------------------------------------------------------------------
    def _raised(self, reply: str) -> list[tuple[int, _Question]]:
        """The questions a reply raises, with where it raises them: stock questions about a kind it speaks of, and
        new follow-ups on what it names without saying which, people it sends you to, a time it leaves open."""
        language = self.language
        found: list[tuple[int, _Question]] = []
        for question in self.pending:
            match = question.mention.search(reply) if question.mention else None
            if match:
                found.append((match.start(), question))
        for position, noun, how in open_things(reply, language):
            terms = content_terms(noun, language) or {noun.lower()}  # ("gem": shorter than a content word)
            if not terms or terms & self.settled or terms & self.task_terms:
                continue
            choice = next((q for q in self.pending if q.options and terms & q.terms), None)
            if choice is not None:
                found.append((position, choice))
            elif how == "which" or (terms & self.brief_terms and how != "where"):
                found.append(
                    (
                        position,
                        _Question(prompts.render("seeker/follow_up", language, thing=noun), noun, language, 0.0, -1),
                    )
                )
            elif how == "where":  # "you will need a map": how does one get it?
                found.append(
                    (
                        position,
                        _Question(prompts.render("seeker/get_thing", language, thing=noun), noun, language, 0.0, -1),
                    )
                )
        for position, name in persons(reply, language, self.listed):
            known = next((q for q in self.people if q.person == name), None)
            if known is None:
                known = _Question(
                    prompts.render("seeker/find_person", language, person=name), name, language, 0.0, -1, mention=name
                )
                known.person = name
                self.people.append(known)
            found.append((position, known))
        for position, place in whose_places(reply, language):
            found.append(
                (
                    position,
                    _Question(prompts.render("seeker/where_place", language, place=place), place, language, 0.0, -1),
                )
            )
        when = open_time(reply, language)
        if when is not None:
            found.append((when, _Question(prompts.render("seeker/ask_time", language), "", language, 0.0, -1)))
        found.sort(key=lambda pair: pair[0])
        # then each instruction of the reply, asked how to carry it out ("How exactly should I refill the lamp?"),
        # after what the reply left open by name: a person unsure of a step asks how to do it
        if not self.steps_read:  # Jax's first instructions (the root): later replies answer questions
            given = steps(reply, language)
            self.steps_read = bool(given)
            end = len(reply)
            found += [
                (
                    end + position,
                    _Question(prompts.render("seeker/how_step", language, step=step), step, language, 0.0, -1),
                )
                for position, step in given
            ]
        return found

    def _askable(self, question: _Question, replies: list[str]) -> bool:
        if question.text in self.asked_texts and not (question.options or question.person):
            return False
        if question.options and self._answered(question, replies):
            return False
        if question.person and any(placed(reply, question.person, self.language) for reply in replies):
            return False
        if question.asked == 0:
            return True
        # a choice no reply answered (or a person not placed): once more, in new words, when a reply after it raises
        # its kind; not a choice already asked in Jax's words whose own reply spoke of that kind again without a word
        # of any option (he answered about that kind for something else: the same choice asked again without saying
        # what for asks the same again). A reply that narrows the options ("use an Electromagnetic Ball") is a step
        # towards the answer, and the choice is asked again.
        mention = question.mention
        if question.asked != 1 or mention is None or len(replies) <= question.at:
            return False
        if question.options and self._passed_over(question, replies):
            return False
        return any(mention.search(r) for r in replies[question.at :])

    def _passed_over(self, question: _Question, replies: list[str]) -> bool:
        """Was the choice asked in Jax's words, and did his reply to it speak of its kind with no word that sets one
        option apart from the others?"""
        mention, reply = question.mention, replies[question.at]
        if mention is None or not any(mention.search(r) for r in replies[: question.at]) or not mention.search(reply):
            return False
        terms = [content_terms(option, self.language) for option in question.options]
        shared = set.intersection(*terms) if terms else set()
        return not (set().union(*terms) - shared) & content_terms(reply, self.language)

    def _worded(self, question: _Question, replies: list[str]) -> str:
        """A choice Jax has raised is asked in his words ("Which tavern do you mean: ...?")."""
        if question.person and question.asked:
            return prompts.render("seeker/find_person_again", self.language, person=question.person)
        if question.kind and question.mention and any(question.mention.search(reply) for reply in replies):
            template = "seeker/choose_again" if question.asked else "seeker/choose_kind"  # (asked again in new words)
            return _choice(template, question.kind, question.options, self.language, self.names)
        return question.text

    def _next(self, replies: list[str]) -> str | None:
        """What the newest replies left open first (the latest reply's things in its order, then older ones), then
        the stock question most related to what was said."""
        settled = [q for q in self.pending if q.options and self._answered(q, replies)]
        self.settled |= {term for q in settled for term in q.terms}
        fresh: list[_Question] = self._rest_of(settled, replies)
        for reply in replies[self.seen :]:
            fresh = [q for _, q in self._raised(reply)] + fresh
        self.seen = len(replies)
        for question in fresh:
            if question in self.agenda:
                self.agenda.remove(question)
        self.agenda = list(dict.fromkeys(fresh)) + self.agenda
        while self.agenda:
            question = self.agenda.pop(0)
            if self._askable(question, replies):
                return self._ask(question, replies)
        left = [q for q in self.pending if q.stock and self._askable(q, replies) and q.asked == 0]
        if not left:
            return None
        latest = content_terms(replies[-1], self.language) if replies else set()
        said = self._said(replies)
        best = max(left, key=lambda q: (2 * len(q.terms & latest) + len(q.terms & said) + q.bonus, -q.order))
        return self._ask(best, replies)

    def _rest_of(self, settled: list[_Question], replies: list[str]) -> list[_Question]:
        """A choice of a kind settled for one thing may be open for the things said with it ("Garlic is only at
        ABC", and Jax had said "the garlic and onion"): ask which one for each of those, once."""
        rest: list[_Question] = []
        for choice in settled:
            if not choice.kind or id(choice) in self.rest_asked:
                continue
            self.rest_asked.add(id(choice))
            at = next((i for i, r in enumerate(replies) if answered_option(choice.options, [r], self.language)), None)
            if at is None:  # (settled by words spread over two replies: no one answer to read the thing from)
                continue
            earlier = " ".join(replies[:at])
            answer = content_terms(replies[at], self.language)
            said = answer & content_terms(earlier, self.language)
            things = [
                t
                for term in sorted(said - choice.terms - self.task_terms)
                for t in coordinated(earlier, term, self.language)
            ]
            things = [t for t in things if a_thing(t, self.skill_verbs, self.language)]  # (no step of the brief's)
            for thing in dict.fromkeys(t for t in things if not content_terms(t, self.language) & answer):
                text = prompts.render("seeker/choose_for", self.language, kind=choice.kind, thing=thing)
                rest.append(_Question(text, thing, self.language, 0.0, -1))
        return rest

    def _answered(self, question: _Question, replies: list[str]) -> str | None:
        """answered_option(question.options, replies), reading each reply once per question: the replies of a
        dialogue only grow (as `seen` assumes), and the first reply that names an option stays the first."""
        if len(replies) < question.read:  # not this dialogue's replies: read them all
            question.named, question.read = None, 0
        if question.named is None and question.read < len(replies):
            question.named = answered_option(question.options, replies[question.read :], self.language)
            question.read = len(replies)
        return question.named

    def _said(self, replies: list[str]) -> set[str]:
        """content_terms of every reply joined by spaces. In English a term never spans two replies, so it is the
        union of each reply's (memoised) terms; a Chinese pair of characters can, so that text is read whole."""
        if self.language != "en":
            return content_terms(" ".join(replies), self.language)
        return set().union(*(content_terms(reply, self.language) for reply in replies))

    def _ask(self, question: _Question, replies: list[str]) -> str:
        text = self._worded(question, replies)
        question.asked += 1
        question.at = len(replies)
        self.asked_texts.add(question.text)
        return text

    async def respond(self, view: DialogueView) -> str:
        asked = seeker_turn_count(view)
        if asked == 0:
            return opening(self.task)
        replies = [turn.text for turn in view.turns[1:] if turn.speaker == Speaker.provider]
        if asked > self.max_questions or (replies and told_enough(replies[-1])):
            return goodbye(self.language)
        return self._next(replies) or goodbye(self.language)
