"""Efficiency on the leaderboard: a sortable column beside the paper's figures (which keep the default order),
recomputed by verify, a tampered or missing value refused, a submission that still carries the old name `success_eff`
verified with the figure recomputed. Expected values from the formula: a dialogue that succeeds where the human path
takes H = required + 1 queries counts H / max(H, Q, A + 1, W / B) (each question here asks one thing), a failure 0."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from leaderboard_runs import edit_submission, make_run, sample_tasks, scripted_transcript, write_run
from upstream_paths import SAMPLE_TASKS

from clarq_bench.core.tasks import Task
from clarq_bench.core.transcript import Intent, ReplyKind, Speaker, Transcript, Turn
from clarq_bench.leaderboard import build_submission, verify_file, write_submission
from clarq_bench.leaderboard.schema import Submitter
from clarq_bench.leaderboard.site import build_site, load_entries
from clarq_bench.scoring.charge import HUMAN_TURN_TOKENS
from clarq_bench.scoring.lengths import token_counter

DATA = str(SAMPLE_TASKS)


def chatty(task: Task) -> Transcript:
    """Succeeds, but asks a vague question before each node: Q = 2 x required + 1 (goodbye), H = required + 1."""
    plain = scripted_transcript(task, seeker="chatty")
    notes = plain.turns[0].notes
    vague = [
        Turn(speaker=Speaker.seeker, text="Is there anything else I should know?"),
        Turn(
            speaker=Speaker.provider,
            text="Could you ask about something specific?",
            kind=ReplyKind.response_ii,
            intent=Intent.vague,
            notes=notes,
        ),
    ]
    turns = plain.turns[:3]
    for index in range(3, len(plain.turns) - 1, 2):
        turns += vague + plain.turns[index : index + 2]
    return plain.model_copy(update={"turns": turns + plain.turns[-1:]})


def hand(language: str, value_of) -> float:  # type: ignore[no-untyped-def]
    tasks = [(i, t) for i, t in enumerate(sample_tasks()) if t.language == language]
    return sum(value_of(i, t) for i, t in tasks) / len(tasks)


def worth(task: Task, questions: list[str]) -> float:
    """H / max(H, Q, A + 1, W / B) of a success whose turns after the root are `questions` (one ask each) + goodbye."""
    count = token_counter().count
    budget = HUMAN_TURN_TOKENS[(token_counter().unit, task.language)]
    h, q = len(task.tree.required) + 1, len(questions) + 1
    words = sum(count(text) for text in questions) + count("Thanks, goodbye!")
    return h / max(h, q, len(questions) + 1, words / budget)


def plain_questions(task: Task) -> list[str]:
    return [f"Could you tell me more about step {node.id} please?" for node in task.tree.required]


def chatty_questions(task: Task) -> list[str]:
    return [text for q in plain_questions(task) for text in ("Is there anything else I should know?", q)]


@pytest.fixture(scope="module")
def submissions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("efficiency")
    folder = root / "subs"
    folder.mkdir()
    write_submission(
        build_submission(make_run(root / "plain", drop_every=4), submitter=Submitter(name="Plain")),
        folder / "plain.json",
    )
    tasks = sample_tasks()
    run = write_run(root / "chatty", [chatty(t) for t in tasks], tasks)
    write_submission(build_submission(run, submitter=Submitter(name="Chatty")), folder / "chatty.json")
    return folder


def board(index: str, language: str) -> tuple[list[str], list[list[str]]]:
    """Header texts and, per row, each cell's data-value ("" where a cell has none)."""
    table = re.search(rf'<table class="sortable leaderboard" id="board-{language}">(.*?)</table>', index, re.S)
    assert table, language
    head, body = table.group(1).split("</thead>")
    names = [re.sub(r"<[^>]+>", "", text) for text in re.findall(r"<th[^>]*>(.*?)</th>", head)]
    rows = [
        [(re.search(r'data-value="([^"]*)"', attrs) or [None, ""])[1] for attrs in re.findall(r"<td([^>]*)>", row)]
        for row in body.split("<tr>")[1:]
    ]
    return names, rows


def test_efficiency_column_sorts_and_leaves_the_default_order(submissions: Path, tmp_path: Path) -> None:
    entries, rejected = load_entries(submissions, data=DATA)
    assert rejected == []
    index = build_site(entries, tmp_path / "site", plots=False).read_text(encoding="utf-8")
    assert re.search(
        r'<th class="num" data-type="number"><abbr title="success weighted by what the seeker said[^"]*">'
        r"Efficiency</abbr></th>",
        index,
    )  # numeric, sortable, highest first (no data-first)
    assert "SwE" not in index and "success_eff" not in index
    for language in ("en", "zh"):
        names, rows = board(index, language)
        success, efficiency = names.index("Success"), names.index("Efficiency")
        assert efficiency > names.index("AQL (tokens)")  # the paper's figures come first
        chatty = hand(language, lambda i, t: worth(t, chatty_questions(t)))
        plain = hand(language, lambda i, t: 0.0 if i % 4 == 0 else worth(t, plain_questions(t)))
        plain_success = hand(language, lambda i, t: 0.0 if i % 4 == 0 else 1.0)
        # rows stay ordered by success: chatty (every dialogue succeeds) first, although its efficiency is lower
        assert [float(row[success]) for row in rows] == [1.0, pytest.approx(plain_success)]
        assert [float(row[efficiency]) for row in rows] == [pytest.approx(chatty), pytest.approx(plain)]
        assert chatty < plain
    page = next((tmp_path / "site" / "s").glob("chatty-*[!s].html")).read_text(encoding="utf-8")
    assert page.count(">Efficiency</abbr></th>") >= 4  # headline, type, required-node and depth tables


