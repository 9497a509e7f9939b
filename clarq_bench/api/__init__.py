"""The Python API: the benchmark without argv. Every `clarq` command is flag parsing, one call here, and printing.

    import clarq_bench as clarq
    result = clarq.run(seeker="heuristic", provider="offline", tasks="tasks", lang="en", limit=4)
    result.run_dir, result.summary.figures["success"]
    clarq.score("runs/<run-id>"), clarq.compare("runs/a", "runs/b"), clarq.load_tasks("tasks", lang="en")
    clarq.evaluate_provider(RELEASED_FILE, provider="offline"), clarq.audit_provider("tasks", provider="offline")
    clarq.judge_pairs("runs/a", "runs/b", judges=["gpt-4o"], design=4, swap_sample=20)
    clarq.select("bm25", lang="en"), clarq.select_online_offline(["runs/a", "runs/b"])  # offline clarification track

Options keep the names of `clarq run`'s flags (`--seeker-model` is seeker_model); what a flag defaults to, the
option defaults to. This module composes the layers below it (fidelity, pairwise, runner, scoring, data) and
imports no cli; the heavy ones are imported when a function is called, so `import clarq_bench` stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from ..core.defaults import DEFAULT_MAX_TURNS, DEFAULT_RESAMPLES, DEFAULT_SEED
from ..fidelity.checks import audit_provider, evaluate_provider, search_provider
from .event_loop import outside_event_loop
from .leaderboard import build_leaderboard, submit, verify_submissions
from .pairwise import PairwiseResult, judge_pairs, judge_pairs_async, pairwise_report, people_server
from .tracks import question_bank, select, select_online_offline

if TYPE_CHECKING:
    from ..core.run_config import RunConfig
    from ..core.tasks import Task
    from ..data.validate import ValidationReport
    from ..inspect_task.convert import Imported as ImportedLog
    from ..runner.batch import RunStats
    from ..runner.estimate import Estimate
    from ..runner.person import Played
    from ..runner.prepare import RunOptions
    from ..runner.runs_index import RunRow
    from ..runner.web_play import PlayServer
    from ..scoring.comparison import Comparison
    from ..scoring.metrics import Summary
    from ..scoring.sources import Format, Scored
    from ..seekers import DialogueView, Seeker, SeekerConfig, SeekerTask, register_seeker

__all__ = [
    "DialogueView",
    "RunResult",
    "Scored",
    "Seeker",
    "SeekerConfig",
    "SeekerTask",
    "audit_provider",
    "compare",
    "evaluate_provider",
    "load_tasks",
    "register_seeker",
    "run",
    "run_async",
    "score",
    "submit",
    "task_stats",
    "validate_tasks",
    "verify_submissions",
    "build_leaderboard",
    "judge_pairs",
    "judge_pairs_async",
    "pairwise_report",
    "people_server",
    "PairwiseResult",
    "select",
    "select_online_offline",
    "question_bank",
    "view",
    "list_runs",
    "estimate_run",
    "import_inspect",
    "search_provider",
    "play",
    "play_server",
]


#: The plug-in names of clarq_bench.seekers, loaded on first access (the task commands need no seeker code).
SEEKER_NAMES = ("DialogueView", "Seeker", "SeekerConfig", "SeekerTask", "register_seeker")


def __getattr__(name: str) -> Any:
    if name == "Scored":
        from ..scoring.sources import Scored

        return Scored
    if name in SEEKER_NAMES:
        from .. import seekers

        return getattr(seekers, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class RunResult(NamedTuple):
    """What a run left: its folder (config.json, transcripts.jsonl, summary.json, report.md), the scored summary
    (None when no dialogue was written) and the run's totals (done, errors, cost, why it stopped)."""

    run_dir: Path
    summary: Summary | None
    stats: RunStats


def load_tasks(
    source: str | Path | None = None, *, lang: str = "all", split: str = "all", types: str | list[int] | None = None
) -> list[Task]:
    """Tasks from a folder in the upstream layout (e.g. the project's tasks/), else $CLARQ_DATA, else the download
    cache; `lang` en|zh|all, `split` test|dev|all, `types` as `1-13,20` or a list of type numbers."""
    from ..data.selection import load_selected

    return load_selected(source, lang=lang, split=split, types=types)


