"""The teacher-forced check of the LLM provider: the released provider's decisions, replayed through clarq's LLM
provider by a scripted model, are kept (>= 98.5% of single-info reveals, >= 95% of multi-info ones) by default; the
strict reading is measured by the same check and falls short of them, so the check can fail."""

from __future__ import annotations

import json

import pytest
from upstream_paths import UPSTREAM_RESULTS, needs_results

from clarq_bench.core.tasks import ROOT_ID
from clarq_bench.core.transcript import ReplyKind, Speaker, Turn
from clarq_bench.data.reference_steps import ReplayStep
from clarq_bench.fidelity.provider_eval import load_dialogues
from clarq_bench.fidelity.teacher_forced import (
    TARGETS,
    _Script,
    file_mode,
    reference_decision,
    teacher_forced,
)

SINGLE = "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Chat.En.json"
MULTI = "l2l_GPT-4o_seeker_vs_GPT-4o_multi_info_provider.Comp.En.json"


def _step(reference: list[str], reply: str, given: list[str]) -> ReplayStep:
    prefix = [
        Turn(speaker=Speaker.provider, text="hi", kind=ReplyKind.greeting),
        Turn(speaker=Speaker.seeker, text="help?"),
        Turn(speaker=Speaker.provider, text="root", kind=ReplyKind.root, revealed=[ROOT_ID]),
        Turn(speaker=Speaker.seeker, text="Which mine?"),
        Turn(speaker=Speaker.provider, text="Dig in the Copper Mine.", revealed=given),
        Turn(speaker=Speaker.seeker, text="And then?"),
    ]
    return ReplayStep(
        task_id="en/01/0",
        language="en",
        type_number=1,
        source=SINGLE,
        turn_index=5,
        prefix=prefix,
        frontier=["1", "2.1"],
        reference=reference,
        reference_text=reply,
    )


def test_the_scripted_decision_is_the_released_providers_whatever_the_tree_says() -> None:
    """The ids are the reference's own, even one outside the frontier: the tree is clarq's to apply, not the script's."""
    texts = {"1": "Stun the guards.", "2": "Dig in the Copper Mine.", "2.1": "Bring a lamp."}
    assert reference_decision(_step(["3.4"], "x", ["2"]), texts)["node_ids"] == ["3.4"]
    assert reference_decision(_step([], "As I said, dig in the Copper Mine.", ["2"]), texts)["intent"] == 4
    assert reference_decision(_step([], "Don't worry about it.", ["2"]), texts) == {
        "intent": 3,
        "node_ids": [],
        "rationale": "released",
    }
    script = _Script()
    script.step, script.texts = _step(["1"], "Stun the guards.", ["2"]), texts
    assert json.loads(script([]))["node_ids"] == ["1"] and script([]) == "Stun the guards."  # then Response II text
    assert file_mode(MULTI) == "multi-info" and file_mode(SINGLE) == "single"


@needs_results
@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", [SINGLE, MULTI])
def test_the_default_reading_keeps_the_released_providers_reveals(name: str) -> None:
    dialogues = load_dialogues(UPSTREAM_RESULTS / name)
    mode = file_mode(name)
    model, strict = teacher_forced(dialogues, ("model", "strict"))
    kept, target = model.modes[mode], TARGETS[mode]
    assert kept.reveals > 500 and kept.share is not None and kept.share >= target, model.lost[:5]
    assert strict.modes[mode].share is not None and strict.modes[mode].share < target  # the check can fail
    assert strict.modes[mode].reveals == kept.reveals


@needs_results
def test_cli_prints_both_readings_and_the_targets(capsys: pytest.CaptureFixture[str]) -> None:
    from clarq_bench.cli.main import main

    assert (
        main(
            [
                "provider-eval",
                "--teacher-forced",
                "--dialogues",
                str(UPSTREAM_RESULTS / MULTI),
                "--types",
                "1-2",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert [r["reading"] for r in out["readings"]] == ["model", "strict"] and out["targets"]["multi-info"] == 0.95
    model = out["readings"][0]["modes"]["multi-info"]
    assert model["reveals"] > 0 and model["kept"] == model["reveals"]
    assert (
        main(["provider-eval", "--teacher-forced", "--dialogues", str(UPSTREAM_RESULTS / MULTI), "--types", "1"]) == 0
    )
    table = capsys.readouterr().out
    assert "all multi-info" in table and ">= 95.0%" in table and "strict" in table
    assert (
        main(
            ["provider-eval", "--teacher-forced", "--provider", "offline", "--dialogues", str(UPSTREAM_RESULTS / MULTI)]
        )
        == 2
    )
