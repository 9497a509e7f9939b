"""What a new user meets in the first hour: hints instead of dead ends, and no silent nonsense.

Misspelt flags and task ids suggest the right one; `clarq data where` names the folder before a download; `clarq view`
with no argument opens the latest run; the API inside a running event loop says to await run_async; judge-pairs
says when answers were invalid and fails when none was valid; the README's fake-server judging example works.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from upstream_paths import SAMPLE_TASKS

from clarq_bench.cli.main import main

CLARQ = str(Path(sys.executable).with_name("clarq"))
from doc_text import DOCS as README  # noqa: E402  README.md and docs/


def sample_run(runs: Path, seeker: str = "heuristic") -> Path:
    assert (
        main(
            [
                "run",
                "--seeker",
                seeker,
                "--provider",
                "offline",
                "--tasks",
                str(SAMPLE_TASKS),
                "--lang",
                "en",
                "--limit",
                "3",
                "--runs-dir",
                str(runs),
                "--no-progress",
            ]
        )
        == 0
    )
    return max(runs.iterdir(), key=lambda run: (run / "transcripts.jsonl").stat().st_mtime)


def test_a_misspelt_flag_suggests_the_flag_of_that_command(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["run", "--seekr", "heuristic"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "did you mean --seeker?" in err and err.count("\n") == 1
    with pytest.raises(SystemExit):
        main(["leaderboard", "verify", "x.zip", "--dta", "d"])
    assert "did you mean --data?" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # nothing close: no guess
        main(["run", "--zzzzzz"])
    assert "did you mean" not in capsys.readouterr().err


def test_a_task_id_without_the_leading_zero_suggests_the_padded_one(capsys) -> None:
    assert main(["tasks", "show", "en/1/0", "--tasks", str(SAMPLE_TASKS)]) == 2
    assert "did you mean en/01/0?" in capsys.readouterr().err
    assert main(["tasks", "show", "en/99/9", "--tasks", str(SAMPLE_TASKS)]) == 2
    assert "see `clarq tasks list`" in capsys.readouterr().err


def test_data_where_names_the_folder_before_any_download(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.delenv("CLARQ_DATA", raising=False)
    monkeypatch.setenv("CLARQ_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["data", "where"]) == 1  # nothing downloaded: the folder it would fill, and not "ready"
    out, err = capsys.readouterr()
    assert out.strip().startswith(str(tmp_path / "cache")) and out.strip().endswith("data")
    assert "clarq data download" in err
    assert main(["tasks", "show", "en/03/3"]) == 2  # the README's first task id, before a download: one line
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "clarq data download" in err and "--tasks tasks/" in err
    monkeypatch.setenv("CLARQ_DATA", str(SAMPLE_TASKS))
    assert main(["data", "where"]) == 0 and capsys.readouterr().out.strip() == str(SAMPLE_TASKS)


def test_view_with_no_argument_opens_the_latest_run(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["view", "--no-open"]) == 2  # no runs yet: one line saying how to make one
    assert "no run in runs/" in capsys.readouterr().err
    first = sample_run(tmp_path / "runs")
    time.sleep(0.02)
    latest = sample_run(tmp_path / "runs", "no-question")
    os.utime(first / "transcripts.jsonl", (1, 1))  # the older one, whatever the names say
    for argv in (["view", "--no-open"], ["view", "runs", "--no-open"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert f"latest run: {Path('runs') / latest.name}" in out
        assert out.strip().endswith(str(Path("runs") / latest.name / "view" / "index.html"))
    assert sorted(p.name for p in (latest / "view").iterdir()) == ["assets", "index.html"]  # one page, written once


def test_the_api_inside_a_running_event_loop_says_to_await_run_async() -> None:
    import clarq_bench as clarq
    from clarq_bench.core.errors import ClarqError

    async def notebook_cell() -> None:
        clarq.run(seeker="heuristic", provider="offline", tasks=str(SAMPLE_TASKS), lang="en", limit=1)

    with pytest.raises(ClarqError, match=r"await clarq\.run_async"):
        asyncio.run(notebook_cell())


def test_select_takes_a_seeker_module(tmp_path, capsys) -> None:
    module = tmp_path / "mine.py"
    module.write_text("raise SystemExit('imported')\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="imported"):  # the file is imported before anything else happens
        main(["select", "--seeker-module", str(module), "--seeker", "mine"])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_fake_server(argv: list[str]) -> subprocess.Popen:
    server = subprocess.Popen([CLARQ, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    assert "fake OpenAI-compatible server on http://127.0.0.1:" in line, server.stderr.read()
    return server


def judge_pairs_line(port: int) -> list[str]:
    block = re.search(
        r"<!-- example:fake-judge -->\n```bash\n(clarq fake-server[^\n]*)\n(clarq judge-pairs[^\n]*)\n```", README
    )
    assert block, "README shows no fake-server judge-pairs example"
    import shlex

    server, judge = (shlex.split(line.replace("8000", str(port))) for line in block.groups())
    return server[1:], judge[1:]


@pytest.mark.timeout(180)
def test_the_readme_fake_server_judging_example_works_and_an_echo_judge_fails_loudly(tmp_path) -> None:
    run_a, run_b = sample_run(tmp_path / "runs"), sample_run(tmp_path / "runs", "no-question")
    port = free_port()
    server_argv, judge_argv = judge_pairs_line(port)
    server = start_fake_server(server_argv)
    try:
        argv = [a.replace("runs/<a>", str(run_a)).replace("runs/<b>", str(run_b)) for a in judge_argv]
        done = subprocess.run(
            [CLARQ, *argv, "--out", str(tmp_path / "pairs"), "--no-cache"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        assert "not one of the options" not in done.stderr
        summary = json.loads((tmp_path / "pairs" / "summary.json").read_text(encoding="utf-8"))
        assert summary["judges"][0]["answers"] == 3 * 3 and summary["judges"][0]["invalid"] == 0
    finally:
        server.terminate()
        server.wait(10)
    echo = start_fake_server(["fake-server", "--port", str(port), "--reply", "I would say the first one."])  # no answer
    try:
        argv = [a.replace("runs/<a>", str(run_a)).replace("runs/<b>", str(run_b)) for a in judge_argv]
        done = subprocess.run(
            [CLARQ, *argv, "--out", str(tmp_path / "echo"), "--no-cache"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
        )
        assert done.returncode == 1
        assert "9 of 9 answers were not one of the options" in done.stderr
        assert "no valid answer came back" in done.stderr
    finally:
        echo.terminate()
        echo.wait(10)


def test_fake_server_refuses_a_port_in_use_in_one_line(capsys) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert main(["fake-server", "--port", str(taken.getsockname()[1])]) == 2
    err = capsys.readouterr().err
    assert "cannot listen on 127.0.0.1" in err and err.count("\n") == 1


def test_piped_tables_are_not_cut_at_80_columns(tmp_path) -> None:
    run = sample_run(tmp_path / "runs")
    done = subprocess.run(
        [CLARQ, "runs", "--dir", str(tmp_path / "runs")],
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "COLUMNS"},
    )
    assert done.returncode == 0, done.stderr
    assert run.name in done.stdout and "…" not in done.stdout


def test_pass_k_with_deterministic_agents_says_more_trials_tell_nothing(tmp_path, capsys) -> None:
    assert (
        main(
            [
                "run",
                "--seeker",
                "heuristic",
                "--provider",
                "offline",
                "--tasks",
                str(SAMPLE_TASKS),
                "--lang",
                "en",
                "--limit",
                "2",
                "--trials",
                "3",
                "--runs-dir",
                str(tmp_path),
                "--no-progress",
            ]
        )
        == 0
    )
    out = " ".join(capsys.readouterr().out.split())
    assert "pass^k = success for every k up to 3: each task's trials all went alike" in out
    (run,) = tmp_path.iterdir()
    assert "pass^k = success for every k up to 3" in (run / "report.md").read_text(encoding="utf-8")
    assert (
        main(
            [
                "run",
                "--seeker",
                "heuristic",
                "--provider",
                "offline",
                "--tasks",
                str(SAMPLE_TASKS),
                "--lang",
                "en",
                "--limit",
                "2",
                "--runs-dir",
                str(tmp_path / "one"),
                "--no-progress",
            ]
        )
        == 0
    )
    assert "pass^k" not in capsys.readouterr().out  # one trial: no pass^k, no note


def test_dry_run_says_which_key_is_missing(monkeypatch, capsys) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert (
        main(
            [
                "run",
                "--seeker",
                "gpt-4o",
                "--provider",
                "offline",
                "--tasks",
                str(SAMPLE_TASKS),
                "--lang",
                "en",
                "--dry-run",
            ]
        )
        == 0
    )
    out = " ".join(capsys.readouterr().out.split())
    assert "missing key: the seeker model" in out and "needs OPENAI_API_KEY" in out
    assert "the run itself would stop here" in out and "provider model" not in out
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    assert (
        main(
            [
                "run",
                "--seeker",
                "gpt-4o",
                "--provider",
                "offline",
                "--tasks",
                str(SAMPLE_TASKS),
                "--lang",
                "en",
                "--dry-run",
            ]
        )
        == 0
    )
    assert "missing key" not in capsys.readouterr().out


def test_the_type_plot_names_types_and_gives_each_language_its_bars(tmp_path, monkeypatch) -> None:
    from clarq_bench.scoring import report

    drawn: list[tuple[list, dict]] = []
    monkeypatch.setattr(report, "type_plot", lambda verdicts, names, path: drawn.append((verdicts, names)))
    assert (
        main(
            [
                "run",
                "--seeker",
                "heuristic",
                "--provider",
                "offline",
                "--tasks",
                str(SAMPLE_TASKS),
                "--lang",
                "all",
                "--runs-dir",
                str(tmp_path),
                "--no-progress",
            ]
        )
        == 0
    )
    ((verdicts, names),) = drawn
    assert {v.language for v in verdicts} == {"en", "zh"} and names[1] == "Lighthouse Repair"
