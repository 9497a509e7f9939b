"""The natural-question suite: does a provider answer the questions a person would really ask?

Why: the rules of a simulated provider are tuned on examples; this suite is text they were not written on. For every
required node of the sample tasks and of 20 released tasks a language, natural_questions/<lang>.jsonl holds at
least three hand-written wordings of the clarification question a thoughtful person would ask to get exactly that
node. Each wording is played after a dialogue prefix that reveals the root and the node's ancestors (each ancestor
asked with the suite's first wording for it and answered with its node text), in single-info and multi-info mode.

A wording passes when the provider reveals what a person would give:
- single-info: exactly the expected node;
- multi-info: the expected node, and nothing else but nodes of its own subtree (details its answer opens).

Works for any Provider: it takes a factory `(task, mode) -> Provider`. Nothing here prints.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..core.errors import ClarqError
from ..core.tasks import ROOT_ID, Task, node_sort_key, parent_id
from ..core.transcript import ReplyKind, Speaker, Turn
from ..provider.base import Provider

#: Where the suite lives: one JSON Lines file a language.
SUITE_DIR = Path(__file__).with_name("natural_questions")
#: The families of wordings: `tuned`, the suite the reader's rules have been refined against, and `held-out`,
#: wordings of ten other released tasks written by someone who never saw the rules, kept apart to measure how the
#: reader does on text nobody tuned it on (held_out/<lang>.jsonl; its tasks are the ones its lines name).
FAMILIES = {"tuned": SUITE_DIR, "held-out": SUITE_DIR / "held_out"}
#: The released tasks of the suite: `spread_limit(test tasks of types 1-26, RELEASED_COUNT, RELEASED_SEED)`.
RELEASED_COUNT = 20
RELEASED_SEED = 39
RELEASED_TYPES = tuple(range(1, 27))
#: Each required node of a suite task has at least this many wordings.
MIN_WORDINGS = 3
MODES = ("single", "multi-info")

Source = Literal["sample", "released"]
ProviderFactory = Callable[[Task, str], Provider]


class Wording(BaseModel):
    """One natural question: which node of which task it should get, and the ancestors revealed before it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task: str
    source: Source
    node: str
    path: tuple[str, ...] = Field(description="Ancestor node ids (root excluded), revealed before the question.")
    style: str
    text: str = Field(min_length=1)

    @property
    def key(self) -> tuple[str, str]:
        return self.source, self.task


def load_suite(languages: Iterable[str] = ("en", "zh"), folder: Path = SUITE_DIR) -> list[Wording]:
    """Every wording of the suite files of `languages`; a malformed line is one ClarqError naming file and line."""
    suite: list[Wording] = []
    for language in languages:
        path = folder / f"{language}.jsonl"
        if not path.is_file():
            raise ClarqError(f"no natural-question suite for {language!r} at {path}", "languages: en, zh")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                wording = Wording.model_validate(json.loads(line))
            except (json.JSONDecodeError, ValidationError) as exc:
                first = str(exc).splitlines()[0]
                raise ClarqError(f"{path}:{number}: not a suite wording ({first})") from None
            if not wording.task.startswith(f"{language}/"):
                raise ClarqError(f"{path}:{number}: task {wording.task} is not a {language} task")
            suite.append(wording)
    return suite


def suite_tasks(
    languages: Iterable[str] = ("en", "zh"),
    data: str | Path | None = None,
    sample: str | Path | None = None,
    named: Iterable[str] | None = None,
) -> dict[tuple[str, str], Task]:
    """The suite's tasks by (source, id): the test-split sample tasks, and the released ones chosen by the fixed
    seeded spread over types 1-26 from the data folder (`data`, else $CLARQ_DATA, else the download cache); with
    `named` (the held-out family's task ids), those released tasks alone."""
    from ..data.loader import SAMPLE_TASKS, load_tasks, resolve_data_dir
    from ..data.selection import spread_limit

    languages = tuple(languages)
    tasks: dict[tuple[str, str], Task] = {}
    wanted = set(named) if named is not None else None
    if wanted is None:
        for task in load_tasks(Path(sample) if sample else SAMPLE_TASKS, languages, split="test"):  # type: ignore[arg-type]
            tasks["sample", task.id] = task
    released_root = resolve_data_dir(data)
    for language in languages:
        pool = load_tasks(released_root, (language,), split="test", types=RELEASED_TYPES)  # type: ignore[arg-type]
        chosen = spread_limit(pool, RELEASED_COUNT, RELEASED_SEED) if wanted is None else pool
        for task in chosen:
            if wanted is None or task.id in wanted:
                tasks["released", task.id] = task
    return tasks


def ancestors(node_id: str) -> tuple[str, ...]:
    """`1.2.3` -> ("1", "1.2"): the nodes that must be revealed first, root excluded."""
    chain: list[str] = []
    parent = parent_id(node_id)
    while parent is not None and parent != ROOT_ID:
        chain.insert(0, parent)
        parent = parent_id(parent)
    return tuple(chain)


def validate(suite: list[Wording], tasks: dict[tuple[str, str], Task]) -> list[str]:
    """Every problem of the suite against its tasks, one line each (empty: valid): unknown task or node, a wrong
    ancestor path, the root as a target, and required nodes of a suite task with fewer than MIN_WORDINGS wordings."""
    problems: list[str] = []
    count: Counter[tuple[str, str, str]] = Counter()
    for w in suite:
        task = tasks.get(w.key)
        if task is None:
            problems.append(f"{w.source} task {w.task}: not a task of the suite ({w.text!r})")
            continue
        if w.node == ROOT_ID or w.node not in task.tree:
            problems.append(f"{w.source} {w.task} node {w.node}: no such required node ({w.text!r})")
            continue
        if w.path != ancestors(w.node):
            problems.append(
                f"{w.source} {w.task} node {w.node}: path {list(w.path)} should be {list(ancestors(w.node))}"
            )
        count[w.source, w.task, w.node] += 1
    for (source, task_id), task in sorted(tasks.items()):
        for node_id in task.tree.required_ids:
            have = count[source, task_id, node_id]
            if have < MIN_WORDINGS:
                problems.append(f"{source} {task_id} node {node_id}: {have} wordings, at least {MIN_WORDINGS} needed")
    return problems


