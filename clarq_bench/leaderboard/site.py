"""`clarq leaderboard build`: verify a folder of submissions, import the released reference dialogues, write a site.

The site is static files only (index.html, assets/, s/<slug>.html, s/<slug>-dialogues.html, PNG plots) with
relative links, so it works from file:// and any static host. Submissions that fail verification are listed as
rejected on the index page and get no row, unless verification is switched off (rows then say "not verified").
Pairwise results and the offline clarification track's summaries (pairwise_rows.py, track_rows.py) add sections
of their own to the index; a file of either that cannot be read is listed as rejected too.
"""

from __future__ import annotations

import re
import shutil
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path

from ..core.defaults import DEFAULT_MAX_TURNS
from ..core.errors import ClarqError
from ..core.redact import redact
from ..core.tasks import Task
from ..core.transcript import AgentInfo
from ..core.version import __version__
from ..data.task_sets import SAMPLE, kind_of, sample_tasks_dir
from ..scoring.judge import judge_deterministic
from .bounds import Refused
from .bundle import read_submission
from .entry import REPLAYED, SELF_REPORTED, STATUS_REFERENCE, STATUS_UNVERIFIED, STATUS_VERIFIED, Entry
from .figures import compute_metrics, token_unit_differs, without_token_figures
from .pages import dialogues_page, index_page, submission_page
from .pairwise_rows import PairwiseRow, pairwise_html
from .schema import Label, Manifest, Submitter, task_set_hash
from .track_rows import TrackRow, track_html
from .verify import REPLAYED as VERIFY_REPLAYED
from .verify import load_task_data, verify_file

ASSETS = ("style.css", "leaderboard.js")


def submission_files(directory: str | Path) -> list[Path]:
    """The `.json` / `.zip` files of a folder (or the one file given), in name order."""
    path = Path(directory)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise ClarqError(f"{path} does not exist", "pass a folder of submission files")
    return sorted(p for p in path.iterdir() if p.is_file() and p.suffix in (".json", ".zip"))


def load_entries(
    directory: str | Path, *, data: str | None = None, verify: bool = True
) -> tuple[list[Entry], list[tuple[str, list[str]]]]:
    """Verified entries and (file name, problems) of the rejected ones."""
    files = submission_files(directory)
    entries: list[Entry] = []
    rejected: list[tuple[str, list[str]]] = []
    tasks: dict[str, Task] | None = None
    if verify and files:
        _, tasks = load_task_data(data, {"en", "zh"})
    samples = _sample_tasks(tasks) if verify and files else None
    for path in files:
        if not verify:
            try:  # an unreadable file is rejected on its own, never the end of the build
                read = read_submission(path)
            except ClarqError as exc:
                rejected.append((path.name, [Refused(str(exc))]))
                continue
            entries.append(
                Entry(read.manifest, read.transcripts, read.verdicts, {}, STATUS_UNVERIFIED, source=path.name)
            )
            continue
        sub, outcome = verify_file(path, data, tasks)
        if sub is not None and samples and not outcome.ok and kind_of(sub.manifest.task_hashes) == SAMPLE:
            sub, outcome = verify_file(path, str(sample_tasks_dir()), samples)  # sample rows verify on the samples
        if sub is None or not outcome.ok:
            rejected.append((path.name, outcome.problems))
            continue
        used = {t.task_id: outcome.tasks[t.task_id] for t in sub.transcripts if t.task_id in outcome.tasks}
        provenance = REPLAYED if outcome.provenance == VERIFY_REPLAYED else SELF_REPORTED
        manifest = sub.manifest  # shown with the figures verification recomputed (current names, current definitions)
        if outcome.metrics is not None:
            manifest = manifest.model_copy(update={"metrics": outcome.metrics})
        if token_unit_differs(manifest.metrics) is not None:  # verify could not compare them: not shown as verified
            manifest = manifest.model_copy(update={"metrics": without_token_figures(manifest.metrics)})
        entries.append(
            Entry(
                manifest,
                sub.transcripts,
                outcome.verdicts,
                used,
                STATUS_VERIFIED,
                source=path.name,
                provenance=provenance,
            )
        )
    return entries, rejected


def _sample_tasks(tasks: dict[str, Task] | None) -> dict[str, Task] | None:
    """The sample tasks, when the build's task data is another set and the project's tasks/ folder is here."""
    folder = sample_tasks_dir()
    if folder is None or (tasks and kind_of({i: t.content_hash() for i, t in tasks.items()}) == SAMPLE):
        return None
    from ..data.loader import load_tasks

    return {task.id: task for task in load_tasks(folder, ("en", "zh"))}


