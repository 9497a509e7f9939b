"""The API's offline clarification track: `select` (`clarq select`), `select_online_offline` and the question bank."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.defaults import DEFAULT_RESAMPLES, DEFAULT_SEED

if TYPE_CHECKING:
    from ..clarify.bank import Bank
    from ..clarify.online_offline import CorrelationReport
    from ..clarify.track import TrackResult


def select(
    seeker: str,
    *,
    lang: str = "en",
    seeker_model: str | None = None,
    seeker_options: dict[str, Any] | None = None,
    data: str | Path | None = None,
    results: str | Path | None = None,
    types: str | list[int] | None = None,
    limit: int | None = None,
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    out: str | Path | None = None,
    write: bool = True,
    plots: bool = True,
    concurrency: int = 32,
    **llm: Any,
) -> TrackResult:
    """The offline clarification track (`clarq select`): `seeker` is an offline ranker (bm25, random, best-question,
    worst-question, no-question), a seeker name or a model; returns the summary, per-state results and the folder
    written (default runs/select/<seeker>-<lang>/). `llm` takes `clarq run`'s model-call options (api_base, cache...)."""
    from ..clarify.track import SelectOptions
    from ..clarify.track import select as run_track

    options = SelectOptions(
        seeker=seeker,
        seeker_model=seeker_model,
        seeker_options=seeker_options or {},
        lang=lang,
        data=str(data) if data else None,
        results=str(results) if results else None,
        types=types,
        limit=limit,
        seed=seed,
        resamples=resamples,
        out=str(out) if out else None,
        write=write,
        plots=plots,
        concurrency=concurrency,
        llm=llm,
    )
    return run_track(options)


def select_online_offline(
    run_dirs: list[str | Path],
    *,
    data: str | Path | None = None,
    results: str | Path | None = None,
    out: str | Path | None = None,
    **llm: Any,
) -> CorrelationReport:
    """Offline track vs dialogue outcomes for the seekers of these `clarq run` folders (MIMICS-Duo): per-task and
    across-seeker Pearson / Spearman / Kendall and leaderboard agreement; with `out`, report.md and correlation.json."""
    from ..clarify.online_offline import correlate
    from ..clarify.online_offline_report import write_report

    report = correlate(
        list(run_dirs), data=str(data) if data else None, results=str(results) if results else None, llm=llm
    )
    if out is not None:
        write_report(report, out)
    return report


def question_bank(lang: str = "en", results: str | Path | None = None) -> Bank:
    """The clarification track's question bank: built from the released files on first use, checked against the
    shipped manifest, cached."""
    from ..clarify.bank import load_bank

    return load_bank(lang, results)  # type: ignore[arg-type]
