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
    assert set(MEMBERS[name].spec for name in MEMBERS) <= set(points)
    per_family = {f: sum(parse_spec(p).form == f for p in points) for f in FAMILIES}
    assert set(per_family.values()) == {60 // len(FAMILIES)}
    assert len(search_module.sample_points(7)) == 7
    for bad in (0, 61):
        with pytest.raises(ClarqError):
            search_module.sample_points(bad)


def test_template_roles_and_targets():
    assert role_of("tpl-wh-six") == "template" and target_of("tpl-wh-six") == 0.15
    assert role_of("tpl-exactly+q2+n1+replies") == "template"
    assert role_of("tpl-choice-pairs") == "enumeration" and target_of("tpl-choice+q1+n3+brief") is None


def row(strategy: str, language: str, successes: int, dialogues: int = 10, questions: int = 100) -> StrategyResult:
    rate = successes / dialogues
    return StrategyResult(strategy=strategy, role=role_of(strategy), language=language, dialogues=dialogues,
                          successes=successes, success=Figure(value=rate, low=rate, high=rate),
                          nodes_per_question=Figure(value=0.1, low=0.1, high=0.1), questions=questions, errors=0,
                          target=target_of(strategy))  # fmt: skip


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
            for i, name in enumerate(strategies):
                first = i == 0 or parse_spec(strategies[i - 1]).form != parse_spec(name).form
                good = first if tune else not first
                rows.append(row(name, language, 8 if good else 2 + (parse_spec(name).form == "wh")))
        return AuditReport(provider="offline", provider_mode=mode, languages=["en"], types=sorted(types),
                           tasks={"en": len(tasks)}, max_turns=12, strategies=list(strategies), rows=rows,
                           wall_seconds=0.0, workers=1)  # fmt: skip


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
        first = next(p for p in points if parse_spec(p).form == family_row.family)
        assert family_row.strategy == first  # the tune best, not the report best
        assert family_row.report.successes == 2 + (family_row.family == "wh")
        assert family_row.held_out == (family_row.family != "sentence")
    (headline,) = result.headlines
    assert headline.family == "wh"  # the best held-out family; choice and the tuned-on family are not candidates
    assert [r.strategy for r in result.known] == list(MEMBERS)


def test_the_search_refuses_overlapping_splits_and_unknown_families():
    tasks = [make_task(0, type_number=1)]
    with pytest.raises(ClarqError, match="overlap"):
        search_module.search(tasks, tasks, points=5)
    with pytest.raises(ClarqError, match="unknown template family"):
        search_module.search(tasks, [make_task(0, type_number=14)], tuned_on=["nope"], points=5)


def test_cli_search_end_to_end_on_the_sample_tasks(capsys):
    args = ["provider-audit", "--search", "--tasks", "tasks", "--lang", "en", "--tune-types", "1-3",
            "--types", "27-28", "--search-points", "5", "--provider-mode", "single", "--workers", "1"]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tune_types"] == [1, 2, 3] and report["report_types"] == [27, 28] and report["points"] == 5
    assert report["modes"] == ["single"] and {r["family"] for r in report["rows"]} == set(FAMILIES)
    assert all(r["report"]["dialogues"] == report["tasks"]["report"]["en"] for r in report["rows"])
    assert [k["strategy"] for k in report["known"]] == list(MEMBERS)
    assert main(args) == 0
    table = capsys.readouterr().out
    assert "template search: offline" in table and "issue 26's attacks" in table


def test_cli_search_with_overlapping_types_is_one_line(capsys):
    assert main(["provider-audit", "--search", "--tasks", "tasks", "--tune-types", "1-3", "--types", "3-4",
                 "--search-points", "5"]) == 2  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "overlap" in err[0]
