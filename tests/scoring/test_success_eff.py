"""SwE, success weighted by query efficiency: per dialogue S x H / max(H, Q) with AQD's H and Q (AQD = Q - H).

Expected values are written from the formula on hand-made dialogues: the task of scoring_helpers has 3 required
nodes, so H = 3 + 1 (root) = 4, and Q counts the seeker's turns after the one the root answered, goodbye included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scoring_helpers import CAVE, GREETING, ROOT, SILK, TORCH, make_task, make_transcript, perfect_turns, provider, seeker
from test_score import RELEASED, needs_results, write_task_data
from test_score import write_run as write_score_run
from upstream_paths import UPSTREAM_RESULTS

from clarq_bench.cli.main import main
from clarq_bench.core.transcript import EndReason, Intent, ReplyKind
from clarq_bench.scoring.comparison import compare
from clarq_bench.scoring.judge import judge_deterministic, success_weighted
from clarq_bench.scoring.metrics import summarize
from clarq_bench.scoring.report import markdown
from clarq_bench.scoring.score_import import import_released

EN = make_task()
ZH = make_task("zh", texts={"0": "神器在山洞里。", "1": "山洞是清风洞。", "1.1": "需要钥匙。", "2": "穿耐磨鞋。"})
VAGUE = [seeker("What else should I know?"), provider("Jax: could you be more specific?", ReplyKind.response_ii,
                                                       Intent.vague)]  # fmt: skip


def padded() -> list:
    """The perfect dialogue with two vague questions after the root: Q = 4 + 2 = 6."""
    turns = perfect_turns()
    return turns[:3] + VAGUE + VAGUE + turns[3:]


def failed() -> list:
    """One node obtained, then goodbye: Q = 2 (under H), but a failure."""
    return perfect_turns()[:5] + [seeker("Goodbye")]


def two_at_once() -> list:
    """A multi-info reply carries two nodes: Q = 3 < H = 4 (AQD -1)."""
    return [
        provider(GREETING, ReplyKind.greeting), seeker("Hi Jax, I need to collect the gem."),
        provider(ROOT, ReplyKind.root), seeker("Where is the cave, and is it dark?"),
        provider(f"{CAVE} {TORCH}", ReplyKind.response_i, Intent.answerable, ["1", "1.1"]),
        seeker("How do I carry the gem?"), provider(SILK, ReplyKind.response_i, Intent.answerable, ["2"]),
        seeker("Goodbye"),
    ]  # fmt: skip


def zh_turns() -> list:
    """Chinese: three questions that obtain a node, one vague one, goodbye: Q = 5."""
    answer = lambda text, node: provider(f"Jax: {text}", ReplyKind.response_i, Intent.answerable, [node])  # noqa: E731
    return [
        provider("Jax: 有什么可以帮助你？", ReplyKind.greeting), seeker("你好，我要找神器"),
        provider("Jax: 神器在山洞里。", ReplyKind.root), seeker("哪个山洞？"), answer("山洞是清风洞。", "1"),
        seeker("要带什么？"), answer("需要钥匙。", "1.1"), seeker("还有什么？"),
        provider("Jax: 请问得具体一点。", ReplyKind.response_ii, Intent.vague), seeker("穿什么鞋？"),
        answer("穿耐磨鞋。", "2"), seeker("再见"),
    ]  # fmt: skip


def judged(task, turns, **kw):
    return judge_deterministic(make_transcript(task, turns, **kw), task)


ROOT_ONLY = make_task(index=7, texts={"0": ROOT})  # no required node: H = 0 + 1

#: name -> (task, turns, end, S, H, Q, SwE), the last by hand: S x H / max(H, Q)
CASES = {
    "perfect": (EN, perfect_turns(), EndReason.goodbye, True, 4, 4, 1.0),
    "padded": (EN, padded(), EndReason.goodbye, True, 4, 6, 4 / 6),
    "failed under H": (EN, failed(), EndReason.goodbye, False, 4, 2, 0.0),
    "fewer queries than H": (EN, two_at_once(), EndReason.goodbye, True, 4, 3, 1.0),
    "zh with one vague question": (ZH, zh_turns(), EndReason.goodbye, True, 4, 5, 4 / 5),
    "Q = 0 with success": (ROOT_ONLY, perfect_turns()[:3], EndReason.turn_cap, True, 1, 0, 1.0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_per_dialogue_value_and_agreement_with_aqd(name: str) -> None:
    task, turns, end, success, h, q, expected = CASES[name]
    v = judged(task, turns, end=end)
    assert (v.success, v.human_queries, v.queries_after_root) == (success, h, q)
    assert v.aqd == q - h  # the same H and Q as the released AQD
    assert v.success_eff == pytest.approx(expected)
    assert 0.0 <= v.success_eff <= 1.0


def test_h_zero_is_defined_and_never_arises_from_a_task() -> None:
    # nothing needed and nothing asked: efficient; nothing needed but something asked: 0/Q = 0; a failure is 0
    assert success_weighted(True, 0, 0) == 1.0
    assert success_weighted(True, 0, 1) == 0.0 and success_weighted(True, 0, 12) == 0.0
    assert success_weighted(False, 0, 0) == 0.0
    assert judged(ROOT_ONLY, perfect_turns()[:3], end=EndReason.turn_cap).human_queries == 1  # the root counts
    with pytest.raises(ValueError):
        success_weighted(True, -1, 3)
    with pytest.raises(ValueError):
        success_weighted(True, 3, -1)


@given(st.booleans(), st.integers(0, 60), st.integers(0, 60))
def test_bounds_and_shape(success: bool, h: int, q: int) -> None:
    value = success_weighted(success, h, q)
    assert 0.0 <= value <= 1.0
    assert value == 0.0 if not success else True
    if success and h > 0:
        assert value == (1.0 if q <= h else pytest.approx(h / q))
        assert success_weighted(success, h, q + 1) <= value  # one more question never raises it


def test_multi_trial_mean_and_task_clustered_interval() -> None:
    """Task A: trial 0 perfect (1), trial 1 padded (4/6); task B (its own task): failed (0).
    Mean over dialogues = (1 + 4/6 + 0) / 3 = 5/9. Clusters are tasks: A sums 5/3 over 2 dialogues, B 0 over 1;
    a resample holds AA (10/3 / 4 = 5/6), AB (5/3 / 3 = 5/9) or BB (0), a quarter of the time each extreme, so
    the 95% interval is [0, 5/6]; resampling dialogues would give other values (1/3, 2/3, ...)."""
    other = make_task(index=1)
    verdicts = [judged(EN, perfect_turns(), trial=0), judged(EN, padded(), trial=1), judged(other, failed())]
    summary = summarize(verdicts, resamples=2000)
    for fig in (summary.success_eff, summary.by_language[0].success_eff, summary.by_type[0].success_eff):
        assert fig.value == pytest.approx(5 / 9)
        assert (fig.low, fig.high) == (pytest.approx(0.0), pytest.approx(5 / 6))
        assert fig.n == 3 and fig.of == "dialogues"
    assert summary.success.value == pytest.approx(2 / 3)  # the released figure beside it is untouched


def test_both_languages_per_language_and_per_type() -> None:
    """en perfect (1) and zh with one vague question (4/5): headline 0.9, lang=en 1, lang=zh 0.8; both type 1."""
    summary = summarize([judged(EN, perfect_turns()), judged(ZH, zh_turns())], resamples=200)
    assert summary.success_eff.value == pytest.approx(0.9)
    by_language = {g.key: g.success_eff for g in summary.by_language}
    assert by_language["lang=en"].value == pytest.approx(1.0) and by_language["lang=zh"].value == pytest.approx(0.8)
    assert (by_language["lang=zh"].low, by_language["lang=zh"].high) == (pytest.approx(0.8), pytest.approx(0.8))
    (type_one,) = summary.by_type
    assert type_one.key == "type=1" and type_one.success_eff.value == pytest.approx(0.9)
    report = markdown(summary)
    assert "| SwE (success weighted by efficiency) | 0.9000 [" in report
    assert "| lang=zh | 1 | 1.0000 [1.0000, 1.0000] |" in report and report.count("| SwE |") >= 3
    assert "0.8000 [0.8000, 0.8000] |\n" in report  # the zh row ends with its SwE


def test_compare_gives_swe_a_paired_bootstrap() -> None:
    """A: perfect on tasks 0 and 1 (SwE 1, 1); B: padded (4/6) and failed (0). Per-pair differences 1/3 and 1:
    mean 2/3, resampled means are 1/3, 2/3 or 1, all above zero."""
    tasks = [make_task(index=0), make_task(index=1)]
    a = [judged(tasks[0], perfect_turns()), judged(tasks[1], perfect_turns())]
    b = [judged(tasks[0], padded()), judged(tasks[1], failed())]
    result = compare(a, b, resamples=500)
    (swe,) = [d for d in result.differences if d.figure == "success_eff"]
    assert (swe.a, swe.b) == (pytest.approx(1.0), pytest.approx(1 / 3))
    assert swe.difference == pytest.approx(2 / 3) and swe.test == "paired bootstrap"
    assert (swe.low, swe.high) == (pytest.approx(1 / 3), pytest.approx(1.0)) and swe.p_value == 0.0
    assert [d.figure for d in result.differences][:4] == ["success", "aqd", "aql", "aql_tokens"]


def test_score_and_compare_commands_show_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clarq_bench.data.loader import load_tasks

    write_task_data(tmp_path / "data")
    task = load_tasks(tmp_path / "data", ("en",))[0]  # the task of scoring_helpers, as data: H = 4
    run = tmp_path / "run"
    write_score_run(run, tmp_path / "data", [make_transcript(task, padded(), trial=0),
                                             make_transcript(task, failed(), trial=1)])  # fmt: skip
    assert main(["score", str(run), "--json", "--resamples", "50", "--no-plots"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["success_eff"]["value"] == pytest.approx((4 / 6 + 0) / 2)
    assert json.loads((run / "summary.json").read_text())["success_eff"] == summary["success_eff"]
    assert "SwE (success weighted by efficiency) | 0.3333" in (run / "report.md").read_text()
    assert main(["score", str(run), "--no-write"]) == 0
    assert "SwE (success weighted by efficiency)" in capsys.readouterr().out
    assert main(["compare", str(run), str(run), "--json", "--resamples", "50"]) == 0
    differences = {d["figure"]: d for d in json.loads(capsys.readouterr().out)["differences"]}
    assert differences["success_eff"]["a"] == pytest.approx(1 / 3) and differences["success_eff"]["difference"] == 0
    assert main(["compare", str(run), str(run)]) == 0
    assert "success_eff" in capsys.readouterr().out


@needs_results
@pytest.mark.parametrize("name", sorted(RELEASED))
def test_released_dialogues_swe_reads_success_and_aqd_together(name: str) -> None:
    """On the released GPT-4o files: each dialogue's SwE follows from its success and released AQD alone
    (Q = H + AQD), the mean is at most the success rate, and the released figures beside it stay as published."""
    verdicts = [judge_deterministic(t, task) for t, task in import_released(UPSTREAM_RESULTS / name)]
    for v in verdicts:
        h = len(v.nodes) + 1
        assert v.success_eff == pytest.approx(h / max(h, h + v.aqd) if v.success else 0.0)
    summary = summarize(verdicts, resamples=100)
    success, aqd, _ = RELEASED[name]
    assert round(summary.success.value, 4) == round(success, 4) and round(summary.aqd.value, 4) == aqd
    assert summary.success_eff.value <= summary.success.value
    assert summary.success_eff.value == pytest.approx(sum(v.success_eff for v in verdicts) / 260)
