"""What a newcomer meets in the first hour: an expected cost beside the dry run's ceiling, "unknown" dollars on the
progress line for an unpriced model, and a did-you-mean for a misspelt provider."""

from __future__ import annotations

import statistics

import pytest
from upstream_paths import SAMPLE_TASKS, UPSTREAM_RESULTS

from clarq_bench.api import estimate_run
from clarq_bench.cli.main import main
from clarq_bench.runner.batch import RunStats
from clarq_bench.runner.estimate import RELEASED_SEEKER_TURNS


def test_the_dry_run_expects_a_cost_between_its_floor_and_its_ceiling(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    _, tasks, plan = estimate_run(seeker="gpt-4o", tasks=str(SAMPLE_TASKS), lang="en", runs_dir=str(tmp_path))
    low, high = plan.usd
    assert low < plan.expected_usd < high / 2  # plannable: well under the every-dialogue-to-the-cap ceiling
    roles = {row.role: row for row in plan.roles}
    assert roles["seeker"].expected_calls == round(len(tasks) * RELEASED_SEEKER_TURNS["en"])
    # the provider: two calls for each turn that reveals nothing, one for each that reveals a required node
    required = sum(min(len(task.tree.required), RELEASED_SEEKER_TURNS["en"]) for task in tasks)
    assert roles["provider"].expected_calls == round(2 * len(tasks) * RELEASED_SEEKER_TURNS["en"] - required)
    _, _, capped = estimate_run(
        seeker="gpt-4o", tasks=str(SAMPLE_TASKS), lang="en", max_turns=3, runs_dir=str(tmp_path)
    )
    assert {row.role: row for row in capped.roles}["seeker"].expected_calls == 3 * len(tasks)  # never past the cap
    assert main(["run", "--seeker", "gpt-4o", "--tasks", str(SAMPLE_TASKS), "--dry-run"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"total: expected ${plan.expected_usd:,.2f}" in out and f"ceiling ${high:,.2f}" in out
    _, _, unpriced = estimate_run(
        seeker="openai/no-such-model-xyz",
        provider="offline",
        tasks=str(SAMPLE_TASKS),
        lang="en",
        runs_dir=str(tmp_path),
    )
    assert unpriced.expected_usd is None


@pytest.mark.skipif(not UPSTREAM_RESULTS.is_dir(), reason="the released dialogues are not at hand")
def test_the_expected_length_is_the_released_dialogues_mean() -> None:
    from clarq_bench.data.upstream import load_released_dialogues

    files = {
        "en": "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json",
        "zh": "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.Ch.json",
    }
    for language, name in files.items():
        turns = [len(d.seeker_lines) for d in load_released_dialogues(UPSTREAM_RESULTS / name)]
        assert round(statistics.mean(turns), 2) == RELEASED_SEEKER_TURNS[language]


def test_the_progress_line_says_unknown_for_an_unpriced_model() -> None:
    stats = RunStats(total=4, calls=3, tokens=120)
    stats.role_spend = {"provider": (120, 0.0)}
    assert "unknown cost" in stats.line() and "$0.00" not in stats.line()
    stats.role_spend["seeker"], stats.cost_usd = (50, 0.25), 0.25
    assert "$0.25 + unknown" in stats.line()
    del stats.role_spend["provider"]
    assert "$0.25 " in stats.line() and "unknown" not in stats.line()


def test_a_misspelt_provider_gets_a_did_you_mean(capsys) -> None:
    base = ["run", "--seeker", "heuristic", "--tasks", str(SAMPLE_TASKS), "--provider"]
    assert main([*base, "ofline"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did you mean offline" in err
    assert main([*base, "gtp-4o"]) == 2
    assert "did you mean the model gpt-4o" in capsys.readouterr().err
    assert main([*base, "zzzzzz"]) == 2
    assert "did you mean" not in capsys.readouterr().err
