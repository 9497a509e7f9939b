"""The Python API: the benchmark without argv. Every `clarq` command is flag parsing, one call here, and printing.

    import clarq_bench as clarq
    result = clarq.run(seeker="heuristic", provider="offline", tasks="tasks", lang="en", limit=4)
    result.run_dir, result.summary.figures["success"]
    clarq.score("runs/<run-id>"), clarq.compare("runs/a", "runs/b"), clarq.load_tasks("tasks", lang="en")
    clarq.evaluate_provider(RELEASED_FILE, provider="offline"), clarq.audit_provider("tasks", provider="offline")

Options keep the names of `clarq run`'s flags (`--seeker-model` is seeker_model); what a flag defaults to, the
option defaults to. This module composes the layers below it (fidelity, play, scoring, data) and imports no cli; the heavy
ones are imported when a function is called, so `import clarq_bench` stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .fidelity.checks import audit_provider, evaluate_provider

if TYPE_CHECKING:
    from .core.tasks import Task
    from .data.validate import ValidationReport
    from .leaderboard.schema import Submission
    from .leaderboard.verify import Verification
    from .play.run_config import RunConfig
    from .play.estimate import Estimate
    from .play.runner import RunStats
    from .play.runs_index import RunRow
    from .play.setup import RunOptions
    from .scoring.comparison import Comparison
    from .scoring.judge import Verdict
    from .scoring.metrics import Summary
    from .scoring.sources import Source
    from .seekers import DialogueView, Seeker, SeekerConfig, SeekerTask, register_seeker

__all__ = [
    "DialogueView", "RunResult", "Scored", "Seeker", "SeekerConfig", "SeekerTask", "audit_provider", "compare",
    "evaluate_provider", "load_tasks", "register_seeker", "run", "run_async", "score", "submit", "task_stats",
    "validate_tasks", "verify_submissions", "build_leaderboard", "view", "list_runs", "estimate_run",
]  # fmt: skip


#: The plug-in names of clarq_bench.seekers, loaded on first access (the task commands need no seeker code).
SEEKER_NAMES = ("DialogueView", "Seeker", "SeekerConfig", "SeekerTask", "register_seeker")


def __getattr__(name: str) -> Any:
    if name in SEEKER_NAMES:
        from . import seekers

        return getattr(seekers, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class RunResult(NamedTuple):
    """What a run left: its folder (config.json, transcripts.jsonl, summary.json, report.md), the scored summary
    (None when no dialogue was written) and the run's totals (done, errors, cost, why it stopped)."""

    run_dir: Path
    summary: Summary | None
    stats: RunStats


class Scored(NamedTuple):
    """One scored set of dialogues: where it came from, its summary, and the verdicts the summary counts."""

    source: Source
    summary: Summary
    verdicts: list[Verdict]


def load_tasks(source: str | Path | None = None, *, lang: str = "all", split: str = "all",
               types: str | list[int] | None = None) -> list[Task]:
    """Tasks from a folder in the upstream layout (e.g. the project's tasks/), else $CLARQ_DATA, else the download
    cache; `lang` en|zh|all, `split` test|dev|all, `types` as `1-13,20` or a list of type numbers."""
    from .data.selection import load_selected

    return load_selected(source, lang=lang, split=split, types=types)


def task_stats(source: str | Path | None = None, *, lang: str = "all", split: str = "all",
               types: str | list[int] | None = None) -> dict[str, dict[str, Any]]:
    """Per language: tasks, test and dev counts, required nodes and the depth histogram of the selected tasks."""
    from .data.task_stats import task_stats as stats_of

    return stats_of(load_tasks(source, lang=lang, split=split, types=types))


def validate_tasks(source: str | Path | None = None) -> tuple[Path, ValidationReport]:
    """The data folder (resolved as load_tasks resolves it) and every problem of its files."""
    from .data.loader import resolve_data_dir
    from .data.validate import validate_folder

    root = resolve_data_dir(source)
    return root, validate_folder(root)


