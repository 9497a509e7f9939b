"""Reference seekers that need no model: no-question (floor), oracle (ceiling), heuristic (offline default), replay.

All wording comes from prompts/seeker/. Only the oracle is built from the response tree (`needs_tree = True`); the
others see the brief and the dialogue, like any seeker.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from .. import prompts
from ..errors import ClarqError, DataError
from ..tasks import Task
from ..transcript import Speaker
from .base import DialogueView
from .registry import SeekerConfig, SeekerTask

PARENTHESES = re.compile(r"\s*[(（]([^()（）]*)[)）]\s*")
EN_LEAD = re.compile(r"^(an?|the)\s+", re.IGNORECASE)
SENTENCE_END = re.compile(r"(?<=[.!?。！？；;])\s*")


def seeker_turn_count(view: DialogueView) -> int:
    return sum(1 for turn in view.turns if turn.speaker == Speaker.seeker)


def opening(brief_task: SeekerTask) -> str:
    brief = brief_task.brief
    return prompts.render("seeker/open", brief_task.language, role=brief.role, task_name=brief.task_name)


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


def oracle_path(task: Task) -> list[str]:
    """Required ids in the order a perfect seeker obtains them: always the first frontier node (numeric order)."""
    frontier, path = task.tree.initial_frontier(), []
    while frontier:
        path.append(frontier[0])
        frontier = task.tree.reveal(frontier, frontier[0])
    return path


NOTICED = {
    "en": re.compile(r"(?:has|have) noticed (?:that )?(.+?)\s*\.?\s*$", re.IGNORECASE),
    "zh": re.compile(r"注意到(.+?)(?:才|时)"),
}


def oracle_question(task: Task, node_id: str, source: str = "explanation") -> str:
    """One question for one node: the concern its explanation names, else (or with source="text") its text."""
    node = task.tree[node_id]
    if source == "explanation" and node.explanation:
        match = NOTICED[task.language].search(node.explanation)
        if match:
            concern = match.group(1).strip().rstrip("。.")
            return prompts.render("seeker/oracle", task.language, concern=concern)
    return prompts.render("seeker/oracle_text", task.language, text=node.text.rstrip(".。!！?？ "))


class OracleSeeker:
    """Upper bound built from the tree: one question per required node along the human path, then goodbye."""

    needs_tree = True

    def __init__(self, task: Task, config: SeekerConfig | None = None) -> None:
        source = str((config.options if config else {}).get("oracle_source", "explanation"))
        self.script = [opening(SeekerTask.of(task))]
        self.script += [oracle_question(task, node_id, source) for node_id in oracle_path(task)]

    async def respond(self, view: DialogueView) -> str:
        index = seeker_turn_count(view)
        return self.script[index] if index < len(self.script) else goodbye(view.language)


def option_groups(entries: tuple[str, ...], language: str) -> list[list[str]]:
    """Entries of one kind (items, skills or scenes) grouped by a shared head: last word (en) or last two characters
    (zh); leftovers are grouped by their first word (en) or first two characters. Groups of one are dropped."""
    names = [PARENTHESES.sub(" ", entry).strip() for entry in entries]
    names = [name for name in names if name]
    groups: list[list[str]] = []
    left = list(dict.fromkeys(names))
    for key in (_tail, _head):
        by_key: dict[str, list[str]] = {}
        for name in left:
            by_key.setdefault(key(name, language), []).append(name)
        found = [group for group in by_key.values() if len(group) > 1]
        groups += found
        used = {name for group in found for name in group}
        left = [name for name in left if name not in used]
    return groups


def _tail(name: str, language: str) -> str:
    return name.split()[-1].lower().rstrip("s") if language == "en" else name[-2:]


def _head(name: str, language: str) -> str:
    return EN_LEAD.sub("", name).split()[0].lower() if language == "en" else name[:2]


def restrictions(entries: tuple[str, ...]) -> list[tuple[str, str]]:
    """(subjects, note) for every parenthesised restriction; entries sharing one note are asked about together."""
    by_note: dict[str, list[str]] = {}
    for entry in entries:
        match = PARENTHESES.search(entry)
        if match and match.group(1).strip():
            subject = PARENTHESES.sub(" ", entry).strip()
            by_note.setdefault(match.group(1).strip(), []).append(subject)
    return [(" / ".join(subjects), note) for note, subjects in by_note.items()]


def split_sentences(text: str) -> list[str]:
    """Sentences of a reply, end punctuation removed."""
    parts = (part.strip().rstrip(".!?。！？；;").strip() for part in SENTENCE_END.split(text))
    return [part for part in parts if part]


def content_terms(text: str, language: str) -> set[str]:
    """Rough content words: lower-cased words of 4+ letters (en) or character pairs (zh)."""
    if language == "en":
        return {word for word in re.findall(r"[a-z]{4,}", text.lower())}
    chars = [c for c in text if "\u4e00" <= c <= "\u9fff"]
    return {a + b for a, b in zip(chars, chars[1:])}


class HeuristicSeeker:
    """No LLM: asks how to handle each step of every new answer, how to get past each restriction and which
    option to take wherever the brief lists several of a kind; re-asks unanswered choices once, then goodbye."""

    def __init__(self, task: SeekerTask, config: SeekerConfig | None = None) -> None:
        self.task = task
        self.language = task.language
        self.max_questions = config.max_questions if config else 10
        brief = task.brief
        kinds = (brief.scenes, brief.items, brief.skills)
        self.choices = [group for kind in kinds for group in option_groups(kind, self.language)]
        self.from_brief: list[str] = [
            prompts.render("seeker/restriction", self.language, subject=subject, note=note.rstrip("。."))
            for kind in kinds
            for subject, note in restrictions(kind)
        ]
        self.from_brief += [self._choose(group) for group in self.choices]
        self.vocabulary = content_terms(" ".join([brief.task_name, *brief.items, *brief.skills, *brief.scenes]),
                                        self.language)  # fmt: skip
        self.steps: list[str] = []
        self.seen_replies: set[str] = set()
        self.reasked = False

    def _choose(self, group: list[str]) -> str:
        return prompts.render("seeker/choose", self.language, options=join_options(group, self.language))

    def _step(self, sentence: str) -> str:
        return prompts.render("seeker/step", self.language, step=sentence)

    def _take_in(self, replies: list[str]) -> None:
        """Queue "how exactly?" questions for a new informative reply: every sentence of the first answer (the
        root), the whole of later ones (joined into one clause)."""
        for index, text in enumerate(replies):
            if text in self.seen_replies:
                continue
            self.seen_replies.add(text)
            sentences = split_sentences(text)
            if index == 0:
                self.steps += [self._step(sentence) for sentence in sentences]
            elif content_terms(text, self.language) & self.vocabulary and sentences:
                joiner = "; " if self.language == "en" else "，"
                self.steps.insert(0, self._step(joiner.join(sentences)))

    async def respond(self, view: DialogueView) -> str:
        asked = seeker_turn_count(view)
        if asked == 0:
            return opening(self.task)
        if asked > self.max_questions:
            return goodbye(self.language)
        replies = [turn.text for turn in view.turns[1:] if turn.speaker == Speaker.provider]
        self._take_in(replies)
        for queue in (self.steps, self.from_brief):
            if queue:
                return queue.pop(0)
        if not self.reasked:
            self.reasked = True
            said = " ".join(replies).lower()
            self.from_brief = [self._choose(g) for g in self.choices if not any(o.lower() in said for o in g)]
            if self.from_brief:
                return self.from_brief.pop(0)
        return goodbye(self.language)


def recorded_seeker_turns(path: str | Path) -> dict[tuple[str, int], list[str]]:
    """Seeker utterances per (task id, trial) from a run's transcripts.jsonl or a released results file."""
    path = Path(path).expanduser()
    if not path.exists():
        raise ClarqError(f"replay file {path} does not exist", "pass --replay FILE (transcripts.jsonl or results)")
    return _load_recorded(str(path.resolve()), path.stat().st_mtime_ns)


