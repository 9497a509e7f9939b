"""SwE on the leaderboard: a sortable column beside the paper's figures (which keep the default order), recomputed by
verify, a tampered or missing value refused. Expected values from the formula: a dialogue that succeeds with Q
queries where the human path takes H = required + 1 counts H / max(H, Q), a failure 0."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clarq_bench.core.tasks import Task
from clarq_bench.core.transcript import Intent, ReplyKind, Speaker, Transcript, Turn
from clarq_bench.leaderboard import build_submission, verify_file, write_submission
from clarq_bench.leaderboard.schema import Submitter
from clarq_bench.leaderboard.site import build_site, load_entries

from leaderboard_runs import edit_submission, make_run, sample_tasks, scripted_transcript, write_run
from upstream_paths import SAMPLE_TASKS

DATA = str(SAMPLE_TASKS)


def chatty(task: Task) -> Transcript:
    """Succeeds, but asks a vague question before each node: Q = 2 x required + 1 (goodbye), H = required + 1."""
    plain = scripted_transcript(task, seeker="chatty")
    notes = plain.turns[0].notes
    vague = [Turn(speaker=Speaker.seeker, text="Is there anything else I should know?"),
             Turn(speaker=Speaker.provider, text="Could you ask about something specific?", kind=ReplyKind.response_ii,
                  intent=Intent.vague, notes=notes)]  # fmt: skip
    turns = plain.turns[:3]
    for index in range(3, len(plain.turns) - 1, 2):
        turns += vague + plain.turns[index : index + 2]
    return plain.model_copy(update={"turns": turns + plain.turns[-1:]})


def hand_swe(language: str, value_of) -> float:  # type: ignore[no-untyped-def]
    tasks = [(i, t) for i, t in enumerate(sample_tasks()) if t.language == language]
    return sum(value_of(i, len(t.tree.required)) for i, t in tasks) / len(tasks)


@pytest.fixture(scope="module")
def submissions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("swe")
    folder = root / "subs"
    folder.mkdir()
    write_submission(build_submission(make_run(root / "plain", drop_every=4), submitter=Submitter(name="Plain")),
                     folder / "plain.json")  # fmt: skip
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
    rows = [[(re.search(r'data-value="([^"]*)"', attrs) or [None, ""])[1] for attrs in re.findall(r"<td([^>]*)>", row)]
            for row in body.split("<tr>")[1:]]  # fmt: skip
    return names, rows


def test_swe_column_sorts_and_leaves_the_default_order(submissions: Path, tmp_path: Path) -> None:
    entries, rejected = load_entries(submissions, data=DATA)
    assert rejected == []
    index = build_site(entries, tmp_path / "site", plots=False).read_text(encoding="utf-8")
    assert re.search(r'<th class="num" data-type="number"><abbr title="success weighted by query efficiency[^"]*">'
                     r"SwE</abbr></th>", index)  # numeric, sortable, highest first (no data-first)
    for language in ("en", "zh"):
        names, rows = board(index, language)
        success, swe = names.index("Success"), names.index("SwE")
        assert swe > names.index("AQL (tokens)")  # the paper's figures come first
        chatty_swe = hand_swe(language, lambda i, r: (r + 1) / (2 * r + 1))
        plain_success = hand_swe(language, lambda i, r: 0.0 if i % 4 == 0 else 1.0)  # plain: Q = H when it succeeds
        # rows stay ordered by success: chatty (every dialogue succeeds) first, although its SwE is lower
        assert [float(row[success]) for row in rows] == [1.0, pytest.approx(plain_success)]
        assert [float(row[swe]) for row in rows] == [pytest.approx(chatty_swe), pytest.approx(plain_success)]
        assert chatty_swe < plain_success
    page = next((tmp_path / "site" / "s").glob("chatty-*[!s].html")).read_text(encoding="utf-8")
    assert page.count(">SwE</abbr></th>") >= 4  # headline, type, required-node and depth tables


def tampered(path: Path, tmp_path: Path, edit) -> list[str]:  # type: ignore[no-untyped-def]
    return verify_file(edit_submission(path, tmp_path, edit), DATA)[1].problems


def test_verify_recomputes_swe_and_refuses_a_tampered_or_missing_value(submissions: Path, tmp_path: Path) -> None:
    path = submissions / "chatty.json"
    assert verify_file(path, DATA)[1].problems == []
    expected = sum((len(t.tree.required) + 1) / (2 * len(t.tree.required) + 1) for t in sample_tasks())
    expected /= len(sample_tasks())

    def headline(p):  # type: ignore[no-untyped-def]
        p["manifest"]["metrics"]["summary"]["success_eff"]["value"] = 1.0

    (found,) = tampered(path, tmp_path, headline)
    prefix = "metrics.summary.success_eff.value: recorded 1.0 but the transcripts give "
    assert found.startswith(prefix) and float(found[len(prefix):]) == pytest.approx(expected)

    def per_language(p):  # type: ignore[no-untyped-def]
        p["manifest"]["metrics"]["summary"]["by_language"][1]["success_eff"]["high"] = 1.0

    found = tampered(path, tmp_path, per_language)
    assert len(found) == 1 and found[0].startswith("metrics.summary.by_language[lang=zh].success_eff.high: recorded 1.0")

    def removed(p):  # type: ignore[no-untyped-def]
        del p["manifest"]["metrics"]["summary"]["by_type"][0]["success_eff"]

    found = tampered(path, tmp_path, removed)
    assert len(found) == 1 and found[0].startswith("metrics.summary.by_type[type=1].success_eff is missing")
