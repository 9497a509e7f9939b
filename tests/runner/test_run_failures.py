"""Runs that fail fast, never hang and never die on hostile seekers (issue 15).

Hostile seekers are fixtures in runner_helpers (named on the command line like any plug-in); model endpoints are
fake servers on 127.0.0.1 (a 401 for everything, nothing listening at all).
"""

from __future__ import annotations

import socket
import sys
import time
from pathlib import Path

import pytest
from runner_helpers import HOSTILE_SEEKERS, write_task_folder

from clarq_bench.cli.main import main
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.core.transcript import EndReason
from clarq_bench.testing.fake_openai import FakeOpenAIServer, error

TESTS = Path(__file__).resolve().parents[1]  # tests/, where the helper modules are


@pytest.fixture(autouse=True)
def helpers_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS))
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)


def run_argv(tmp_path: Path, *extra: str, count: int = 3) -> list[str]:
    data = write_task_folder(tmp_path / "data", count)
    return ["run", "--tasks", str(data), "--runs-dir", str(tmp_path / "runs"), "--no-progress", *extra]


@pytest.mark.parametrize("seeker", HOSTILE_SEEKERS)
def test_a_hostile_seeker_ends_its_dialogues_not_the_run(seeker, tmp_path, capsys, the_run):
    code = main(run_argv(tmp_path, "--seeker", f"runner_helpers:{seeker}", "--provider", "offline"))
    assert code == 1
    records = read_transcripts(the_run(tmp_path) / "transcripts.jsonl")
    assert len(records) == 3 and all(r.end_reason == EndReason.error for r in records)
    assert all(r.error and r.error.startswith("seeker: ") and "\n" not in r.error for r in records)
    err = capsys.readouterr().err
    # the same error in each: the run stops on it after the third (tests/runner/test_seeker_failures.py), saying so
    assert "3 dialogues ended with an error" in err or "failed on the first 3 dialogues" in err
    assert "Traceback" not in err


def test_hostile_errors_say_what_happened(tmp_path, the_run):
    expected = {
        "SurrogateSeeker": "not valid Unicode",
        "CancellingSeeker": "CancelledError",
        "ExitingSeeker": "SystemExit: 3",
        "UnprintableSeeker": "UnprintableError: (unprintable)",
        "SurrogateErrorSeeker": "ValueError: bad \\udcff news",
        "BytesSeeker": "returned bytes, not str",
        "HugeSeeker": "5,000,000 characters",
        "make_sync_seeker": "TypeError",
    }
    for seeker, words in expected.items():
        root = tmp_path / seeker
        main(run_argv(root, "--seeker", f"runner_helpers:{seeker}", "--provider", "offline", count=1))
        (record,) = read_transcripts(the_run(root) / "transcripts.jsonl")
        assert words in (record.error or ""), (seeker, record.error)


def test_a_hanging_seeker_costs_one_turn_timeout(tmp_path, capsys, the_run):
    started = time.perf_counter()
    code = main(
        run_argv(
            tmp_path,
            "--seeker",
            "runner_helpers:HangingSeeker",
            "--provider",
            "offline",
            "--turn-timeout",
            "0.5",
            count=4,
        )
    )
    elapsed = time.perf_counter() - started
    assert code == 1 and elapsed < 10
    records = read_transcripts(the_run(tmp_path) / "transcripts.jsonl")
    assert len(records) == 4
    assert all(r.error == "seeker: TurnTimeout: no reply within the turn timeout of 0.5 s" for r in records)


def test_unicode_line_breaks_in_turns_run_score_and_submit(tmp_path, the_run):
    assert main(run_argv(tmp_path, "--seeker", "runner_helpers:LineBreakSeeker", "--provider", "offline")) == 0
    run_dir = the_run(tmp_path)
    records = read_transcripts(run_dir / "transcripts.jsonl")
    assert records[0].seeker_turns[0].text == "mines\u2028or\u2029forests\u0085?"
    assert main(["score", str(run_dir), "--no-write"]) == 0
    assert main(["submit", str(run_dir), "-o", str(tmp_path / "s.zip"), "--partial"]) == 0


def test_a_401_endpoint_stops_the_run_within_a_few_calls(tmp_path, capsys, keyed_openai, the_run):
    server = keyed_openai
    server.push(*[error(401, message="Incorrect API key provided")] * 200)
    code = main(
        run_argv(
            tmp_path,
            "--seeker",
            "openai/gpt-4o",
            "--provider",
            "offline",
            "--api-base",
            server.base_url,
            "--no-cache",
            count=40,
        )
    )  # 32 dialogues in flight at once
    calls = server.hits
    assert code == 1 and calls == 1
    err = capsys.readouterr().err
    line = [text for text in err.splitlines() if text.startswith("clarq: ")]
    assert len(line) == 1 and "run stopped: the seeker failed with an error no retry can fix" in line[0]
    assert "rejected the API key (401" in line[0] and "check the key" in line[0] and "--resume" in line[0]
    assert read_transcripts(the_run(tmp_path) / "transcripts.jsonl") == []  # nothing played: a resume plays all


