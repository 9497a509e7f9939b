"""The static site: pages for every entry, untrusted text escaped, reference rows from the released dialogues."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from leaderboard_runs import make_run, sample_tasks, scripted_transcript, write_run
from upstream_paths import SAMPLE_TASKS, UPSTREAM_RESULTS, needs_upstream

from clarq_bench.cli.main import main
from clarq_bench.leaderboard import build_submission, write_submission
from clarq_bench.leaderboard.pages import highlight
from clarq_bench.leaderboard.schema import Submitter
from clarq_bench.leaderboard.site import build_site, load_entries, reference_entries

HOSTILE = '<script>document.title="pwned"</script><img src=x onerror="document.body.dataset.pwned=1">'


def hostile_submissions(folder: Path, runs: Path) -> Path:
    """Two submissions in `folder`: a plain one and one whose seeker turns, name and notes carry markup."""
    folder.mkdir(parents=True, exist_ok=True)
    write_submission(
        build_submission(make_run(runs / "plain", drop_every=4), submitter=Submitter(name="Plain seeker")),
        folder / "plain.json",
    )
    tasks = sample_tasks()
    transcripts = [scripted_transcript(t, seeker="hostile", drop=i % 2, opening=HOSTILE) for i, t in enumerate(tasks)]
    run = write_run(runs / "hostile", transcripts, tasks)
    sub = build_submission(run, submitter=Submitter(name=f"Hostile {HOSTILE}", org="<b>org</b>", notes=HOSTILE))
    write_submission(sub, folder / "hostile.zip")
    return folder


def test_site_escapes_untrusted_text(tmp_path: Path) -> None:
    folder = hostile_submissions(tmp_path / "subs", tmp_path / "runs")
    entries, rejected = load_entries(folder, data=str(SAMPLE_TASKS))
    assert rejected == [] and len(entries) == 2
    index = build_site(entries, tmp_path / "site", plots=False)
    pages = [index, *sorted((tmp_path / "site" / "s").glob("*.html"))]
    assert len(pages) == 5
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "<script>document" not in text and "<img src=x" not in text and "<b>org" not in text
        assert re.findall(r"<script[^>]*>", text) == ['<script src="../assets/leaderboard.js">'] or re.findall(
            r"<script[^>]*>", text
        ) == ['<script src="assets/leaderboard.js">']
    viewer = next(p for p in pages if p.name.startswith("hostile") and p.name.endswith("-dialogues.html"))
    assert "&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;" in viewer.read_text(encoding="utf-8")


def test_highlight_marks_node_words_and_escapes() -> None:
    html = highlight("Jax: Use the <RED> key, not the blue one.", ["use the <red> key."], "en")
    assert html == 'Jax: <mark class="node">Use the &lt;RED&gt; key</mark>, not the blue one.'


def test_rejected_submission_listed_not_ranked(tmp_path: Path) -> None:
    folder = hostile_submissions(tmp_path / "subs", tmp_path / "runs")
    text = (
        (folder / "plain.json").read_text(encoding="utf-8").replace('"name":"Plain seeker"', '"name":"Plain seeker!"')
    )
    (folder / "plain.json").write_text(text.replace('"trials":1', '"trials":2'), encoding="utf-8")
    assert (
        main(
            [
                "leaderboard",
                "build",
                str(folder),
                "-o",
                str(tmp_path / "site"),
                "--data",
                str(SAMPLE_TASKS),
                "--no-plots",
            ]
        )
        == 0
    )
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Rejected files" in index and "plain.json: the manifest was edited after packing" in index
    assert "Plain seeker!" not in index


@needs_upstream
def test_reference_rows_reproduce_released_figures() -> None:
    entries = reference_entries(UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json")
    (entry,) = entries
    summary = entry.summary
    assert summary["dialogues"] == 260
    assert summary["success"]["value"] == pytest.approx(125 / 260)
    assert round(summary["aqd"]["value"], 4) == 0.4923 and round(summary["aql"]["value"], 2) == 70.49
    assert entry.manifest.label.value == "reference" and entry.title == "Released GPT-4o (Comp)"


def test_partial_submission_is_marked_and_ranked_after_complete_ones(tmp_path: Path) -> None:
    """A perfect run on 3 tasks must not outrank a complete run that misses some nodes."""
    tasks = sample_tasks(("en",))
    folder = tmp_path / "subs"
    folder.mkdir()
    complete = write_run(
        tmp_path / "complete", [scripted_transcript(t, drop=i % 2) for i, t in enumerate(tasks)], tasks
    )
    write_submission(build_submission(complete, submitter=Submitter(name="Complete run")), folder / "complete.json")
    subset = write_run(tmp_path / "subset", [scripted_transcript(t) for t in tasks[:3]], tasks[:3], extra={"limit": 3})
    write_submission(
        build_submission(subset, submitter=Submitter(name="Subset run"), partial=True), folder / "subset.json"
    )
    entries, rejected = load_entries(folder, data=str(SAMPLE_TASKS))
    assert rejected == []
    index = build_site(entries, tmp_path / "site", plots=False).read_text(encoding="utf-8")
    board = index[index.index('id="board-en"') :]
    assert board.index("Complete run") < board.index("Subset run")
    row = board[board.index("Subset run") :]
    assert '3<span class="org">partial</span>' in row[: row.index("</tr>")]
