"""The API's pairwise judging: `judge_pairs` (model judges on two runs, task by task), its report and the people page."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from ..core.defaults import DEFAULT_RESAMPLES, DEFAULT_SEED
from .event_loop import outside_event_loop

if TYPE_CHECKING:
    from ..llm import LLMClient
    from ..pairwise.aggregate import PairwiseSummary
    from ..pairwise.people import PeopleServer


class PairwiseResult(NamedTuple):
    """A pairwise session: its folder (items.json, answers, summary.json, report.md, pairwise-row.json) and figures."""

    folder: Path
    summary: PairwiseSummary


def _pairwise_folder(out: str | Path | None, run_a: str | Path, run_b: str | Path) -> Path:
    return Path(out) if out else Path("pairwise") / f"{Path(run_a).name}--vs--{Path(run_b).name}"


async def judge_pairs_async(
    run_a: str | Path,
    run_b: str | Path,
    *,
    judges: Sequence[str] | str = (),
    design: int = 2,
    criteria: list[str] | str | None = None,
    swap_sample: int = 0,
    seed: int = DEFAULT_SEED,
    out: str | Path | None = None,
    data: str | Path | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    client: LLMClient | None = None,
    **llm: Any,
) -> PairwiseResult:
    """`judge_pairs` inside a running event loop."""
    from ..core.errors import ClarqError
    from ..llm import LLMClient
    from ..llm.options import ModelCallOptions
    from ..pairwise.items import CRITERIA
    from ..pairwise.session import add_usage, judge_session, open_session

    models = [m.strip() for m in (judges.split(",") if isinstance(judges, str) else judges) if m.strip()]
    chosen = [c.strip() for c in (criteria.split(",") if isinstance(criteria, str) else criteria or CRITERIA)]
    if design not in (2, 4):
        raise ClarqError(f"--design {design} is not offered", "use --design 2 or --design 4")
    folder = _pairwise_folder(out, run_a, run_b)
    options: Literal[2, 4] = 2 if design == 2 else 4  # checked above
    items = await open_session(
        folder, run_a, run_b, seed=seed, design=options, criteria=chosen, data=str(data) if data else None
    )
    own = client is None
    client = client or LLMClient(ModelCallOptions.of(llm).settings())
    try:
        if models:
            await judge_session(folder, items, client, models, swap=swap_sample, seed=seed)
    finally:
        add_usage(folder, client.usage_by_role)
        if own:
            await client.aclose()
    return PairwiseResult(folder, pairwise_report(folder, seed=seed, resamples=resamples).summary)


def judge_pairs(run_a: str | Path, run_b: str | Path, **options: Any) -> PairwiseResult:
    """Compare two runs task by task with model judges (`judges=["gpt-4o", ...]`), 2 or 4 options per criterion,
    the swapped re-run of `swap_sample` items for position bias; writes the session folder `out` (default
    pairwise/<A>--vs--<B>) and its report. Model-call options as for `run` (api_base, no_cache, max_cost, ...)."""
    import asyncio

    outside_event_loop("judge_pairs")
    return asyncio.run(judge_pairs_async(run_a, run_b, **options))


def pairwise_report(
    folder: str | Path, *, seed: int = DEFAULT_SEED, resamples: int = DEFAULT_RESAMPLES
) -> PairwiseResult:
    """Aggregate every answer of a session folder (models and people) and write summary.json, report.md and
    pairwise-row.json there; usage is what the folder's sessions spent on model calls, all together."""
    from ..pairwise.aggregate import summarize
    from ..pairwise.items import load_items
    from ..pairwise.report import write_report
    from ..pairwise.session import all_answers, read_usage

    folder = Path(folder)
    summary = summarize(
        load_items(folder), all_answers(folder), seed=seed, resamples=resamples, usage=read_usage(folder)
    )
    write_report(summary, folder)
    return PairwiseResult(folder, summary)


def people_server(folder: str | Path, *, port: int = 0) -> PeopleServer:
    """The people page for a session folder's items, on 127.0.0.1 (not started: `.start()` or `.serve_forever()`)."""
    from ..pairwise.items import load_items
    from ..pairwise.people import PeopleServer

    return PeopleServer(Path(folder), load_items(Path(folder)), port=port)
