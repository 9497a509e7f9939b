"""Teacher-forced fidelity of the LLM provider: does clarq keep the reveals the paper's provider made?

Every released dialogue is replayed through clarq's LLMProvider, each seeker turn in the reference's own state
(reference_steps.py), with a scripted model that decides exactly as the released provider did on that turn: intent 2
and the node ids its reply carried (inferred from the reply text by the judge's rule, as `clarq provider-eval`
does), else intent 3 (or 4 when the reply restates given nodes) and no ids; a generated reply is the released
reply's text. The decisions come from the released dialogue alone, never from the tree, so whatever clarq drops is
clarq's doing: its reading of the turn, its frontier bookkeeping or its per-turn limits. The real client path
(LLMClient, JSON parsing, accounting) stays in; only the model is scripted.

The figure is the share of reference reveals kept (same node revealed on the same turn), per file and in total,
single-info and multi-info apart (a file's mode is in its name), for each provider reading asked for.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from ..core.tasks import ROOT_ID
from ..core.transcript import Intent, Speaker
from ..data.reference_steps import ReplayStep, replay_steps
from ..data.textmatch import carries_node
from ..data.upstream import ReleasedDialogue

if TYPE_CHECKING:
    from ..llm import LLMClient

#: Shares of the reference's reveals the default reading must keep (single-info, multi-info).
TARGETS = {"single": 0.985, "multi-info": 0.95}
#: What a scripted reference model is called on the client (one per dialogue: `scripted/released-N`).
MODEL_PREFIX = "scripted/released-"
#: One replayed step: the step, the node ids the LLM provider newly revealed, and its notes on that turn.
Row = tuple[ReplayStep, list[str], dict[str, Any]]


def file_mode(source: str) -> str:
    """The provider mode a released file was played in (`..._multi_info_provider...` is multi-info)."""
    return "multi-info" if "multi_info" in Path(source).name else "single"


def reference_decision(step: ReplayStep, texts: dict[str, str]) -> dict[str, object]:
    """The released provider's decision on this step, as the LLM provider's model would write it (`texts`: the
    task's node texts by id, to tell a restating reply from another one)."""
    if step.reference:
        return {"intent": int(Intent.answerable), "node_ids": list(step.reference), "rationale": "released"}
    given = [turn.revealed for turn in step.prefix if turn.speaker == Speaker.provider]
    done = {node_id for ids in given for node_id in ids if node_id != ROOT_ID}
    repeats = any(
        carries_node(step.reference_text, texts[node_id], step.language) for node_id in sorted(done) if node_id in texts
    )
    intent = Intent.repeat if repeats else Intent.unanswerable
    return {"intent": int(intent), "node_ids": [], "rationale": "released"}


class _Script:
    """One dialogue's scripted model: the current step's decision, then (a generated reply) its released text."""

    def __init__(self) -> None:
        self.step: ReplayStep | None = None
        self.texts: dict[str, str] = {}
        self.calls = 0

    def __call__(self, messages: list[dict[str, object]]) -> str:
        assert self.step is not None
        self.calls += 1
        if self.calls == 1:
            return json.dumps(reference_decision(self.step, self.texts), ensure_ascii=False)
        return self.step.reference_text


class KeptFigures(BaseModel):
    """Reference reveals on a group of steps and how many the provider kept (same node, same turn)."""

    steps: int
    reveals: int
    kept: int
    extra: int = Field(description="Nodes revealed that the reference did not reveal on that turn.")
    reveal_steps: int = Field(0, description="Steps on which the reference revealed something.")
    same: int = Field(0, description="Of those, steps on which the provider revealed exactly the reference's nodes.")

    @property
    def share(self) -> float | None:
        return self.kept / self.reveals if self.reveals else None


class ReadingReport(BaseModel):
    """One provider reading's figures: per file (key: file name) and per mode in total."""

    reading: str
    files: dict[str, KeptFigures]
    modes: dict[str, KeptFigures]
    lost: list[dict[str, object]] = Field(default_factory=list, description="Every reference reveal not kept.")


def _figures(rows: list[tuple[list[str], list[str]]]) -> KeptFigures:
    return KeptFigures(
        steps=len(rows),
        reveals=sum(len(ref) for ref, _ in rows),
        kept=sum(len(set(ref) & set(got)) for ref, got in rows),
        extra=sum(len(set(got) - set(ref)) for ref, got in rows),
        reveal_steps=sum(bool(ref) for ref, _ in rows),
        same=sum(bool(ref) and set(ref) == set(got) for ref, got in rows),
    )


async def _dialogue(
    dialogue: ReleasedDialogue, client: LLMClient, name: str, script: _Script, reading: str, limit: asyncio.Semaphore
) -> list[Row]:
    from ..provider.llm_provider import LLMProvider

    async with limit:
        script.texts = {node.id: node.text for node in dialogue.task.tree.required}
        provider = LLMProvider(dialogue.task, client, model=name, mode=file_mode(dialogue.source), reading=reading)
        out = []
        for step in replay_steps(dialogue):
            script.step, script.calls = step, 0
            reply = await provider.respond(step.prefix)
            already = {i for t in step.prefix if t.speaker == Speaker.provider for i in t.revealed}
            got = [i for i in reply.revealed if i not in already and i != ROOT_ID]
            out.append((step, got, dict(reply.notes)))
        return out


async def replay_forced(dialogues: list[ReleasedDialogue], reading: str = "model", concurrency: int = 8) -> list[Row]:
    """(step, node ids the LLM provider newly revealed, its notes) for every step, with the reference model."""
    from ..llm import LLMClient, LLMSettings
    from ..testing.scripted import ScriptedModel

    scripts = [_Script() for _ in dialogues]
    names = [f"{MODEL_PREFIX}{index}" for index in range(len(dialogues))]
    client = LLMClient(
        LLMSettings(use_cache=False), scripted={name: ScriptedModel(script) for name, script in zip(names, scripts)}
    )
    limit = asyncio.Semaphore(max(1, concurrency))
    try:
        chunks = await asyncio.gather(
            *(_dialogue(d, client, n, s, reading, limit) for d, n, s in zip(dialogues, names, scripts))
        )
    finally:
        await client.aclose()
    return [row for chunk in chunks for row in chunk]


def summarize(rows: Iterable[Row], reading: str) -> ReadingReport:
    """Kept shares per file and per mode, and every lost reveal with the provider's notes on that turn."""
    files: dict[str, list] = defaultdict(list)
    modes: dict[str, list] = defaultdict(list)
    lost = []
    for step, got, notes in rows:
        files[Path(step.source).name].append((step.reference, got))
        modes[file_mode(step.source)].append((step.reference, got))
        for node_id in step.reference:
            if node_id not in got:
                lost.append(
                    {
                        "file": Path(step.source).name,
                        "task": step.task_id,
                        "turn": step.turn_index,
                        "node": node_id,
                        "frontier": step.frontier,
                        "got": got,
                        "seeker": step.prefix[-1].text,
                        "notes": {
                            k: v
                            for k, v in notes.items()
                            if k not in ("model", "seed", "temperature", "calls", "sequential_calls", "requests")
                        },
                    }
                )
    return ReadingReport(
        reading=reading,
        files={k: _figures(v) for k, v in sorted(files.items())},
        modes={k: _figures(v) for k, v in sorted(modes.items())},
        lost=lost,
    )


def teacher_forced(
    dialogues: list[ReleasedDialogue], readings: Iterable[str] = ("model", "strict"), concurrency: int = 8
) -> list[ReadingReport]:
    """The check for each provider reading, in order (the first is the one the targets apply to)."""
    return [summarize(asyncio.run(replay_forced(dialogues, reading, concurrency)), reading) for reading in readings]