async def run_async(
    options: RunOptions | None = None, /, *, on_start: Callable[[RunConfig, list[Task]], None] | None = None,
    on_update: Callable[[RunStats], None] | None = None,
    on_run_dir: Callable[[Path, list[RunRow]], None] | None = None, **fields: Any,
) -> RunResult:
    """`run` inside a running event loop (a notebook cell: `await clarq.run_async(...)`)."""
    from .play.runner import run_dialogues, summarize_run
    from .play.setup import RunOptions, prepare

    options = RunOptions.of(options, **fields)
    config, tasks, client, run_dir = prepare(options)
    if on_run_dir is not None:  # the folder (for the resume command) and the identical runs that already exist
        from .play.runs_index import identical_runs

        on_run_dir(run_dir, [] if options.resume else identical_runs(config, client, options.runs_dir))
    if on_start is not None:
        on_start(config, tasks)
    try:
        stats = await run_dialogues(config, tasks, run_dir, client=client, resume=bool(options.resume),
                                    force=options.force, retry_errors=options.retry_errors, on_update=on_update)
    finally:
        close = getattr(client, "aclose", None)
        if close is not None:  # HTTP sessions and the cache of this event loop
            await close()
    return RunResult(run_dir, await summarize_run(run_dir, tasks, config.judge_model, split=config.split), stats)


def run(options: RunOptions | None = None, /, *, on_start: Callable[[RunConfig, list[Task]], None] | None = None,
        on_update: Callable[[RunStats], None] | None = None,
        on_run_dir: Callable[[Path, list[RunRow]], None] | None = None, **fields: Any) -> RunResult:
    """Play a seeker against a provider on the selected tasks into a new run folder (or `resume=RUN_DIR`), then
    score it. Options are `clarq run`'s flags as keywords (seeker, provider, tasks, lang, limit, trials, ...), or a
    RunOptions. `on_run_dir(folder, identical_runs)` is called once the folder is known, `on_start(config, tasks)`
    before the first dialogue, `on_update(stats)` after each."""
    import asyncio

    return asyncio.run(run_async(options, on_start=on_start, on_update=on_update, on_run_dir=on_run_dir, **fields))


def estimate_run(options: RunOptions | None = None, /, **fields: Any) -> tuple[RunConfig, list[Task], Estimate]:
    """What `run` with these options would play and call, and a dollar range (`clarq run --dry-run`): nothing is
    played, no key is needed, nothing touches the network."""
    from .play.estimate import estimate
    from .play.runner import load_run_config
    from .play.setup import RunOptions, build_config, import_seeker_modules, models_by_role, select_tasks

    options = RunOptions.of(options, **fields)
    import_seeker_modules(options.seeker_module)
    base = load_run_config(Path(options.resume)) if options.resume else None
    config, tasks = select_tasks(build_config(options, base), options)
    models = models_by_role(config.seeker, config.provider, config.judge_model)
    return config, tasks, estimate(config, tasks, models)


def list_runs(root: str | Path = "runs") -> list[RunRow]:
    """Every run folder under `root` (`clarq runs`): agents, languages, dialogues done of total, successes, errors,
    cost and state (finished, unfinished, empty) with the command that resumes it."""
    from .play.runs_index import list_runs as rows

    return rows(root)


def score(path: str | Path, *, format: str = "auto", judge: str = "none", data: str | Path | None = None,
          split: str = "auto", seed: int = 8848, resamples: int = 2000, out: str | Path | None = None,
          write: bool = True, plots: bool = True) -> list[Scored]:
    """Judge and summarize a run folder, a transcripts.jsonl or a released results file (or a folder of them: one
    Scored each). With `write`, summary.json, report.md and plots go to `out` (default: the run folder)."""
    from .scoring.report import write_report

    results = _score_sources(path, format=format, judge=judge, data=data, split=split, seed=seed,
                             resamples=resamples)
    for result in results:
        folder = Path(out) / result.source.name if out and len(results) > 1 else out or result.source.run_dir
        if folder is not None and write:
            write_report(result.summary, folder, plots=plots)
    return results