@lru_cache(maxsize=8)
def _load_recorded(path: str, _mtime: int) -> dict[tuple[str, int], list[str]]:
    if path.endswith(".jsonl"):
        from ..jsonl import parse_jsonl, read_text

        recorded: dict[tuple[str, int], list[str]] = {}
        read = parse_jsonl(read_text(Path(path)), path)  # an unfinished last line (interrupted run) is left out
        for number, record in read.records:
            try:
                key = (str(record["task_id"]), int(record.get("trial", 0)))
                recorded[key] = [t["text"] for t in record["turns"] if t["speaker"] == Speaker.seeker.value]
            except (KeyError, TypeError, ValueError, AttributeError):
                raise DataError(path, "not a transcript line", number) from None
        return recorded
    from ..upstream import load_released_dialogues

    return {(d.task.id, 0): list(d.seeker_lines) for d in load_released_dialogues(path)}


class ReplaySeeker:
    """Replays recorded seeker turns (our transcripts.jsonl or a released results file) against a live provider."""

    def __init__(self, task: SeekerTask, config: SeekerConfig) -> None:
        if not config.replay:
            raise ClarqError("the replay seeker needs a file", "pass --replay FILE")
        recorded = recorded_seeker_turns(config.replay)
        self.by_trial = {trial: turns for (task_id, trial), turns in recorded.items() if task_id == task.id}
        if not self.by_trial:
            raise ClarqError(f"{config.replay} has no dialogue for task {task.id}", "replay a file of this language")

    async def respond(self, view: DialogueView) -> str:
        turns = self.by_trial.get(view.trial) or self.by_trial[min(self.by_trial)]
        index = seeker_turn_count(view)
        return turns[index] if index < len(turns) else goodbye(view.language)
