"""A pairwise comparison session in a folder: the items of two runs (items.json), model judges' answers
(answers.jsonl, resumable: a rerun asks only what is not answered yet), people's answers (people.jsonl, written by
the people page), and the swapped re-run of a seeded sample of items that measures position bias.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.defaults import DEFAULT_SEED
from ..core.errors import ClarqError
from ..core.jsonl import load_file, validate
from ..core.run_folder import RunDir
from ..core.transcript import Usage
from ..scoring.comparison import pair_verdicts
from ..scoring.judge import judge_all as judge_dialogues
from ..scoring.settings_diff import task_hashes
from ..scoring.sources import load_sources
from .answers import PairAnswer, append_answers, read_answers
from .items import Design, ItemSet, build_items, load_items, save_items

if TYPE_CHECKING:
    from ..llm import LLMClient

MODEL_ANSWERS = "answers.jsonl"
PEOPLE_ANSWERS = "people.jsonl"


def _run_id(source) -> str:  # type: ignore[no-untyped-def]
    folder = RunDir(source.run_dir) if source.run_dir is not None else None
    if folder is not None and folder.is_run():
        value = load_file(folder.config_path)
        if isinstance(value, dict) and isinstance(value.get("run_id"), str):
            return value["run_id"]
    return source.name


async def _side(path: str | Path, data: str | None):  # type: ignore[no-untyped-def]
    sources = load_sources(path, "auto", data)
    if len(sources) != 1:
        raise ClarqError(f"{path} holds {len(sources)} result sets", "pass one run or one results file per side")
    source = sources[0]
    verdicts = await judge_dialogues(source.pairs, None, judge_name="none")
    return source, verdicts


async def make_items(
    run_a: str | Path, run_b: str | Path, *, seed: int, design: Design, criteria: list[str], data: str | None = None
) -> ItemSet:
    """The items of two runs: every (task content, trial) both played, sides in a seeded random order."""
    (src_a, ver_a), (src_b, ver_b) = [await _side(p, data) for p in (run_a, run_b)]
    pairs, paired_on, _, _ = pair_verdicts(ver_a, ver_b, task_hashes(src_a), task_hashes(src_b))
    lookup_a = {(t.task_id, t.trial): (t, task) for t, task in src_a.pairs}
    lookup_b = {(t.task_id, t.trial): (t, task) for t, task in src_b.pairs}
    matched = []
    for va, vb in pairs:
        ta, task = lookup_a[(va.task_id, va.trial)]
        tb, task_b = lookup_b[(vb.task_id, vb.trial)]
        matched.append(((ta, task, va.success, va.aqd), (tb, task_b, vb.success, vb.aqd)))
    return build_items(
        matched,
        systems=(src_a.name, src_b.name),
        run_ids=(_run_id(src_a), _run_id(src_b)),
        seed=seed,
        design=design,
        criteria=criteria,
        paired_on=paired_on,
    )


async def open_session(
    folder: Path,
    run_a: str | Path,
    run_b: str | Path,
    *,
    seed: int,
    design: Design,
    criteria: list[str],
    data: str | None = None,
) -> ItemSet:
    """The folder's items, made now or reused; a folder holding another comparison is refused."""
    fresh = await make_items(run_a, run_b, seed=seed, design=design, criteria=criteria, data=data)
    if (folder / "items.json").is_file():
        kept = load_items(folder)
        same = (kept.systems, kept.seed, kept.design, kept.criteria, [i.id for i in kept.items]) == (
            fresh.systems,
            fresh.seed,
            fresh.design,
            fresh.criteria,
            [i.id for i in fresh.items],
        )
        if not same:
            raise ClarqError(
                f"{folder} holds another comparison (runs, seed, design, criteria or items differ)",
                "pass another --out folder",
            )
        return kept
    save_items(fresh, folder)
    return fresh


def swap_sample(items: ItemSet, n: int) -> list[str]:
    """The ids of `n` items (all when fewer) drawn with the set's seed for the swapped re-run."""
    ids = [i.id for i in items.items]
    return sorted(random.Random(items.seed).sample(ids, min(n, len(ids))))


def pending(items: ItemSet, answers: list[PairAnswer], judges: list[str], swapped_ids: list[str]) -> list[tuple]:
    """(judge, item id, swapped) calls still to make: a call counts as made once all its criteria are recorded."""
    done: dict[tuple[str, str, bool], set[str]] = {}
    for a in answers:
        done.setdefault((a.judge, a.item, a.swapped), set()).add(a.criterion)
    wanted = set(items.criteria)
    jobs = [(j, i.id, False) for j in judges for i in items.items] + [(j, i, True) for j in judges for i in swapped_ids]
    return [job for job in jobs if not wanted <= done.get(job, set())]


async def judge_session(
    folder: Path, items: ItemSet, client: LLMClient, judges: list[str], *, swap: int = 0, seed: int = DEFAULT_SEED
) -> list[PairAnswer]:
    """Ask every judge what it has not answered yet (and the swapped sample); returns all model answers."""
    from .judges import judge_all

    path = folder / MODEL_ANSWERS
    jobs = pending(items, read_answers(path), judges, swap_sample(items, swap))
    if jobs:
        client.check_credentials(judges)
        await judge_all(client, judges, items, jobs, seed=seed, on_answers=lambda new: append_answers(path, new))
    return read_answers(path)


USAGE = "usage.json"


def add_usage(folder: Path, spent: dict[str, Usage]) -> dict[str, Usage]:
    """Add one session's model usage per role to the folder's running total (usage.json) and return the total."""
    total = read_usage(folder)
    for role, usage in spent.items():
        total[role] = total[role] + usage if role in total else usage
    (folder / USAGE).write_text(
        json.dumps({r: u.model_dump(mode="json") for r, u in total.items()}, indent=1), encoding="utf-8"
    )
    return total


def read_usage(folder: Path) -> dict[str, Usage]:
    path = folder / USAGE
    if not path.is_file():
        return {}
    value = load_file(path)
    return {str(role): validate(Usage, u, str(path), what="usage") for role, u in dict(value).items()}


def all_answers(folder: Path) -> list[PairAnswer]:
    """Model and people answers of the session folder."""
    return read_answers(folder / MODEL_ANSWERS) + read_answers(folder / PEOPLE_ANSWERS)
