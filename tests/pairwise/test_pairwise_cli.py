"""`clarq judge-pairs` through the real CLI with two judges behind the fake OpenAI-compatible server (a full report),
the people page over HTTP (answers saved as given, several people, resumption), and the leaderboard's pairwise
table. Runs: heuristic vs oracle on the sample tasks (en + zh), offline provider."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from pairwise_helpers import always_a, content_judge, make_runs

import clarq_bench as clarq
from clarq_bench.cli.main import main
from clarq_bench.pairwise.answers import read_answers
from clarq_bench.pairwise.items import load_items
from clarq_bench.testing.fake_openai import FakeOpenAIServer

SECRET = "sk-pairwise-test-0123456789abcdef"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return make_runs(tmp_path_factory.mktemp("pairwise-sample-runs"))


def responder(body: dict) -> str:
    if body["model"].endswith("judge-one"):
        return content_judge(0, design=4)(body["messages"])
    return content_judge(25, design=4)(body["messages"])


def test_two_fake_server_judges_give_a_full_report(runs, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("COLUMNS", "250")  # rich: a wide terminal, so names are not cut
    out = tmp_path / "session"
    with FakeOpenAIServer(responder=responder) as server:
        argv = [
            "judge-pairs",
            str(runs[0]),
            str(runs[1]),
            "--judges",
            "openai/judge-one,openai/judge-two",
            "--design",
            "4",
            "--swap-sample",
            "4",
            "--api-base",
            server.base_url,
            "--cache",
            str(tmp_path / "cache.sqlite3"),
            "--out",
            str(out),
            "--resamples",
            "500",
        ]
        assert main(argv) == 0
        assert server.hits == 2 * 16 + 2 * 4  # every item once per judge, and the 4 swapped ones again
        languages = {"zh" if "对话 A" in r["messages"][1]["content"] else "en" for r in server.requests}
        assert languages == {"en", "zh"}  # each item judged with the prompt of its task's language
        printed = capsys.readouterr().out
        assert "PCC-H" in printed and "openai/judge-two" in printed and "flips when swapped" in printed
        # a rerun asks nothing: every answer is on disk
        assert main(argv + ["--json"]) == 0 and server.hits == 40
    summary = json.loads(capsys.readouterr().out)
    assert summary["design"] == 4 and summary["items"] == 16 and summary["swapped_items"] == 4
    assert [j["judge"] for j in summary["judges"]] == ["openai/judge-one", "openai/judge-two"]
    assert all(j["flip_share"] == 0.0 and j["invalid"] == 0 for j in summary["judges"])
    for criterion in summary["criteria"]:
        assert criterion["reliability"]["openai/judge-one"] > 0
        assert criterion["pcch"][0]["low"] <= criterion["pcch"][0]["value"] <= criterion["pcch"][0]["high"]
    written = json.loads((out / "summary.json").read_text())
    assert written["usage"]["judge"]["calls"] == 40  # both sessions' spending: the rerun made no call
    assert written["usage"]["judge"]["prompt_tokens"] > 0
    for path in out.iterdir():
        assert SECRET not in path.read_text(encoding="utf-8")
    report = (out / "report.md").read_text()
    assert "## Judges" in report and "## Usage" in report and "4-choice" in report


def test_usage_errors_are_one_line(runs, tmp_path, capsys) -> None:
    assert main(["judge-pairs", str(runs[0]), str(runs[1]), "--out", str(tmp_path / "x")]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0
    assert main(["judge-pairs", str(runs[0]), str(runs[1]), "--judges", "x", "--swap-sample", "-1"]) == 2
    assert main(["judge-pairs", str(runs[0]), str(tmp_path / "missing"), "--judges", "gpt-4o"]) == 2
    assert "does not exist" in capsys.readouterr().err


def _session(runs, folder: Path):  # type: ignore[no-untyped-def]
    import asyncio

    from clarq_bench.llm import LLMClient, LLMSettings
    from clarq_bench.testing.scripted import ScriptedModel

    models = {"scripted/content": ScriptedModel(content_judge(0)), "scripted/always-a": ScriptedModel(always_a)}
    client = LLMClient(LLMSettings(use_cache=False), scripted=models)
    return asyncio.run(
        clarq.judge_pairs_async(*runs, judges=list(models), out=folder, client=client, criteria="questions,economy")
    )


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _post(url: str, fields: dict[str, str]) -> tuple[int, str]:
    request = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode(), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # follows the 303 to the next item
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_people_page_saves_answers_as_given_and_resumes_per_person(runs, tmp_path) -> None:
    folder = tmp_path / "people"
    _session(runs, folder)
    items = load_items(folder)
    server = clarq.people_server(folder).start()
    try:
        assert server.url.startswith("http://127.0.0.1:")
        status, page = _get(server.url + "judge?name=Ann")
        first = items.items[0]
        assert status == 200 and "Item 1 of 16" in page and first.id in page and "Dialogue A" in page
        assert "<script" not in page
        # an incomplete form is refused and nothing is written
        status, page = _post(server.url + "answer", {"name": "Ann", "item": first.id, "questions": "A"})
        assert status == 400 and "missing: economy" in page and not (folder / "people.jsonl").exists()
        status, page = _post(server.url + "answer", {"name": "Ann", "item": first.id, "questions": "A", "economy": "B"})
        assert status == 200 and "Item 2 of 16" in page
        saved = read_answers(folder / "people.jsonl")
        assert [(a.judge, a.item, a.criterion, a.choice, a.raw) for a in saved] == [
            ("person:Ann", first.id, "questions", "A", "A"),
            ("person:Ann", first.id, "economy", "B", "B"),
        ]
        assert all(a.shown_a == first.shown_a for a in saved)
        # another person starts at item 1; Ann, coming back, at item 2
        assert "Item 1 of 16" in _get(server.url + "judge?name=Bo%20Li")[1]
        assert "Item 2 of 16" in _get(server.url + "judge?name=Ann")[1]
        # hostile names are escaped, empty ones refused
        assert "&lt;b&gt;x" in _get(server.url + "judge?name=%3Cb%3Ex")[1]
        assert _get(server.url + "judge?name=%20")[0] == 400
        assert _post(server.url + "answer", {"name": "Ann", "item": "nope", "questions": "A", "economy": "A"})[0] == 400
        assert _get(server.url + "assets/style.css")[0] == 200 and _get(server.url + "x")[0] == 404
        for item in items.items[1:]:
            _post(server.url + "answer", {"name": "Ann", "item": item.id, "questions": "B", "economy": "B"})
        assert "All done" in _get(server.url + "judge?name=Ann")[1]
    finally:
        server.stop()
    result = clarq.pairwise_report(folder, resamples=200)
    people = {j.judge: j for j in result.summary.judges}["person:Ann"]
    assert people.answers == 32 and people.invalid == 0


def test_leaderboard_shows_the_pairwise_table_for_runs_on_the_board(runs, tmp_path) -> None:
    result = _session(runs, tmp_path / "s")
    subs = tmp_path / "subs"
    for run in runs:
        clarq.submit(run, subs / f"{run.name}.json", name=run.name.split("-")[2])
    (subs / "pairwise").mkdir()
    (subs / "pairwise" / "heuristic-vs-oracle.json").write_text((result.folder / "pairwise-row.json").read_text())
    (subs / "pairwise" / "broken.json").write_text('{"kind": "clarq-pairwise"}')
    index, _entries, rejected = clarq.build_leaderboard(subs, tmp_path / "site", verify=False, plots=False)
    html = index.read_text()
    assert "Pairwise comparisons" in html and ">heuristic</a>" in html and ">oracle</a>" in html
    assert html.count("<tr><td><a href=") == 2  # one row per criterion (questions, economy)
    assert [name for name, _ in rejected] == ["pairwise/broken.json"]
    # a row naming a run that is not on the board is not shown
    lone = tmp_path / "lone"
    clarq.submit(runs[0], lone / "a.json")
    index, _, _ = clarq.build_leaderboard(
        lone, tmp_path / "site2", verify=False, plots=False, pairwise=subs / "pairwise"
    )
    assert "Pairwise comparisons" not in index.read_text()


def test_cli_people_mode_serves_until_ctrl_c_then_reports(runs, tmp_path) -> None:
    import signal
    import subprocess
    import sys

    out = tmp_path / "cli-people"
    repo = Path(__file__).resolve().parents[2]
    env = {**__import__("os").environ, "PYTHONPATH": str(repo), "COLUMNS": "200"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clarq_bench",
            "judge-pairs",
            str(runs[0]),
            str(runs[1]),
            "--people",
            "--port",
            "0",
            "--criteria",
            "economy",
            "--out",
            str(out),
            "--resamples",
            "200",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("people page: http://127.0.0.1:"), line + process.stderr.read()
        url = line.split()[2]
        first = load_items(out).items[0]
        assert _post(url + "answer", {"name": "Cy", "item": first.id, "economy": "A"})[0] == 200
    finally:
        process.send_signal(signal.SIGINT)
        printed, errors = process.communicate(timeout=60)
    assert process.returncode == 0, errors
    assert "person:Cy" in printed and "wrote" in printed
    summary = json.loads((out / "summary.json").read_text())
    assert [j["judge"] for j in summary["judges"]] == ["person:Cy"] and summary["judges"][0]["answers"] == 1


def test_a_rejected_key_stops_with_one_line_and_a_tampered_session_is_refused(
    runs, tmp_path, monkeypatch, capsys
) -> None:
    from clarq_bench.testing.fake_openai import error

    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    out = tmp_path / "s"
    with FakeOpenAIServer([error(401, message=f"Incorrect API key provided: {SECRET}")] * 64) as server:
        code = main(
            [
                "judge-pairs",
                str(runs[0]),
                str(runs[1]),
                "--judges",
                "openai/judge-one",
                "--api-base",
                server.base_url,
                "--no-cache",
                "--out",
                str(out),
            ]
        )
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "rejected the API key (401" in err and SECRET not in err
    assert not any(SECRET in p.read_text(encoding="utf-8") for p in out.iterdir())
    (out / "items.json").write_text('{"systems": ["a", "b"], "items": 3}')
    assert main(["judge-pairs", str(runs[0]), str(runs[1]), "--people", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "items.json is not a pairwise items" in err


def test_an_unfinished_last_line_is_cut_before_new_answers_are_appended(tmp_path) -> None:
    from clarq_bench.pairwise.answers import PairAnswer, append_answers

    path = tmp_path / "answers.jsonl"
    one = PairAnswer(judge="j", item="en/01/0#0", criterion="economy", shown_a=1, choice="A")
    append_answers(path, [one])
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"judge": "j", "item": "en/01/1#0", "crit')  # a write cut by a crash
    append_answers(path, [one.model_copy(update={"choice": "B"})])
    assert [a.choice for a in read_answers(path)] == ["A", "B"]


def test_people_server_ends_on_an_interrupt_and_frees_its_port(runs, tmp_path) -> None:
    """Ctrl-C (or SIGTERM, which the command line turns into one) while serving: the interrupt reaches the waiting
    thread, never the server's own, and the server is shut and its port free at once."""
    import _thread
    import socket
    import threading
    import time

    folder = tmp_path / "people"
    _session(runs, folder)
    server = clarq.people_server(folder)
    port = server.httpd.server_address[1]
    threading.Timer(0.3, _thread.interrupt_main).start()
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        server.serve_forever()
    assert time.monotonic() - began < 5
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))  # closed: the port is free again
