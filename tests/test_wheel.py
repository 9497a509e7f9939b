"""The wheel works anywhere: built from the sources, installed into a fresh venv and run from another folder, the
offline benchmark plays every dialogue (prompts/ and tasks/ travel inside the package and are found through
importlib.resources). Before, the wheel carried one prompt file and every dialogue failed with "missing prompt
template". No network: the venv sees this interpreter's packages and nothing is downloaded (--no-deps,
--no-build-isolation).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from clarq_bench.api import load_tasks

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("clarq_bench", "prompts", "tasks", "pyproject.toml", "setup.py", "README.md")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def _quiet_env(tmp_path: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("CLARQ_", "PYTHON"))}
    env["HOME"] = str(tmp_path / "home")  # a fresh user: no cache, no data
    return env


def _build_wheel(tmp_path: Path) -> Path:
    """A wheel of a copy of the sources (the build writes build/ and egg-info where it runs: not in the checkout)."""
    pytest.importorskip("wheel", reason="building a wheel offline needs the `wheel` package (the test extra)")
    source = tmp_path / "src"
    source.mkdir()
    for name in SOURCES:
        target = source / name
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(REPO / name, target)
    out = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                    "--no-index", "-q", "-w", str(out)], check=True, capture_output=True, cwd=tmp_path)
    [wheel] = out.glob("clarq_bench-*.whl")
    return wheel


def test_the_wheel_carries_prompts_and_tasks_and_runs_the_offline_benchmark_anywhere(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    prompts = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "prompts").rglob("*.md"))
    tasks = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "tasks").rglob("*.json"))
    assert prompts and tasks
    missing = [name for name in prompts + tasks if f"clarq_bench/{name}" not in names]
    assert missing == [], f"not in the wheel: {missing[:5]}"

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    env = _quiet_env(tmp_path)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
                    str(wheel)], check=True, capture_output=True, env=env)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run([str(python), "-c", "import clarq_bench, clarq_bench.core.prompts as p; "
                            "print(clarq_bench.__file__); print(p.PROMPT_ROOT)"],
                           check=True, capture_output=True, text=True, cwd=elsewhere, env=env).stdout.split()
    assert all(str(env_dir) in line for line in where), where  # the installed copy, not this checkout

    clarq = env_dir / "bin" / "clarq"
    played = subprocess.run([str(clarq), "run", "--seeker", "heuristic", "--provider", "offline", "--tasks", "tasks/",
                             "--lang", "all", "--split", "all", "--no-progress", "--runs-dir", "runs"],
                            capture_output=True, text=True, cwd=elsewhere, env=env)
    assert played.returncode == 0, played.stderr[-2000:]
    [run_dir] = (elsewhere / "runs").iterdir()
    records = [json.loads(line) for line in (run_dir / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()]
    every = len(load_tasks(REPO / "tasks"))
    assert len(records) == every and not [r for r in records if r["end_reason"] == "error"]
    assert json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))["dialogues"] == every
