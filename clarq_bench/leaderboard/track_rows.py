"""The offline clarification track's table on the leaderboard index: one row per `clarq select` summary.json.

The track answers another question than the dialogue tables (which question to ask, scored offline per state, not
whether a dialogue succeeded), so its rows sit in their own table, labelled with the track, and never among dialogue
results. Its figures are the ones the summary states: unlike a submission nothing here can be recomputed, so each
is checked only to be a number the track can produce (finite, in [0, 1]); a file that is not such a summary is
returned as a problem for the rejected list, never an exception.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import NamedTuple

from ..core.errors import ClarqError
from .pages import LANGUAGE_NAMES, _th, esc, figure_cell
from .track_summary import TRACK, Estimate, SelectSummary, read_track_summary

TITLE = f"Offline clarification track ({TRACK}): not a dialogue result"
MAX_NAME = 200  # characters of a system name shown
#: The columns after system, language, states and tasks: (heading, where in the summary, digits).
FIGURES = (
    ("Need F1", "need_f1", 3),
    ("Question MRR", "mrr", 3),
    ("nDCG@3", "ndcg@3", 3),
    ("OLAR", "olar", 3),
    ("LAR", "lar", 3),
)


class TrackRow(NamedTuple):
    source: str  # the file, relative to the tracks folder
    summary: SelectSummary


def need_f1(summary: SelectSummary) -> Estimate:
    """Weighted need F1 with its interval over tasks when the summary has one, else the point value alone."""
    if "f1" in summary.need_intervals:
        return summary.need_intervals["f1"]
    return Estimate(value=summary.need.get("f1"), n=summary.states)


def figure(summary: SelectSummary, key: str) -> Estimate:
    if key == "need_f1":
        return need_f1(summary)
    return summary.selection.get(key) or Estimate(value=None)


def check(summary: SelectSummary) -> str | None:
    """Why these figures cannot come from `clarq select` (a count below zero, a share outside [0, 1]), or None."""
    if not summary.seeker.strip() or len(summary.seeker) > MAX_NAME:
        return f"the system name is empty or longer than {MAX_NAME} characters"
    if len(summary.language) > 16:
        return "the language code is longer than 16 characters"
    if min(summary.tasks, summary.states, summary.needed_states, summary.errors) < 0:
        return "a negative count"
    if summary.needed_states > summary.states:
        return f"{summary.needed_states} states needing a question of {summary.states}"
    for _, key, _ in FIGURES:
        estimate = figure(summary, key)
        for part in (estimate.value, estimate.low, estimate.high):
            if part is not None and not (math.isfinite(part) and 0.0 <= part <= 1.0):
                return f"{key} {part} is not a share in [0, 1]"
    return None


def load_track_rows(folder: str | Path | None) -> tuple[list[TrackRow], list[tuple[str, str]]]:
    """The track summaries among the *.json files under a folder (any depth, as `clarq select` writes
    runs/select/<system>-<lang>/summary.json), and (file, problem) for every other *.json file there."""
    if folder is None:
        return [], []
    root = Path(folder)
    if not root.is_dir():
        raise ClarqError(f"{root} is not a folder", "pass the folder that holds `clarq select` summary.json files")
    rows, problems = [], []
    for path in sorted(root.rglob("*.json")):
        name = path.relative_to(root).as_posix()
        if not path.is_file():
            continue
        try:
            summary = read_track_summary(path)
        except ClarqError as exc:
            problems.append((name, _without_path(str(exc), path)))
            continue
        problem = check(summary)
        if problem:
            problems.append((name, f"implausible {TRACK} summary: {problem}"))
        else:
            rows.append(TrackRow(name, summary))
    return rows, problems


def _without_path(message: str, path: Path) -> str:
    """The problem without the file's local path in front: the site names the file by its place in the folder."""
    for prefix in (f"{path}: ", f"{path} "):
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message


def _row(row: TrackRow) -> str:
    s = row.summary
    errors = f'<span class="badge bad">{s.errors} states failed</span>' if s.errors else ""
    language = LANGUAGE_NAMES.get(s.language, s.language)
    cells = "".join(figure_cell(figure(s, key).model_dump(), digits) for _, key, digits in FIGURES)
    return (
        f'<tr><td data-value="{esc(s.seeker)}"><span class="badge track">{esc(TRACK)}</span>{esc(s.seeker)}'
        f'{errors}<span class="org">{esc(row.source)}</span></td>'
        f'<td data-value="{esc(s.language)}">{esc(language)}</td>'
        f'<td class="num" data-value="{s.states}">{s.states}<span class="org">{s.needed_states} need a question'
        f'</span></td><td class="num" data-value="{s.tasks}">{s.tasks}</td>{cells}</tr>'
    )


def track_html(rows: list[TrackRow]) -> str:
    """The track's section for the index page (already escaped), or "" without rows; rows by language, then MRR."""
    if not rows:
        return ""
    ordered = sorted(rows, key=lambda r: (r.summary.language, -(figure(r.summary, "mrr").value or 0.0), r.source))
    head = "".join(
        [_th("System"), _th("Language"), _th("States", numeric=True), _th("Tasks", numeric=True)]
        + [_th(esc(heading), numeric=True) for heading, _, _ in FIGURES]
    )
    return (
        f"<h2>{esc(TITLE)}</h2>"
        '<p class="lead">Systems given each state of a task (the dialogue so far) decide whether a clarification '
        "question is needed (need F1: precision and recall over the 1-4 need labels, weighted by support) and "
        "rank a bank of questions (MRR and nDCG@3 on the full ranking; OLAR and LAR on the list of 0-5 questions "
        "they would show, rewarding short lists), one call per state and no dialogue: these figures are not "
        "comparable with the dialogue tables. Selection figures cover the states that need a question; intervals "
        "are 95% bootstrap over tasks. Figures are as written by <code>clarq select</code> (not recomputed); "
        "click a column to sort.</p>"
        f'<div class="wide"><table class="sortable track" id="track-{esc(TRACK)}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(_row(r) for r in ordered)}</tbody></table></div>"
    )
