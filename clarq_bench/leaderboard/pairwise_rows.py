"""The pairwise-comparison file the leaderboard shows (written by `clarq judge-pairs`, read by `leaderboard build`).

It is defined here, in the leaderboard layer, so the site needs nothing from the pairwise package: one small JSON
file per comparison, naming the two runs by run id; the site shows it when both runs are on the board.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, Field

from ..core.errors import ClarqError
from ..core.jsonl import load_file, validate

KIND: Final = "clarq-pairwise"


class PairwiseCriterionRow(BaseModel):
    criterion: str = Field(max_length=40)
    pcch: tuple[float | None, float | None] = Field(description="PRV percent of run A and run B (PCC-H).")
    pcch_low: tuple[float | None, float | None] = (None, None)
    pcch_high: tuple[float | None, float | None] = (None, None)
    majority: tuple[float | None, float | None] = Field(description="PRV percent of run A and run B (majority).")


class PairwiseRow(BaseModel):
    kind: Literal["clarq-pairwise"] = KIND
    run_a: str = Field(max_length=200, description="run id of RUN_A (its config.json run_id)")
    run_b: str = Field(max_length=200)
    design: int
    items: int
    judges: list[str] = Field(max_length=100)
    criteria: list[PairwiseCriterionRow] = Field(max_length=10)


def load_rows(folder: str | Path | None) -> tuple[list[PairwiseRow], list[tuple[str, str]]]:
    """The valid rows of a folder's *.json files, and (file name, problem) for the others."""
    if folder is None:
        return [], []
    path = Path(folder)
    if not path.is_dir():
        raise ClarqError(f"{path} is not a folder", "pass the folder that holds pairwise result files")
    rows, problems = [], []
    for file in sorted(path.glob("*.json")):
        try:
            rows.append(validate(PairwiseRow, load_file(file), str(file), what="pairwise result"))
        except ClarqError as exc:
            problems.append((file.name, str(exc)))
    return rows, problems


def pairwise_html(rows: list[PairwiseRow], titles: dict[str, tuple[str, str]]) -> str:
    """A section for the rows whose two runs are on the board; `titles` maps run id -> (title, page link)."""
    from .pages import esc, num

    shown = [r for r in rows if r.run_a in titles and r.run_b in titles]
    if not shown:
        return ""
    head = (
        '<tr><th>A</th><th>B</th><th>criterion</th><th class="num">A (PCC-H %)</th><th class="num">B (PCC-H %)'
        '</th><th class="num">A / B (majority %)</th><th class="num">items</th><th>judges</th></tr>'
    )
    body = []
    for row in shown:
        (name_a, link_a), (name_b, link_b) = titles[row.run_a], titles[row.run_b]
        for c in row.criteria:
            cells = []
            for s in (0, 1):
                ci = (
                    f' <span class="ci">[{num(c.pcch_low[s], 1)}, {num(c.pcch_high[s], 1)}]</span>'
                    if c.pcch_low[s] is not None
                    else ""
                )
                cells.append(f'<td class="num">{num(c.pcch[s], 1)}{ci}</td>')
            body.append(
                f'<tr><td><a href="{esc(link_a)}">{esc(name_a)}</a></td><td><a href="{esc(link_b)}">'
                f"{esc(name_b)}</a></td><td>{esc(c.criterion)}</td>{''.join(cells)}"
                f'<td class="num">{num(c.majority[0], 1)} / {num(c.majority[1], 1)}</td>'
                f'<td class="num">{row.items}</td><td>{esc(", ".join(row.judges))} '
                f"({row.design}-choice)</td></tr>"
            )
    return (
        '<h2>Pairwise comparisons</h2><p class="lead">Judges compared the two dialogues of each task side by side '
        "(positions randomised); PRV is the share of relevance value each side won, aggregated by PCC-H (judges "
        "weighted by their agreement with the others, items by how clear their verdict was), with a bootstrap "
        "95% interval over items. These figures are as the judging session reported them: <code>verify</code> does not "
        f're-run judges.</p><table class="pairwise">{head}{"".join(body)}</table>'
    )