def task_stats(
    source: str | Path | None = None, *, lang: str = "all", split: str = "all", types: str | list[int] | None = None
) -> dict[str, dict[str, Any]]:
    """Per language: tasks, test and dev counts, required nodes and the depth histogram of the selected tasks."""
    from ..data.task_stats import task_stats as stats_of

    return stats_of(load_tasks(source, lang=lang, split=split, types=types))


def validate_tasks(source: str | Path | None = None) -> tuple[Path, ValidationReport]:
    """The data folder (resolved as load_tasks resolves it) and every problem of its files."""
    from ..data.loader import resolve_data_dir
    from ..data.validate import validate_folder

    root = resolve_data_dir(source)
    return root, validate_folder(root)


async def run_async(
    options: RunOptions | None = None,
    /,
    *,
    on_start: Callable[[RunConfig, list[Task]], None] | None = None,
    on_update: Callable[[RunStats], None] | None = None,
    on_run_dir: Callable[[Path, list[RunRow]], None] | None = None,
    **fields: Any,
) -> RunResult:
    """`run` inside a running event loop (a notebook cell: `await clarq.run_async(...)`)."""
    from ..runner.batch import build_provider, play_run
    from ..runner.dialogue_pool import open_pool
    from ..runner.prepare import prepare
    from ..scoring.sources import score_finished_run

    options = _request_of(options, fields)
    run = await _in_passing_thread(prepare, options)  # loading tasks must not stall the loop (the people page)
    pool = open_pool(
        run, build_provider, options.provider_workers or 0
    )  # forked now, before a progress display's thread starts
    ready = None
    if on_run_dir is not None:  # the folder (for the resume command) and the identical runs that already exist,
        from ..runner.runs_index import identical_runs  # found before this run's config is written, told after it

        twins = [] if options.resume else identical_runs(run.config, options.runs_dir)
        ready = lambda: on_run_dir(run.run_dir, twins)  # noqa: E731
    try:
        if on_start is not None:
            on_start(run.config, run.tasks)
        stats = await play_run(
            run,
            resume=bool(options.resume),
            force=options.force,
            provider_workers=options.provider_workers or 0,
            retry_errors=options.retry_errors,
            on_update=on_update,
            on_ready=ready,
            dialogue_pool=pool,
        )
        if pool is not None:
            pool.close()
        with _settled_heap(judged_by_model=(run.config.judge_model or "none") != "none"):
            summary = await score_finished_run(
                run.run_dir, run.tasks, run.config.judge_model or "none", run.config.split, run.client
            )
    finally:
        if pool is not None:
            pool.close()
        close = getattr(run.client, "aclose", None)
        if close is not None:  # HTTP sessions and the cache of this event loop
            await close()
    return RunResult(run.run_dir, summary, stats)


_T = TypeVar("_T")


async def _in_passing_thread(function: Callable[..., _T], *args: Any) -> _T:
    """`function(*args)` in a thread of its own that is gone once it returns (asyncio.to_thread's thread stays for
    the rest of the run, and a process with a second thread must not fork workers: core/workers.py)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    executor = ThreadPoolExecutor(1, thread_name_prefix="clarq-prepare")
    try:
        result = await asyncio.get_running_loop().run_in_executor(executor, function, *args)
    except BaseException:
        executor.shutdown(wait=False)  # (cancelled: the loop does not wait for the thread)
        raise
    executor.shutdown(wait=True)  # its work is done: joining it is immediate
    return result


@contextmanager
def _settled_heap(*, judged_by_model: bool) -> Iterator[None]:
    """While a run is scored, the objects its dialogues left are out of the cyclic collector's sight (gc.freeze).

    Why: the first collection of scoring walked every transcript, turn and provider cache the run had built (about
    0.13 s for 260 offline dialogues) to find almost nothing; frozen, it walks only what scoring allocates. They are
    given back to the collector when scoring ends. Skipped when something else froze objects (litellm's import heap,
    llm/models.py, which must stay frozen): before, or possibly during a model judge's calls."""
    import gc

    if judged_by_model or gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def run(
    options: RunOptions | None = None,
    /,
    *,
    on_start: Callable[[RunConfig, list[Task]], None] | None = None,
    on_update: Callable[[RunStats], None] | None = None,
    on_run_dir: Callable[[Path, list[RunRow]], None] | None = None,
    **fields: Any,
) -> RunResult:
    """Play a seeker against a provider on the selected tasks into a new run folder (or `resume=RUN_DIR`), then
    score it. Options are `clarq run`'s flags as keywords (seeker, provider, tasks, lang, limit, trials, ...), or a
    RunOptions. `on_run_dir(folder, identical_runs)` is called once the folder's config.json is written,
    `on_start(config, tasks)` before the first dialogue, `on_update(stats)` after each."""
    from ..core.loop import run_to_end  # asyncio.run, but a plug-in cannot hang or crash the exit; SIGTERM = Ctrl-C

    outside_event_loop("run")
    return run_to_end(run_async(options, on_start=on_start, on_update=on_update, on_run_dir=on_run_dir, **fields))


