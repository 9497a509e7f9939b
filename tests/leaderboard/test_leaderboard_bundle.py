"""Submission bundles: packing a run, verifying an honest one, and catching each kind of tampering precisely."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from leaderboard_runs import edit_submission, make_run, sample_tasks, scripted_transcript, write_run
from upstream_paths import SAMPLE_TASKS

from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError
from clarq_bench.leaderboard import build_submission, read_submission, verify_file, write_submission
from clarq_bench.leaderboard.schema import Label, Submitter

DATA = str(SAMPLE_TASKS)


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("honest")
    run = make_run(root / "run-a", drop_every=3)
    return write_submission(build_submission(run, submitter=Submitter(name="A", org="lab")), root / "a.json")


def tampered(honest: Path, tmp_path: Path, edit, *, reseal: bool = True) -> Path:
    return edit_submission(honest, tmp_path, edit, reseal=reseal)


def problems(path: Path) -> list[str]:
    return verify_file(path, DATA)[1].problems


def test_honest_submission_verifies_in_both_forms(honest: Path, tmp_path: Path) -> None:
    sub = read_submission(honest)
    assert sub.manifest.transcript_count == len(sample_tasks()) == 16
    # 16 dialogues, every third (i = 0, 3, ..., 15: six of them) misses a node
    assert sub.manifest.metrics["summary"]["success"]["value"] == pytest.approx(10 / 16)
    assert sub.manifest.metrics["cost"]["total_usd"] == pytest.approx(0.16)
    assert sub.manifest.label == Label.custom and sub.manifest.partial is False
    assert verify_file(honest, DATA)[1].problems == []
    zipped = write_submission(sub, tmp_path / "a.zip")
    assert zipfile.is_zipfile(zipped)
    assert verify_file(zipped, DATA)[1].problems == []


def test_edited_metric_is_named(honest: Path, tmp_path: Path) -> None:
    def edit(p):
        p["manifest"]["metrics"]["summary"]["success"]["value"] = 0.9

    assert problems(tampered(honest, tmp_path, edit)) == [
        "metrics.summary.success.value: recorded 0.9 but the transcripts give 0.625"
    ]


def test_dropped_dialogue_is_named(honest: Path, tmp_path: Path) -> None:
    def edit(p):
        dropped = p["transcripts"].pop(0)
        p["verdicts"] = [v for v in p["verdicts"] if v["task_id"] != dropped["task_id"]]
        p["manifest"]["transcript_count"] -= 1

    found = problems(tampered(honest, tmp_path, edit))
    assert found[0] == "dialogue en/01/0#0 is missing (its task is in the task set and the submission is not partial)"
    assert any(line.startswith("metrics.summary.dialogues: recorded 16 but the transcripts give 15") for line in found)


def test_altered_provider_turn_is_named(honest: Path, tmp_path: Path) -> None:
    def edit(p):
        turn = p["transcripts"][1]["turns"][4]  # the provider's answer carrying node 1 of en/01/1
        assert turn["revealed"] == ["1"]
        turn["text"] = "Just do whatever seems best."

    found = problems(tampered(honest, tmp_path, edit))
    assert found[0] == "dialogue en/01/1#0 turn 4: the Response I is not its nodes' text verbatim"
    assert "dialogue en/01/1#0 turn 4: claims node 1 but its text does not carry it" in found
    assert "dialogue en/01/1#0 node 1: recorded exact but no provider turn carries it" in found


def test_leaked_node_without_claim_is_named(honest: Path, tmp_path: Path) -> None:
    tasks = {t.id: t for t in sample_tasks()}

    def edit(p):
        transcript = p["transcripts"][0]  # en/01/0 misses its last node: slip it into the goodbye reply
        last = tasks["en/01/0"].tree.required[-1]
        transcript["turns"].append({"speaker": "provider", "text": last.text, "kind": "response_ii"})

    found = problems(tampered(honest, tmp_path, edit))
    last = tasks["en/01/0"].tree.required[-1]
    assert (
        f"dialogue en/01/0#0 turn {4 + 2 * (len(tasks['en/01/0'].tree.required) - 1)}: carries node {last.id} without claiming it"
        in found
    )


def test_wrong_task_hash_is_named(honest: Path, tmp_path: Path) -> None:
    def edit(p):
        p["manifest"]["task_hashes"]["zh/02/1"] = "0" * 64

    found = problems(tampered(honest, tmp_path, edit))
    assert found[0].startswith("task_set_hash ") and "does not match its task hashes" in found[0]
    assert found[1].startswith("task zh/02/1: hash 000000000000... differs from the task data (")
    assert "dialogue zh/02/1#0: task_hash differs from the task set's hash for zh/02/1" in found


def test_llm_judged_node_needs_a_named_judge(honest: Path, tmp_path: Path) -> None:
    def claim_llm(p, judge):
        verdict = p["verdicts"][0]  # en/01/0: last node missing
        verdict["nodes"][-1]["status"] = "llm"
        verdict["judge"] = judge
        p["manifest"]["judge"] = {"name": judge, "model": None, "settings": {}}

    found = problems(tampered(honest, tmp_path, lambda p: claim_llm(p, "none")))
    assert any("recorded as LLM-judged but the submission names no judge" in line for line in found)
    # without a judge the node counts as the deterministic judge finds it (missed), as in the recorded figures: the
    # figures agree, and that one line is all that is wrong
    assert not any(line.startswith(("metrics.", "... and")) for line in found), found
    # with a judge named, the node is accepted on its recorded verdict: only the now-stale figures disagree
    found = problems(tampered(honest, tmp_path, lambda p: claim_llm(p, "gpt-4o")))
    assert found and all(line.startswith(("metrics.", "... and")) for line in found)


def test_incomplete_run_refused_unless_partial(tmp_path: Path) -> None:
    tasks = sample_tasks()
    run = write_run(tmp_path / "run", [scripted_transcript(t) for t in tasks[:-2]], tasks)
    with pytest.raises(ClarqError, match=r"incomplete: 2 dialogue\(s\) missing \(zh/05/0#0, zh/04/0#0\)|incomplete: 2"):
        build_submission(run)
    sub = build_submission(run, partial=True)
    assert sub.manifest.partial and sorted(sub.manifest.missing) == sorted(f"{t.id}#0" for t in tasks[-2:])
    path = write_submission(sub, tmp_path / "p.json")
    assert problems(path) == []


def test_run_on_a_subset_of_the_split_is_partial(tmp_path: Path) -> None:
    """--limit / --types runs are complete for their selection but not for the benchmark: only --partial packs them."""
    tasks = sample_tasks(("en",))
    chosen = tasks[:3]
    run = write_run(tmp_path / "run", [scripted_transcript(t) for t in chosen], chosen, extra={"limit": 3})
    with pytest.raises(ClarqError, match=rf"covers 3 of the {len(tasks)} tasks of its split"):
        build_submission(run)
    sub = build_submission(run, partial=True)
    assert sub.manifest.partial and set(sub.manifest.task_hashes) == {t.id for t in tasks}
    assert sorted(sub.manifest.missing) == sorted(f"{t.id}#0" for t in tasks[3:])
    assert problems(write_submission(sub, tmp_path / "p.json")) == []


def test_standard_label_and_secrets(tmp_path: Path) -> None:
    tasks = sample_tasks(("en",))
    provider = {
        "name": "gpt-4o",
        "model": None,
        "mode": "single",
        "options": {"api_key": "sk-live-abcdefghijkl", "reading": "model"},
    }
    run = write_run(
        tmp_path / "std",
        [scripted_transcript(t, provider="gpt-4o") for t in tasks],
        tasks,
        provider=provider,
        extra={"api_base": "https://user:hunter2@example.invalid/v1"},
    )
    sub = build_submission(run)
    assert sub.manifest.label == Label.standard and sub.manifest.label_reasons == []
    text = sub.model_dump_json()
    assert "sk-live" not in text and "hunter2" not in text
    run = write_run(
        tmp_path / "multi",
        [scripted_transcript(t, provider="gpt-4o") for t in tasks],
        tasks,
        provider={"name": "gpt-4o", "mode": "multi-info"},
        max_turns=14,
    )
    sub = build_submission(run)
    assert sub.manifest.label == Label.custom
    assert sub.manifest.label_reasons == [
        "provider mode multi-info (standard: single)",
        "provider reading unrecorded (standard: model)",
        "turn cap 14 (standard: 12)",
    ]
    # relabelling a custom run as standard is caught
    path = write_submission(sub, tmp_path / "m.json")
    path = tampered(path, tmp_path, lambda p: p["manifest"].update(label="standard"))
    assert problems(path)[0].startswith(
        "label is standard but the run config makes it custom (provider mode multi-info"
    )


def test_cli_submit_and_verify(honest: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path / "run-b")
    out = tmp_path / "b.zip"
    assert main(["submit", str(run), "-o", str(out), "--name", "B"]) == 0
    assert "16 dialogues, custom" in capsys.readouterr().out
    assert main(["leaderboard", "verify", str(out), str(honest), "--data", DATA]) == 0
    assert capsys.readouterr().out.count(": verified") == 2
    bad = tampered(honest, tmp_path, lambda p: p["manifest"]["metrics"]["summary"]["aqd"].update(value=-3.0))
    assert main(["leaderboard", "verify", str(bad), "--data", DATA]) == 1
    assert capsys.readouterr().out.startswith(
        f"{bad}: metrics.summary.aqd.value: recorded -3.0 but the transcripts give"
    )
    assert main(["submit", str(tmp_path / "nowhere"), "-o", str(out)]) == 2
