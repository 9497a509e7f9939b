"""Hostile and broken input from outside: one JSONL reader/writer, size and nesting limits, one-line refusals.

Each case is a report from issue 15: U+2028 in a turn broke `clarq submit`, a deeply nested file crashed
`leaderboard verify` and `leaderboard build`, a malformed line crashed `--resume` with a pydantic traceback, an
unfinished last line was dropped silently by `clarq score`, an empty folder scored as nothing, a binary file ended
in a UnicodeDecodeError traceback, and a 300 MB notes field was published.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from leaderboard_runs import sample_tasks, scripted_transcript, write_run
from runner_helpers import write_task_folder
from upstream_paths import SAMPLE_TASKS

from clarq_bench.cli.main import main
from clarq_bench.core.errors import DataError
from clarq_bench.core.jsonl import dumps_line, loads, parse_jsonl, read_jsonl
from clarq_bench.core.transcript import Transcript
from clarq_bench.leaderboard import build_submission, read_submission, verify_file, write_submission
from clarq_bench.leaderboard.schema import Submitter

LINE_BREAKS = "a\u2028b\u2029c\u0085d\x1ce\x1df\x1eg\x0bh\x0ci"


def test_unicode_line_breaks_survive_the_round_trip():
    line = dumps_line({"text": LINE_BREAKS})
    assert line.count("\n") == 1 and line.endswith("\n")
    read = parse_jsonl(line * 3, "x.jsonl")
    assert [value["text"] for _, value in read.records] == [LINE_BREAKS] * 3 and read.unfinished is None


def test_submit_and_verify_a_run_whose_turns_hold_unicode_line_breaks(tmp_path):
    tasks = sample_tasks()
    transcripts = [scripted_transcript(task, opening=f"Hello {LINE_BREAKS} there") for task in tasks]
    run = write_run(tmp_path / "run", transcripts, tasks)
    for name in ("sub.zip", "sub.json"):
        out = tmp_path / name
        assert main(["submit", str(run), "-o", str(out)]) == 0
        sub = read_submission(out)
        assert sub.transcripts[0].seeker_turns[0].text == f"Hello {LINE_BREAKS} there"
        assert verify_file(out, str(SAMPLE_TASKS))[1].problems == []


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_deep_nesting_is_one_line_not_a_recursion_error(tmp_path):
    with pytest.raises(DataError, match="nested deeper than"):
        loads(deep(200_000), "deep.json")
    with pytest.raises(DataError, match="nested deeper than 64 levels"):
        loads(deep(100), "deep.json")
    assert loads(deep(20), "ok.json")


def test_leaderboard_verify_and_build_survive_a_deeply_nested_submission(tmp_path, capsys):
    folder = tmp_path / "subs"
    folder.mkdir()
    bomb = folder / "bomb.json"
    bomb.write_text('{"manifest": ' + deep(200_000) + "}", encoding="utf-8")
    _, outcome = verify_file(bomb, str(SAMPLE_TASKS))
    assert len(outcome.problems) == 1 and "nested deeper than" in outcome.problems[0]
    assert main(["leaderboard", "verify", str(bomb), "--data", str(SAMPLE_TASKS)]) != 0
    err = capsys.readouterr()
    assert "Traceback" not in err.err + err.out and "RecursionError" not in err.err + err.out
    tasks = sample_tasks()
    run = write_run(tmp_path / "run", [scripted_transcript(task) for task in tasks], tasks)
    write_submission(build_submission(run, submitter=Submitter(name="honest")), folder / "honest.json")
    for flags in ([], ["--no-verify"]):
        out = tmp_path / f"site{len(flags)}"
        # exit 2: a file that cannot be taken is an input error, though the site is written without it
        assert main(["leaderboard", "build", str(folder), "-o", str(out), "--data", str(SAMPLE_TASKS), *flags]) == 2
        assert "honest" in (out / "index.html").read_text(encoding="utf-8")


def test_oversized_notes_are_refused(tmp_path, capsys):
    tasks = sample_tasks()
    run = write_run(tmp_path / "run", [scripted_transcript(task) for task in tasks], tasks)
    assert main(["submit", str(run), "-o", str(tmp_path / "s.json"), "--notes", "x" * 5000]) == 2
    assert "--notes is 5000 characters long" in capsys.readouterr().err
    good = write_submission(build_submission(run, submitter=Submitter(notes="fine")), tmp_path / "good.json")
    payload = json.loads(good.read_text(encoding="utf-8"))
    payload["manifest"]["submitter"]["notes"] = "x" * 300_000
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps(payload), encoding="utf-8")
    problems = verify_file(huge, str(SAMPLE_TASKS))[1].problems
    assert len(problems) == 1 and "notes" in problems[0]


def make_run_dir(tmp_path: Path, count: int = 3) -> Path:
    """A finished offline run of `count` small tasks; its directory."""
    data = write_task_folder(tmp_path / "data", count)
    assert (
        main(
            [
                "run",
                "--tasks",
                str(data),
                "--provider",
                "offline",
                "--seeker",
                "heuristic",
                "--runs-dir",
                str(tmp_path / "runs"),
                "--no-progress",
            ]
        )
        == 0
    )
    (run,) = (tmp_path / "runs").iterdir()
    return run


def test_resume_names_file_and_line_of_a_malformed_record(tmp_path, capsys):
    run = make_run_dir(tmp_path)
    path = run / "transcripts.jsonl"
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[1] = '{"task_id": "en/01/1", "turns": 3}'
    path.write_text("\n".join(lines), encoding="utf-8")
    capsys.readouterr()
    assert main(["run", "--resume", str(run), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"{path} line 2 is not a transcript" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_resume_replays_an_unfinished_last_line_and_says_so(tmp_path, capsys):
    run = make_run_dir(tmp_path)
    path = run / "transcripts.jsonl"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) - 40], encoding="utf-8")  # the last record lost its end and its newline
    capsys.readouterr()
    assert main(["run", "--resume", str(run), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "cut an unfinished last line" in err and "played again" in err
    records, unfinished = read_jsonl(path, Transcript)
    assert len(records) == 3 and unfinished is None


def test_score_warns_about_an_unfinished_last_line(tmp_path, capsys):
    run = make_run_dir(tmp_path)
    path = run / "transcripts.jsonl"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) - 40], encoding="utf-8")
    capsys.readouterr()
    assert main(["score", str(run), "--no-write", "--json"]) == 0
    captured = capsys.readouterr()
    assert f"{path} line 3 is unfinished" in captured.err and "not read" in captured.err
    assert json.loads(captured.out)["dialogues"] == 2


def test_score_refuses_an_empty_folder_and_a_binary_file(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["score", str(empty), "--format", "upstream"]) == 2
    assert "holds no released results files" in capsys.readouterr().err
    binary = tmp_path / "random.bin"
    binary.write_bytes(os.urandom(4096) + b"\xff\xfe")
    assert main(["score", str(binary), "--format", "clarq"]) == 2
    err = capsys.readouterr().err
    assert "not UTF-8 text" in err and "Traceback" not in err


def test_the_writer_refuses_lone_surrogates_and_the_reader_names_the_line(tmp_path):
    with pytest.raises(DataError, match="lone surrogate"):
        dumps_line({"text": "hi \ud800"})
    path = tmp_path / "t.jsonl"
    path.write_text('{"a": 1}\n{"a": "\\ud800"}\n', encoding="utf-8")  # an escaped lone surrogate
    with pytest.raises(DataError, match=r"t\.jsonl line 2: a string holds a lone surrogate"):
        parse_jsonl(path.read_text(encoding="utf-8"), str(path))
    with pytest.raises(DataError, match=r"x\.jsonl line 3: longer than the limit of 10 characters"):
        parse_jsonl('{"a": 1}\n\n{"a": 12345678}\n', "x.jsonl", max_line_chars=10)
    with pytest.raises(DataError, match=r"x\.jsonl line 1: not JSON"):
        parse_jsonl("{nope\n", "x.jsonl")
    read = parse_jsonl('{"a": 1}\n{"a": 2', "x.jsonl")
    assert [value for _, value in read.records] == [{"a": 1}] and read.unfinished == 2
    finished = parse_jsonl('{"a": 1}\n{"a": 2}', "x.jsonl", live=False)
    assert len(finished.records) == 2 and finished.unfinished is None
