"""The Python API is the CLI without argv: the same options, the same results, and a cheap `import clarq_bench`."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

import clarq_bench
from clarq_bench.cli.main import build_parser, main
from clarq_bench.core.errors import ClarqError
from clarq_bench.runner.prepare import RunOptions

REPO = Path(__file__).resolve().parents[1]
TASKS = REPO / "tasks"


def run_flags() -> dict[str, object]:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    run = subparsers.choices["run"]
    return {a.dest: a.default for a in run._actions if a.dest != "help"} | {
        key: value for key, value in run._defaults.items() if key != "handler"
    }


def test_run_options_are_the_flags_of_clarq_run_with_their_defaults() -> None:
    flags = run_flags()
    options = {field.name: field.default for field in dataclasses.fields(RunOptions)}
    assert options.keys() == flags.keys()
    assert {name: value for name, value in options.items() if value != flags[name]} == {}


def test_an_unknown_option_is_one_clear_error() -> None:
    with pytest.raises(ClarqError, match="unknown run option 'seekr'"):
        clarq_bench.run(seekr="heuristic")


@pytest.mark.parametrize("dry_run", [True, False], ids=["estimate", "run"])
def test_the_cli_builds_one_request_and_run_and_estimate_take_one_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dry_run: bool
) -> None:
    """`clarq run` builds its RunOptions once; the API hands that object on (never rebuilt) to the one step that
    turns it into a config and tasks (runner.prepare.configure), for a run as for its estimate."""
    from clarq_bench.runner import prepare

    built: list[RunOptions] = []
    real_of = RunOptions.of.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(
        RunOptions, "of", classmethod(lambda cls, *a, **k: built.append(real_of(cls, *a, **k)) or built[-1])
    )
    seen: list[RunOptions] = []
    real_configure = prepare.configure
    monkeypatch.setattr(prepare, "configure", lambda options, **k: seen.append(options) or real_configure(options, **k))
    flags = ["run", "--tasks", str(TASKS), "--lang", "en", "--limit", "2", "--provider", "offline"]
    flags += ["--dry-run"] if dry_run else ["--runs-dir", str(tmp_path), "--no-progress"]
    assert main(flags) == 0
    assert len(built) == 1 and len(seen) == 1 and seen[0] is built[0]


def test_load_tasks_selects_as_the_data_flags_do() -> None:
    tasks = clarq_bench.load_tasks(TASKS, lang="en", types="1-3")
    assert tasks and {t.language for t in tasks} == {"en"} and {t.type_number for t in tasks} <= {1, 2, 3}
    assert [t.id for t in clarq_bench.load_tasks(TASKS, lang="en", types=[1, 2, 3])] == [t.id for t in tasks]


def test_run_score_and_compare_agree_with_the_cli(tmp_path: Path) -> None:
    result = clarq_bench.run(
        seeker="heuristic",
        provider="offline",
        tasks=TASKS,
        lang="en",
        limit=3,
        runs_dir=tmp_path / "runs",
        no_progress=True,
    )
    assert result.run_dir.parent == tmp_path / "runs" and result.stats.done == 3 and result.summary.dialogues == 3
    [scored] = clarq_bench.score(result.run_dir, write=False)
    assert scored.summary.success == result.summary.success and len(scored.verdicts) == 3
    comparison = clarq_bench.compare(result.run_dir, result.run_dir)
    assert comparison.pairs == 3 and all(d.difference == 0 for d in comparison.differences)
    assert comparison.settings_differ == []
    assert (
        main(
            [
                "run",
                "--seeker",
                "heuristic",
                "--provider",
                "offline",
                "--tasks",
                str(TASKS),
                "--lang",
                "en",
                "--limit",
                "3",
                "--runs-dir",
                str(tmp_path / "cli"),
                "--no-progress",
            ]
        )
        == 0
    )
    [cli_run] = (tmp_path / "cli").iterdir()
    assert clarq_bench.score(cli_run, write=False)[0].summary.success == result.summary.success


def test_importing_the_package_loads_no_api() -> None:
    code = "import sys, clarq_bench; print(sorted(m for m in sys.modules if m.startswith('clarq_bench')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['clarq_bench', 'clarq_bench.core', 'clarq_bench.core.version']"  # __version__


def test_the_api_module_loads_no_seeker_code_and_no_event_loop_until_asked() -> None:
    code = (
        "import sys, clarq_bench.api as api; print('clarq_bench.seekers' in sys.modules, 'asyncio' in sys.modules); "
        "api.register_seeker; print('clarq_bench.seekers' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False", "True"]
