"""A seeker of one's own that fails explains itself: its first failure prints its traceback (its file and line) once,
a run whose first dialogues all fail alike in the seeker stops after SAME_SEEKER_ERRORS of them (exit 1), and a
class that cannot be a seeker is refused before the first dialogue (one line, exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from upstream_paths import SAMPLE_TASKS

from clarq_bench.cli.main import main
from clarq_bench.runner.breaker import SAME_SEEKER_ERRORS

SEEKERS = """
class Raises:
    def __init__(self, task):
        self.task = task

    async def respond(self, view):
        return self.lookup({})

    def lookup(self, table):
        return table["missing"]


class RaisesInInit:
    def __init__(self, task):
        raise ValueError("no brief for me")

    async def respond(self, view):
        return "goodbye"


class FailsOnFirstTaskOnly:
    def __init__(self, task):
        self.task = task

    async def respond(self, view):
        if self.task.id.endswith("01/0"):
            raise RuntimeError("this task only")
        return "Thank you, goodbye."


class FailsDifferently:
    def __init__(self, task):
        self.task = task

    async def respond(self, view):
        raise RuntimeError(f"bad task {self.task.id}")


class NoRespond:
    def __init__(self, task):
        pass


class SyncRespond:
    def respond(self, view):
        return "goodbye"
"""


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "failing.py").write_text(SEEKERS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def run(seeker: str) -> int:
    return main(
        [
            "run",
            "--seeker",
            f"failing:{seeker}",
            "--provider",
            "offline",
            "--tasks",
            str(SAMPLE_TASKS),
            "--lang",
            "all",
            "--no-progress",
            "--runs-dir",
            "runs",
        ]
    )


def transcripts(workdir: Path) -> list[dict]:
    (run_dir,) = (workdir / "runs").iterdir()
    lines = (run_dir / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_a_raising_seeker_shows_its_traceback_once_and_stops_the_run(workdir: Path, capsys) -> None:
    assert run("Raises") == 1
    err = capsys.readouterr().err
    assert err.count("the seeker raised") == 1 and err.count("KeyError: 'missing'") >= 2
    assert f'File "{workdir / "failing.py"}", line 10, in lookup' in err  # its own frames, file and line
    assert "clarq_bench" not in err.split("the seeker raised")[1].split("KeyError")[0]  # none of clarq's frames
    stop = [line for line in err.splitlines() if line.startswith("clarq: run stopped")]
    assert stop and f"first {SAME_SEEKER_ERRORS} dialogues with the same error" in stop[0]
    assert f"{workdir / 'failing.py'}:10" in stop[0]
    played = transcripts(workdir)
    assert len(played) == SAME_SEEKER_ERRORS and all(row["error"] == "seeker: KeyError: 'missing'" for row in played)


def test_a_seeker_whose_init_raises_stops_the_same_way(workdir: Path, capsys) -> None:
    assert run("RaisesInInit") == 1
    err = capsys.readouterr().err
    assert err.count("the seeker raised") == 1 and "ValueError: no brief for me" in err
    assert len(transcripts(workdir)) == SAME_SEEKER_ERRORS


def test_a_seeker_that_fails_now_and_then_plays_every_dialogue(workdir: Path, capsys) -> None:
    assert run("FailsOnFirstTaskOnly") == 1  # some dialogues ended in an error
    err = capsys.readouterr().err
    assert "run stopped" not in err and err.count("the seeker raised") == 1
    played = transcripts(workdir)
    assert len(played) == 16 and sum(bool(row.get("error")) for row in played) == 2  # en/01/0 and zh/01/0


def test_different_errors_are_not_one_bug(workdir: Path, capsys) -> None:
    assert run("FailsDifferently") == 1
    assert "run stopped" not in capsys.readouterr().err
    assert len(transcripts(workdir)) == 16


@pytest.mark.parametrize("seeker, why", [("NoRespond", "has no respond method"), ("SyncRespond", "is not async")])
def test_a_class_that_is_not_a_seeker_is_refused_before_any_dialogue(
    workdir: Path, capsys, seeker: str, why: str
) -> None:
    assert run(seeker) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err and "async def respond" in err
    assert not (workdir / "runs").exists() or not any((workdir / "runs").iterdir())
