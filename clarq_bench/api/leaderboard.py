"""The API's leaderboard calls: `submit` a run, `verify_submissions` by recomputing them, `build_leaderboard`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..leaderboard.schema import Submission
    from ..leaderboard.verify import Verification


def submit(
    run_dir: str | Path,
    output: str | Path,
    *,
    name: str = "",
    org: str = "",
    notes: str = "",
    data: str | Path | None = None,
    partial: bool = False,
) -> tuple[Submission, Path]:
    """Pack a finished run as a leaderboard submission file (JSON, or zip when `output` ends .zip)."""
    from ..core.errors import ClarqError
    from ..leaderboard.bundle import build_submission, write_submission
    from ..leaderboard.schema import MAX_NAME_CHARS, MAX_NOTES_CHARS, Submitter

    for flag, value, limit in (
        ("--name", name, MAX_NAME_CHARS),
        ("--org", org, MAX_NAME_CHARS),
        ("--notes", notes, MAX_NOTES_CHARS),
    ):
        if len(value) > limit:
            raise ClarqError(f"{flag} is {len(value)} characters long (limit {limit})", f"shorten {flag}")
    submitter = Submitter(name=name, org=org, notes=notes)
    submission = build_submission(
        run_dir, data=str(data) if data is not None else None, submitter=submitter, partial=partial
    )
    return submission, write_submission(submission, output)


def verify_submissions(files: list[str | Path], *, data: str | Path | None = None) -> list[Verification]:
    """Verify each submission file by recomputing it from its transcripts (and replaying offline ones)."""
    from ..leaderboard.verify import load_task_data, verify_file

    _, tasks = load_task_data(data, {"en", "zh"})
    return [verify_file(path, data, tasks)[1] for path in files]


def build_leaderboard(
    directory: str | Path,
    output: str | Path,
    *,
    reference: str | Path | None = None,
    data: str | Path | None = None,
    verify: bool = True,
    plots: bool = True,
    pairwise: str | Path | None = None,
    tracks: str | Path | None = None,
) -> tuple[Path, list, list[tuple[str, list[str]]]]:
    """The static leaderboard site from a folder of submission files (each verified unless `verify` is False), with
    released results files as reference rows: (index.html, entries shown, (name, problems) of those rejected).
    Pairwise results (`clarq judge-pairs`' pairwise-row.json files) come from `pairwise`, else from a `pairwise/`
    folder beside the submissions; offline-track rows (`clarq select`'s summary.json files, at any depth) from
    `tracks`, else from a `tracks/` folder beside them. A malformed one of either is listed as rejected."""
    from ..leaderboard.pairwise_rows import load_rows
    from ..leaderboard.site import build_site, load_entries, reference_entries
    from ..leaderboard.track_rows import load_track_rows

    entries, rejected = load_entries(directory, data=str(data) if data is not None else None, verify=verify)
    if reference:
        entries += reference_entries(reference)
    beside = Path(directory) / "pairwise"
    rows, problems = load_rows(pairwise if pairwise is not None else beside if beside.is_dir() else None)
    rejected += [(f"pairwise/{name}", [problem]) for name, problem in problems]
    beside = Path(directory) / "tracks"
    track_rows, problems = load_track_rows(tracks if tracks is not None else beside if beside.is_dir() else None)
    rejected += [(f"tracks/{name}", [problem]) for name, problem in problems]
    index = build_site(entries, output, rejected=rejected, plots=plots, pairwise=rows, tracks=track_rows)
    return index, entries, rejected
