"""`clarq compare`: paired differences, McNemar, and a run against itself."""

from __future__ import annotations

import json

import pytest
from scoring_helpers import SILK, make_task, make_transcript, perfect_turns, provider, seeker
from test_score import needs_results, run_transcripts, write_run, write_task_data
from upstream_paths import UPSTREAM_RESULTS

from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError
from clarq_bench.core.transcript import ReplyKind
from clarq_bench.scoring.comparison import compare, pair_verdicts
from clarq_bench.scoring.judge import judge_deterministic


def verdicts(language="en", outcomes=(True, False, True)):
    out = []
    for index, good in enumerate(outcomes):
        task = make_task(language, index=index)
        turns = perfect_turns() if good else perfect_turns()[:3] + [seeker("Goodbye")]
        if good:  # Chinese compares case-sensitively: give node 2 in its own case
            turns[8] = provider(SILK, ReplyKind.response_i)
        out.append(judge_deterministic(make_transcript(task, turns), task))
    return out


def test_compare_with_itself_is_zero():
    result = compare(verdicts(), verdicts(), resamples=200)
    assert result.pairs == 3 and result.paired_on == "task id and trial"
    for d in result.differences:
        assert (d.difference, d.low, d.high, d.p_value) == (0.0, 0.0, 0.0, 1.0)
    assert result.mcnemar == {"a_only": 0, "b_only": 0, "p_value": 1.0}


def test_compare_differences_and_pairing_across_languages():
    a = verdicts("en", (True, True, True))
    b = verdicts("zh", (True, False, False))
    result = compare(a, b, resamples=200)
    assert result.paired_on == "type, index and trial"
    success = result.differences[0]
    assert (success.a, success.b, success.difference) == (1.0, 1 / 3, pytest.approx(2 / 3))
    assert result.mcnemar["a_only"] == 2 and result.mcnemar["p_value"] == 2 * 0.5**2
    aqd = result.differences[1]
    # A: every AQD 4 - 4 = 0; B: one 0 and two failures with one query after the root, AQD 1 - 4
    assert aqd.difference == pytest.approx((0 + (0 - (1 - 4)) * 2) / 3)


def test_unpaired_runs_are_an_error():
    task = make_task(type_number=5)
    other = [judge_deterministic(make_transcript(task, perfect_turns()), task)]
    with pytest.raises(ClarqError):
        pair_verdicts(verdicts(), other)


def test_cli_compare_run_with_itself(tmp_path, capsys):
    from clarq_bench.data.loader import load_tasks

    write_task_data(tmp_path / "data")
    task = load_tasks(tmp_path / "data", ("en",))[0]
    write_run(tmp_path / "run", tmp_path / "data", run_transcripts(task))
    assert main(["compare", str(tmp_path / "run"), str(tmp_path / "run"), "--json", "--resamples", "100"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["pairs"] == 2
    assert all(d["difference"] == 0 and d["p_value"] == 1 for d in result["differences"])
    assert main(["compare", str(tmp_path / "run"), str(tmp_path / "run")]) == 0
    assert "McNemar" in capsys.readouterr().out


@needs_results
def test_cli_compare_released_files(capsys):
    comp = UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json"
    chat = UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Chat.En.json"
    assert main(["compare", str(comp), str(chat), "--json", "--resamples", "200"]) == 0
    result = json.loads(capsys.readouterr().out)
    success = result["differences"][0]
    assert result["pairs"] == 260
    assert success["difference"] == pytest.approx((125 - 35) / 260)
    assert success["low"] > 0 and result["mcnemar"]["p_value"] < 1e-6
