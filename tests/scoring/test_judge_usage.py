"""The model judge's calls are part of what a run costs: they go to the run's endpoint and appear in the summary's
usage as role "judge" (before, the judge used a default client and its calls were in no figure)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import clarq_bench
from clarq_bench.cli.main import main
from clarq_bench.testing.fake_openai import FakeOpenAIServer

TASKS = Path(__file__).resolve().parents[2] / "tasks"


@pytest.fixture
def keyed(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("CLARQ_CACHE_DIR", str(tmp_path / "cache"))


def never_carried(body: dict) -> str:
    return json.dumps({"carried": False, "turn": None, "reason": "not said"})


def test_a_run_and_a_rescore_count_the_judge_calls_they_make(keyed, tmp_path: Path, capsys) -> None:
    with FakeOpenAIServer(responder=never_carried) as server:
        result = clarq_bench.run(
            seeker="heuristic",
            provider="offline",
            tasks=TASKS,
            lang="en",
            limit=6,
            judge_model="openai/fake-judge",
            api_base=server.base_url,
            no_cache=True,
            runs_dir=tmp_path / "runs",
            no_progress=True,
        )
        calls_in_run = server.hits
        assert calls_in_run > 0, "the sample run should leave some node to the model judge"
        judge = result.summary.usage.by_role["judge"]
        assert judge.calls == calls_in_run and judge.prompt_tokens > 0
        assert result.summary.usage.total.calls >= judge.calls
        saved = json.loads((result.run_dir / "summary.json").read_text(encoding="utf-8"))
        assert saved["usage"]["by_role"]["judge"]["calls"] == calls_in_run
        assert all(body["model"].endswith("fake-judge") for body in server.requests)

        server.reset()  # `clarq score --judge MODEL --api-base URL` judges again there and counts its own calls
        assert (
            main(
                [
                    "score",
                    str(result.run_dir),
                    "--judge",
                    "openai/fake-judge",
                    "--api-base",
                    server.base_url,
                    "--no-write",
                    "--json",
                ]
            )
            == 0
        )
        rescored = json.loads(capsys.readouterr().out)
        assert server.hits == calls_in_run
        assert rescored["usage"]["by_role"]["judge"]["calls"] == calls_in_run
        assert rescored["success"] == saved["success"]


def test_a_run_without_a_model_judge_has_no_judge_role(tmp_path: Path) -> None:
    result = clarq_bench.run(
        seeker="heuristic",
        provider="offline",
        tasks=TASKS,
        lang="en",
        limit=2,
        runs_dir=tmp_path / "runs",
        no_progress=True,
    )
    assert "judge" not in result.summary.usage.by_role


def test_the_judges_spending_is_in_the_runs_ledger_and_its_cost(keyed, tmp_path: Path, capsys) -> None:
    """spending.json (and so `clarq runs` and the budget of a resume) holds what each scoring paid its judge, beside
    what the dialogues cost; before, the ledger counted the dialogues only."""
    from clarq_bench.llm.accounting import call_cost
    from clarq_bench.llm.models import resolve_model

    assert call_cost(resolve_model("gpt-4o-mini"), 1000, 1000) > 0  # a priced judge
    with FakeOpenAIServer(responder=never_carried) as server:
        result = clarq_bench.run(
            seeker="heuristic",
            provider="offline",
            tasks=TASKS,
            lang="en",
            limit=6,
            judge_model="gpt-4o-mini",
            api_base=server.base_url,
            no_cache=True,
            runs_dir=tmp_path / "runs",
            no_progress=True,
        )
        judge = result.summary.usage.by_role["judge"].cost_usd
        assert judge > 0
        ledger = json.loads((result.run_dir / "spending.json").read_text(encoding="utf-8"))
        assert ledger["scoring_usd"] == pytest.approx(judge) and ledger["dialogues_usd"] == 0
        assert ledger["spent_usd"] == pytest.approx(judge)

        # a rescore with a paid judge adds its own spending (the run used no cache: it paid again)
        assert (
            main(
                [
                    "score",
                    str(result.run_dir),
                    "--judge",
                    "gpt-4o-mini",
                    "--api-base",
                    server.base_url,
                    "--no-write",
                    "--json",
                ]
            )
            == 0
        )
        capsys.readouterr()
        ledger = json.loads((result.run_dir / "spending.json").read_text(encoding="utf-8"))
        assert ledger["scoring_usd"] == pytest.approx(2 * judge) and ledger["spent_usd"] == pytest.approx(2 * judge)

        # `clarq runs` shows the whole cost, and a resume's --max-cost counts it: nothing new is started
        assert main(["runs", "--dir", str(tmp_path / "runs"), "--json"]) == 0
        (row,) = json.loads(capsys.readouterr().out)
        assert row["cost_usd"] == pytest.approx(2 * judge)
        played = (result.run_dir / "transcripts.jsonl").read_bytes().count(b"\n")
        main(
            [
                "run",
                "--resume",
                str(result.run_dir),
                "--trials",
                "2",
                "--force",
                "--max-cost",
                str(judge),
                "--no-progress",
            ]
        )
        capsys.readouterr()
        assert (result.run_dir / "transcripts.jsonl").read_bytes().count(b"\n") == played  # the judge spent it
