"""`clarq view`: the transcript viewer for one run folder or released file, written as static HTML or served on
127.0.0.1; hostile transcript text stays text. The browser half is in tests/leaderboard/test_view_browser.py."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from leaderboard_runs import sample_tasks, scripted_transcript, write_run
from test_leaderboard_site import HOSTILE
from upstream_paths import UPSTREAM_RESULTS

from clarq_bench.api import view
from clarq_bench.cli.main import main

REPO = Path(__file__).resolve().parents[2]
RELEASED = UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json"


def hostile_run(folder: Path) -> Path:
    """Every sample test task once; every second dialogue misses its last node and opens with markup."""
    tasks = sample_tasks()
    transcripts = [scripted_transcript(t, seeker="hostile", drop=i % 2, opening=HOSTILE) for i, t in enumerate(tasks)]
    return write_run(folder, transcripts, tasks)


def test_view_of_a_run_escapes_and_carries_the_filters(tmp_path: Path) -> None:
    run = hostile_run(tmp_path / "run")
    index = view(run)
    assert index == run / "view" / "index.html"
    text = index.read_text(encoding="utf-8")
    assert "<script>document" not in text and "<img src=x" not in text
    assert re.findall(r"<script[^>]*>", text) == ['<script src="assets/leaderboard.js">']
    assert (run / "view" / "assets" / "leaderboard.js").is_file()
    tasks = sample_tasks()
    assert text.count('<details class="dialogue"') == len(tasks) == 16
    # outcome options count what the judge found: 8 of 16 miss a node
    assert 'value="1">success (8)</option>' in text and 'value="0">failure (8)</option>' in text
    for attribute in ("data-success", "data-type", "data-end"):
        assert f'data-filter="{attribute}"' in text
    types = sorted({t.type_number for t in tasks})
    assert re.findall(r'data-type="(\d+)"', text) and {int(v) for v in re.findall(r'data-type="(\d+)"', text)} == set(
        types
    )
    assert f"run folder: {run}" in text


@pytest.mark.skipif(not RELEASED.is_file(), reason=f"released results not found at {RELEASED}")
def test_view_of_a_released_file(tmp_path: Path) -> None:
    index = view(RELEASED, tmp_path / "out")
    text = index.read_text(encoding="utf-8")
    assert text.count('<details class="dialogue"') == 260
    assert 'data-end="released"' in text and "released file: " + RELEASED.name in text


def test_view_cli_no_open_prints_the_path_and_bad_path_is_one_line(tmp_path: Path, capsys) -> None:
    run = hostile_run(tmp_path / "run")
    assert main(["view", str(run), "--no-open", "-o", str(tmp_path / "page")]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {tmp_path / 'page' / 'index.html'}"
    assert main(["view", str(tmp_path / "missing"), "-o", str(tmp_path / "never")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err
    assert not (tmp_path / "never").exists()  # nothing written for a path that is not there


def test_view_serve_answers_on_localhost_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    run = hostile_run(tmp_path / "run")
    proc = subprocess.Popen(
        [sys.executable, "-m", "clarq_bench", "view", str(run), "--serve"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**__import__("os").environ, "PYTHONPATH": str(REPO)},
    )
    try:
        line = proc.stdout.readline()
        match = re.match(r"serving (http://127\.0\.0\.1:(\d+)/) \(Ctrl-C to stop\)", line)
        assert match, line + proc.stderr.read()
        page = urllib.request.urlopen(match.group(1), timeout=10).read().decode("utf-8")
        assert "<script>document" not in page and page.count('<details class="dialogue"') == 16
        js = urllib.request.urlopen(match.group(1) + "assets/leaderboard.js", timeout=10).read()
        assert b"data-filter" in js
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_view_opens_the_browser_only_with_a_display_and_without_no_open(tmp_path: Path, monkeypatch, capsys) -> None:
    import webbrowser

    import clarq_bench

    assert clarq_bench.view is view  # the API name, as `clarq_bench.run`
    run = hostile_run(tmp_path / "run")
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda uri, *a, **k: opened.append(uri) or True)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    assert main(["view", str(run)]) == 0  # no display: the path is printed, nothing opened
    assert opened == [] and capsys.readouterr().out.startswith("wrote ")
    monkeypatch.setenv("DISPLAY", ":0")
    assert main(["view", str(run), "--no-open"]) == 0
    assert opened == []
    assert main(["view", str(run)]) == 0
    assert opened == [(run / "view" / "index.html").resolve().as_uri()]
