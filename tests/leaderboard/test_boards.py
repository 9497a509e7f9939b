"""Comparability: rows are ranked only against rows of the same task set, split, provider, mode and turn cap.

A site built from sample-task runs and benchmark runs never puts them in one table; each board is titled by its
setting, sample and custom boards say "not the benchmark"; verify against other task data is one line; the task
set is named in the score output, report.md and the submit line.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from upstream_paths import SAMPLE_TASKS, UPSTREAM_DATA, UPSTREAM_RESULTS, needs_upstream

from clarq_bench.cli.main import main
from clarq_bench.data.loader import load_tasks
from clarq_bench.data.task_sets import BENCHMARK, CUSTOM, SAMPLE, kind_of, known_sets


def run_and_submit(tmp_path: Path, name: str, data: Path, *flags: str, partial: bool = False) -> Path:
    runs = tmp_path / f"runs-{name}"
    source = "--tasks" if data == SAMPLE_TASKS else "--data"
    assert (
        main(
            [
                "run",
                "--provider",
                "offline",
                source,
                str(data),
                "--lang",
                "en",
                "--runs-dir",
                str(runs),
                "--no-progress",
                *flags,
            ]
        )
        == 0
    )
    (run_dir,) = runs.iterdir()
    out = tmp_path / "subs" / f"{name}.zip"
    assert (
        main(
            [
                "submit",
                str(run_dir),
                "-o",
                str(out),
                "--name",
                name,
                "--data",
                str(data),
                *(["--partial"] if partial else []),
            ]
        )
        == 0
    )
    return out


def tables(index: str) -> list[tuple[str, str, str, list[str]]]:
    """(heading, table id, data-kind, submission names) of every leaderboard table, in page order."""
    found = []
    for match in re.finditer(r'<h3 class="board [a-z]+">(.*?)</h3>(.*?)(?=<h3 class="board|<h2|</main>)', index, re.S):
        for table in re.finditer(
            r'<div class="wide" data-kind="([^"]*)"><table class="sortable leaderboard" '
            r'id="([^"]+)">(.*?)</table>',
            match.group(2),
            re.S,
        ):
            names = re.findall(r'<a href="s/[^"]+">([^<]+)</a>', table.group(3))
            found.append((html.unescape(match.group(1)), table.group(2), table.group(1), names))
    return found


def test_the_shipped_task_sets_name_the_sample_tasks() -> None:
    samples = load_tasks(SAMPLE_TASKS, ("en", "zh"))
    assert kind_of({t.id: t.content_hash() for t in samples}) == SAMPLE
    assert kind_of({t.id: t.content_hash() for t in samples[:3]}) == SAMPLE  # a subset is still sample tasks
    edited = {t.id: t.content_hash() for t in samples}
    edited[samples[0].id] = "0" * 64
    assert kind_of(edited) == CUSTOM and kind_of({}) == CUSTOM
    assert len(known_sets()[BENCHMARK]) == 620  # 31 types x 10 tasks x 2 languages


@needs_upstream
def test_the_shipped_task_sets_match_the_released_data() -> None:
    released = load_tasks(UPSTREAM_DATA, ("en", "zh"))
    assert {t.id: t.content_hash()[:16] for t in released} == known_sets()[BENCHMARK]
    assert kind_of({t.id: t.content_hash() for t in released}) == BENCHMARK


def test_sample_runs_of_two_turn_caps_get_two_boards_titled_not_the_benchmark(tmp_path: Path, capsys) -> None:
    run_and_submit(tmp_path, "Twelve turns", SAMPLE_TASKS)
    run_and_submit(tmp_path, "Six turns", SAMPLE_TASKS, "--max-turns", "6")
    out = capsys.readouterr()
    assert "on sample tasks, not the benchmark (8)" in out.out and "never ranked with benchmark rows" in out.err
    assert "tasks: sample tasks, not the benchmark (8): these figures are not comparable" in out.out
    assert (
        main(
            [
                "leaderboard",
                "build",
                str(tmp_path / "subs"),
                "-o",
                str(tmp_path / "site"),
                "--tasks",
                str(SAMPLE_TASKS),
                "--no-plots",
            ]
        )
        == 0
    )
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    boards = tables(index)
    assert [(kind, names) for _, _, kind, names in boards] == [
        ("sample", ["Six turns"]),
        ("sample", ["Twelve turns"]),
    ] or [(kind, names) for _, _, kind, names in boards] == [("sample", ["Twelve turns"]), ("sample", ["Six turns"])]
    titles = {names[0]: title for title, _, _, names in boards}
    assert titles["Twelve turns"].startswith("Not the benchmark: sample tasks, not the benchmark (8), test split")
    assert "provider offline, single-info · 12-turn cap" in titles["Twelve turns"]
    assert titles["Six turns"].endswith("6-turn cap")
    assert [ident for _, ident, _, _ in boards] == ["board-en", "board-en-2"]
    assert index.count('<p class="warn">') == 2
    report = next((tmp_path / "runs-Six turns").iterdir()) / "report.md"
    text = report.read_text(encoding="utf-8")
    assert "**Not the benchmark.** tasks: sample tasks, not the benchmark (8)" in text
    assert "## By language" not in text  # one language: the headline already is that table


@needs_upstream
@pytest.mark.timeout(300)
def test_a_site_from_sample_and_benchmark_runs_never_ranks_them_together(tmp_path: Path, capsys) -> None:
    sample = run_and_submit(tmp_path, "Sample heuristic", SAMPLE_TASKS)
    run_and_submit(tmp_path, "Benchmark heuristic", UPSTREAM_DATA, "--types", "1", partial=True)
    capsys.readouterr()
    argv = [
        "leaderboard",
        "build",
        str(tmp_path / "subs"),
        "-o",
        str(tmp_path / "site"),
        "--data",
        str(UPSTREAM_DATA),
        "--no-plots",
    ]
    reference = UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json"
    if reference.is_file():
        argv += ["--reference", str(reference)]
    assert main(argv) == 0
    assert "0 rejected" in capsys.readouterr().out  # the sample row verified against the sample tasks
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    boards = tables(index)
    kinds = {name: kind for _, _, kind, names in boards for name in names}
    assert kinds["Sample heuristic"] == "sample" and kinds["Benchmark heuristic"] == "benchmark"
    for _, _, _, names in boards:  # no table holds rows of two task sets
        assert len({kinds[name] for name in names}) == 1
    order = [names for _, _, _, names in boards]
    if reference.is_file():
        assert boards[0][0].startswith(
            "Standard setting: ClarQ-LLM benchmark tasks (260), test split · provider "
            "gpt-4o-2024-05-13, single-info · 12-turn cap"
        )
        assert order[0] == ["Released GPT-4o (Comp)"]
    assert order[-1] == ["Sample heuristic"]  # benchmark boards first, the sample board last
    # verifying the sample submission against the released data: one line saying so, not a cascade
    assert main(["leaderboard", "verify", str(sample), "--data", str(UPSTREAM_DATA)]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1 and re.search(
        r": played on sample tasks, not the benchmark \(\d+ tasks\), not on the task data", lines[0]
    )
    assert "--data tasks/" in lines[0]
    assert main(["leaderboard", "verify", str(sample), "--tasks", str(SAMPLE_TASKS)]) == 0  # the hint works


def test_a_phone_width_screen_hides_only_columns_other_than_rank_submission_and_success() -> None:
    """style.css hides leaderboard columns by position at <= 700 px: they must still be the ones meant."""
    from importlib import resources

    from clarq_bench.leaderboard.pages import leaderboard_table

    css = (resources.files("clarq_bench.leaderboard") / "assets" / "style.css").read_text(encoding="utf-8")
    narrow = css[css.index("@media (max-width: 700px)") :]
    hidden = {int(n) for n in re.findall(r"table\.leaderboard th:nth-child\((\d+)\)", narrow)}
    head = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<th[^>]*>(.*?)</th>", leaderboard_table([], "en"))]
    shown = [name for position, name in enumerate(head, start=1) if position not in hidden]
    assert {"#", "Submission", "Success", "AQD"} <= set(shown) and len(shown) <= 5
    assert {"Seeker", "Provider", "Cost", "Status"} <= {head[n - 1] for n in hidden}
