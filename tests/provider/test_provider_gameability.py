"""The offline provider against the shipped red-team suite on released held-out tasks: no strategy without
clarification skill gets the tree (issue 13's bar: at most 10% of tasks, echo 20%, no-question 0%), while the
oracle and the honest heuristic still get theirs. Types 14, 18, 22 and 26 (40 tasks per language), both modes."""

from __future__ import annotations

import pytest
from upstream_paths import UPSTREAM_DATA, needs_upstream

from clarq_bench.data.loader import load_tasks
from clarq_bench.fidelity.audit import audit, enumeration, red_team

TYPES = (14, 18, 22, 26)


@needs_upstream
@pytest.mark.timeout(600)  # every red-team seeker on 4 types x 2 languages: about a minute on an idle core
@pytest.mark.parametrize("mode", ["single", "multi-info"])
def test_no_red_team_strategy_games_the_offline_provider(mode: str) -> None:
    tasks = load_tasks(UPSTREAM_DATA, ["en", "zh"], types=TYPES)
    report = audit(tasks, provider="offline", mode=mode, workers=2)
    for language in ("en", "zh"):
        assert report.row("no-question", language).success.value == 0
        oracle = report.row("oracle", language).success.value
        heuristic = report.row("heuristic", language).success.value
        assert oracle >= 0.9 and heuristic >= 0.1, (language, oracle, heuristic)
        for name in red_team():
            row = report.row(name, language)
            assert row.errors == 0 and not row.over_target, (language, name, row.success)
            assert row.success.value < heuristic, (language, name, row.success, heuristic)
        # Enumeration has no success bar (the reference answers such questions too) but pays in questions.
        oracle_rate = report.row("oracle", language).nodes_per_question.value
        for name in enumeration():
            row = report.row(name, language)
            assert row.role == "enumeration" and row.target is None and row.errors == 0
            assert row.nodes_per_question.value < 0.6 * oracle_rate, (language, name, row.nodes_per_question)