def test_a_refused_connection_stops_the_run_and_points_at_api_base(tmp_path, capsys, openai_key):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = main(
        run_argv(
            tmp_path,
            "--seeker",
            "heuristic",
            "--provider",
            "openai/gpt-4o",
            "--api-base",
            f"http://127.0.0.1:{port}/v1",
            "--no-cache",
            count=20,
        )
    )
    err = capsys.readouterr().err
    assert code == 1 and "the provider failed" in err and "connection refused" in err and "0 dialogues written" in err
    assert "check --api-base and that the server there is running" in err and "--model-concurrency" not in err


def test_max_errors_stops_after_n_errored_dialogues(tmp_path, capsys, the_run):
    code = main(
        run_argv(
            tmp_path,
            "--seeker",
            "runner_helpers:ExitingSeeker",
            "--provider",
            "offline",
            "--max-errors",
            "2",
            "--concurrency",
            "1",
            count=10,
        )
    )
    assert code == 1
    assert len(read_transcripts(the_run(tmp_path) / "transcripts.jsonl")) == 2
    assert "run stopped: 2 dialogues ended with an error (--max-errors 2)" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flags, words",
    [
        (["--provider", "gtp-4o"], "unknown provider 'gtp-4o'"),
        (["--provider", "runner_helpers:NoSuchProvider"], "NoSuchProvider"),
        (["--limit", "-3"], "--limit: must be at least 1"),
        (["--limit", "0"], "--limit: must be at least 1"),
        (["--trials", "0"], "--trials: must be at least 1"),
        (["--max-turns", "-1"], "--max-turns: must be at least 1"),
        (["--concurrency", "0"], "--concurrency: must be at least 1"),
        (["--turn-timeout", "0"], "--turn-timeout: must be positive"),
        (["--max-errors", "x"], "--max-errors: not a whole number"),
    ],
)
def test_bad_names_and_numbers_are_usage_errors_before_anything_runs(flags, words, tmp_path, capsys):
    provider = [] if "--provider" in flags else ["--provider", "offline"]
    argv = run_argv(tmp_path, "--seeker", "heuristic", *provider, *flags)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert not (tmp_path / "runs").exists()


