"""The wheel works anywhere: built from the sources, installed into a fresh venv and run from another folder, the
offline benchmark plays every dialogue (prompts/ and tasks/ travel inside the package and are found through
importlib.resources). Before, the wheel carried one prompt file and every dialogue failed with "missing prompt
template". No network: the new venv sees the packages of the environment running the tests (a .pth line per
site-packages folder of it), and nothing is downloaded (--no-deps, --no-build-isolation). Not
system_site_packages=True: run from inside a venv (as CI and a fresh checkout do), that points at the base
interpreter, which has none of clarq's dependencies.
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
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(source),
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-q",
            "-w",
            str(out),
        ],
        check=True,
        capture_output=True,
        cwd=tmp_path,
    )
    [wheel] = out.glob("clarq_bench-*.whl")
    return wheel


def _isolated_venv(env_dir: Path) -> Path:
    """A venv of its own whose imports fall back to this environment's installed packages (rich, pydantic, ...):
    what system_site_packages=True means when the tests do not run in a venv. The wheel installed into it comes
    first on its path; the .pth files of the borrowed folders (an editable install of this checkout) are not run."""
    venv.EnvBuilder(system_site_packages=False, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    inner = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    borrowed = [
        entry for entry in sys.path if entry.endswith(("site-packages", "dist-packages")) and Path(entry).is_dir()
    ]
    assert borrowed, "the tests run without any site-packages folder"
    (Path(inner) / "borrowed_site_packages.pth").write_text("\n".join(borrowed) + "\n", encoding="utf-8")
    return python


def test_the_wheel_carries_prompts_and_tasks_and_runs_the_offline_benchmark_anywhere(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    prompts = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "prompts").rglob("*.md"))
    tasks = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "tasks").rglob("*.json"))
    assert prompts and tasks
    missing = [name for name in prompts + tasks if f"clarq_bench/{name}" not in names]
    assert missing == [], f"not in the wheel: {missing[:5]}"

    env_dir = tmp_path / "venv"
    python = _isolated_venv(env_dir)
    env = _quiet_env(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)],
        check=True,
        capture_output=True,
        env=env,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [
            str(python),
            "-c",
            "import clarq_bench, clarq_bench.core.prompts as p; print(clarq_bench.__file__); print(p.PROMPT_ROOT)",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=env,
    ).stdout.split()
    assert all(str(env_dir) in line for line in where), where  # the installed copy, not this checkout

    clarq = env_dir / "bin" / "clarq"
    played = subprocess.run(
        [
            str(clarq),
            "run",
            "--seeker",
            "heuristic",
            "--provider",
            "offline",
            "--tasks",
            "tasks/",
            "--lang",
            "all",
            "--split",
            "all",
            "--no-progress",
            "--runs-dir",
            "runs",
        ],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=env,
    )
    assert played.returncode == 0, played.stderr[-2000:]
    [run_dir] = (elsewhere / "runs").iterdir()
    records = [json.loads(line) for line in (run_dir / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()]
    every = len(load_tasks(REPO / "tasks"))
    assert len(records) == every and not [r for r in records if r["end_reason"] == "error"]
    assert json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))["dialogues"] == every
