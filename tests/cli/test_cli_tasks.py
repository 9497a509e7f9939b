"""`clarq tasks ...` in-process, and the start-up cost of the CLI."""

import json
import shutil
import subprocess
import sys

from upstream_paths import REPO, UPSTREAM_DATA, needs_upstream

from clarq_bench.cli.main import main


@needs_upstream
def test_stats_json_matches_reference(capsys):
    assert main(["tasks", "stats", "--data", str(UPSTREAM_DATA), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    for language in ("en", "zh"):
        assert stats[language]["tasks"] == 310
        assert stats[language]["required_nodes_test"] == 1149
        assert stats[language]["depth"] == {"1": 166, "2": 124, "3": 18, "4": 2}


@needs_upstream
def test_list_show_filters(capsys):
    assert main(["tasks", "list", "--data", str(UPSTREAM_DATA), "--lang", "zh", "--types", "3", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == [f"zh/03/{i}" for i in range(10)]
    assert main(["tasks", "show", "en/03/3", "--data", str(UPSTREAM_DATA), "--json"]) == 0
    task = json.loads(capsys.readouterr().out)
    assert [n["id"] for n in task["tree"]["nodes"]] == ["0", "1", "1.1", "1.1.1", "1.1.2", "2"]
    assert main(["tasks", "show", "en/99/0", "--data", str(UPSTREAM_DATA)]) == 2
    assert "no task" in capsys.readouterr().err


@needs_upstream
def test_validate_exit_codes(tmp_path, capsys):
    assert main(["tasks", "validate", "--data", str(UPSTREAM_DATA)]) == 0
    shutil.copytree(UPSTREAM_DATA / "Chinese", tmp_path / "Chinese")
    (tmp_path / "Chinese" / "2._Escort_Mission.json").write_text('[{"background": "x", "all_response": 1}]')
    assert main(["tasks", "validate", "--data", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "2._Escort_Mission.json record 0" in err[0]


def test_missing_folder_is_one_line(tmp_path, capsys):
    assert main(["tasks", "list", "--data", str(tmp_path / "nope")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


#: What `--help` must never load: each costs 0.1 to 1 s of start-up (pydantic alone ~0.3 s on 2 shared cores).
HEAVY = ("pydantic", "numpy", "litellm", "openai", "httpx", "matplotlib", "rich", "datasets", "yaml")


def test_help_does_not_import_heavy_modules():
    """`python -m clarq_bench --help`, as a user starts it, imports none of HEAVY (read from -X importtime)."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "clarq_bench", "--help"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    assert "COMMAND" in run.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}
    assert "clarq_bench.cli.main" in imported  # the trace is real, so an empty intersection means something
    assert sorted(m for m in imported if m.split(".")[0] in HEAVY) == []


def test_every_subcommand_help_imports_nothing_heavy():
    """Each command's and subcommand's `--help` (found by walking the parser, so new ones are covered) in a fresh
    interpreter: after all of them, none of HEAVY is loaded."""
    code = (
        "import argparse, contextlib, io, sys\n"
        "from clarq_bench.cli.main import build_parser, main\n"
        "def paths(parser, prefix):\n"
        "    for action in parser._actions:\n"
        "        if isinstance(action, argparse._SubParsersAction):\n"
        "            for name, sub in action.choices.items():\n"
        "                yield prefix + [name]\n"
        "                yield from paths(sub, prefix + [name])\n"
        "done = 0\n"
        "for path in paths(build_parser(), []):\n"
        "    with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "        try:\n            main(path + ['--help'])\n        except SystemExit:\n            pass\n"
        "    assert 'usage:' in out.getvalue(), path\n"
        "    done += 1\n"
        f"print(done, sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True).stdout
    count, heavy = out.strip().splitlines()[-1].split(" ", 1)
    assert int(count) > 30  # every command group and its actions were asked
    assert heavy == "[]"