def play(
    task_id: str,
    role: str,
    *,
    seeker: str = "heuristic",
    provider: str = "offline",
    tasks: str | Path | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    seeker_module: list[str] | str | None = None,
    provider_reading: str | None = None,
    **llm: Any,
) -> Played:
    """One dialogue with you on one side at the terminal (`clarq play`): role "provider" answers `seeker` with the
    tree on screen, role "seeker" asks `provider` (an LLM provider in `provider_reading`: model or strict). `llm`:
    model-call options (api_base, no_cache, ...). Ctrl-C raises KeyboardInterrupt; nothing is saved."""
    from ..llm.options import ModelCallOptions
    from ..runner.person import play_by_hand

    return play_by_hand(
        task_id,
        role,
        seeker=seeker,
        provider=provider,
        source=tasks,
        max_turns=max_turns,
        seeker_module=seeker_module,
        options=ModelCallOptions.of(llm),
        provider_reading=provider_reading,
    )


def play_server(runs_dir: str | Path = "runs", *, port: int = 0, **options: Any) -> PlayServer:
    """The page where people play the selected tasks as the seeker (`clarq play --web`), each person's dialogues a
    run of their own through `run_async`; `options` are run's (tasks, lang, limit, provider, ...). Then `await
    server.serve()` (its URL) and `await server.close()`."""
    from ..runner.web_play import PlayServer

    return PlayServer(runs_dir, options, port=port, run=run_async)


def estimate_run(options: RunOptions | None = None, /, **fields: Any) -> tuple[RunConfig, list[Task], Estimate]:
    """What `run` with these options would play and call, and a dollar range (`clarq run --dry-run`): nothing is
    played, no key is needed, nothing touches the network."""
    from ..runner.estimate import estimate
    from ..runner.prepare import plan
    from ..runner.run_identity import with_reading

    config, tasks, (_, provider), models = plan(_request_of(options, fields))
    config = with_reading(config, provider)
    return config, tasks, estimate(config, tasks, models)


def _request_of(options: RunOptions | None, fields: dict[str, Any]) -> RunOptions:
    """The run's one request: the RunOptions the caller built (the command line builds it once from its flags), or
    one built here, once, from keyword arguments (an unknown name is a ClarqError naming it)."""
    from ..runner.prepare import RunOptions

    if isinstance(options, RunOptions) and not fields:
        return options
    return RunOptions.of(options, **fields)


def list_runs(root: str | Path = "runs") -> list[RunRow]:
    """Every run folder under `root` (`clarq runs`): agents, languages, dialogues done of total, successes, errors,
    cost and state (finished, unfinished, empty) with the command that resumes it."""
    from ..runner.runs_index import list_runs as rows

    return rows(root)


def score(
    path: str | Path,
    *,
    format: Format = "auto",
    judge: str = "none",
    data: str | Path | None = None,
    split: str = "auto",
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    out: str | Path | None = None,
    write: bool = True,
    plots: bool = True,
    api_base: str | None = None,
) -> list[Scored]:
    """Judge and summarize a run folder, a transcripts.jsonl or a released results file (or a folder of them: one
    Scored each). With `write`, summary.json, report.md and plots go to `out` (default: the run folder). A model
    `judge` is called at `api_base` when given (an OpenAI-compatible endpoint)."""
    from ..scoring.report import type_names_of, write_report

    results = _score_sources(
        path, format=format, judge=judge, data=data, split=split, seed=seed, resamples=resamples, api_base=api_base
    )
    for result in results:
        folder = Path(out) / result.source.name if out and len(results) > 1 else out or result.source.run_dir
        if folder is not None and write:
            write_report(
                result.summary,
                folder,
                plots=plots,
                verdicts=result.verdicts,
                type_names=type_names_of(result.source.pairs),
            )
    return results