def first_wordings(suite: list[Wording]) -> dict[tuple[str, str, str], str]:
    """(source, task, node) -> the suite's first wording for it: how an ancestor is asked in a prefix."""
    first: dict[tuple[str, str, str], str] = {}
    for w in suite:
        first.setdefault((w.source, w.task, w.node), w.text)
    return first


def dialogue_prefix(
    task: Task, provider: Provider, wording: Wording, asked: dict[tuple[str, str, str], str]
) -> list[Turn]:
    """The turns before and including the question: greeting, opening request, root, each ancestor asked and
    answered by its node text (revealed), then the wording as the latest seeker turn."""
    from ..seekers.baselines import opening
    from ..seekers.registry import SeekerTask

    turns = [
        provider.greeting().to_turn(),
        Turn(speaker=Speaker.seeker, text=opening(SeekerTask.of(task))),
        Turn(speaker=Speaker.provider, text=task.tree.root.text, kind=ReplyKind.root, revealed=[ROOT_ID]),
    ]
    for node_id in wording.path:
        question = asked.get((wording.source, wording.task, node_id))
        if question is None:
            raise ClarqError(f"{wording.source} {wording.task}: no wording for ancestor {node_id} of {wording.node}")
        turns.append(Turn(speaker=Speaker.seeker, text=question))
        turns.append(
            Turn(speaker=Speaker.provider, text=task.tree[node_id].text, kind=ReplyKind.response_i, revealed=[node_id])
        )
    turns.append(Turn(speaker=Speaker.seeker, text=wording.text))
    return turns


def passes(task: Task, expected: str, revealed: list[str], mode: str) -> bool:
    """Single-info: exactly `expected` revealed. Multi-info: `expected` revealed and nothing outside its subtree."""
    if mode == "single":
        return revealed == [expected]
    return expected in revealed and all(i == expected or i.startswith(expected + ".") for i in revealed)


class Outcome(BaseModel):
    """One wording played in one mode."""

    wording: Wording
    language: str
    mode: str
    revealed: list[str]
    kind: str
    passed: bool


class Row(BaseModel):
    language: str
    mode: str
    source: str
    wordings: int
    passed: int

    @property
    def share(self) -> float:
        return self.passed / self.wordings if self.wordings else 0.0


class NaturalReport(BaseModel):
    """Pass rate per language, mode and source (with the totals per language and mode), and every failure."""

    provider: str
    rows: list[Row]
    failures: list[Outcome]
    family: str = "tuned"

    def row(self, language: str, mode: str, source: str = "all") -> Row | None:
        return next((r for r in self.rows if (r.language, r.mode, r.source) == (language, mode, source)), None)


async def _play_task(
    task: Task,
    words: list[Wording],
    mode: str,
    factory: ProviderFactory,
    asked: dict[tuple[str, str, str], str],
    gate: asyncio.Semaphore,
) -> list[Outcome]:
    async with gate:
        provider = factory(task, mode)
        out = []
        for wording in words:
            reply = await provider.respond(dialogue_prefix(task, provider, wording, asked))
            already = set(wording.path) | {ROOT_ID}
            new = sorted({i for i in reply.revealed if i not in already}, key=node_sort_key)
            out.append(
                Outcome(
                    wording=wording,
                    language=task.language,
                    mode=mode,
                    revealed=new,
                    kind=reply.kind.value,
                    passed=passes(task, wording.node, new, mode),
                )
            )
        return out


async def play(
    suite: list[Wording],
    tasks: dict[tuple[str, str], Task],
    factory: ProviderFactory,
    *,
    modes: Iterable[str] = MODES,
    concurrency: int = 8,
) -> list[Outcome]:
    """Every wording in every mode against a provider built by `factory` (one provider per task and mode; wordings
    of one task run in order, tasks `concurrency` at once). Outcomes in suite order, mode by mode."""
    asked = first_wordings(suite)
    by_task: dict[tuple[str, str], list[Wording]] = defaultdict(list)
    for w in suite:
        by_task[w.key].append(w)
    gate = asyncio.Semaphore(max(1, concurrency))
    jobs = [
        _play_task(tasks[key], words, mode, factory, asked, gate) for mode in modes for key, words in by_task.items()
    ]
    return [outcome for chunk in await asyncio.gather(*jobs) for outcome in chunk]


def report(outcomes: list[Outcome], provider: str, family: str = "tuned") -> NaturalReport:
    """Rows per (language, mode, source) and per (language, mode) over both sources, in a stable order."""
    groups: dict[tuple[str, str, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        for source in (o.wording.source, "all"):
            groups[o.language, o.mode, source].append(o)
    order = {"sample": 0, "released": 1, "all": 2}
    rows = [
        Row(language=lang, mode=mode, source=source, wordings=len(items), passed=sum(o.passed for o in items))
        for (lang, mode, source), items in sorted(
            groups.items(),
            key=lambda kv: (kv[0][0], MODES.index(kv[0][1]) if kv[0][1] in MODES else 9, order[kv[0][2]]),
        )
    ]
    return NaturalReport(provider=provider, rows=rows, failures=[o for o in outcomes if not o.passed], family=family)
