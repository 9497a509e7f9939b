"""`clarq score`: the released figures to four decimals, the scripted LLM check, run directories and reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scoring_helpers import CAVE, GREETING, ROOT, SILK, TORCH, make_transcript, perfect_turns, provider, seeker
from upstream_paths import UPSTREAM_RESULTS, needs_results

from clarq_bench.cli.main import main
from clarq_bench.core.transcript import EndReason, ReplyKind
from clarq_bench.scoring.judge import judge_all, judge_deterministic
from clarq_bench.scoring.metrics import summarize
from clarq_bench.scoring.score_import import import_released

#: REFERENCE.md: success (deterministic stage), AQD, AQL of the released dialogues, 260 test dialogues each.
RELEASED = {
    "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json": (125 / 260, 0.4923, 70.4906),
    "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.Ch.json": (132 / 260, 0.2154, 129.8562),
    "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Chat.En.json": (35 / 260, -1.1923, 50.0359),
    "l2l_GPT-4o_seeker_vs_GPT-4o_multi_info_provider.Comp.En.json": (139 / 260, -1.0385, 75.5587),
}


@needs_results
@pytest.mark.parametrize("name", sorted(RELEASED))
def test_released_figures_to_four_decimals(name, capsys):
    code = main(
        [
            "score",
            str(UPSTREAM_RESULTS / name),
            "--format",
            "upstream",
            "--judge",
            "none",
            "--json",
            "--resamples",
            "100",
        ]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    success, aqd, aql = RELEASED[name]
    assert summary["dialogues"] == 260 and summary["split"] == "test"
    assert round(summary["success"]["value"], 4) == round(success, 4)
    assert round(summary["aqd"]["value"], 4) == aqd
    assert round(summary["aql"]["value"], 4) == aql
    assert summary["success"]["low"] < summary["success"]["value"] < summary["success"]["high"]


@needs_results
async def test_scripted_check_raises_success_by_exactly_one_dialogue():
    pairs = import_released(UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json")
    deterministic = [judge_deterministic(t, task) for t, task in pairs]
    assert sum(v.success for v in deterministic) == 125
    chosen = next(
        (v, task)
        for v, (_, task) in zip(deterministic, pairs, strict=False)
        if sum(not n.obtained for n in v.nodes) == 1
    )
    leftover = next(n for n in chosen[0].nodes if not n.obtained)
    target = chosen[1].tree[leftover.node_id].text

    async def check(node_text: str, candidates: list[str], language: str) -> bool:
        return node_text == target

    verdicts = await judge_all(pairs, check, judge_name="scripted")
    assert sum(v.success for v in verdicts) == 125 + 1
    changed = [v.task_id for v, d in zip(verdicts, deterministic, strict=False) if v.success != d.success]
    assert changed == [chosen[0].task_id]
    assert summarize(verdicts, resamples=50).success.value == 126 / 260


def write_task_data(root: Path) -> None:
    """One English task in the upstream layout: root + 1, 1.1, 2 (the helpers' task)."""
    texts = [f"Jax: {ROOT}", f"Jax: {CAVE}", f"Jax: {TORCH}", f"Jax: {SILK}"]
    record = {
        "background": "Collect the gem.",
        "all_response": "\n".join(texts + ["0", "1", "1.1", "2"]),
        "all_response_exaplain": ["where", "light", "carrying"],
        "background_splitted": ["adventurer", "collect the gem", "torch", "climb", "cave"],
    }
    folder = root / "English"
    folder.mkdir(parents=True)
    (folder / "1._Gather_Resources.json").write_text(json.dumps([record, {"background": ""}]), encoding="utf-8")


def write_run(run: Path, data: Path, transcripts: list) -> None:
    run.mkdir(parents=True)
    (run / "config.json").write_text(json.dumps({"data_dir": str(data), "seeker": "scripted"}), encoding="utf-8")
    (run / "transcripts.jsonl").write_text("".join(t.model_dump_json() + "\n" for t in transcripts), encoding="utf-8")


def run_transcripts(task):
    failed = [
        provider(GREETING, ReplyKind.greeting),
        seeker("Hello, I need the gem."),
        provider(ROOT, ReplyKind.root),
        seeker("Goodbye"),
    ]
    return [make_transcript(task, perfect_turns(), trial=0), make_transcript(task, failed, trial=1)]


def test_score_run_directory_writes_reports(tmp_path, capsys):
    from clarq_bench.data.loader import load_tasks

    write_task_data(tmp_path / "data")
    task = load_tasks(tmp_path / "data", ("en",))[0]
    write_run(tmp_path / "runs" / "r1", tmp_path / "data", run_transcripts(task))
    assert main(["score", str(tmp_path / "runs" / "r1"), "--json", "--resamples", "50"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["success"]["value"] == 1 / 2
    assert summary["aqd"]["value"] == ((4 - 4) + (1 - 4)) / 2
    assert summary["trials"] == 2 and summary["pass_k"]["2"]["value"] == 0.0
    run = tmp_path / "runs" / "r1"
    for name in ("summary.json", "report.md", "success_by_required.png", "success_by_type.png"):
        assert (run / name).is_file(), name
    assert json.loads((run / "summary.json").read_text()) == summary
    assert "Success rate" in (run / "report.md").read_text()
    # the table form prints without error too
    assert main(["score", str(run), "--no-write"]) == 0
    assert "Success rate" in capsys.readouterr().out


def test_score_refuses_tasks_that_changed(tmp_path, capsys):
    from clarq_bench.data.loader import load_tasks

    write_task_data(tmp_path / "data")
    task = load_tasks(tmp_path / "data", ("en",))[0]
    transcripts = [t.model_copy(update={"task_hash": "0" * 64}) for t in run_transcripts(task)]
    write_run(tmp_path / "run", tmp_path / "data", transcripts)
    assert main(["score", str(tmp_path / "run"), "--json", "--no-write"]) == 2
    assert "differs from the one the run was played on" in capsys.readouterr().err


def test_score_needs_to_know_the_tasks(tmp_path, capsys):
    from clarq_bench.data.loader import load_tasks

    write_task_data(tmp_path / "data")
    task = load_tasks(tmp_path / "data", ("en",))[0]
    run = tmp_path / "run"
    write_run(run, tmp_path / "data", run_transcripts(task))
    (run / "config.json").write_text("{}", encoding="utf-8")
    assert main(["score", str(run), "--no-write"]) == 2
    assert "pass --data DIR" in capsys.readouterr().err
    assert main(["score", str(run), "--no-write", "--json", "--data", str(tmp_path / "data")]) == 0


def test_score_rejects_unknown_paths(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nothing")]) == 2
    (tmp_path / "notes.txt").write_text("hi")
    assert main(["score", str(tmp_path / "notes.txt")]) == 2
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "transcripts.jsonl").write_text('{"task_id": 1}\n')
    assert main(["score", str(bad), "--data", str(tmp_path)]) == 2
    assert "line 1 is not a transcript" in capsys.readouterr().err


@needs_results
def test_import_keeps_the_released_text_and_marks_the_root():
    pairs = import_released(UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.Ch.json")
    transcript, task = pairs[0]
    assert transcript.seeker.name == "released" and transcript.provider.name == "released-gpt-4o"
    assert transcript.end_reason == EndReason.released
    assert transcript.turns[0].kind == ReplyKind.greeting and transcript.turns[2].kind == ReplyKind.root
    assert transcript.task_hash == task.content_hash()
    revealed = [node for turn in transcript.provider_turns for node in turn.revealed]
    assert judge_deterministic(transcript, task).unverified_claims == [] and set(revealed) <= set(
        task.tree.required_ids
    )


def test_unfinished_last_line_is_ignored(tmp_path, capsys):
    from clarq_bench.data.loader import load_tasks

    write_task_data(tmp_path / "data")
    task = load_tasks(tmp_path / "data", ("en",))[0]
    write_run(tmp_path / "run", tmp_path / "data", run_transcripts(task))
    with open(tmp_path / "run" / "transcripts.jsonl", "a", encoding="utf-8") as handle:
        handle.write('{"task_id": "en/01/0", "langu')  # a run stopped mid-write
    assert main(["score", str(tmp_path / "run"), "--json", "--no-write", "--resamples", "20"]) == 0
    assert json.loads(capsys.readouterr().out)["dialogues"] == 2
