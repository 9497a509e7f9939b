"""The tables of `clarq provider-audit --search`: the headline per language and mode, each family's held-out figure,
and the named members (the known attacks) as they are."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..api.support import Figure, SearchReport


def shown(figure: Figure, percent: bool) -> str:
    """`42.3% [35-50]` (percent) or `0.41 [0.37-0.45]`; `-` for no value."""
    if figure.value is None:
        return "-"
    scale, value, bound = (100, "{:.1f}%", "{:.0f}") if percent else (1, "{:.2f}", "{:.2f}")
    text = value.format(scale * figure.value)
    if figure.low is None or figure.high is None:
        return text
    return f"{text} [{bound.format(scale * figure.low)}-{bound.format(scale * figure.high)}]"


def _span(types: list[int]) -> str:
    contiguous = len(types) > 1 and types == list(range(types[0], types[-1] + 1))
    return f"{types[0]}-{types[-1]}" if contiguous else ",".join(map(str, types))


def print_search(report: SearchReport) -> None:
    from rich.console import Console
    from rich.table import Table

    _shown = shown
    console = Console()
    if not console.is_terminal:
        console = Console(width=150)
    tune, held = _span(report.tune_types), _span(report.report_types)
    counts = ", ".join(f"{lang} {n}" for lang, n in report.tasks["report"].items())
    head = Table(
        title=f"template search: {report.provider}, tuned on types {tune}, reported on types {held} "
        f"({counts} tasks), {report.points} points per language and mode (seed {report.seed})",
        caption="best no-skill success on the report types over the families the provider was not tuned on "
        f"(tuned on: {', '.join(report.tuned_on) or 'none'}; the choice family is apart). "
        "The bar for a provider that cannot be gamed: at most 15%.",
    )
    for name, justify in (
        ("lang", "left"),
        ("mode", "left"),
        ("best success", "right"),
        ("family", "left"),
        ("strategy", "left"),
    ):
        head.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for line in report.headlines:
        over = line.success is not None and (line.success.value or 0) > 0.15
        head.add_row(
            line.language,
            line.mode,
            _shown(line.success, True) if line.success else "-",
            line.family or "-",
            line.strategy or "-",
            style="bold red" if over else None,
        )
    console.print(head)
    if report.walkers:
        walkers = Table(
            title=f"the choice family (walks the option lists as choice questions) on types {held}, "
            "against the honest heuristic",
            caption="it may keep its success only if it pays for it in what it asks, its efficiency "
            "(success weighted by what it said) below the heuristic's",
        )
        for name, justify in (
            ("lang", "left"),
            ("mode", "left"),
            ("strategy", "left"),
            ("success", "right"),
            ("efficiency", "right"),
            ("heuristic success", "right"),
            ("heuristic efficiency", "right"),
            ("pays", "left"),
        ):
            walkers.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        for w in report.walkers:
            missing = "-"
            walkers.add_row(
                w.language,
                w.mode,
                w.strategy,
                _shown(w.success, True),
                _shown(w.efficiency, False) if w.efficiency else missing,
                _shown(w.heuristic_success, True) if w.heuristic_success else missing,
                _shown(w.heuristic_efficiency, False) if w.heuristic_efficiency else missing,
                "yes" if w.pays else "no",
                style=None if w.pays else "bold red",
            )
        console.print(walkers)
    families = Table(
        title=f"each family's point kept on types {tune}, played on types {held} (leave one family out: "
        f"families {', '.join(report.families)})"
    )
    for name, justify in (
        ("lang", "left"),
        ("mode", "left"),
        ("family", "left"),
        ("held out", "left"),
        ("strategy", "left"),
        ("points", "right"),
        ("tune success", "right"),
        ("report success", "right"),
        ("won", "right"),
        ("nodes/q", "right"),
    ):
        families.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    previous = None
    for row in report.rows:
        if previous is not None and (row.mode, row.language) != previous:
            families.add_section()
        previous = (row.mode, row.language)
        r = row.report
        families.add_row(
            row.language,
            row.mode,
            row.family,
            "yes" if row.held_out else "no",
            row.strategy,
            str(row.points),
            _shown(row.tune_success, True),
            _shown(r.success, True),
            f"{r.successes}/{r.dialogues}",
            _shown(r.nodes_per_question, False),
            style="bold red" if r.over_target else None,
        )
    console.print(families)
    known = Table(title=f"the known attacks (named template members) on types {held}")
    for name, justify in (
        ("lang", "left"),
        ("mode", "left"),
        ("strategy", "left"),
        ("role", "left"),
        ("success", "right"),
        ("won", "right"),
        ("nodes/q", "right"),
        ("questions", "right"),
    ):
        known.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for mode, r in zip(report.known_modes, report.known):
        known.add_row(
            r.language,
            mode,
            r.strategy,
            r.role,
            _shown(r.success, True),
            f"{r.successes}/{r.dialogues}",
            _shown(r.nodes_per_question, False),
            str(r.questions),
            style="bold red" if r.over_target else None,
        )
    console.print(known)
    console.print(f"{report.wall_seconds:.0f} s")
