"""The red-team as a search: sweep the template family against a provider, tune on some types, report on others.

Why: a provider can be tuned until every strategy of a fixed list fails and still give its tree to the strategy one
step beside them. `clarq provider-audit --search` samples points of the template space (seekers/templates.py: a
bounded, seeded sample, the named members always in), and for each language and provider mode:

1. tune: plays every point on the tune types (1-13 by default) and keeps, per family (question form), the point
   that succeeded most there (ties: fewer questions, then name);
2. report: plays each family's kept point on the report types (14-26 by default, the audit's held-out types), so a
   family's figure is its best member chosen without seeing the tasks it is measured on;
3. leave one family out: `--tuned-on` names the families the provider's author tuned against; the headline is the
   best figure over the other families (the provider against a template it was not tuned on). The choice family
   (points whose every question offers listed options as alternatives, "the X or the Y?", which the reference
   answers too) is reported apart: it may keep its success if it pays for it in questions, that is if its
   efficiency (success weighted by what it said) stays below the honest heuristic's, which the search plays beside it.

The named members are also played on the report types as they are, so the known attacks have a figure of their own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pydantic import AliasChoices, BaseModel, Field, computed_field

from ..core.defaults import DEFAULT_MAX_TURNS
from ..core.errors import ClarqError
from ..core.tasks import Task
from ..scoring.metrics import Figure
from .audit import StrategyResult, audit

#: The most points a search plays per language and mode (each is a full pass over the tune tasks).
MAX_POINTS = 60
DEFAULT_POINTS = 60
#: The family whose questions are real choices: reported, never the headline.
CHOICE_FAMILY = "choice"
#: The honest baseline the choice family's efficiency is read against.
BASELINE = "heuristic"


class FamilyResult(BaseModel):
    """One family in one language and mode: the point kept on the tune types, and how it did on the report types."""

    language: str
    mode: str
    family: str
    strategy: str = Field(description="The kept point's spec (its parameters).")
    tune_success: Figure
    points: int = Field(description="Points of this family played on the tune types.")
    report: StrategyResult
    held_out: bool = Field(description="Not among --tuned-on: the provider was not tuned against this family.")


class Headline(BaseModel):
    """The best held-out no-skill figure for one language and mode (choice family excluded)."""

    language: str
    mode: str
    family: str | None
    strategy: str | None
    success: Figure | None


class WalkerVerdict(BaseModel):
    """The choice family's kept point in one language and mode against the honest heuristic: it may keep its success
    only if it pays for it, its efficiency below the heuristic's."""

    language: str
    mode: str
    strategy: str
    success: Figure
    efficiency: Figure | None = Field(validation_alias=AliasChoices("efficiency", "success_eff"))
    heuristic_success: Figure | None
    heuristic_efficiency: Figure | None = Field(validation_alias=AliasChoices("heuristic_efficiency", "heuristic_eff"))

    @computed_field  # type: ignore[prop-decorator]
    @property
    def pays(self) -> bool:
        """Its efficiency is below the heuristic's (a walker that does not pay counts as any no-skill template: > 15% fails)."""
        mine, bar = (
            (self.efficiency.value if self.efficiency else None),
            (self.heuristic_efficiency.value if self.heuristic_efficiency else None),
        )
        return mine is not None and bar is not None and mine < bar


class SearchReport(BaseModel):
    """Everything `clarq provider-audit --search` prints; `--json` is this model."""

    provider: str
    modes: list[str]
    languages: list[str]
    tune_types: list[int]
    report_types: list[int]
    tasks: dict[str, dict[str, int]] = Field(description="split (tune/report) -> language -> tasks.")
    max_turns: int
    seed: int
    points: int = Field(description="Points sampled per language and mode.")
    families: list[str]
    tuned_on: list[str]
    rows: list[FamilyResult]
    known: list[StrategyResult] = Field(description="The named members (known attacks) on the report types.")
    known_modes: list[str] = Field(description="The provider mode of each row of `known`, in order.")
    headlines: list[Headline]
    walkers: list[WalkerVerdict] = Field(default_factory=list, description="The choice family against the heuristic.")
    wall_seconds: float