def tampered(path: Path, tmp_path: Path, edit) -> list[str]:  # type: ignore[no-untyped-def]
    return verify_file(edit_submission(path, tmp_path, edit), DATA)[1].problems


def test_verify_recomputes_efficiency_and_refuses_a_tampered_or_missing_value(
    submissions: Path, tmp_path: Path
) -> None:
    path = submissions / "chatty.json"
    assert verify_file(path, DATA)[1].problems == []
    expected = sum(worth(t, chatty_questions(t)) for t in sample_tasks()) / len(sample_tasks())

    def headline(p):  # type: ignore[no-untyped-def]
        p["manifest"]["metrics"]["summary"]["efficiency"]["value"] = 1.0

    (found,) = tampered(path, tmp_path, headline)
    prefix = "metrics.summary.efficiency.value: recorded 1.0 but the transcripts give "
    assert found.startswith(prefix) and float(found[len(prefix) :]) == pytest.approx(expected)

    def per_language(p):  # type: ignore[no-untyped-def]
        p["manifest"]["metrics"]["summary"]["by_language"][1]["efficiency"]["high"] = 1.0

    found = tampered(path, tmp_path, per_language)
    assert len(found) == 1 and found[0].startswith("metrics.summary.by_language[lang=zh].efficiency.high: recorded 1.0")

    def removed(p):  # type: ignore[no-untyped-def]
        del p["manifest"]["metrics"]["summary"]["by_type"][0]["efficiency"]

    found = tampered(path, tmp_path, removed)
    assert len(found) == 1 and found[0].startswith("metrics.summary.by_type[type=1].efficiency is missing")


def _to_old_names(node, value: float | None = None):  # type: ignore[no-untyped-def]
    """A metrics block as submissions packed before the rename carry it: `success_eff` (here with a turns-only value)."""
    if isinstance(node, dict):
        out = {("success_eff" if k == "efficiency" else k): _to_old_names(v, value) for k, v in node.items()}
        if "success_eff" in out and isinstance(out["success_eff"], dict) and value is not None:
            out["success_eff"] = {**out["success_eff"], "value": value}
        return out
    if isinstance(node, list):
        return [_to_old_names(v, value) for v in node]
    return node


def test_a_submission_with_the_old_name_verifies_and_shows_the_recomputed_figure(
    submissions: Path, tmp_path: Path
) -> None:
    """Packed before the figure was renamed: its `success_eff` (defined on turns only, so another value) is not
    compared but recomputed as `efficiency`, noted once, and the site shows the recomputed figure."""

    def renamed(p):  # type: ignore[no-untyped-def]
        p["manifest"]["metrics"] = _to_old_names(p["manifest"]["metrics"], value=0.123)

    old = edit_submission(submissions / "chatty.json", tmp_path, renamed)
    assert '"success_eff"' in old.read_text(encoding="utf-8") and '"efficiency"' not in old.read_text(encoding="utf-8")
    _, outcome = verify_file(old, DATA)
    assert outcome.problems == []
    assert any(note.startswith("success_eff is the old name of efficiency") for note in outcome.notes)
    expected = sum(worth(t, chatty_questions(t)) for t in sample_tasks()) / len(sample_tasks())
    assert outcome.metrics["summary"]["efficiency"]["value"] == pytest.approx(expected)
    folder = tmp_path / "old"
    folder.mkdir()
    old.rename(folder / "chatty-old.json")
    entries, rejected = load_entries(folder, data=DATA)
    assert rejected == [] and entries[0].summary["efficiency"]["value"] == pytest.approx(expected)
    assert "success_eff" not in json.dumps(entries[0].summary)
    unverified, _ = load_entries(folder, verify=False)  # read as it is: the old figure under the new name
    assert unverified[0].summary["efficiency"]["value"] == 0.123 and "success_eff" not in unverified[0].summary


def test_a_run_folder_with_verdicts_recorded_before_asks_were_counted_still_packs(tmp_path: Path) -> None:
    """verdicts.jsonl written before turns carried `asks`: its verdicts load, their turns are read again from the
    transcripts (the recorded node statuses kept), so the figure is the one a fresh judge gives."""
    from clarq_bench.leaderboard.rundir import read_run, verdicts_for
    from clarq_bench.scoring.judge import judge_deterministic

    run = make_run(tmp_path / "run")
    files = read_run(run, DATA)
    fresh = [judge_deterministic(t, files.tasks[t.task_id]) for t in files.transcripts]
    lines = []
    for verdict in fresh:
        record = json.loads(verdict.model_dump_json())
        for turn in record["seeker_turns"]:
            del turn["asks"]
        record["judge"] = "recorded-judge"
        lines.append(json.dumps(record))
    (run / "verdicts.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    loaded = verdicts_for(read_run(run, DATA))
    assert [v.judge for v in loaded] == ["recorded-judge"] * len(fresh)  # the recorded verdicts, not new ones
    assert all(turn.asks is not None for v in loaded for turn in v.seeker_turns)
    assert [v.efficiency for v in loaded] == [v.efficiency for v in fresh]
    assert any(v.efficiency < 1.0 for v in fresh)  # the words charge binds on these turns: a real comparison
