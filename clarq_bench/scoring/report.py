"""Showing a Summary: a rich table in the terminal, report.md, PNG plots and summary.json in a folder.

rich and Pillow (bar_chart.py) are imported inside the functions that need them. Reads Summaries only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.redact import redact
from ..core.run_folder import SUMMARY_FILE
from ..core.run_guard import file_error, write_atomic
from ..data.task_sets import BENCHMARK, TITLES
from .metrics import Figure, Group, Summary

HEADLINE = (
    ("success", "Success rate"),
    ("aqd", "AQD (released)"),
    ("aql", "AQL (released units)"),
    ("aql_tokens", "AQL (tokens)"),
    ("efficiency", "Efficiency"),
    ("aqd_successful", "AQD, successful only"),
    ("elicitation_precision", "Elicitation precision"),
    ("redundancy_rate", "Redundancy rate"),
)
PLOTS = {"success_by_required": "success_by_required.png", "success_by_type": "success_by_type.png"}


#: Digits per figure, the same wherever a figure is shown (headline, slices), as the published tables print them.
DIGITS = {
    "success": 4,
    "aqd": 4,
    "aql": 2,
    "aql_tokens": 2,
    "efficiency": 4,
    "aqd_successful": 4,
    "elicitation_precision": 4,
    "redundancy_rate": 4,
}
EFFICIENCY_NOTE = (
    "Efficiency = mean over dialogues of S x H / max(H, C): S the dialogue's success (0/1), H the queries of the "
    "human path (tree nodes incl. the root, one thing asked a turn), C what the seeker's turns after the root cost in "
    "such queries, the largest of: its turns (Q, as AQD counts them), the things they ask + 1, and their tokens over "
    "a human seeker's turn. A success that costs no more than the human path counts 1, one that costs C > H counts "
    "H/C, so packing many asks into one turn is charged for every ask and every word."
)
GROUP_HEADER = ["slice", "dialogues", "success", "AQD", "AQL (released units)", "AQL (tokens)", "efficiency"]


def fmt(figure: Figure | None, digits: int = 4) -> str:
    """`0.4808 [0.4192, 0.5423]`, or `n/a` for a figure that cannot be measured."""
    if figure is None or figure.value is None:
        return "n/a"
    text = f"{figure.value:.{digits}f}"
    if figure.low is not None and figure.high is not None:
        text += f" [{figure.low:.{digits}f}, {figure.high:.{digits}f}]"
    return text


def count(figure: Figure) -> str:
    """What n counts: `260 dialogues`, `1277 questions`; `–` for a figure that was not measured."""
    return "–" if figure.value is None else f"{figure.n} {figure.of}"


def aql_label(summary: Summary) -> str:
    units = set(summary.aql_units.values())
    if len(units) == 1:
        return f"AQL (released units: {units.pop()})"
    return "AQL (released units)"


def headline_rows(summary: Summary) -> list[tuple[str, str, str]]:
    rows = []
    for name, label in HEADLINE:
        fig: Figure = getattr(summary, name)
        label = aql_label(summary) if name == "aql" else label
        value = fmt(fig, DIGITS[name])
        if fig.value is None and fig.note:
            value += f" ({fig.note})"
        rows.append((label, value, count(fig)))
    rows += [(f"pass^{k}", fmt(fig), count(fig)) for k, fig in summary.pass_k.items() if int(k) > 1]
    return rows


def pass_k_line(summary: Summary) -> str:
    """pass^k equal to success for every k means every trial of a task went alike: extra trials told nothing."""
    values = [fig.value for k, fig in summary.pass_k.items() if int(k) > 1]
    if not values or summary.success.value is None or any(v != summary.success.value for v in values):
        return ""
    return (
        f"pass^k = success for every k up to {summary.trials}: each task's trials all went alike (a deterministic "
        "seeker and provider, temperature 0, play the same dialogue every trial), so more trials add no "
        "information; they matter for sampled models"
    )


def endings_line(summary: Summary) -> str:
    """How the dialogues ended, and a warning when some ended in an error (they count as failures, so the figures
    are partly a measure of the failure, not of the seeker)."""
    reasons = ", ".join(f"{reason} {count}" for reason, count in summary.end_reasons.items())
    line = f"Dialogues ended by: {reasons}."
    errors = summary.end_reasons.get("error", 0)
    if errors:
        line += (
            f" {errors} of {summary.dialogues} dialogues ended in an error and count as failures: the figures "
            "are not a clean measurement (each transcript's `error` says why; `clarq run --resume RUN_DIR "
            "--retry-errors` plays them again)."
        )
    return line


def scripted_line(summary: Summary) -> str:
    """What a replay run is: scripted seeker turns, how many dialogues stayed in sync with the recorded provider."""
    scripted = summary.scripted
    if scripted is None:
        return ""
    in_sync = scripted.in_sync.dialogues if scripted.in_sync else 0
    diverged = scripted.diverged.dialogues if scripted.diverged else 0
    at = ", ".join(f"turn {t}: {n}" for t, n in scripted.diverged_at.items())
    return (
        f"Scripted replay of {', '.join(scripted.sources)}: the seeker turns are recorded, not generated (open "
        f"loop). {in_sync} dialogues stayed in sync with the recorded provider's decisions, {diverged} diverged"
        + (f" (diverged at {at})" if at else "")
        + "; after the diverging turn the recorded seeker cites answers it "
        "never got, so the figures measure neither a seeker nor this provider."
    )


def split_line(summary: Summary) -> str:
    if not summary.by_split:
        return ""
    parts = ", ".join(f"{g.key.split('=', 1)[1]} {g.dialogues}" for g in summary.by_split)
    return (
        f"Splits pooled in the headline: {parts} dialogues; each split has its own row below (published figures "
        "are test only)."
    )


def usage_rows(summary: Summary) -> list[list[str]]:
    """Per role: calls made, calls served from the cache, tokens in/out, dollars ("unknown" for an unpriced model)."""
    usage = summary.usage
    if usage is None:
        return []
    rows = []
    for role, u in [*usage.by_role.items(), ("total", usage.total)]:
        unknown = role in usage.unpriced or (role == "total" and usage.unpriced)
        dollars = (
            f"${u.cost_usd:.4f}" + (" + unknown" if unknown and u.cost_usd else "")
            if not (unknown and not u.cost_usd)
            else "unknown"
        )
        rows.append([role, str(u.calls), str(u.cached_calls), str(u.prompt_tokens), str(u.completion_tokens), dollars])
    return rows


USAGE_HEADER = ["role", "calls made", "served from cache", "prompt tokens", "completion tokens", "dollars"]


def unpriced_line(summary: Summary) -> str:
    if summary.usage is None or not summary.usage.unpriced:
        return ""
    named = ", ".join(f"{role} ({model})" for role, model in summary.usage.unpriced.items())
    return f"No price is known for the model of: {named}; its dollars are unknown, not zero."


def task_set_label(pairs: Any) -> str:
    """`sample tasks, not the benchmark (8)` for the (transcript, task) pairs of a scored set."""
    from ..data.task_sets import describe, kind_of

    hashes = {task.id: t.task_hash or task.content_hash() for t, task in pairs}
    return describe(kind_of(hashes), len(hashes)) if hashes else ""


def type_names_of(pairs: Any) -> dict[int, str]:
    """Type number -> name, for the plots, from (transcript, task) pairs."""
    return {task.type_number: task.type_name for _, task in pairs}


def task_set_line(summary: Summary) -> str:
    """A loud line when the figures are not on the benchmark's tasks (they rank nowhere near benchmark results)."""
    if not summary.task_set or summary.task_set.startswith(TITLES[BENCHMARK]):
        return f"tasks: {summary.task_set}" if summary.task_set else ""
    return (
        f"tasks: {summary.task_set}: these figures are not comparable with results on the ClarQ-LLM benchmark "
        "(`clarq data download`, then run without --tasks)"
    )


