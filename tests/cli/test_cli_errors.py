"""Usage errors are one line with a hint (never the usage block), and say what would have been valid."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from upstream_paths import SAMPLE_TASKS

from clarq_bench.cli.main import build_parser, main


def one_line_error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "usage:" not in err, err
    return err


def test_argparse_errors_are_one_line_with_the_help_command(capsys) -> None:
    err = one_line_error(capsys, ["run", "--lang", "fr"])
    assert err == (
        "clarq: error: run: argument --lang: invalid choice: 'fr' (choose from 'en', 'zh', 'all') "
        "(see `clarq run --help`)\n"
    )
    err = one_line_error(capsys, ["leaderboard", "build"])
    assert err.startswith("clarq: error: leaderboard build: the following arguments are required")
    assert "(see `clarq leaderboard build --help`)" in err
    assert "invalid choice: 'frob'" in one_line_error(capsys, ["frob"])
    assert "must be at least 1: '-3'" in one_line_error(capsys, ["run", "--limit", "-3"])


def test_types_outside_the_data_name_the_valid_range(capsys) -> None:
    assert main(["run", "--tasks", str(SAMPLE_TASKS), "--types", "99", "--provider", "offline"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "clarq: error: no tasks selected: no task of types 99 (en, split test); the valid types here are "
        "1-5 (pass --types within 1-5)\n"
    )
    assert main(["tasks", "list", "--tasks", str(SAMPLE_TASKS), "--types", "7-9,12", "--lang", "zh"]) == 2
    assert "no task of types 7-9,12 (zh, split all); the valid types here are 1-5" in capsys.readouterr().err


def test_a_mistyped_seeker_suggests_the_model(capsys) -> None:
    assert main(["run", "--seeker", "gtp-4o", "--provider", "offline", "--tasks", str(SAMPLE_TASKS)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown seeker 'gtp-4o' (did you mean the model gpt-4o" in err
    known = err.split("known: ", 1)[1].split(";", 1)[0].split(", ")
    assert "heuristic" in known and "oracle" in known
    assert main(["run", "--seeker", "heuristc", "--provider", "offline", "--tasks", str(SAMPLE_TASKS)]) == 2
    assert "did you mean heuristic?" in capsys.readouterr().err


def test_one_judge_flag_in_run_and_score_and_the_old_name_hidden(capsys) -> None:
    parser = build_parser()
    assert parser.parse_args(["run", "--judge", "gpt-4o"]).judge_model == "gpt-4o"
    assert parser.parse_args(["run", "--judge-model", "gpt-4o"]).judge_model == "gpt-4o"
    assert parser.parse_args(["score", "x", "--judge", "gpt-4o"]).judge == "gpt-4o"
    assert parser.parse_args(["score", "x", "--judge-model", "gpt-4o"]).judge == "gpt-4o"
    for command in ("run", "score"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out
        assert "--judge " in text and "--judge-model" not in text


def test_run_help_shows_the_provider_default_and_its_key(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: gpt-4o, as in the paper: needs OPENAI_API_KEY; --provider offline needs no key)" in text


def test_score_title_never_wraps_inside_the_run_id() -> None:
    from rich.console import Console
    from scoring_helpers import make_task, make_transcript, perfect_turns

    from clarq_bench.scoring.judge import judge_deterministic
    from clarq_bench.scoring.metrics import summarize

    run_id = "20260101-120000-heuristic-offline-en+zh-1a2b3c"
    task = make_task()
    verdicts = [judge_deterministic(make_transcript(task, perfect_turns()), task)]
    summary = summarize(verdicts, source=run_id, split="all")
    out = io.StringIO()
    from clarq_bench.scoring.report import print_table

    print_table(summary, Console(file=out, width=40))
    assert run_id in out.getvalue()


def test_compare_names_both_runs_whole_at_any_width(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    runs = tmp_path / "runs"
    base = [
        "run",
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
    assert main([*base, "--seeker", "heuristic"]) == 0
    assert main([*base, "--seeker", "no-question"]) == 0
    a, b = sorted(runs.iterdir())
    capsys.readouterr()
    assert main(["compare", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert f"A = {a.name}\n" in out and f"B = {b.name}\n" in out
