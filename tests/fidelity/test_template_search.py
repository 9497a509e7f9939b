"""`clarq provider-audit --search` (fidelity/search.py): a bounded, seeded sample that always holds issue 26's
attacks; each family's point is chosen on the tune types and measured on the report types (never chosen on them);
families the provider was tuned on and the choice family stay out of the headline."""

from __future__ import annotations

import json

import pytest
from runner_helpers import make_task

from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError
from clarq_bench.fidelity import search as search_module
from clarq_bench.fidelity.audit import AuditReport, StrategyResult, role_of, target_of
from clarq_bench.scoring.metrics import Figure
from clarq_bench.seekers.templates import FAMILIES, MEMBERS, parse_spec


def test_the_sample_is_bounded_seeded_balanced_and_holds_the_known_attacks():
    points = search_module.sample_points(60, seed=3)
    assert len(points) == len(set(points)) == 60
    assert points == search_module.sample_points(60, seed=3) != search_module.sample_points(60, seed=4)
    assert {MEMBERS[name].spec for name in MEMBERS} <= set(points)
    per_family = {f: sum(parse_spec(p).family == f for p in points) for f in FAMILIES}
    assert set(per_family.values()) == {60 // len(FAMILIES)}
    assert len(search_module.sample_points(7)) == 7
    for bad in (0, 61):
        with pytest.raises(ClarqError):
            search_module.sample_points(bad)


def test_template_roles_and_targets():
    assert role_of("tpl-wh-six") == "template" and target_of("tpl-wh-six") == 0.15
    assert role_of("tpl-exactly+q2+n1+replies") == "template"
    assert role_of("tpl-choice-pairs") == "enumeration" and target_of("tpl-choice+q1+n3+brief") is None


def row(
    strategy: str, language: str, successes: int, dialogues: int = 10, questions: int = 100, efficiency: float = 0.1
) -> StrategyResult:
    rate = successes / dialogues
    return StrategyResult(
        strategy=strategy,
        role=role_of(strategy),
        language=language,
        dialogues=dialogues,
        successes=successes,
        success=Figure(value=rate, low=rate, high=rate),
        nodes_per_question=Figure(value=0.1, low=0.1, high=0.1),
        questions=questions,
        errors=0,
        efficiency=Figure(value=efficiency, low=efficiency, high=efficiency),
        target=target_of(strategy),
    )


class FakeAudit:
    """On the tune tasks (type 1) point A of each family is best; on the report tasks (type 14) point B would be.
    The search must keep A: a point chosen on the tasks it is measured on says nothing held out."""

    def __init__(self) -> None:
        self.calls: list[tuple[set[int], list[str]]] = []

    def __call__(self, tasks, *, mode, strategies, **_):
        types = {t.type_number for t in tasks}
        self.calls.append((types, list(strategies)))
        tune = types == {1}
        rows = []
        for language in sorted({t.language for t in tasks}):
            seen: set[str] = set()
            for name in strategies:
                if not name.startswith("tpl-"):  # the honest baseline the choice family is read against
                    rows.append(row(name, language, 5, efficiency=0.3))
                    continue
                family = parse_spec(name).family
                first, _ = family not in seen, seen.add(family)
                good = first if tune else not first
                rows.append(row(name, language, 8 if good else 2 + (family == "wh"), efficiency=0.2 if good else 0.1))
        return AuditReport(
            provider="offline",
            provider_mode=mode,
            languages=["en"],
            types=sorted(types),
            tasks={"en": len(tasks)},
            max_turns=12,
            strategies=list(strategies),
            rows=rows,
            wall_seconds=0.0,
            workers=1,
        )


def test_each_family_keeps_its_tune_best_and_is_measured_on_the_report_types(monkeypatch):
    fake = FakeAudit()
    monkeypatch.setattr(search_module, "audit", fake)
    tune, report = [make_task(i, type_number=1) for i in range(3)], [make_task(i, type_number=14) for i in range(3)]
    result = search_module.search(tune, report, modes=["single"], points=10, seed=1, tuned_on=["sentence"])
    points = search_module.sample_points(10, seed=1)
    assert fake.calls[0] == ({1}, points)  # every point on the tune types
    assert fake.calls[1][0] == {14}  # then the kept points (and the named members) on the report types
    assert {r.family for r in result.rows} == set(FAMILIES)
    for family_row in result.rows:
        first = next(p for p in points if parse_spec(p).family == family_row.family)
        assert family_row.strategy == first  # the tune best, not the report best
        assert family_row.report.successes == 2 + (family_row.family == "wh")
        assert family_row.held_out == (family_row.family != "sentence")
    (headline,) = result.headlines
    assert headline.family == "wh"  # the best held-out family; choice and the tuned-on family are not candidates
    assert [r.strategy for r in result.known] == list(MEMBERS)
    (walker,) = result.walkers  # the choice family's point against the heuristic, played beside it
    assert walker.strategy == next(r.strategy for r in result.rows if r.family == "choice")
    assert walker.efficiency.value == 0.1 and walker.heuristic_efficiency.value == 0.3 and walker.pays


def test_a_pair_walker_is_of_the_choice_family_whatever_its_wording():
    """ "Do I need the X or the Y?" over the listed options (one-each, two names or more) walks the option lists as
    choice questions: it is judged with the choice family (against the heuristic's efficiency), not as a held-out family."""
    assert parse_spec("tpl-one-each+q4+n2+brief+pad").family == "choice"
    assert parse_spec("tpl-exactly+q2+n2+options+g3+suffix").family == "choice"
    assert parse_spec("tpl-one-each+q1+n1+brief+suffix").family == "one-each"
    assert parse_spec("tpl-exactly+q6+n4+replies").family == "exactly"  # Jax's words: no listed options
    assert parse_spec("tpl-wh+q3+n1+brief").family == "wh"
    assert parse_spec("tpl-choice+q1+n2+brief").family == "choice"


def test_a_walker_that_does_not_pay_is_flagged():
    figure = lambda v: Figure(value=v, low=v, high=v)  # noqa: E731
    verdict = search_module.WalkerVerdict(
        language="en",
        mode="single",
        strategy="tpl-choice+q4+n2+brief",
        success=figure(0.3),
        efficiency=figure(0.12),
        heuristic_success=figure(0.12),
        heuristic_efficiency=figure(0.085),
    )
    assert not verdict.pays
    assert verdict.model_copy(update={"efficiency": figure(0.05)}).pays
    assert not verdict.model_copy(update={"heuristic_efficiency": None}).pays  # no baseline measured: no pass


def test_the_search_refuses_overlapping_splits_and_unknown_families():
    tasks = [make_task(0, type_number=1)]
    with pytest.raises(ClarqError, match="overlap"):
        search_module.search(tasks, tasks, points=5)
    with pytest.raises(ClarqError, match="unknown template family"):
        search_module.search(tasks, [make_task(0, type_number=14)], tuned_on=["nope"], points=5)


def test_cli_search_end_to_end_on_the_sample_tasks(capsys):
    args = [
        "provider-audit",
        "--search",
        "--tasks",
        "tasks",
        "--lang",
        "en",
        "--tune-types",
        "1-3",
        "--types",
        "27-28",
        "--search-points",
        str(len(FAMILIES)),
        "--provider-mode",
        "single",
        "--workers",
        "1",
    ]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tune_types"] == [1, 2, 3] and report["report_types"] == [27, 28]
    assert report["points"] == len(FAMILIES)  # one point a family at least
    assert report["modes"] == ["single"] and {r["family"] for r in report["rows"]} == set(FAMILIES)
    assert all(r["report"]["dialogues"] == report["tasks"]["report"]["en"] for r in report["rows"])
    assert [k["strategy"] for k in report["known"]] == list(MEMBERS)
    assert all(w["heuristic_efficiency"] is not None and "pays" in w for w in report["walkers"])
    assert main(args) == 0
    table = capsys.readouterr().out
    assert "template search: offline" in table and "the known attacks" in table


def test_cli_search_with_overlapping_types_is_one_line(capsys):
    assert (
        main(
            [
                "provider-audit",
                "--search",
                "--tasks",
                "tasks",
                "--tune-types",
                "1-3",
                "--types",
                "3-4",
                "--search-points",
                "5",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "overlap" in err[0]


def test_reports_written_with_the_old_figure_names_still_load():
    """A saved `--json` search report from before the rename names the figure success_eff / heuristic_eff."""
    figure = {"value": 0.1, "low": 0.1, "high": 0.1}
    old = search_module.WalkerVerdict.model_validate(
        {
            "language": "en",
            "mode": "single",
            "strategy": "tpl-choice-pairs",
            "success": figure,
            "success_eff": figure,
            "heuristic_success": figure,
            "heuristic_eff": {**figure, "value": 0.3},
        }
    )
    assert old.efficiency.value == 0.1 and old.heuristic_efficiency.value == 0.3 and old.pays
    assert "success_eff" not in old.model_dump() and "efficiency" in old.model_dump()
