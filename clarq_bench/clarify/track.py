"""`clarq select` without argv: choose the ranker for a `--seeker` value, load tasks, states and bank, run, score,
write. Offline rankers (bm25, random, best-question, worst-question, no-question) take their names first; a model
name (or `llm` with a model) becomes the LLM ranker; any other seeker is read through seeker_ranker.py."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, Field, field_validator

from ..core.defaults import DEFAULT_RESAMPLES, DEFAULT_SEED
from ..core.errors import ClarqError
from ..core.tasks import Task
from ..llm.options import ModelCallOptions
from .bank import Bank, load_bank
from .rank_states import StateResult, run_states
from .rankers import OFFLINE_RANKERS, RandomRanker, Ranker
from .states import build_states
from .summary import SelectSummary, summarize


class SelectOptions(BaseModel):
    """The options of `clarq select`, named as its flags."""

    seeker: str
    seeker_model: str | None = None
    seeker_options: dict[str, Any] = Field(default_factory=dict)
    lang: Literal["en", "zh"] = "en"
    data: str | None = None
    results: str | None = None
    types: str | list[int] | None = None
    limit: int | None = Field(default=None, ge=1)
    task_ids: list[str] | None = Field(default=None, description="Only these tasks (the offline-vs-online report).")
    seed: int = DEFAULT_SEED
    resamples: int = Field(default=DEFAULT_RESAMPLES, ge=1)
    concurrency: int = Field(default=32, ge=1)
    out: str | None = None
    write: bool = True
    plots: bool = True
    chance: bool = True
    llm: ModelCallOptions = Field(default_factory=ModelCallOptions, description="How models are called.")

    @field_validator("llm", mode="before")
    @classmethod
    def _llm(cls, value: Any) -> ModelCallOptions:
        return ModelCallOptions.of(value)  # a misspelled option is one ClarqError line


class TrackResult(NamedTuple):
    summary: SelectSummary
    results: list[StateResult]
    out_dir: Path | None


def make_ranker(options: SelectOptions) -> tuple[Ranker, Any]:
    """The ranker and the LLM client it uses (None for offline ones); unknown names are one-line errors."""
    if options.seeker in OFFLINE_RANKERS:
        ranker: Ranker = RandomRanker(options.seed) if options.seeker == "random" else OFFLINE_RANKERS[options.seeker]()
        return ranker, None
    from ..seekers import SeekerConfig
    from ..seekers.registry import describe, resolve_seeker

    config = SeekerConfig(name=options.seeker, model=options.seeker_model, options=options.seeker_options)
    name, model = describe(config)
    if name == "llm":
        if not model:
            raise ClarqError("the llm seeker needs a model", "pass --seeker-model MODEL or --seeker MODEL")
        from ..runner.prepare import open_client
        from .llm_ranker import LLMRanker

        client = open_client([("seeker", model)], options.llm)  # the key, and the price under --max-cost
        return LLMRanker(client, model, seed=options.seed), client
    if name in ("human", "replay"):
        raise ClarqError(
            f"the {name} seeker cannot take the offline track",
            f"use {', '.join(OFFLINE_RANKERS)} or a seeker that answers on its own",
        )
    try:
        spec = resolve_seeker(config)  # an unknown name fails here, before any state
    except ClarqError as exc:
        raise ClarqError(
            exc.problem, f"the offline rankers are {', '.join(OFFLINE_RANKERS)}; `clarq seekers` lists the seekers"
        ) from None
    from .seeker_ranker import SeekerRanker

    return SeekerRanker(spec), None


def choose_tasks(options: SelectOptions, bank: Bank) -> list[Task]:
    """Test tasks of the language that the bank covers; `limit` takes N spread over the types (round-robin)."""
    from ..data.selection import load_selected

    hashes = bank.task_hashes
    selected = [
        t
        for t in load_selected(options.data, lang=options.lang, split="test", types=options.types)
        if t.id in hashes and (options.task_ids is None or t.id in options.task_ids)
    ]
    other = [t.id for t in selected if t.content_hash() != hashes[t.id]]
    if other:
        raise ClarqError(
            f"{len(other)} selected tasks (first: {other[0]}) differ from the released tasks the question "
            "bank was built from",
            "pass the ClarQ-LLM task data with --data (not the sample tasks/)",
        )
    tasks = selected
    if not tasks:
        raise ClarqError(
            "none of the selected tasks has questions in the bank",
            "the track runs on the released test tasks (types 1-26) of --data",
        )
    if options.limit:
        tasks = sorted(tasks, key=lambda t: (t.index, t.type_number))[: options.limit]
        tasks.sort(key=lambda t: (t.type_number, t.index))
    return tasks


def default_out(options: SelectOptions) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", options.seeker).strip("_") or "seeker"
    return Path("runs") / "select" / f"{safe}-{options.lang}"


async def select_async(options: SelectOptions) -> TrackResult:
    ranker, client = make_ranker(options)
    try:
        bank = load_bank(options.lang, options.results)
        tasks = choose_tasks(options, bank)
        states = build_states(tasks)
        stop = (lambda: client.budget_exhausted) if client is not None else None  # --max-cost: no new state
        results = await run_states(
            ranker,
            states,
            {t.id: t for t in tasks},
            bank,
            concurrency=options.concurrency,
            seed=options.seed,
            stop=stop,
        )
    finally:
        if client is not None:
            await client.aclose()
    usage = {}
    if client is not None:
        total = client.usage
        usage = {"calls": total.calls, "cached_calls": total.cached_calls, "cost_usd": total.cost_usd}
    summary = summarize(
        results,
        seeker=getattr(ranker, "name", options.seeker),
        language=options.lang,
        bank_counts=bank.counts(),
        seed=options.seed,
        resamples=options.resamples,
        usage=usage,
        chance=options.chance,
    )
    out = None
    if options.write:
        from .report import write_report

        out = Path(options.out) if options.out else default_out(options)
        write_report(summary, results, out, plots=options.plots)
    return TrackResult(summary, results, out)


def select(options: SelectOptions) -> TrackResult:
    return asyncio.run(select_async(options))
