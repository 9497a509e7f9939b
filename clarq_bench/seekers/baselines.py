"""Reference seekers that need no model: no-question (floor), heuristic (an honest rule-based baseline, the offline
default), replay; the oracle (ceiling) is oracle.py.

All wording comes from prompts/seeker/. These see the brief and the dialogue only, like any seeker; only the oracle
is built from the response tree.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..core import prompts
from ..core.errors import ClarqError, DataError
from ..core.tasks import ROOT_ID, node_sort_key
from ..core.transcript import ScriptedReplay, Speaker, Turn
from .base import DialogueView
from .phrasing import (EN_LEAD, PARENTHESES, answered_option, content_terms, lower_first, open_nouns, option_groups,
                       plain, restrictions, task_phrase, with_article)
from .registry import SeekerConfig, SeekerTask



def seeker_turn_count(view: DialogueView) -> int:
    return sum(1 for turn in view.turns if turn.speaker == Speaker.seeker)


def opening(brief_task: SeekerTask) -> str:
    """The ordinary opening request, grammatical: "I am an adventurer and I have to train my subordinates ..." or,
    for a task named by a gerund or a noun ("making a deal", "air monitoring"), "... and my task is ..."."""
    brief, language = brief_task.brief, brief_task.language
    if language != "en":
        return prompts.render("seeker/open", language, role=brief.role, task_name=brief.task_name)
    task, verb = task_phrase(brief.task_name)
    return prompts.render("seeker/open" if verb else "seeker/open_noun", language, role=with_article(brief.role),
                          task_name=task)  # fmt: skip


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
    "zh": re.compile(r"(?:足够|够了|足夠).{0,12}(?:信息|情报|資訊|了解)|(?:信息|情报).{0,6}(?:足够|够了)"
                     r"|已经(?:知道|掌握|了解)了?(?:所有|全部|一切)"),  # fmt: skip
}


def told_enough(text: str) -> bool:
    """Does this provider reply say the seeker already has enough information (either language)?"""
    return any(pattern.search(text.strip()) for pattern in ENOUGH.values())


class _Question:
    """One question of the heuristic: its text, what it is about (content terms), a base priority and, for a choice,
    its options (so a choice a reply already settled is never asked)."""

    __slots__ = ("text", "terms", "bonus", "order", "options")

    def __init__(self, text: str, subject: str, language: str, bonus: float, order: int,
                 options: tuple[str, ...] = ()) -> None:  # fmt: skip
        self.text, self.terms, self.bonus, self.order = text, content_terms(subject, language), bonus, order
        self.options = list(options)


def _subjects(names: list[str], skill: bool, language: str) -> str:
    """How a restriction question names what the note is on: "the West Mine and the North Mine", a skill in
    quotes, "西矿、北矿"."""
    if language != "en":
        return "、".join(names)
    named = [f'"{name}"' if skill else name if EN_LEAD.match(name) else f"the {name}" for name in names]
    last = prompts.load("seeker/options_and", language)
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + last + named[-1]


class HeuristicSeeker:
    """No LLM, an honest baseline: asks about the brief's own uncertainties, never quotes the provider back.

    Its questions are built from the brief alone: which option to take wherever the brief lists real alternatives of
    one kind ("Which one should I choose: West Mine or North Mine?"), how to get past each note that restricts (a
    note that only describes is no question), how and when to use each other skill and item, and what each other
    scene requires. Each is asked at most once, and a choice a reply already settled (it named one of the options)
    is not asked at all. What it was told orders them: first one follow-up on what the root answer left open (a
    thing it mentioned without saying which, when the brief has options or notes about it), then the question whose
    subject shares most words with the latest reply (then with everything said so far), choices and restrictions
    breaking ties. It never repeats the provider's sentences. It says goodbye when the provider says it already has
    enough information (detected from the reply's wording, en and zh), when its questions run out, or after
    `max_questions` questions.
    """

    def __init__(self, task: SeekerTask, config: SeekerConfig | None = None) -> None:
        self.task = task
        self.language = language = task.language
        self.max_questions = config.max_questions if config else 10
        self.followed_up = False
        self.settled: set[str] = set()  # terms of the choices a reply settled
        brief = task.brief
        kinds = ((brief.scenes, False), (brief.items, False), (brief.skills, True))
        questions: list[tuple[str, str, float, tuple[str, ...]]] = []  # (text, subject, bonus, options)
        covered: set[str] = set()
        for kind, _ in kinds:
            for group in option_groups(kind, language):
                covered.update(group)
                options = join_options(group, language)
                questions.append((prompts.render("seeker/choose", language, options=options), " ".join(group), 1.5,
                                  tuple(group)))  # fmt: skip
        for kind, skill in kinds:
            for names, note in restrictions(kind, language):
                covered.update(names)
                text = prompts.render("seeker/restriction", language, subject=_subjects(names, skill, language),
                                      note=note.rstrip("。."))  # fmt: skip
                questions.append((text, f"{' '.join(names)} {note}", 1.0, ()))
        for template, entries in (("seeker/use_skill", brief.skills), ("seeker/use_item", brief.items),
                                  ("seeker/scene", brief.scenes)):  # fmt: skip
            for entry in entries:
                name = plain(entry)
                if name and name not in covered:
                    bare = EN_LEAD.sub("", name) if language == "en" else name  # "An air sucker" -> "air sucker"
                    subject = name if template == "seeker/scene" else lower_first(bare, language)
                    questions.append((prompts.render(template, language, subject=subject), name, 0.0, ()))
        unique = list(dict.fromkeys(questions))
        self.pending = [_Question(text, subject, language, bonus, i, options)
                        for i, (text, subject, bonus, options) in enumerate(unique)]  # fmt: skip
        listed = " ".join(plain(entry) + " " + " ".join(PARENTHESES.findall(entry))
                          for entry in (*brief.items, *brief.skills, *brief.scenes))  # fmt: skip
        self.brief_terms = content_terms(listed, language) - content_terms(brief.task_name, language)

    def _follow_up(self, root: str) -> str | None:
        """One question on what the root answer left open: a thing it mentioned without saying which ("the right
        batteries", "a crystal") that the brief has options or notes about. A choice among those options if the
        brief lists them, else a question about the thing itself."""
        for noun in open_nouns(root, self.language):
            terms = content_terms(noun, self.language)
            if not terms or not terms & self.brief_terms or terms & self.settled:
                continue  # not something the brief has options or notes about, or a choice a reply settled
            choice = next((q for q in self.pending if q.options and terms & q.terms), None)
            if choice is not None:
                self.pending.remove(choice)
                return choice.text
            return prompts.render("seeker/follow_up", self.language, thing=noun)
        return None

    def _next(self, replies: list[str]) -> str | None:
        """The follow-up on the root, once; then the pending question most related to what was said (latest reply
        first), else the first one left. Choices a reply already settled are dropped."""
        settled = [q for q in self.pending if q.options and answered_option(q.options, replies, self.language)]
        self.pending = [q for q in self.pending if q not in settled]
        self.settled |= {term for q in settled for term in q.terms}
        if not self.followed_up and replies:
            self.followed_up = True
            found = self._follow_up(replies[0])
            if found:
                return found
        if not self.pending:
            return None
        latest = content_terms(replies[-1], self.language) if replies else set()
        said = content_terms(" ".join(replies), self.language)
        best = max(self.pending,
                   key=lambda q: (2 * len(q.terms & latest) + len(q.terms & said) + q.bonus, -q.order))  # fmt: skip
        self.pending.remove(best)
        return best.text

    async def respond(self, view: DialogueView) -> str:
        asked = seeker_turn_count(view)
        if asked == 0:
            return opening(self.task)
        replies = [turn.text for turn in view.turns[1:] if turn.speaker == Speaker.provider]
        if asked > self.max_questions or (replies and told_enough(replies[-1])):
            return goodbye(self.language)
        return self._next(replies) or goodbye(self.language)


def recorded_seeker_turns(path: str | Path) -> dict[tuple[str, int], list[str]]:
    """Seeker utterances per (task id, trial) from a run's transcripts.jsonl or a released results file."""
    return {key: turns for key, (turns, _) in recorded_dialogues(path).items()}


def recorded_dialogues(path: str | Path) -> dict[tuple[str, int], tuple[list[str], list[list[str]]]]:
    """Per (task id, trial): the seeker utterances and, per seeker turn that got a reply, the node ids the recorded
    provider newly revealed in that reply (the root as "0"): what a replay is compared against."""
    path = Path(path).expanduser()
    if not path.exists():
        raise ClarqError(f"replay file {path} does not exist", "pass --replay FILE (transcripts.jsonl or results)")
    return _load_recorded(str(path.resolve()), path.stat().st_mtime_ns)


def _new_ids(turns: list[Turn]) -> list[list[str]]:
    """For each seeker turn followed by a provider reply: the ids that reply claims and no earlier reply did."""
    seen: set[str] = set()
    decisions = []
    for i, turn in enumerate(turns):
        if turn.speaker != Speaker.seeker or i + 1 >= len(turns) or turns[i + 1].speaker != Speaker.provider:
            continue
        new = sorted(set(turns[i + 1].revealed) - seen, key=node_sort_key)
        seen.update(new)
        decisions.append(new)
    return decisions


@lru_cache(maxsize=8)
def _load_recorded(path: str, _mtime: int) -> dict[tuple[str, int], tuple[list[str], list[list[str]]]]:
    if path.endswith(".jsonl"):
        from ..core.jsonl import parse_jsonl, read_text

        recorded: dict[tuple[str, int], tuple[list[str], list[list[str]]]] = {}
        read = parse_jsonl(read_text(Path(path)), path)  # an unfinished last line (interrupted run) is left out
        for number, record in read.records:
            try:
                key = (str(record["task_id"]), int(record.get("trial", 0)))
                turns = [Turn.model_validate(t) for t in record["turns"]]
            except (KeyError, TypeError, ValueError, AttributeError):
                raise DataError(path, "not a transcript line", number) from None
            recorded[key] = ([t.text for t in turns if t.speaker == Speaker.seeker], _new_ids(turns))
        return recorded
    from ..data.reference_steps import replay_steps
    from ..data.upstream import load_released_dialogues

    out = {}
    for d in load_released_dialogues(path):
        # The released provider gave the root in reply to the opening request (lines[2]), then the steps' reveals.
        decisions = ([[ROOT_ID]] if len(d.lines) > 2 else []) + [step.reference for step in replay_steps(d)]
        out[(d.task.id, 0)] = (list(d.seeker_lines), decisions)
    return out


class ReplaySeeker:
    """Replays recorded seeker turns (our transcripts.jsonl or a released results file) against a live provider.

    Open loop: the recorded turns do not react to our provider. `scripted_replay` tells the dialogue where our
    provider first decided differently from the recorded one, so reports can keep in-sync and diverged dialogues
    apart (a diverged replay measures neither seeker nor provider)."""

    def __init__(self, task: SeekerTask, config: SeekerConfig) -> None:
        if not config.replay:
            raise ClarqError("the replay seeker needs a file", "pass --replay FILE")
        self.source = str(config.replay)
        recorded = recorded_dialogues(config.replay)
        self.by_trial = {trial: turns for (task_id, trial), (turns, _) in recorded.items() if task_id == task.id}
        self.decisions = {trial: ids for (task_id, trial), (_, ids) in recorded.items() if task_id == task.id}
        if not self.by_trial:
            raise ClarqError(f"{config.replay} has no dialogue for task {task.id}", "replay a file of this language")

    def _trial(self, trial: int) -> int:
        return trial if trial in self.by_trial else min(self.by_trial)

    def scripted_replay(self, turns: list[Turn], trial: int = 0) -> ScriptedReplay:
        """Compare our provider's decision on each replayed seeker turn with the recorded provider's."""
        recorded = self.decisions[self._trial(trial)]
        ours = _new_ids(turns)
        compared = min(len(recorded), len(ours))
        diverged = next((k + 1 for k in range(compared) if ours[k] != recorded[k]), None)
        return ScriptedReplay(source=Path(self.source).name, diverged_at=diverged, compared=compared)

    async def respond(self, view: DialogueView) -> str:
        turns = self.by_trial[self._trial(view.trial)]
        index = seeker_turn_count(view)
        return turns[index] if index < len(turns) else goodbye(view.language)