def test_exit_codes_of_the_console_script(tmp_path):
    import subprocess

    data = write_task_folder(tmp_path / "data", 1)
    base = ["clarq", "run", "--tasks", str(data), "--runs-dir", str(tmp_path / "runs"), "--no-progress"]
    env = {"PYTHONPATH": f"{TESTS.parent}:{TESTS}", "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"}
    ok = subprocess.run(base + ["--provider", "offline"], capture_output=True, text=True, env=env)
    bad = subprocess.run(base + ["--provider", "offline", "--limit", "-3"], capture_output=True, text=True, env=env)
    errored = subprocess.run(
        base + ["--provider", "offline", "--seeker", "runner_helpers:ExitingSeeker"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert (ok.returncode, bad.returncode, errored.returncode) == (0, 2, 1), (ok.stderr, bad.stderr, errored.stderr)


def played(tmp_path: Path, name: str, data: Path, *flags: str) -> Path:
    runs = tmp_path / name
    assert (
        main(["run", "--tasks", str(data), "--runs-dir", str(runs), "--no-progress", "--seeker", "heuristic", *flags])
        == 0
    )
    (run_dir,) = runs.iterdir()
    return run_dir


def test_compare_refuses_runs_on_different_tasks_with_the_same_ids(tmp_path, capsys):
    sample = played(tmp_path, "a", TESTS.parent / "tasks", "--provider", "offline", "--types", "1")
    other = played(tmp_path, "b", write_task_folder(tmp_path / "data", 2), "--provider", "offline")
    capsys.readouterr()
    assert main(["compare", str(sample), str(other), "--resamples", "50"]) == 2
    err = capsys.readouterr().err
    assert "were played on different task content (first: en/01/0)" in err and "Traceback" not in err


def test_compare_names_the_settings_that_differ(tmp_path, capsys):
    data = write_task_folder(tmp_path / "data", 3)
    a = played(tmp_path, "a", data, "--provider", "offline")
    b = played(tmp_path, "b", data, "--provider", "runner_helpers:TreeWalkingProvider", "--max-turns", "8")
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--resamples", "50"]) == 2  # another provider and turn cap: refused
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "played in different settings (provider: offline (" in err
    assert "turn cap: 12 -> 8" in err and "--across-settings" in err
    assert main(["compare", str(a), str(b), "--resamples", "50", "--across-settings"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert (
        out.startswith("ACROSS SETTINGS: the two sides were played in different settings")
        and out.count("ACROSS SETTINGS") == 2
    )
    assert "3 pairs on task content and trial" in out
    assert 'settings that differ (A -> B): max_turns: 12 -> 8; provider.name: "offline" -> ' in out
    assert main(["compare", str(a), str(a), "--resamples", "50"]) == 0
    assert "the two sides were played with the same settings" in capsys.readouterr().out


def test_score_output_and_report_show_errored_dialogues(tmp_path, capsys, monkeypatch, the_run):
    monkeypatch.setenv("RUNNER_HELPERS_FAIL_TASKS", "0,2")
    assert (
        main(run_argv(tmp_path, "--seeker", "heuristic", "--provider", "runner_helpers:TreeWalkingProvider", count=4))
        == 1
    )
    run_dir = the_run(tmp_path)
    printed = " ".join(capsys.readouterr().out.split())
    assert "Dialogues ended by: error 2, goodbye 2." in printed and "2 of 4 dialogues ended in an error" in printed
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    assert "**Warning:** Dialogues ended by: error 2, goodbye 2. 2 of 4 dialogues ended in an error" in report
    assert main(["score", str(run_dir), "--no-write"]) == 0
    assert "2 of 4 dialogues ended in an error" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("transport", ["auto", "litellm"])
def test_a_401_provider_endpoint_stops_the_run_after_one_call(transport, tmp_path, capsys, keyed_openai):
    server = keyed_openai
    server.push(*[error(401, message="Incorrect API key provided")] * 200)
    code = main(
        run_argv(
            tmp_path,
            "--seeker",
            "heuristic",
            "--provider",
            "openai/gpt-4o",
            "--api-base",
            server.base_url,
            "--no-cache",
            "--transport",
            transport,
            count=40,
        )
    )
    calls = server.hits
    err = capsys.readouterr().err
    assert (code, calls) == (1, 1), err
    assert "run stopped: the provider failed with an error no retry can fix" in err


@pytest.mark.parametrize(
    "status, words",
    [
        (403, "rejected the API key (403"),
        (404, "rejected the request (404"),
        (400, "rejected the request (400"),
    ],
)
def test_other_errors_no_retry_can_fix_stop_the_run(status, words, tmp_path, capsys, keyed_openai):
    server = keyed_openai
    server.push(*[error(status, message="nope")] * 200)
    code = main(
        run_argv(
            tmp_path,
            "--seeker",
            "openai/gpt-4o",
            "--provider",
            "offline",
            "--api-base",
            server.base_url,
            "--no-cache",
            count=40,
        )
    )
    calls = server.hits
    err = capsys.readouterr().err
    assert (code, calls) == (1, 1) and words in err


def test_transient_errors_are_not_fatal(tmp_path, capsys, openai_key, the_run):
    """A 500 that outlives its retries ends its dialogue only; the next dialogues still play."""
    from clarq_bench.testing.fake_agents import both_agents

    with FakeOpenAIServer(responder=both_agents("openai/s", "openai/p")) as server:
        server.push(*[error(500, message="overloaded")] * 6)  # the first call's six attempts
        code = main(
            run_argv(
                tmp_path,
                "--seeker",
                "openai/s",
                "--provider",
                "offline",
                "--api-base",
                server.base_url,
                "--no-cache",
                count=3,
            )
        )
    records = read_transcripts(the_run(tmp_path) / "transcripts.jsonl")
    assert code == 1 and len(records) == 3
    assert [r.end_reason == EndReason.error for r in records].count(True) == 1
    assert "retry later; check --api-base and the server" in next(r.error for r in records if r.error)


def test_an_unknown_judge_model_is_a_usage_error(tmp_path, capsys, the_run):
    assert main(run_argv(tmp_path, "--seeker", "heuristic", "--provider", "offline")) == 0
    capsys.readouterr()
    assert main(["score", str(the_run(tmp_path)), "--judge", "gtp-4o", "--no-write"]) == 2
    assert "unknown judge model 'gtp-4o'" in capsys.readouterr().err
    assert main(run_argv(tmp_path / "b", "--provider", "offline", "--judge-model", "gtp-4o")) == 2
    assert "unknown judge model 'gtp-4o'" in capsys.readouterr().err


def test_provider_eval_resolves_the_provider_name_first(capsys):
    from upstream_paths import UPSTREAM_RESULTS

    released = UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json"
    if not released.is_file():
        pytest.skip("the released results are not in $CLARQ_DATA/.., ../shared or the download cache")
    assert main(["provider-eval", "--provider", "gtp-4o", "--dialogues", str(released), "--types", "1"]) == 2
    assert "unknown provider 'gtp-4o'" in capsys.readouterr().err


def test_a_record_the_file_could_not_hold_is_an_error_record_not_a_crash(tmp_path, capsys, the_run):
    assert main(run_argv(tmp_path, "--seeker", "heuristic", "--provider", "runner_helpers:NoteBombProvider")) == 1
    records = read_transcripts(the_run(tmp_path) / "transcripts.jsonl")  # and the file reads back
    assert len(records) == 3 and all(r.end_reason == EndReason.error and r.turns == [] for r in records)
    errors = sorted(r.error or "" for r in records)
    assert errors[0] == "transcript could not be written (DataError: record: nested deeper than 64 levels)"
    assert all("Unable to serialize unknown type" in e for e in errors[1:])