def _scripted_groups(summary: Summary) -> list[Group]:
    scripted = summary.scripted
    return [g for g in (scripted.in_sync, scripted.diverged) if g is not None] if scripted else []


def print_table(summary: Summary, console: Any = None) -> None:
    """The headline figures and, when there is more than one, the per-language (per-split) slices as rich tables.
    A single-language run has no per-language table: it would repeat the headline."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = console or Console()
    kind = "scripted replay, " if summary.scripted else ""
    # the title is a line of its own, never a table title: rich centres and wraps those, cutting a run id in two
    console.print(
        f"clarq score: {summary.source or 'dialogues'} ({kind}{summary.dialogues} dialogues, split "
        f"{summary.split}, judge {summary.judge})",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    table = Table()
    table.add_column("figure")
    table.add_column("value [95% CI]", justify="right")
    table.add_column("n", justify="right")
    for label, value, n in headline_rows(summary):
        table.add_row(label, escape(value), n)
    console.print(table)
    if task_set_line(summary):
        benchmark = summary.task_set.startswith(TITLES[BENCHMARK])
        console.print(
            ("" if benchmark else "[bold yellow]") + escape(task_set_line(summary)) + ("" if benchmark else "[/]")
        )
    units = ", ".join(f"{k} {v}" for k, v in summary.aql_units.items())
    sliced = [
        (f"per language (released AQL: {units})", summary.by_language if len(summary.by_language) > 1 else []),
        ("per split", summary.by_split),
        ("scripted replay", _scripted_groups(summary)),
    ]
    for title, groups in sliced:
        if not groups:
            continue
        slices = Table(title=title)
        for column in GROUP_HEADER:
            slices.add_column(column, justify="left" if column == "slice" else "right")
        for group in groups:
            slices.add_row(*_group_cells(group))
        console.print(slices)
    if summary.usage is not None and summary.usage.total.calls:
        cost = Table(title="usage")
        for column in USAGE_HEADER:
            cost.add_column(column, justify="left" if column == "role" else "right")
        for row in usage_rows(summary):
            cost.add_row(*row)
        console.print(cost)
    for line in (scripted_line(summary), split_line(summary), unpriced_line(summary), pass_k_line(summary)):
        if line:
            console.print(escape(line))
    errored = summary.end_reasons.get("error", 0)
    console.print(("[bold red]" if errored else "") + escape(endings_line(summary)) + ("[/]" if errored else ""))


def _group_cells(group: Group) -> list[str]:
    return [
        group.key,
        str(group.dialogues),
        fmt(group.success, DIGITS["success"]),
        fmt(group.aqd, DIGITS["aqd"]),
        fmt(group.aql, DIGITS["aql"]),
        fmt(group.aql_tokens, DIGITS["aql_tokens"]),
        fmt(group.efficiency, DIGITS["efficiency"]),
    ]


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def markdown(summary: Summary, plots: list[str] = ()) -> str:  # type: ignore[assignment]
    """report.md: headline figures with intervals, then breakdowns, turn labels and node outcomes."""
    kind = " (scripted replay)" if summary.scripted else ""
    parts = [
        f"# clarq score: {summary.source or 'dialogues'}{kind}",
        "",
        f"{summary.dialogues} dialogues on {summary.tasks} tasks (split {summary.split}, up to {summary.trials} "
        f"trials), judge `{summary.judge}`. Seekers: {', '.join(summary.seekers)}; providers: "
        f"{', '.join(summary.providers)}. Released AQL units: "
        + ", ".join(f"{k} = {v}" for k, v in summary.aql_units.items())
        + " (never averaged across languages)"
        + f"; token unit `{summary.token_unit}`. Intervals: {summary.bootstrap['confidence']:.0%} percentile "
        f"bootstrap over tasks, {summary.bootstrap['resamples']} resamples, seed {summary.bootstrap['seed']}; one "
        "interval per figure and slice.",
        "",
        ("**Warning:** " if summary.end_reasons.get("error") else "") + endings_line(summary),
    ]
    if task_set_line(summary):
        benchmark = summary.task_set.startswith(TITLES[BENCHMARK])
        parts += ["", ("" if benchmark else "**Not the benchmark.** ") + task_set_line(summary)]
    for line in (scripted_line(summary), split_line(summary), pass_k_line(summary)):
        if line:
            parts += ["", line]
    parts += [
        "",
        _md_table(["figure", "value [95% CI]", "n"], [[a, b, c] for a, b, c in headline_rows(summary)]),
        "",
        EFFICIENCY_NOTE,
    ]
    if summary.scripted:
        parts += [
            "",
            "## Scripted replay: in sync vs diverged",
            "",
            _md_table(GROUP_HEADER, [_group_cells(g) for g in _scripted_groups(summary)]),
            "",
            _md_table(
                ["diverged at seeker turn", "dialogues"], [[t, str(n)] for t, n in summary.scripted.diverged_at.items()]
            ),
        ]
    for title, groups in (
        ("By split", summary.by_split),
        ("By language", summary.by_language if len(summary.by_language) > 1 else []),  # one: the headline again
        ("By task type", summary.by_type),
        ("By tree depth", summary.by_depth),
        ("By number of required nodes", summary.by_required),
    ):
        if groups:
            parts += ["", f"## {title}", "", _md_table(GROUP_HEADER, [_group_cells(g) for g in groups])]
    if usage_rows(summary):
        parts += ["", "## Usage", "", _md_table(USAGE_HEADER, usage_rows(summary))]
        if unpriced_line(summary):
            parts += ["", unpriced_line(summary)]
    parts += [
        "",
        "## Seeker turns",
        "",
        _md_table(["label", "turns"], [[k, str(v)] for k, v in summary.turn_labels.items()]),
    ]
    parts += [
        "",
        "## Required nodes",
        "",
        _md_table(["outcome", "nodes"], [[k, str(v)] for k, v in summary.node_status.items()]),
    ]
    parts += ["", f"Provider claims not borne out by the text: {summary.unverified_claims}."]
    if plots:
        parts += [""] + [f"![{Path(p).stem}]({Path(p).name})" for p in plots]
    return "\n".join(parts) + "\n"


def _bar_plot(groups: list[Group], path: Path, xlabel: str, title: str) -> None:
    """Success per group with its 95% interval as whiskers, one bar a group."""
    from .bar_chart import Bar, Chart

    bars = []
    for i, group in enumerate(groups):
        value = group.success.value or 0.0
        low = group.success.low if group.success.low is not None else value
        high = group.success.high if group.success.high is not None else value
        bars.append(Bar(i, value, low=min(low, value), high=max(high, value)))
    Chart(
        size=(max(5.0, 0.35 * len(groups) + 2), 3.6),
        title=title,
        rate_label="success rate (95% CI)",
        category_label=xlabel,
        bars=bars,
        categories=[(i, f"{g.key.split('=', 1)[-1]}\nn={g.dialogues}") for i, g in enumerate(groups)],
        span=(-0.6, len(groups) - 0.4),
    ).save(path)


def type_plot(verdicts: list, type_names: dict[int, str], path: Path) -> None:
    """Success per task type, one bar per language side by side (never merged), each type named on its row."""
    from .bar_chart import BAR, Bar, Chart

    languages = sorted({v.language for v in verdicts})
    types = sorted({v.type_number for v in verdicts})
    height = 0.8 / max(1, len(languages))
    colors = {"en": BAR, "zh": "#DD8452"}
    bars, legend = [], []
    for offset, language in enumerate(languages):
        mine = [v for v in verdicts if v.language == language]
        color = colors.get(language, "#55A868")
        legend.append((color, f"{language} ({len(mine)} dialogues)"))
        for i, number in enumerate(types):
            group = [v.success for v in mine if v.type_number == number]
            rate = sum(group) / len(group) if group else 0.0
            # a 0 and "no task of this type" must not look alike
            bars.append(Bar(i + offset * height, rate, color, note=f"{rate:.2f}" if group else "no tasks"))
    middle = height * (len(languages) - 1) / 2
    last = (len(types) - 1) + height * (len(languages) - 1)
    margin = 0.05 * (last + height)
    Chart(
        size=(7.5, max(2.5, 0.32 * len(types) * max(1, len(languages)) + 1.2)),
        title="Success per task type, per language",
        rate_label="success rate",
        horizontal=True,
        bars=bars,
        categories=[(i + middle, f"{n} {type_names.get(n, '')}".strip()) for i, n in enumerate(types)],
        span=(-height / 2 - margin, last + height / 2 + margin),
        thickness=height,
        category_points=8,
        legend=legend,
    ).save(path)


def write_plots(
    summary: Summary, folder: Path, verdicts: list | None = None, type_names: dict[int, str] | None = None
) -> list[Path]:
    """success_by_required.png and success_by_type.png; with the verdicts, the type plot names each type and gives
    each language its own bar (never merged), else it falls back to the summary's merged groups with whiskers."""
    folder.mkdir(parents=True, exist_ok=True)
    required = folder / PLOTS["success_by_required"]
    by_type = folder / PLOTS["success_by_type"]
    _bar_plot(summary.by_required, required, "required nodes", "Success vs number of required nodes")
    if verdicts:
        type_plot(list(verdicts), type_names or {}, by_type)
    else:
        _bar_plot(summary.by_type, by_type, "task type", "Success per task type")
    return [required, by_type]


def summary_payload(summary: Summary) -> dict[str, Any]:
    return summary.model_dump(mode="json")


def write_report(
    summary: Summary,
    folder: str | Path,
    *,
    plots: bool = True,
    verdicts: list | None = None,
    type_names: dict[int, str] | None = None,
) -> list[Path]:
    """summary.json, report.md and (unless `plots` is False) the PNG plots into `folder`; returns the paths.
    Each file is written whole or not at all: a full disk is one ClarqError line (the dialogues stay saved, and
    `clarq score` writes the reports again)."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        images = write_plots(summary, folder, verdicts, type_names) if plots else []
    except OSError as exc:
        raise file_error(folder, exc, "write the plots into") from None
    summary_path = folder / SUMMARY_FILE  # a run folder's summary.json (core.run_folder), or --out's
    write_atomic(summary_path, redact(json.dumps(summary_payload(summary), ensure_ascii=False, indent=2)) + "\n")
    report_path = folder / "report.md"
    write_atomic(report_path, redact(markdown(summary, [str(p) for p in images])))
    return [summary_path, report_path, *images]