def compare(
    a: str | Path,
    b: str | Path,
    *,
    format: Format = "auto",
    judge: str = "none",
    data: str | Path | None = None,
    split: str = "auto",
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    api_base: str | None = None,
    across_settings: bool = False,
) -> Comparison:
    """A - B on the dialogues both sides played (paired on task content and trial): paired bootstrap intervals for
    success, AQD, AQL and efficiency, the exact McNemar test for success, and the settings that differ between the sides.
    Sides played against another provider, provider mode or turn cap are refused unless `across_settings` (the
    result then lists them in `cross_setting`)."""
    from ..core.errors import ClarqError
    from ..scoring.comparison import compare as compare_verdicts
    from ..scoring.settings_diff import setting_conflicts, settings_differ, task_hashes

    sides = []
    for path in (a, b):
        results = _score_sources(
            path, format=format, judge=judge, data=data, split=split, seed=seed, resamples=resamples, api_base=api_base
        )
        if len(results) != 1:
            raise ClarqError(f"{path} holds {len(results)} result sets", "compare one run or one file per side")
        sides.append(results[0])
    (source_a, _, verdicts_a), (source_b, _, verdicts_b) = sides
    conflicts = setting_conflicts(source_a, source_b)
    if conflicts and not across_settings:
        raise ClarqError(
            f"the two sides were played in different settings ({'; '.join(conflicts)}), so A - B mixes "
            "the seekers with the setting",
            "compare runs of one setting, or pass --across-settings to see the comparison labelled as across settings",
        )
    result = compare_verdicts(
        verdicts_a,
        verdicts_b,
        names=(source_a.name, source_b.name),
        seed=seed,
        resamples=resamples,
        hashes=(task_hashes(source_a), task_hashes(source_b)),
    )
    result.settings_differ = settings_differ(source_a, source_b)
    result.cross_setting = conflicts
    return result


def _score_sources(
    path: str | Path,
    *,
    format: Format,
    judge: str,
    data: str | Path | None,
    split: str,
    seed: int,
    resamples: int,
    api_base: str | None = None,
) -> list[Scored]:
    """Scored for every scorable set under `path` (a folder of released files holds several). Run like `clarq run`
    (core.loop.run_to_end): SIGTERM and SIGHUP stop it as Ctrl-C does, so what the judge was paid is still written to
    the run's spending.json, and the judge's client is closed."""
    from ..core.loop import run_to_end
    from ..scoring.sources import load_sources, node_check_for, score_run

    client = None
    if judge != "none":
        from ..llm import LLMClient, LLMSettings

        client = LLMClient(LLMSettings(api_base=api_base))
    check = node_check_for(judge, client)
    sources = load_sources(path, format, str(data) if data is not None else None)

    async def score_all() -> list[Scored]:
        try:
            return [
                await score_run(source, judge=judge, check=check, split=split, seed=seed, resamples=resamples)
                for source in sources
            ]
        finally:
            if client is not None:
                await client.aclose()

    return run_to_end(score_all())


def import_inspect(
    log: str | Path, out: str | Path | None = None, *, runs_dir: str | Path = "runs", plots: bool = True
) -> tuple[ImportedLog, Scored]:
    """An inspect eval log of the `clarq_bench/clarq` task as a clarq run folder (`out`, default
    runs_dir/inspect-<model>-...), scored as `score` scores it; the folder then views, compares, submits and (for an
    offline provider) verifies by replay like any run."""
    from ..inspect_task.convert import import_log

    imported = import_log(log, out, runs_dir=runs_dir)
    return imported, score(imported.run_dir, plots=plots)[0]


def view(path: str | Path, out: str | Path | None = None, *, data: str | Path | None = None) -> Path:
    """The dialogue viewer (static HTML) for a run folder or released results file; returns its index.html.
    `out` defaults to `<run>/view/` for a run, else a folder named after the file in the system's temp folder."""
    import tempfile

    from ..core.run_folder import RunDir
    from ..leaderboard.view import build_view, check_run_view, file_stem

    source = Path(path).expanduser()
    if out is None:
        if source.is_dir() and RunDir(source).has_transcripts():
            out = source / "view"
            check_run_view(out)  # a run folder's `view` is written to and served: it must be its own
        else:
            out = Path(tempfile.gettempdir()) / f"clarq-view-{file_stem(source.resolve().stem)}"
    return build_view(source, out, data=str(data) if data else None)
