"""`--seeker-module FILE.py`: a seeker registered in a user's own file works by name from the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from upstream_paths import SAMPLE_TASKS

from clarq_bench.cli.main import main

SEEKER = '''
"""Asks about each listed item once; records what it was given."""
from clarq_bench.seekers import DialogueView, register_seeker


@register_seeker("{name}")
class AskItems:
    def __init__(self, task, config):
        self.questions = [f"Which {{item}} should I use?" for item in task.brief.items]
        self.limit = int(config.options.get("limit", "99"))  # --seeker-option limit=N arrives as the string "N"

    async def respond(self, view: DialogueView) -> str:
        asked = sum(turn.speaker == "seeker" for turn in view.turns)
        if asked < min(len(self.questions), self.limit):
            return self.questions[asked]
        return "Thank you, goodbye."
'''


def test_a_seeker_registered_in_a_file_runs_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "elsewhere" / "my_seeker.py"
    file.parent.mkdir()
    file.write_text(SEEKER.format(name="ask-items-file"), encoding="utf-8")
    runs = tmp_path / "runs"
    base = [
        "run",
        "--seeker",
        "ask-items-file",
        "--provider",
        "offline",
        "--tasks",
        str(SAMPLE_TASKS),
        "--runs-dir",
        str(runs),
        "--no-progress",
        "--limit",
        "2",
    ]
    assert main(base) == 2  # not imported: unknown, and the hint names the flag
    assert "--seeker-module FILE.py" in capsys.readouterr().err
    assert main([*base, "--seeker-module", str(file), "--seeker-option", "limit=1"]) == 0
    capsys.readouterr()
    run = next(runs.iterdir())
    records = [json.loads(line) for line in (run / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(records) == 2 and all(r["seeker"]["name"] == "ask-items-file" for r in records)
    # limit=1: one question, then goodbye (the option reached __init__ through config.options)
    assert all(
        [t["text"].startswith("Which") for t in r["turns"] if t["speaker"] == "seeker"].count(True) == 1
        for r in records
    )
    assert main(["seekers", "--seeker-module", str(file), "--json"]) == 0
    assert "ask-items-file" in {row["name"] for row in json.loads(capsys.readouterr().out)}


def test_a_bad_seeker_module_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('boom in user code')\n", encoding="utf-8")
    for path, expected in (
        (broken, "failed to import: RuntimeError: boom in user code"),
        (tmp_path / "missing.py", "no such Python file"),
    ):
        assert main(["run", "--seeker-module", str(path), "--provider", "offline", "--tasks", str(SAMPLE_TASKS)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and expected in err and "Traceback" not in err
