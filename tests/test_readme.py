"""The README's promises hold: its custom seeker runs as printed, and its set-up commands are what CI runs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
# The console script, not `python -m` (which would put the working directory on sys.path by itself).
CLARQ = str(Path(sys.executable).with_name("clarq"))


def block_after(marker: str, language: str) -> str:
    match = re.search(rf"<!-- {re.escape(marker)} -->\n```{language}\n(.*?)\n```", README, re.S)
    assert match, f"README has no ```{language} block after <!-- {marker} -->"
    return match.group(1)


def test_readme_custom_seeker_is_short_and_runs_from_the_working_directory(tmp_path: Path) -> None:
    source = block_after("example:custom-seeker", "python")
    assert len([line for line in source.splitlines() if line.strip()]) <= 15
    (tmp_path / "my_seeker.py").write_text(source + "\n", encoding="utf-8")
    runs = tmp_path / "runs"
    done = subprocess.run(
        [CLARQ, "run", "--seeker", "my_seeker:AskItems", "--provider", "offline",
         "--tasks", str(REPO / "tasks"), "--lang", "en", "--limit", "2", "--runs-dir", str(runs), "--no-progress"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (run_dir,) = runs.iterdir()
    lines = (run_dir / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    seeker_turns = [turn["text"] for turn in first["turns"] if turn["speaker"] == "seeker"]
    assert seeker_turns[0].startswith("Which ") and seeker_turns[-1] == "Thank you, goodbye."


def test_readme_main_command_is_an_offline_run() -> None:
    command = block_after("ci:main", "bash")
    assert "clarq run" in command and "--provider offline" in command
    assert block_after("ci:test", "bash").startswith("python -m pytest")


def test_readme_python_api_defines_and_evaluates_a_seeker_in_ten_lines(tmp_path: Path) -> None:
    source = block_after("example:python-api", "python")
    assert len([line for line in source.splitlines() if line.strip()]) <= 10
    (tmp_path / "tasks").symlink_to(REPO / "tasks")  # the example runs from a checkout, where tasks/ is
    done = subprocess.run([sys.executable, "-c", source], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    run_dir, success, rescored = done.stdout.split()
    assert Path(run_dir).parent == Path("runs") and float(success) == float(rescored)
    lines = (tmp_path / run_dir / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    seeker_turns = [turn["text"] for turn in json.loads(lines[0])["turns"] if turn["speaker"] == "seeker"]
    assert seeker_turns[0].startswith("Which ") and seeker_turns[-1] == "Thank you, goodbye."
    assert (tmp_path / run_dir / "summary.json").is_file()
