"""The `human-web` seeker: a person plays the seeker in the browser (`clarq play --web`, the paper's H2L setting).

Why a seeker and not a separate engine: the run is an ordinary `clarq run` (same dialogue loop, provider, transcript
and scoring), so a person's result scores, views, compares and submits like any other. Each person has a Desk: what
their page shows now (the task brief and the dialogue so far) and an inbox for their next line. Every line is
appended to the run folder's `human-lines.jsonl` as it is sent; after a restart the seeker replays a dialogue's saved
lines before it asks for a new one, so nothing typed is lost and a reload (or coming back) resumes the same turn.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from ..core import prompts
from ..core.transcript import Speaker
from .base import DialogueView
from .registry import SeekerConfig, SeekerTask

LINES_FILE = "human-lines.jsonl"
MAX_LINE = 2000  # characters of one seeker line (the provider's screen refuses anything near its own 3,000 cap)


class Desk:
    """One person's place: the view their page shows, their inbox, and their saved lines (by task and trial)."""

    def __init__(self, name: str, folder: Path | None = None) -> None:
        self.name = name
        self.folder = folder
        self.task: SeekerTask | None = None
        self.view: DialogueView | None = None  # set while the seeker waits for this person's line
        self.inbox: asyncio.Queue[str] = asyncio.Queue()
        self.saved: dict[tuple[str, int], list[str]] = {}
        self.done = 0  # dialogues finished
        self.finished = False
        self.summary: Any = None

    def attach(self, folder: Path) -> None:
        """The run folder is known: read the lines saved there by an earlier session."""
        self.folder = folder
        path = folder / LINES_FILE
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    record = json.loads(line)
                    self.saved.setdefault((record["task_id"], int(record["trial"])), []).append(str(record["text"]))
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short by a crash: the person types that turn again

    def record(self, view: DialogueView, text: str) -> None:
        key = (view.task_id, view.trial)
        self.saved.setdefault(key, []).append(text)
        if self.folder is not None:
            entry = {"task_id": view.task_id, "trial": view.trial, "text": text}
            with (self.folder / LINES_FILE).open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(entry, ensure_ascii=False) + "\n")

    @property
    def turn(self) -> int:
        """Seeker turns so far in the dialogue on screen (a stale form, or a double submit, names an older one)."""
        return sum(t.speaker == Speaker.seeker for t in self.view.turns) if self.view else -1


#: Desks by person name, filled by the web server before each person's run starts.
DESKS: dict[str, Desk] = {}


class WebHumanSeeker:
    """Waits for the person's next line from the page (run with --concurrency 1 and no turn timeout)."""

    person = True  # its turns come from someone at this process (runner/dialogue_pool.py keeps it here)

    def __init__(self, task: SeekerTask, config: SeekerConfig | None = None) -> None:
        person = str((config.options if config else {}).get("person", ""))
        if person not in DESKS:
            raise RuntimeError(
                f"no desk for person {person!r}: the human-web seeker is played through clarq play --web"
            )
        self.desk, self.task = DESKS[person], task

    async def respond(self, view: DialogueView) -> str:
        asked = sum(turn.speaker == Speaker.seeker for turn in view.turns)
        saved = self.desk.saved.get((view.task_id, view.trial), [])
        if asked < len(saved):
            return saved[asked]
        self.desk.task, self.desk.view = self.task, view
        try:
            text = await self.desk.inbox.get()
        finally:
            self.desk.view = None
        self.desk.record(view, text)
        return text


def goodbye(language: str) -> str:
    return prompts.render("seeker/goodbye", language)