def compare(a: str | Path, b: str | Path, *, format: str = "auto", judge: str = "none", data: str | Path | None = None,
            split: str = "auto", seed: int = 8848, resamples: int = 2000) -> Comparison:
    """A - B on the dialogues both sides played (paired on task content and trial): paired bootstrap intervals for
    success, AQD and AQL, the exact McNemar test for success, and the settings that differ between the sides."""
    from .core.errors import ClarqError
    from .scoring.comparison import compare as compare_verdicts
    from .scoring.settings import settings_differ, task_hashes

    sides = []
    for path in (a, b):
        results = _score_sources(path, format=format, judge=judge, data=data, split=split, seed=seed,
                                 resamples=resamples)
        if len(results) != 1:
            raise ClarqError(f"{path} holds {len(results)} result sets", "compare one run or one file per side")
        sides.append(results[0])
    (source_a, _, verdicts_a), (source_b, _, verdicts_b) = sides
    result = compare_verdicts(verdicts_a, verdicts_b, names=(source_a.name, source_b.name), seed=seed,
                              resamples=resamples, hashes=(task_hashes(source_a), task_hashes(source_b)))
    result.settings_differ = settings_differ(source_a, source_b)
    return result


def _score_sources(path: str | Path, *, format: str, judge: str, data: str | Path | None, split: str, seed: int,
                   resamples: int) -> list[Scored]:
    """Scored for every scorable set under `path` (a folder of released files holds several)."""
    import asyncio

    from .scoring.metrics import run_usage, summarize
    from .scoring.sources import judge_source, load_sources, node_check_for, select_split

    check = node_check_for(judge)
    results = []
    for source in load_sources(path, format, data):
        verdicts = asyncio.run(judge_source(source, check, judge))
        chosen, chosen_split = select_split(verdicts, split)
        usage = run_usage(t for t, _ in source.pairs) if source.run_dir is not None or source.name.endswith(".jsonl") \
            else None  # released files record no usage
        summary = summarize(chosen, source=source.name, split=chosen_split, seed=seed, resamples=resamples,
                            usage=usage)
        results.append(Scored(source, summary, chosen))
    return results


def submit(run_dir: str | Path, output: str | Path, *, name: str = "", org: str = "", notes: str = "",
           data: str | Path | None = None, partial: bool = False) -> tuple[Submission, Path]:
    """Pack a finished run as a leaderboard submission file (JSON, or zip when `output` ends .zip)."""
    from .core.errors import ClarqError
    from .leaderboard.bundle import build_submission, write_submission
    from .leaderboard.schema import MAX_NAME_CHARS, MAX_NOTES_CHARS, Submitter

    for flag, value, limit in (("--name", name, MAX_NAME_CHARS), ("--org", org, MAX_NAME_CHARS),
                               ("--notes", notes, MAX_NOTES_CHARS)):
        if len(value) > limit:
            raise ClarqError(f"{flag} is {len(value)} characters long (limit {limit})", f"shorten {flag}")
    submitter = Submitter(name=name, org=org, notes=notes)
    submission = build_submission(run_dir, data=data, submitter=submitter, partial=partial)
    return submission, write_submission(submission, output)


def verify_submissions(files: list[str | Path], *, data: str | Path | None = None) -> list[Verification]:
    """Verify each submission file by recomputing it from its transcripts (and replaying offline ones)."""
    from .leaderboard.verify import load_task_data, verify_file

    _, tasks = load_task_data(data, {"en", "zh"})
    return [verify_file(path, data, tasks)[1] for path in files]


def build_leaderboard(directory: str | Path, output: str | Path, *, reference: str | Path | None = None,
                      data: str | Path | None = None, verify: bool = True,
                      plots: bool = True) -> tuple[Path, list, list[tuple[str, list[str]]]]:
    """The static leaderboard site from a folder of submission files (each verified unless `verify` is False), with
    released results files as reference rows: (index.html, entries shown, (name, problems) of those rejected)."""
    from .leaderboard.site import build_site, load_entries, reference_entries

    entries, rejected = load_entries(directory, data=data, verify=verify)
    if reference:
        entries += reference_entries(reference)
    return build_site(entries, output, rejected=rejected, plots=plots), entries, rejected


def view(path: str | Path, out: str | Path | None = None, *, data: str | Path | None = None) -> Path:
    """The dialogue viewer (static HTML) for a run folder or released results file; returns its index.html.
    `out` defaults to `<run>/view/` for a run, else a folder named after the file in the system's temp folder."""
    import tempfile

    from .leaderboard.view import build_view, file_stem

    source = Path(path).expanduser()
    if out is None:
        if source.is_dir() and (source / "transcripts.jsonl").is_file():
            out = source / "view"
        else:
            out = Path(tempfile.gettempdir()) / f"clarq-view-{file_stem(source.resolve().stem)}"
    return build_view(source, out, data=str(data) if data else None)