def sample_points(points: int = DEFAULT_POINTS, seed: int = 0) -> list[str]:
    """`points` specs over the families, as evenly as the bound allows: each family's named members first, then
    seeded random points of its parameter space (no duplicates). The same (points, seed) gives the same list."""
    from ..seekers.templates import FAMILIES, MEMBERS, TemplateParams

    if not 1 <= points <= MAX_POINTS:
        raise ClarqError(f"--search-points must be 1-{MAX_POINTS}, not {points}", "each point is a pass over the tasks")
    rng = random.Random(seed)
    share = {family: points // len(FAMILIES) + (i < points % len(FAMILIES)) for i, family in enumerate(FAMILIES)}
    chosen: list[str] = []
    for family in FAMILIES:
        mine = [p.spec for p in MEMBERS.values() if p.family == family][: share[family]]
        tries = 0
        while len(mine) < share[family] and tries < 1000:
            tries += 1
            form = rng.choice(FAMILIES) if family == CHOICE_FAMILY else family  # any wording may walk the lists
            sources = ["brief"] if form in ("one-each", CHOICE_FAMILY) else ["brief", "options", "replies", "both"]
            point = TemplateParams(
                form=form,
                questions=rng.randint(1, 8),
                names=rng.randint(2, 3) if family == CHOICE_FAMILY else rng.randint(1, 4),
                source=rng.choice(sources),
                suffix=rng.random() < 0.5,
                pad=rng.random() < 0.5,
                generic=rng.choice([0, 0, 1, 2, 3, 5]),
                stop=rng.random() < 0.3,
            )
            if point.family == family and point.spec not in mine:
                mine.append(point.spec)
        chosen += mine
    return chosen


def _kept(rows: list[StrategyResult]) -> StrategyResult:
    """The tune split's best: most successes, then fewest questions, then name (deterministic)."""
    return min(rows, key=lambda r: (-r.successes, r.questions, r.strategy))


def search(
    tune_tasks: Sequence[Task],
    report_tasks: Sequence[Task],
    *,
    provider: str = "offline",
    modes: Sequence[str] = ("single", "multi-info"),
    points: int = DEFAULT_POINTS,
    seed: int = 0,
    tuned_on: Sequence[str] = (),
    max_turns: int = DEFAULT_MAX_TURNS,
    workers: int | None = None,
    concurrency: int = 16,
    client: Any = None,
) -> SearchReport:
    """Tune on `tune_tasks`, report on `report_tasks` (see the module docstring). The two sets must not share a task:
    a figure measured on the tasks it was chosen on says nothing about a template the provider has not seen."""
    import time

    from ..seekers.templates import FAMILIES, MEMBERS, parse_spec

    unknown = [f for f in tuned_on if f not in FAMILIES]
    if unknown:
        raise ClarqError(f"unknown template family {unknown[0]!r} in --tuned-on", f"families: {', '.join(FAMILIES)}")
    shared = {t.id for t in tune_tasks} & {t.id for t in report_tasks}
    if shared:
        raise ClarqError(
            f"the tune and report tasks overlap ({len(shared)} tasks, e.g. {sorted(shared)[0]})",
            "pick disjoint --tune-types and --types (default 1-13 and 14-26)",
        )
    if not tune_tasks or not report_tasks:
        raise ClarqError("the search needs tasks of both the tune and the report types", "check --tune-types/--types")
    started = time.perf_counter()
    specs = sample_points(points, seed)
    languages = [lang for lang in ("en", "zh") if any(t.language == lang for t in report_tasks)]
    options = {
        "provider": provider,
        "max_turns": max_turns,
        "workers": workers,
        "concurrency": concurrency,
        "client": client,
    }
    rows: list[FamilyResult] = []
    known: list[StrategyResult] = []
    known_modes: list[str] = []
    walkers: list[WalkerVerdict] = []
    for mode in modes:
        tuned = audit(tune_tasks, mode=mode, strategies=specs, **options)
        kept: dict[tuple[str, str], tuple[StrategyResult, int]] = {}
        for language in languages:
            for family in FAMILIES:
                mine = [r for r in tuned.rows if r.language == language and parse_spec(r.strategy).family == family]
                if mine:
                    kept[(language, family)] = (_kept(mine), len(mine))
        replay = list(dict.fromkeys([r.strategy for r, _ in kept.values()] + list(MEMBERS) + [BASELINE]))
        reported = audit(report_tasks, mode=mode, strategies=replay, **options)
        for (language, family), (best, played) in kept.items():
            row = reported.row(best.strategy, language)
            if row is None:
                continue
            rows.append(
                FamilyResult(
                    language=language,
                    mode=mode,
                    family=family,
                    strategy=best.strategy,
                    tune_success=best.success,
                    points=played,
                    report=row,
                    held_out=family not in tuned_on,
                )
            )
        for language in languages:
            walker = next((r for r in rows if (r.mode, r.language, r.family) == (mode, language, CHOICE_FAMILY)), None)
            baseline = reported.row(BASELINE, language)
            if walker is not None:
                walkers.append(
                    WalkerVerdict(
                        language=language,
                        mode=mode,
                        strategy=walker.strategy,
                        success=walker.report.success,
                        efficiency=walker.report.efficiency,
                        heuristic_success=baseline.success if baseline else None,
                        heuristic_efficiency=baseline.efficiency if baseline else None,
                    )
                )
            for name in MEMBERS:
                row = reported.row(name, language)
                if row is not None:
                    known.append(row)
                    known_modes.append(mode)
    return SearchReport(
        provider=provider,
        modes=list(modes),
        languages=languages,
        tune_types=sorted({t.type_number for t in tune_tasks}),
        report_types=sorted({t.type_number for t in report_tasks}),
        tasks={
            split: {lang: sum(t.language == lang for t in group) for lang in languages}
            for split, group in (("tune", tune_tasks), ("report", report_tasks))
        },
        max_turns=max_turns,
        seed=seed,
        points=len(specs),
        families=list(FAMILIES),
        tuned_on=list(tuned_on),
        rows=rows,
        known=known,
        known_modes=known_modes,
        headlines=headlines(rows, languages, modes),
        walkers=walkers,
        wall_seconds=round(time.perf_counter() - started, 2),
    )


def headlines(rows: Sequence[FamilyResult], languages: Sequence[str], modes: Sequence[str]) -> list[Headline]:
    """Per language and mode: the held-out family (not the choice family) with the highest report success."""
    found = []
    for mode in modes:
        for language in languages:
            mine = [
                r
                for r in rows
                if r.mode == mode and r.language == language and r.held_out and r.family != CHOICE_FAMILY
            ]
            if not mine:
                found.append(Headline(language=language, mode=mode, family=None, strategy=None, success=None))
                continue
            best = max(mine, key=lambda r: (r.report.success.value or 0.0, -r.report.questions))
            found.append(
                Headline(
                    language=language,
                    mode=mode,
                    family=best.family,
                    strategy=best.strategy,
                    success=best.report.success,
                )
            )
    return found
