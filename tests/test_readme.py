"""The README's promises hold: its custom seeker runs as printed, and its set-up commands are what CI runs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
DOCS = "\n\n".join(
    page.read_text(encoding="utf-8") for page in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
)
# The console script, not `python -m` (which would put the working directory on sys.path by itself).
CLARQ = str(Path(sys.executable).with_name("clarq"))


def block_after(marker: str, language: str) -> str:
    match = re.search(rf"<!-- {re.escape(marker)} -->\n```{language}\n(.*?)\n```", DOCS, re.S)
    assert match, f"the documentation has no ```{language} block after <!-- {marker} -->"
    return match.group(1)


def test_readme_custom_seeker_is_short_and_runs_from_the_working_directory(tmp_path: Path) -> None:
    source = block_after("example:custom-seeker", "python")
    assert len([line for line in source.splitlines() if line.strip()]) <= 15
    (tmp_path / "my_seeker.py").write_text(source + "\n", encoding="utf-8")
    runs = tmp_path / "runs"
    done = subprocess.run(
        [
            CLARQ,
            "run",
            "--seeker",
            "my_seeker:AskItems",
            "--provider",
            "offline",
            "--tasks",
            str(REPO / "tasks"),
            "--lang",
            "en",
            "--runs-dir",
            str(runs),
            "--no-progress",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (run_dir,) = runs.iterdir()
    lines = (run_dir / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8
    first = json.loads(lines[0])
    seeker_turns = [turn["text"] for turn in first["turns"] if turn["speaker"] == "seeker"]
    assert seeker_turns[0].startswith("Hello Jax.") and seeker_turns[-1] == "Thank you, goodbye."
    summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    assert summary["success"]["value"] > 0, "the README's seeker must teach something that works"


def test_readme_main_command_is_an_offline_run_and_installs_no_test_tools() -> None:
    command = block_after("ci:main", "bash")
    assert "clarq run" in command and "--provider offline" in command
    assert "pip install -e . " in command and "[test]" not in command
    test = block_after("ci:test", "bash")
    assert test.startswith('pip install -e ".[test]"') and test.endswith("python -m pytest -q")


def test_running_needs_none_of_the_test_extras() -> None:
    """The main command installs `dependencies` only: none of the test tools may be needed to run the benchmark."""
    block = re.search(r"^dependencies = \[(.*?)^\]", (REPO / "pyproject.toml").read_text(encoding="utf-8"), re.S | re.M)
    assert block, "pyproject.toml has no dependencies list"
    names = {
        re.split(r"[<>=;\[ ]", dep, maxsplit=1)[0].lower() for dep in re.findall(r'^\s*"([^"]+)"', block.group(1), re.M)
    }
    assert {"pydantic", "litellm"} <= names
    for heavy in ("selenium", "datasets", "pyarrow", "pandas", "hypothesis", "pytest"):
        assert heavy not in names


def test_readme_python_api_defines_and_evaluates_a_seeker_in_ten_lines(tmp_path: Path) -> None:
    source = block_after("example:python-api", "python")
    assert len([line for line in source.splitlines() if line.strip()]) <= 14
    (tmp_path / "tasks").symlink_to(REPO / "tasks")  # the example runs from a checkout, where tasks/ is
    done = subprocess.run([sys.executable, "-c", source], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    run_dir, success, rescored = done.stdout.split()
    assert Path(run_dir).parent == Path("runs") and float(success) == float(rescored) > 0
    lines = (tmp_path / run_dir / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8
    seeker_turns = [turn["text"] for turn in json.loads(lines[0])["turns"] if turn["speaker"] == "seeker"]
    assert seeker_turns[0].startswith("Hello Jax.") and seeker_turns[-1] == "Thank you, goodbye."
    assert (tmp_path / run_dir / "summary.json").is_file()


def test_readme_custom_seeker_by_module_then_runs_then_view(tmp_path: Path) -> None:
    """The README's three commands after the custom seeker, as printed (tasks/ linked in, run id filled in)."""
    source = block_after("example:custom-seeker", "python")
    (tmp_path / "my_seeker.py").write_text(source + "\n", encoding="utf-8")
    (tmp_path / "tasks").symlink_to(REPO / "tasks")
    match = re.search(
        r"```bash\n(clarq run --seeker-module my_seeker\.py[^\n]*)\n(clarq runs[^\n]*)\n"
        r"(clarq view runs/<run-id>[^\n]*)\n```",
        README,
    )
    assert match, "README shows no run -> runs -> view block after the custom seeker"
    run_line, runs_line, view_line = (line.split("#")[0].split() for line in match.groups())
    done = subprocess.run(
        [CLARQ, *run_line[1:], "--lang", "en", "--limit", "2", "--no-progress"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    listed = subprocess.run([CLARQ, *runs_line[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and run_dir.name in listed.stdout and "2/2" in listed.stdout
    view_args = [arg.replace("<run-id>", run_dir.name) for arg in view_line[1:]]
    shown = subprocess.run([CLARQ, *view_args, "--no-open"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    page = run_dir / "view" / "index.html"
    assert shown.stdout.strip() == f"wrote {Path('runs') / run_dir.name / 'view' / 'index.html'}" and page.is_file()
    assert page.read_text(encoding="utf-8").count('<details class="dialogue"') == 2
