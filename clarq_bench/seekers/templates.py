"""The red-team as a search space: a parametric family of no-skill template seekers.

Why: a fixed list of red-team strategies lets a provider be tuned until each one fails, while a seeker that stays
one step beside every rule still walks the tree. Here every template seeker is a point of a small parameter space
(`TemplateParams`): which question template (form), questions per turn, names per question, where the names come
from (every name of the brief, its listed options only, words of Jax's replies, or replies and brief; the list form
names them together, "the A, B and C", the others as alternatives, "the A or the B"), a which/where
suffix, padding with words of its own, generic content-free questions added, and whether it stops when told it has
enough. `clarq provider-audit --search` (fidelity/search.py) sweeps the space.

Rules every member keeps (as the shipped red-team does, seekers/adversarial.py):
- it is built from a SeekerTask and never sees the response tree; its names come from the brief and from the words
  of Jax's replies in the dialogue, nothing else;
- it opens with the ordinary opening request, then plays its template on every later turn up to the turn cap; it
  says goodbye only with `stop` and only after the provider said it has enough (which the offline provider says when
  every node is out, so `stop` changes the question count, never the success);
- it is deterministic given (parameters, task id, trial, turn) and the dialogue so far: wordings come from
  `prompts/seeker/template_<form>.<lang>.md` and are chosen by a hash of those.

A member is named by a spec, `tpl-<form>+q<questions>+n<names>+<source>[+g<generic>][+suffix][+pad][+stop]`,
e.g. `tpl-wh+q6+n1+options+pad+g5`; `clarq run --seeker` and `provider-audit --strategies` take specs and the named members of
MEMBERS (known attacks on a provider, so every search covers them).
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..core import prompts
from ..core.errors import ClarqError
from ..core.transcript import Speaker
from .adversarial import brief_terms, listed_options
from .base import DialogueView
from .baselines import PARENTHESES, goodbye, join_options, opening, seeker_turn_count, told_enough
from .redteam_base import choose, fill, prompt_lines, scrub_goodbye
from .redteam_base import wordings as redteam_wordings
from .registry import TEMPLATE_PREFIX, SeekerConfig, SeekerTask

Form = Literal["wh", "exactly", "sentence", "one-each", "choice", "list"]
Source = Literal["brief", "options", "replies", "both"]
#: The families of the search: one per question form, each in its own wording file.
FAMILIES: tuple[str, ...] = ("wh", "exactly", "sentence", "one-each", "choice", "list")
_SPEC_TOKEN = re.compile(
    r"^(?:q(?P<q>\d+)|n(?P<n>\d+)|g(?P<g>\d+)|(?P<source>brief|options|replies|both)|(?P<flag>suffix|pad|stop))$"
)


class TemplateParams(BaseModel):
    """One point of the template space. Bounds are the search's: 1-8 questions a turn, 1-4 names a question, 0-5
    generic questions."""

    model_config = ConfigDict(frozen=True)

    form: Form
    questions: int = Field(default=1, ge=1, le=8)
    names: int = Field(default=1, ge=1, le=4)
    source: Source = "brief"
    suffix: bool = False
    pad: bool = Field(default=False, description="Pad each question with words of its own (template_pad).")
    generic: int = Field(default=0, ge=0, le=5)
    stop: bool = False

    @property
    def family(self) -> str:
        """The point's family: its form, except that a point whose every question offers two names of the brief's
        lists as alternatives ("Do I need the X or the Y?", "Which X or Y exactly?": two names or more from the brief,
        or one-each's options) walks the option lists as choice questions, whatever its wording, and so belongs to
        the choice family: the rule answers such a question when its names are options of one kind, and the search
        judges that family by what its success costs (its efficiency against the heuristic's), not by the 15% bar."""
        offers = self.form != "list"  # (the list form names its things together: "the A, B and C")
        walks = self.names >= 2 and offers and (self.form == "one-each" or self.source in ("brief", "options"))
        return "choice" if walks else self.form

    @property
    def spec(self) -> str:
        """The seeker name of this point (round-trips through parse_spec)."""
        parts = [f"{TEMPLATE_PREFIX}{self.form}", f"q{self.questions}", f"n{self.names}", self.source]
        parts += [f"g{self.generic}"] if self.generic else []
        parts += ["suffix"] if self.suffix else []
        parts += ["pad"] if self.pad else []
        parts += ["stop"] if self.stop else []
        return "+".join(parts)


def parse_spec(name: str) -> TemplateParams:
    """`tpl-wh+q6+n1+brief+g5` -> its parameters; a named member -> its parameters. Bad specs are one ClarqError."""
    if name in MEMBERS:
        return MEMBERS[name]
    head, *tokens = name.split("+")
    form = head[len(TEMPLATE_PREFIX) :] if head.startswith(TEMPLATE_PREFIX) else ""
    hint = (
        "write tpl-<form>+q<1-8>+n<1-4>+<brief|options|replies|both>[+g<0-5>][+suffix][+pad][+stop], forms: "
        + ", ".join(FAMILIES)
    )
    if form not in FAMILIES:
        raise ClarqError(f"bad template seeker {name!r}: unknown form {form!r}", hint)
    values: dict[str, object] = {"form": form}
    for token in tokens:
        match = _SPEC_TOKEN.match(token)
        if not match:
            raise ClarqError(f"bad template seeker {name!r}: unknown part {token!r}", hint)
        found = {key: value for key, value in match.groupdict().items() if value is not None}
        key, value = next(iter(found.items()))
        if key == "flag":
            values[value] = True
        else:
            values[{"q": "questions", "n": "names", "g": "generic", "source": "source"}[key]] = (
                value if key == "source" else int(value)
            )
    try:
        return TemplateParams(**values)
    except ValidationError as exc:
        error = exc.errors()[0]
        raise ClarqError(f"bad template seeker {name!r}: {error['loc'][0]} {error['msg'].lower()}", hint) from None


def template_wordings(name: str, language: str) -> list[str]:
    return prompt_lines(f"seeker/template_{name}", language)


def stopwords(language: str) -> set[str]:
    return set(prompts.load("seeker/template_stopwords", language).split())


_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")
_ZH_PIECES = re.compile(r"[\u4e00-\u9fff]+")


def reply_words(replies: list[str], language: str) -> list[str]:
    """Candidate names from Jax's replies, latest reply first, each once: words of four or more letters that are not
    function words (en); runs of two to four Chinese characters between function words (zh, longer runs cut in
    pairs). What a keyword script can take without understanding a word of it."""
    stop = stopwords(language)
    found: list[str] = []
    for reply in reversed(replies):
        if language == "en":
            found += [w.strip("'-") for w in _EN_WORD.findall(reply) if w.lower().strip("'-") not in stop]
            continue
        text = reply
        for word in sorted(stop, key=len, reverse=True):
            text = text.replace(word, "|")
        for run in (piece for chunk in text.split("|") for piece in _ZH_PIECES.findall(chunk)):
            if 2 <= len(run) <= 4:
                found.append(run)
            elif len(run) > 4:
                found += [run[i : i + 2] for i in range(0, len(run) - 1, 2)]
    seen: set[str] = set()
    unique = []
    for word in found:
        if word.lower() not in seen:
            seen.add(word.lower())
            unique.append(word)
    return unique


def kind_groups(task: SeekerTask) -> list[tuple[str, ...]]:
    """The option lists of the brief, one per kind (items, skills, scenes), names without notes, only lists of two
    or more."""
    brief = task.brief
    lists = []
    for entries in (brief.items, brief.skills, brief.scenes):
        names = list(dict.fromkeys(PARENTHESES.sub(" ", e).strip() for e in entries if PARENTHESES.sub(" ", e).strip()))
        if len(names) > 1:
            lists.append(tuple(names))
    return lists


def option_combinations(task: SeekerTask, size: int) -> list[tuple[str, ...]]:
    """Every `size` options of one kind, neighbours first (a list's neighbours are most often alternatives)."""
    found: list[tuple[str, ...]] = []
    for names in kind_groups(task):
        k = min(size, len(names))
        combos = list(combinations(names, k))
        combos.sort(key=lambda combo: max(names.index(c) for c in combo) - min(names.index(c) for c in combo))
        found += combos
    return found


class TemplateSeeker:
    """Template family member given by its spec (`tpl-<form>+q..+n..+<source>...`): a no-skill seeker of the
    search space; see `clarq provider-audit --search`."""

    #: Fixed parameters of a named member; None: read them from the seeker name (a spec).
    PARAMS: ClassVar[TemplateParams | None] = None

    def __init__(self, task: SeekerTask, config: SeekerConfig | None = None) -> None:
        if not isinstance(task, SeekerTask):  # the family must never be handed the tree
            raise TypeError(f"{type(self).__name__} takes a SeekerTask, not {type(task).__name__}")
        params = self.PARAMS
        if params is None:
            if config is None:
                raise ClarqError("a template seeker needs its spec as the seeker name", "e.g. tpl-wh+q6+n1+brief")
            params = parse_spec(config.name)
        self.params, self.task, self.language = params, task, task.language

    async def respond(self, view: DialogueView) -> str:
        turn = seeker_turn_count(view)
        if turn == 0:
            return opening(self.task)
        if self.params.stop and told_enough(view.last_provider_text):
            return goodbye(self.language)
        return scrub_goodbye(self.turn_text(view, turn)).strip() or "?"

    # -- one turn --------------------------------------------------------------------------------------------

    def turn_text(self, view: DialogueView, turn: int) -> str:
        p = self.params
        questions = [self._question(view, turn, i) for i in range(p.questions)]
        if p.generic:
            lines = template_wordings("generic", self.language)
            start = zlib_index(len(lines), p.spec, self.task.id, view.trial, turn, "generic")
            questions += [lines[(start + k) % len(lines)] for k in range(min(p.generic, len(lines)))]
        return (" " if self.language == "en" else "").join(q for q in questions if q)

    def _question(self, view: DialogueView, turn: int, index: int) -> str:
        p = self.params
        key = (p.spec, self.task.id, view.trial, turn, index)
        if p.form == "choice":
            combos = option_combinations(self.task, max(2, p.names))
            if not combos:
                return ""
            names = list(combos[((turn - 1) * p.questions + index) % len(combos)])
        else:
            names = self._names(view, turn, index)
            if not names:
                return ""
        x = join_all(names, self.language) if p.form == "list" else join_options(names, self.language)
        if p.form == "one-each":
            text = fill(choose(redteam_wordings("one_each", self.language), *key), option=x)
        else:
            text = fill(choose(template_wordings(p.form, self.language), *key), x=x)
        if p.suffix:
            text = text.rstrip("?？ ") + choose(template_wordings("suffix", self.language), *key, "suffix")
        if p.pad:
            mark = text[-1] if text[-1] in "?？" else ""
            text = text.rstrip("?？ ") + choose(template_wordings("pad", self.language), *key, "pad") + mark
        return text

    def _names(self, view: DialogueView, turn: int, index: int) -> list[str]:
        """The names of question `index` of this turn: brief names rotate through the turns; reply words are taken
        newest first, skipping the ones this seeker already asked about."""
        p = self.params
        options = p.form == "one-each" or p.source == "options"
        brief = listed_options(self.task) if options else brief_terms(self.task)
        start = ((turn - 1) * p.questions + index) * p.names
        if p.source in ("brief", "options") or p.form == "one-each":
            return _window(brief, start, p.names)
        replies = [t.text for t in view.turns[1:] if t.speaker == Speaker.provider]
        asked = " ".join(t.text for t in view.turns if t.speaker == Speaker.seeker).lower()
        words = reply_words(replies, self.language)
        fresh = [w for w in words if w.lower() not in asked]
        pool = fresh or words
        if p.source == "both":
            pool = [w for pair in zip(pool, brief) for w in pair] + pool[len(brief) :] + brief[len(pool) :]
        if not pool:
            return _window(brief, start, p.names)
        offset = 0 if fresh else start
        return _window(pool, offset + index * p.names, p.names)


def join_all(names: list[str], language: str) -> str:
    """`A, B and C` / `A、B和C`: the list form names its things together, as a set, offering no alternatives."""
    if len(names) == 1:
        return names[0]
    comma = ", " if language == "en" else "、"
    return comma.join(names[:-1]) + prompts.load("seeker/options_and", language) + names[-1]


def _window(values: list[str], start: int, size: int) -> list[str]:
    if not values:
        return []
    return list(dict.fromkeys(values[(start + k) % len(values)] for k in range(min(size, len(values)))))


def zlib_index(size: int, *key: object) -> int:
    return choose(list(range(size)), *key)


#: Named members: known attacks on a provider, so the search always covers them.
MEMBERS: dict[str, TemplateParams] = {
    # six "Which step needs the X, and where exactly?" questions a turn, rotating through the brief's names, each
    # padded with words of its own (unpadded, the current screen's short-question rule stops it in English)
    "tpl-wh-six": TemplateParams(form="wh", questions=6, names=1, source="options", pad=True),
    # the same plus five generic questions ("When does it happen? Who do I talk to?")
    "tpl-wh-six-generic": TemplateParams(form="wh", questions=6, names=1, source="options", pad=True, generic=5),
    # one sentence a turn naming four names of the brief, padded with its own words
    "tpl-sentence-four": TemplateParams(form="sentence", questions=1, names=4, source="brief"),
    # enum-one-each's wordings plus ", and at which step?"
    "tpl-one-each-step": TemplateParams(form="one-each", questions=1, names=1, source="brief", suffix=True),
    # "Which train exactly? Which subordinates exactly? ..." over words of Jax's replies
    "tpl-reply-exactly": TemplateParams(form="exactly", questions=6, names=1, source="replies"),
    # option pairs of one kind as choice questions ("the X or the Y?"): the one family the reference answers too
    "tpl-choice-pairs": TemplateParams(form="choice", questions=1, names=2, source="brief"),
    # "Where do I find the A, B, C and D, and how do I use them?" over Jax's words
    "tpl-list-four": TemplateParams(form="list", questions=1, names=4, source="replies"),
}


#: What each named member does, in the words `clarq seekers --all` shows.
MEMBER_WORDS = {
    "tpl-wh-six": 'six padded "Which step needs the X, and where exactly?" questions a turn over the brief\'s options',
    "tpl-wh-six-generic": "tpl-wh-six with five content-free questions added to every turn",
    "tpl-sentence-four": "one padded sentence a turn naming four names of the brief",
    "tpl-one-each-step": 'one listed option a turn: "How do I use the X, and at which step?"',
    "tpl-reply-exactly": '"Which X exactly?" six times a turn over words of the provider\'s replies',
    "tpl-choice-pairs": 'two options of the brief offered as a choice each turn ("the X or the Y?")',
    "tpl-list-four": '"Where do I find the A, B, C and D, and how do I use them?" over words of the replies',
}


def _member(name: str, params: TemplateParams) -> type[TemplateSeeker]:
    doc = (
        f"Template attacker: {MEMBER_WORDS[name]}. Asks with no skill and never reads the tree; tests whether a "
        f"provider can be gamed (the spec {params.spec})."
    )
    cls_name = "".join(part.title() for part in name.split("-")) + "Seeker"
    return type(cls_name, (TemplateSeeker,), {"PARAMS": params, "__doc__": doc, "__module__": __name__})


#: Registered name -> class of the named members (seekers/registry.py registers them lazily by class name).
MEMBER_CLASSES: dict[str, type[TemplateSeeker]] = {name: _member(name, p) for name, p in MEMBERS.items()}
TplWhSixSeeker = MEMBER_CLASSES["tpl-wh-six"]
TplWhSixGenericSeeker = MEMBER_CLASSES["tpl-wh-six-generic"]
TplSentenceFourSeeker = MEMBER_CLASSES["tpl-sentence-four"]
TplOneEachStepSeeker = MEMBER_CLASSES["tpl-one-each-step"]
TplReplyExactlySeeker = MEMBER_CLASSES["tpl-reply-exactly"]
TplChoicePairsSeeker = MEMBER_CLASSES["tpl-choice-pairs"]
TplListFourSeeker = MEMBER_CLASSES["tpl-list-four"]
