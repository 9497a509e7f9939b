"""From a path on disk to Verdicts: reads a run directory (config.json + transcripts.jsonl) or a released results
file, finds each transcript's task, judges them all, and picks the split to report.

This is what `clarq score` and `clarq compare` share; it works from the files alone (no runner code). Tasks of a run
come from --data, else from the run's config.json (core.run_folder.RunDir.data_dir; relative paths tried against
the working directory and then the run directory); released files carry their own tasks. `score_run` is the one
way a set of dialogues is scored: `clarq score`, `clarq compare` and the end of `clarq run` and of a person's run on
the people page (score_finished_run, which also writes the report) all call it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from ..core.defaults import DEFAULT_RESAMPLES, DEFAULT_SEED
from ..core.errors import ClarqError
from ..core.jsonl import read_jsonl
from ..core.run_folder import RunDir
from ..core.run_guard import check_records
from ..core.tasks import Task
from ..core.transcript import Transcript
from .judge import NodeCheck, Verdict, judge_all

if TYPE_CHECKING:
    from .metrics import Summary

Format = Literal["auto", "clarq", "upstream"]


class Source(NamedTuple):
    """One scorable set of dialogues: a name for reports and the (transcript, task) pairs."""

    name: str
    pairs: list[tuple[Transcript, Task]]
    run_dir: Path | None  # where report files go by default (None for released files)


def detect_format(path: Path) -> Literal["clarq", "upstream"]:
    """A run directory or a .jsonl file is ours; a `*.En.json` / `*.Ch.json` file (or a folder of them) is upstream."""
    if path.is_dir():
        if RunDir(path).has_transcripts():
            return "clarq"
        if any(path.glob("*.En.json")) or any(path.glob("*.Ch.json")):
            return "upstream"
        raise ClarqError(f"{path} has no transcripts.jsonl and no released results files", "pass a run directory")
    if not path.exists():
        raise ClarqError(f"{path} does not exist", "pass a run directory or a released results file")
    if path.suffix == ".jsonl":
        return "clarq"
    if path.name.endswith((".En.json", ".Ch.json")):
        return "upstream"
    raise ClarqError(f"cannot tell what {path} is", "use --format clarq or --format upstream")


def read_transcripts(
    path: Path, warn: Callable[[str], None] | None = None, *, within: Path | None = None
) -> list[Transcript]:
    """Every Transcript of a transcripts.jsonl file (clarq_bench.core.jsonl rules: a bad line is a DataError naming file
    and line). An unfinished last line (a run stopped mid-write) is not a dialogue: it is left out and `warn` is told
    which line it was (by default a one-line warning on stderr), never dropped silently."""
    records, unfinished = read_jsonl(path, Transcript, "transcript", within=within)
    if unfinished is not None:
        message = (
            f"{path} line {unfinished} is unfinished (no newline at its end; a run stopped mid-write) and was "
            "not read; `clarq run --resume` plays that dialogue again"
        )
        (warn or _stderr)(message)
    return records


def _stderr(message: str) -> None:
    print(f"clarq: warning: {message}", file=sys.stderr)


def load_tasks_from(location: str | Path, languages: Iterable[str], *, base: Path | None = None) -> dict[str, Task]:
    """Tasks by id from a data folder (upstream layout) or a released results file/folder."""
    from ..data.loader import load_tasks

    path = Path(location).expanduser()
    if not path.exists() and base is not None and (base / path).exists():
        path = base / path
    if path.is_file() or (path.is_dir() and (any(path.glob("*.En.json")) or any(path.glob("*.Ch.json")))):
        from ..data.upstream import load_released_dialogues, released_files

        return {d.task.id: d.task for f in released_files(path) for d in load_released_dialogues(f)}
    return {task.id: task for task in load_tasks(path, tuple(sorted(set(languages))))}  # type: ignore[arg-type]


def load_run(path: Path, data: str | None = None) -> Source:
    """A run directory (or a bare transcripts.jsonl) with the task of every transcript."""
    run_dir = path if path.is_dir() else path.parent
    folder = RunDir(run_dir)
    transcripts = (
        read_transcripts(folder.transcripts_path, within=folder.path) if path.is_dir() else read_transcripts(path)
    )  # a file named itself is read as named; a run's stays inside it
    if folder.is_run():
        folder.check_records(transcripts)  # a pair written twice or out of range is never scored
    else:
        check_records(transcripts, path, None)
    if not transcripts:
        raise ClarqError(f"{path} holds no transcripts", "run some dialogues first")
    location = data or (folder.data_dir() if folder.is_run() else None)
    if location is None:
        raise ClarqError(f"cannot tell which tasks {path} was played on", "pass --data DIR")
    tasks = load_tasks_from(location, {t.language for t in transcripts}, base=run_dir)
    pairs = []
    for transcript in transcripts:
        task = tasks.get(transcript.task_id)
        if task is None:
            raise ClarqError(f"task {transcript.task_id} of {path} is not in {location}", "pass the run's --data DIR")
        if transcript.task_hash and transcript.task_hash != task.content_hash():
            raise ClarqError(
                f"task {transcript.task_id} in {location} differs from the one the run was played on",
                "score with the same task data the run used",
            )
        pairs.append((transcript, task))
    return Source(
        name=run_dir.name if path.is_dir() else path.name, pairs=pairs, run_dir=run_dir if path.is_dir() else None
    )


def load_sources(path: str | Path, fmt: Format = "auto", data: str | None = None) -> list[Source]:
    """What PATH holds: one run, or one Source per released results file."""
    path = Path(path).expanduser()
    kind = detect_format(path) if fmt == "auto" else fmt
    if kind == "clarq":
        return [load_run(path, data)]
    from ..data.upstream import released_files
    from .score_import import import_released

    files = released_files(path)
    if not files:
        raise ClarqError(
            f"{path} holds no released results files (*.En.json / *.Ch.json)",
            "pass a results file, a folder of them, or a run directory with --format clarq",
        )
    return [Source(name=f.name, pairs=import_released(f), run_dir=None) for f in files]


def select_split(verdicts: list[Verdict], split: str = "auto") -> tuple[list[Verdict], str]:
    """Keep one split: `auto` = the test split when any test dialogue is present (as released), else all."""
    if split == "auto":
        split = "test" if any(v.split == "test" for v in verdicts) else "all"
    chosen = verdicts if split == "all" else [v for v in verdicts if v.split == split]
    if not chosen:
        raise ClarqError(f"no dialogues of split {split!r}", "use --split all")
    return chosen, split


def node_check_for(judge_model: str, client: Any = None) -> NodeCheck | None:
    """The LLM leftover check for `--judge MODEL` (None for `--judge none`), through `client` when given (a run's
    own client: its endpoint, cache and budget), else a default one."""
    if judge_model == "none":
        return None
    from ..core.registry import looks_like_model
    from ..llm import LLMClient, LLMSettings
    from .judge_llm import llm_node_check

    if not looks_like_model(judge_model):  # the seekers' rule: `provider/model` or a known model family
        raise ClarqError(f"unknown judge model {judge_model!r}", "pass --judge none or a model such as gpt-4o")
    return llm_node_check(client if client is not None else LLMClient(LLMSettings()), judge_model)


async def judge_source(source: Source, check: NodeCheck | None, judge_name: str = "none") -> list[Verdict]:
    return await judge_all(source.pairs, check, judge_name=judge_name)


def record_judge_spending(run_dir: Path, usd: float) -> None:
    """Add what a scoring paid its judge to the run's spending.json, so the run's cost (`clarq runs`, the budget of a
    resume) is the whole cost. A folder that cannot be written (someone else's run, read-only) costs a warning: the
    scoring itself is done and paid."""
    folder = RunDir(run_dir)
    if not folder.is_run():
        return
    try:
        folder.add_scoring_spending(usd)
    except ClarqError as exc:
        print(
            f"clarq: warning: the judge's ${usd:.4f} is not in {run_dir}'s spending.json ({exc.problem})",
            file=sys.stderr,
            flush=True,
        )


class Scored(NamedTuple):
    """One scored set of dialogues: where it came from, its summary, and the verdicts the summary counts."""

    source: Source
    summary: Summary
    verdicts: list[Verdict]


async def score_run(
    source: Source,
    *,
    judge: str = "none",
    check: NodeCheck | None = None,
    client: Any = None,
    split: str = "auto",
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
) -> Scored:
    """Judge a source's dialogues (the deterministic stage, then `judge`'s model check: `check` when given, else
    one through `client`), keep `split`, and summarize with the usage recorded on the transcripts (a run or a
    transcripts.jsonl: released files record none) plus what judging cost."""
    from ..llm.accounting import track_usage
    from .metrics import run_usage, summarize
    from .report import task_set_label

    if check is None:
        check = node_check_for(judge, client)
    with track_usage() as meter:
        try:
            verdicts = await judge_source(source, check, judge)
        finally:  # paid even when the scoring is interrupted (Ctrl-C, SIGTERM) before it ends
            judged = meter.by_role.get("judge")
            if judged is not None and judged.cost_usd > 0 and source.run_dir is not None:
                record_judge_spending(source.run_dir, judged.cost_usd)
    chosen, chosen_split = select_split(verdicts, split)
    recorded = source.run_dir is not None or source.name.endswith(".jsonl")
    usage = (
        run_usage((t for t, _ in source.pairs) if recorded else (), judge=judged, judge_model=judge)
        if recorded or (judged is not None and judged.calls)
        else None
    )
    summary = summarize(
        chosen,
        source=source.name,
        split=chosen_split,
        seed=seed,
        resamples=resamples,
        usage=usage,
        task_set=task_set_label(source.pairs),
    )
    return Scored(source, summary, chosen)


async def score_finished_run(run_dir: Path, tasks: list[Task], judge: str, split: str, client: Any) -> Summary | None:
    """The end of `clarq run` (and of a person's run on the people page): score the run's dialogues on the tasks it
    selected through score_run and write summary.json, report.md and the plots (None when no dialogue of them was
    written). A run of split "all" reports all its dialogues, each split in its own rows; a model judge calls
    through the run's own client (endpoint, cache, budget)."""
    from .report import type_names_of, write_report

    folder = RunDir(run_dir)
    by_id = {task.id: task for task in tasks}
    records = folder.transcripts()[0]
    folder.check_records(records)  # a pair written twice is never scored twice
    pairs = [(t, by_id[t.task_id]) for t in records if t.task_id in by_id]
    if not pairs:
        return None
    scored = await score_run(
        Source(folder.name, pairs, run_dir), judge=judge, client=client, split="all" if split == "all" else "auto"
    )
    write_report(scored.summary, run_dir, verdicts=scored.verdicts, type_names=type_names_of(pairs))
    return scored.summary
