"""Provider fidelity replay: how often does a provider decide what the released GPT-4o provider decided?

Teacher-forced over released dialogue files (upstream results format). For every post-root seeker turn the dialogue
prefix is rebuilt as Turns carrying the reference's own reveals (inferred with the judge's deterministic rule,
textmatch.carries_node, over the task's nodes), so the provider under test starts each turn in exactly the
reference's state; its decision (the set of newly revealed node ids, or none) is compared with the reference's.
Works for any Provider: it takes a factory `task -> Provider`. Dialogues run concurrently (bounded); turns within a
dialogue run in order because each prefix is the reference's, not ours.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import BaseModel, Field

from ..core.tasks import ROOT_ID, Task, node_sort_key
from ..core.transcript import Speaker, Usage
from ..data.reference_steps import ReplayStep, replay_steps
from ..data.upstream import ReleasedDialogue, load_released_dialogues, released_files
from ..provider.base import Provider

ProviderFactory = Callable[[Task], Provider]

#: Type ranges reported separately: 1-13 may be used to tune providers, 14-26 is the held-out measure.
TUNING_TYPES = range(1, 14)
HELD_OUT_TYPES = range(14, 27)


class StepResult(BaseModel):
    """The provider's decision on one step next to the reference's."""

    step: ReplayStep
    predicted: list[str]
    intent: int | None
    kind: str

    @property
    def agrees(self) -> bool:
        return sorted(self.predicted) == sorted(self.step.reference)


async def _replay_dialogue(
    dialogue: ReleasedDialogue, factory: ProviderFactory, limit: asyncio.Semaphore, stop: Callable[[], bool] | None
) -> list[StepResult]:
    async with limit:
        if stop is not None and stop():
            return []  # e.g. the model budget is spent: dialogues not yet started are skipped
        provider = factory(dialogue.task)
        results = []
        for step in replay_steps(dialogue):
            reply = await provider.respond(step.prefix)
            already = {i for t in step.prefix if t.speaker == Speaker.provider for i in t.revealed}
            predicted = sorted({i for i in reply.revealed if i not in already and i != ROOT_ID}, key=node_sort_key)
            results.append(
                StepResult(
                    step=step,
                    predicted=predicted,
                    intent=int(reply.intent) if reply.intent is not None else None,
                    kind=reply.kind.value,
                )
            )
        return results


async def replay(
    dialogues: list[ReleasedDialogue],
    factory: ProviderFactory,
    *,
    concurrency: int = 8,
    stop: Callable[[], bool] | None = None,
) -> list[StepResult]:
    """Run the provider built by `factory` over every step of every dialogue; results in dialogue order.
    `stop` is asked before each dialogue starts; once it says True the remaining dialogues are skipped."""
    limit = asyncio.Semaphore(max(1, concurrency))
    chunks = await asyncio.gather(*(_replay_dialogue(d, factory, limit, stop) for d in dialogues))
    return [result for chunk in chunks for result in chunk]


def load_dialogues(path: str | Path, types: Iterable[int] | None = None) -> list[ReleasedDialogue]:
    """Released dialogues from a results file or a folder of them, optionally restricted to task types."""
    wanted = set(types) if types is not None else None
    out: list[ReleasedDialogue] = []
    for file in released_files(path):
        out.extend(d for d in load_released_dialogues(file) if wanted is None or d.task.type_number in wanted)
    return out


class Figures(BaseModel):
    """Agreement figures of one group of steps, with the two trivial baselines on the same steps."""

    steps: int
    reference_reveal_rate: float
    agreement: float
    precision: float | None = Field(description="Share of our revealed ids the reference also revealed.")
    recall: float | None = Field(description="Share of the reference's revealed ids we also revealed.")
    baseline_never: float
    baseline_first: float
    confusion: dict[str, dict[str, int]] = Field(
        description="Our intent (row) x reference outcome (same / other node(s) / none)."
    )


def figures(results: list[StepResult]) -> Figures:
    """Decision agreement, reveal precision/recall, the confusion table and both baselines for these steps."""
    n = len(results)
    agree = sum(r.agrees for r in results)
    predicted = sum(len(r.predicted) for r in results)
    referenced = sum(len(r.step.reference) for r in results)
    hits = sum(len(set(r.predicted) & set(r.step.reference)) for r in results)
    never = sum(not r.step.reference for r in results)
    first = sum(r.step.reference == r.step.frontier[:1] for r in results)
    confusion: dict[str, dict[str, int]] = defaultdict(lambda: {"same": 0, "other": 0, "none": 0})
    for r in results:
        row = "none" if r.intent is None else str(r.intent)
        if not r.step.reference:
            confusion[row]["none"] += 1
        else:
            confusion[row]["same" if r.agrees else "other"] += 1
    return Figures(
        steps=n,
        reference_reveal_rate=(n - never) / n if n else 0.0,
        agreement=agree / n if n else 0.0,
        precision=hits / predicted if predicted else None,
        recall=hits / referenced if referenced else None,
        baseline_never=never / n if n else 0.0,
        baseline_first=first / n if n else 0.0,
        confusion={k: confusion[k] for k in sorted(confusion)},
    )


class Report(BaseModel):
    """Figures per file, per language and per type range (1-13 tuning / 14-26 held out)."""

    provider: str
    groups: dict[str, Figures]
    model: str | None = Field(None, description="The resolved model version (LLM providers).")
    usage: Usage | None = Field(None, description="Every model call of the replay (LLM providers).")


def type_range(type_number: int) -> str:
    if type_number in TUNING_TYPES:
        return "types 1-13"
    if type_number in HELD_OUT_TYPES:
        return "types 14-26"
    return "dev types"


def report(results: list[StepResult], provider: str) -> Report:
    """Group results by file, language, type range (and their crossings) and compute figures for each group."""
    groups: dict[str, list[StepResult]] = defaultdict(list)
    for r in results:
        file, lang, span = Path(r.step.source).name, r.step.language, type_range(r.step.type_number)
        for key in ("all", f"lang={lang}", f"lang={lang} | {span}", f"file={file}", f"file={file} | {span}"):
            groups[key].append(r)
    return Report(provider=provider, groups={key: figures(groups[key]) for key in sorted(groups)})
