"""One owner of the run folder (core.run_folder.RunDir): config.json records the selected task ids, so `clarq submit`
packs runs made with --limit, --types, --trials and --split all exactly as the runner selected them; runs written
before the ids were recorded still pack; `clarq runs` tells a run stopped while scoring from a finished one.

Every run here is played by the real runner (clarq_bench.run: the offline provider on the project's tasks/), never
built by hand: the earlier test built its folder with `tasks[:3]`, the packing rule's own mistake, and so passed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import clarq_bench as clarq
from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError, DataError
from clarq_bench.core.run_folder import RunDir
from clarq_bench.data.selection import recorded_selection, run_selection

TASKS = Path(__file__).resolve().parents[2] / "tasks"


def play(tmp_path: Path, **options) -> Path:
    result = clarq.run(
        seeker="heuristic", provider="offline", tasks=TASKS, runs_dir=tmp_path / "runs", no_progress=True, **options
    )
    assert result.summary is not None and result.stats.errors == 0
    return result.run_dir


@pytest.mark.parametrize(
    "options",
    [
        {"limit": 3},
        {"types": "3,5"},
        {"trials": 2, "lang": "zh"},
        {"split": "all", "limit": 5},
        {"split": "all", "lang": "all", "types": "1,27", "trials": 2},
    ],
    ids=["limit", "types", "trials", "split-all", "everything"],
)
def test_submit_packs_what_the_runner_played(tmp_path: Path, options: dict) -> None:
    run_dir = play(tmp_path, **options)
    config = RunDir(run_dir).raw_config()
    played = sorted({t.task_id for t in RunDir(run_dir).transcripts()[0]})
    assert sorted(config["task_ids"]) == played
    if "limit" in options:  # the runner's spread is not the first N: the rule `submit` used to recompute
        first = [t.id for t in run_selection(TASKS, {**config, "limit": None})][: options["limit"]]
        assert config["task_ids"] != first
    complete = not {"limit", "types"} & set(options)
    submission, path = clarq.submit(run_dir, tmp_path / "sub.json", partial=not complete)
    assert submission.manifest.partial is not complete
    assert submission.manifest.transcript_count == len(played) * options.get("trials", 1)
    [verification] = clarq.verify_submissions([path], data=TASKS)
    assert verification.ok, verification.problems


def test_submit_from_the_command_line_on_a_limited_run(tmp_path: Path, capsys) -> None:
    run_dir = play(tmp_path, limit=3)
    assert main(["submit", str(run_dir), "-o", str(tmp_path / "a.json")]) == 2  # incomplete: a one-line refusal
    assert "covers 3 of the 8 tasks" in capsys.readouterr().err
    assert main(["submit", str(run_dir), "-o", str(tmp_path / "a.json"), "--partial"]) == 0


def test_a_run_written_before_task_ids_still_packs_by_the_runners_rule(tmp_path: Path) -> None:
    run_dir = play(tmp_path, limit=4, trials=2)
    new, _ = clarq.submit(run_dir, tmp_path / "new.json", partial=True)
    folder = RunDir(run_dir)
    old = folder.raw_config()
    del old["task_ids"]
    folder.config_path.write_text(json.dumps(old), encoding="utf-8")
    legacy, _ = clarq.submit(run_dir, tmp_path / "old.json", partial=True)
    assert legacy.manifest.task_hashes == new.manifest.task_hashes
    assert legacy.manifest.metrics == new.manifest.metrics and legacy.manifest.missing == new.manifest.missing
    assert [row.total for row in clarq.list_runs(tmp_path / "runs")] == [8]


def test_recorded_ids_missing_from_the_data_are_one_line(tmp_path: Path) -> None:
    config = {"languages": ["en"], "task_ids": ["en/01/0", "en/99/7", "en/98/1"]}
    with pytest.raises(ClarqError, match=r"task en/99/7 of the run is not in .* \(nor 1 more\)"):
        recorded_selection(TASKS, config)
    assert [t.id for t in recorded_selection(TASKS, {**config, "task_ids": ["en/03/1", "en/01/0"]})] == [
        "en/03/1",
        "en/01/0",
    ]  # the recorded order, not the folder's


def test_runs_tells_scoring_unfinished_from_finished(tmp_path: Path, capsys) -> None:
    run_dir = play(tmp_path, limit=2)
    [row] = clarq.list_runs(tmp_path / "runs")
    assert (row.state, row.done, row.total, row.resume_command) == ("finished", 2, 2, None)
    RunDir(run_dir).summary_path.unlink()  # a run stopped while it was being scored
    [row] = clarq.list_runs(tmp_path / "runs")
    assert row.state == "scoring unfinished" and row.resume_command == f"clarq run --resume {run_dir}"
    assert main(["runs", "--dir", str(tmp_path / "runs")]) == 0
    assert "scoring unfinished; continue with: clarq run --resume" in capsys.readouterr().out
    clarq.run(resume=run_dir, no_progress=True)  # plays nothing, scores
    [row] = clarq.list_runs(tmp_path / "runs")
    assert row.state == "finished"


def test_runs_counts_the_total_from_the_recorded_ids_when_the_data_moved(tmp_path: Path) -> None:
    run_dir = play(tmp_path, limit=3, trials=2)
    folder = RunDir(run_dir)
    folder.config_path.write_text(
        json.dumps({**folder.raw_config(), "data_dir": str(tmp_path / "gone")}), encoding="utf-8"
    )
    [row] = clarq.list_runs(tmp_path / "runs")
    assert (row.total, row.successes, row.state) == (6, None, "finished")


def test_hostile_run_folders_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(ClarqError, match="is not a run directory"):
        RunDir(tmp_path).raw_config()
    (tmp_path / "config.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(DataError, match="expected a JSON object"):
        RunDir(tmp_path).raw_config()
    assert main(["submit", str(tmp_path), "-o", str(tmp_path / "x.json")]) == 2
    assert clarq.list_runs(tmp_path.parent) == [] or all(
        r.run_dir != str(tmp_path) for r in clarq.list_runs(tmp_path.parent)
    )


def test_config_json_is_read_once_while_it_stays_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Preparing, resuming and scoring a run read config.json through one loader: read and parsed once per process
    while the file stays the same; a file changed in place or replaced is parsed again, and one changed too recently
    for its times to tell (a digit rewritten within the clock's tick) is read again, parsed only if its text moved."""
    import os

    from clarq_bench.core import run_folder

    folder = tmp_path / "run"
    folder.mkdir()
    path = folder / "config.json"
    path.write_text(json.dumps({"seeker": {"name": "heuristic"}, "provider": {"name": "offline"}, "trials": 2}))
    reads: list[Path] = []
    parses: list[str] = []
    read_text, parse_text = run_folder.read_text, run_folder.parse_text
    monkeypatch.setattr(run_folder, "read_text", lambda p, **kw: reads.append(p) or read_text(p, **kw))
    monkeypatch.setattr(run_folder, "parse_text", lambda t, s, **kw: parses.append(s) or parse_text(t, s, **kw))

    def trials() -> int:
        return RunDir(folder).config().trials

    assert (trials(), trials(), len(reads), len(parses)) == (2, 2, 2, 1)  # just written: read again, parsed once
    path.write_text(path.read_text().replace('"trials": 2', '"trials": 3'))  # same size, within the same tick
    assert (trials(), len(reads), len(parses)) == (3, 3, 2)
    old = 1_000_000_000_000_000_000
    os.utime(path, ns=(old, old))
    assert (trials(), len(reads), len(parses)) == (3, 4, 2)  # still for long: trusted from now on
    raw = RunDir(folder).raw_config()
    raw["trials"] = 9  # a reader's copy is its own
    assert (trials(), RunDir(folder).raw_config()["trials"], len(reads), len(parses)) == (3, 3, 4, 2)
    path.write_text(path.read_text().replace('"trials": 3', '"trials": 4'))  # changed in place, same size
    os.utime(path, ns=(old, old + 1))
    assert (trials(), len(reads), len(parses)) == (4, 5, 3)
    replaced = folder / "other.json"
    replaced.write_text(path.read_text().replace('"trials": 4', '"trials": 5'))
    os.utime(replaced, ns=(old, old + 1))
    os.replace(replaced, path)  # same times and size, another file
    assert (trials(), len(reads), len(parses)) == (5, 6, 4)
    RunDir(folder).write_config(RunDir(folder).config().model_copy(update={"trials": 6}))
    assert (trials(), len(reads)) == (6, 6)  # what this process wrote it does not read back
