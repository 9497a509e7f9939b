"""Every command the README and the docs/ pages show works as shown.

Each line of a ```bash block is one of:
- run here, in a scratch folder with the sample tasks: keyless `clarq` commands on `--tasks tasks/` and the quick
  read-only ones (RUN_AS_SHOWN);
- checked against its command's `--help` (the subcommand exists and takes every flag the line passes) where running
  needs a key, a download, a server, a run folder of the reader's (`<run-id>`) or minutes of CPU;
- a line that calls a paid model must say so in its comment ("needs a key"), unless it is a dry run;
- the set-up lines (`pip install`, `python -m pytest`, `mkdocs`, `ruff`, `mypy`) are what CI itself runs; an extra they name must be
  one of pyproject.toml's; a script (`python benchmarks/x.py`) must exist and take the flags shown.
The model commands shown against the fake server are run against it in tests/test_docs_fake_server.py.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from doc_text import PAGES, REPO

BLOCK = re.compile(r"^```bash\n(.*?)\n```", re.DOTALL | re.MULTILINE)
PAID_MODEL = re.compile(r"(gpt-|claude|anthropic/|bedrock|pool/)")
#: `clarq` commands that run in seconds from a folder holding only the sample tasks (and no run yet).
RUN_AS_SHOWN = ("clarq seekers", "clarq runs", "clarq data where")
#: Commands that only CI runs (the set-up itself), or that start a server the reader keeps open.
SETUP = ("pip install", "python -m pytest", "mkdocs ", "litellm ", "ruff ", "mypy")


def shown_lines() -> list[tuple[str, str, str]]:
    """(page, command, comment) for every command line of every bash block, continuation lines joined."""
    found = []
    for page in PAGES:
        for block in BLOCK.findall(page.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                command, _, comment = line.partition(" # ")
                for part in command.split(" && "):
                    if part.strip():
                        found.append((page.name, " ".join(part.split()), comment.strip()))
    return found


LINES = shown_lines()


def clarq(args: list[str], cwd: Path | None = None, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "clarq_bench", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env
    )


@functools.cache
def help_text(path: tuple[str, ...]) -> str:
    done = clarq([*path, "--help"])
    assert done.returncode == 0, f"clarq {' '.join(path)} --help: {done.stderr}"
    return done.stdout


def subcommand(tokens: list[str]) -> tuple[str, ...]:
    """The subcommand path of `clarq ...` tokens: `tasks show` for `clarq tasks show en/01/0`."""
    path = (tokens[1],)
    usage = help_text(path).split("\n\n")[0]
    if re.search(r"\b(ACTION|COMMAND) \.\.\.", usage):
        path += (tokens[2],)
    return path


def test_the_pages_show_commands_and_every_one_is_known() -> None:
    assert len(LINES) > 40
    for page, line, _ in LINES:
        known = line.startswith(("clarq ", "python ", "inspect eval ")) or line.startswith(SETUP)
        assert known, f"{page}: no rule of this test covers `{line}`"


@pytest.mark.parametrize(
    "page, line, comment",
    [row for row in LINES if row[1].startswith("clarq ")],
    ids=lambda value: value[:60] if isinstance(value, str) else "",
)
def test_every_clarq_command_takes_the_flags_it_is_shown_with(page: str, line: str, comment: str) -> None:
    tokens = shlex.split(line)
    path = subcommand(tokens)
    shown = help_text(path)
    for flag in (token.split("=")[0] for token in tokens if token.startswith("--")):
        assert re.search(rf"(^|[\s\[,]){re.escape(flag)}\b", shown), f"{page}: `clarq {' '.join(path)}` has no {flag}"
    paid = PAID_MODEL.search(line) and "--dry-run" not in tokens
    assert not paid or "needs a key" in comment, f"{page}: `{line}` calls a paid model; say so: # needs a key"


def runnable(line: str, comment: str) -> bool:
    return (
        "<" not in line
        and "needs a key" not in comment
        and "fake-server" not in line
        and "--api-base" not in line
        and (line.startswith(RUN_AS_SHOWN) or ("--tasks tasks/" in line and not line.startswith("clarq play")))
    )


@pytest.mark.timeout(600)
def test_the_keyless_commands_run_as_shown(tmp_path: Path) -> None:
    (tmp_path / "tasks").symlink_to(REPO / "tasks")
    examples = {"my_seeker.py": "example:custom-seeker", "ask_model.py": "example:model-seeker"}
    text = "\n".join(page.read_text(encoding="utf-8") for page in PAGES)
    for name, marker in examples.items():
        source = re.search(rf"<!-- {marker} -->\n```python\n(.*?)\n```", text, re.DOTALL)
        assert source, marker
        (tmp_path / name).write_text(source.group(1) + "\n", encoding="utf-8")
    ran = 0
    for page, line, comment in LINES:
        if not line.startswith("clarq ") or not runnable(line, comment):
            continue
        args = shlex.split(line)[1:]
        if args[0] in ("run", "provider-audit"):
            args += ["--limit", "2"] if args[0] == "run" else ["--types", "1-3"]
        if args[0] == "run":
            args += ["--no-progress"]
        done = clarq(args, cwd=tmp_path, timeout=300)
        expected = 1 if args[:2] == ["data", "where"] and "not downloaded yet" in done.stderr else 0
        assert done.returncode == expected, f"{page}: `{line}` exited {done.returncode}: {done.stderr[-800:]}"
        ran += 1
    assert ran >= 10


@pytest.mark.parametrize("page, line", [row[:2] for row in LINES if row[1].startswith("python ")])
def test_every_script_shown_exists_and_takes_its_flags(page: str, line: str) -> None:
    tokens = shlex.split(line)
    if tokens[1] == "-m":
        assert tokens[2] == "pytest", f"{page}: `{line}`"
        return
    script = REPO / tokens[1]
    assert script.is_file(), f"{page}: {tokens[1]} does not exist"
    shown = source = script.read_text(encoding="utf-8")
    if "argparse" in source:  # a script without argparse would run its benchmark on --help: read its source
        shown = subprocess.run(
            [sys.executable, str(script), "--help"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        ).stdout
    for flag in (token for token in tokens if token.startswith("--")):
        assert flag in shown, f"{page}: {tokens[1]} has no {flag}"


def test_every_extra_the_pages_install_is_defined() -> None:
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    extras = set(re.findall(r"^(\w+) = \[", pyproject.split("[project.optional-dependencies]")[1], re.MULTILINE))
    for page, line, _ in LINES:
        for extra in re.findall(r'pip install -e "\.\[(\w+)\]"', line):
            assert extra in extras, f"{page}: no extra {extra}"