def _reference_title(file_name: str) -> str:
    """`l2l_GPT-4o_seeker_vs_GPT-4o_multi_info_provider.Comp.En.json` -> `Released GPT-4o, multi-info provider (Comp)`."""
    match = re.search(r"\.(Comp|Chat)\.(En|Ch)\.json$", file_name)
    mode = f" ({match.group(1)})" if match else ""
    return "Released GPT-4o" + (", multi-info provider" if "multi_info" in file_name else "") + mode


def reference_entries(path: str | Path) -> list[Entry]:
    """One reference entry per released results file, rescored with the deterministic judge."""
    from ..data.upstream import released_files
    from ..scoring.score_import import import_released

    entries = []
    for file in released_files(path):
        pairs = import_released(file)
        if not pairs:
            continue
        transcripts = [t for t, _ in pairs]
        tasks = {task.id: task for _, task in pairs}
        verdicts = [judge_deterministic(t, task) for t, task in pairs]
        hashes = {task_id: task.content_hash() for task_id, task in tasks.items()}
        mode = "multi-info" if "multi_info" in file.name else "single"
        manifest = Manifest(
            clarq_version=__version__,
            created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            submitter=Submitter(
                name=_reference_title(file.name),
                org="ClarQ-LLM authors",
                notes=f"Imported from {file.name}; rescored with clarq's deterministic judge.",
            ),
            run_id=file.stem,
            run_config={
                "source": file.name,
                "provider": {"name": "gpt-4o", "mode": mode, "options": {"reading": "model"}},
                "max_turns": DEFAULT_MAX_TURNS,
            },
            seeker=transcripts[0].seeker,
            seeker_models=["gpt-4o"],
            provider=transcripts[0].provider,
            provider_models=["gpt-4o-2024-05-13"],
            judge=AgentInfo(name="none"),
            label=Label.reference,
            max_turns=DEFAULT_MAX_TURNS,
            task_hashes=hashes,
            task_set_hash=task_set_hash(hashes),
            transcript_count=len(transcripts),
            metrics=compute_metrics(transcripts, verdicts, split="test"),
        )
        entries.append(Entry(manifest, transcripts, verdicts, tasks, STATUS_REFERENCE, source=file.name))
    return entries


def copy_assets(out: Path) -> None:
    target = out / "assets"
    target.mkdir(parents=True, exist_ok=True)
    folder = resources.files("clarq_bench.leaderboard") / "assets"
    for name in ASSETS:
        (target / name).write_bytes((folder / name).read_bytes())


def build_site(
    entries: list[Entry],
    out: str | Path,
    *,
    rejected: list[tuple[str, list[str]]] | None = None,
    plots: bool = True,
    pairwise: list[PairwiseRow] | None = None,
    tracks: list[TrackRow] | None = None,
) -> Path:
    """Write the whole site into `out` (its previous s/ pages are replaced); returns the index.html path. Pairwise
    results are shown for the pairs of entries (by run id) they name; offline-track rows in a table of their own."""
    out = Path(out)
    pages = out / "s"
    if pages.is_dir():
        shutil.rmtree(pages)
    pages.mkdir(parents=True, exist_ok=True)
    copy_assets(out)
    slugs: set[str] = set()
    for entry in entries:
        if entry.slug in slugs:
            raise ClarqError(f"two submissions share the id {entry.slug}", "remove the duplicate file")
        slugs.add(entry.slug)
        images = _plots(entry, pages) if plots else []
        (pages / f"{entry.slug}.html").write_text(redact(submission_page(entry, images)), encoding="utf-8")
        (pages / f"{entry.slug}-dialogues.html").write_text(redact(dialogues_page(entry)), encoding="utf-8")
    index = out / "index.html"
    titles = {e.manifest.run_id: (e.title, f"s/{e.slug}.html") for e in entries}
    extra = pairwise_html(pairwise or [], titles) + track_html(tracks or [])
    index.write_text(redact(index_page(entries, rejected or [], extra)), encoding="utf-8")
    return index


def _plots(entry: Entry, pages: Path) -> list[str]:
    from ..scoring.report import type_plot
    from .plots import write_plots

    names = write_plots(entry.summary, pages, entry.slug)
    if entry.verdicts and f"{entry.slug}-types.png" in names:  # each type named, each language its own bar
        type_plot(
            list(entry.verdicts),
            {t.type_number: t.type_name for t in entry.tasks.values()},
            pages / f"{entry.slug}-types.png",
        )
    return names
