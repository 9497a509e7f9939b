"""The offline clarification track end to end on the released files: the bank against its manifest, the shipped
baselines in en and zh (best > BM25 > random > worst on MRR), an LLM seeker through the fake server, a custom
seeker's select_questions, the CLI's files, and the offline-vs-online report on shipped seekers."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clarq_bench.api import question_bank, select, select_online_offline
from clarq_bench.clarify import bank as bank_module
from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError
from clarq_bench.leaderboard.track_summary import read_track_summary
from clarq_bench.seekers import register_seeker, seekers
from clarq_bench.testing.fake_openai import FakeOpenAIServer
from tests.upstream_paths import REPO, UPSTREAM_DATA, UPSTREAM_RESULTS, needs_upstream

pytestmark = needs_upstream
COMMON = {"data": str(UPSTREAM_DATA), "results": str(UPSTREAM_RESULTS), "write": False, "resamples": 200}


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One bank cache for the module (built once), never the user's."""
    folder = tmp_path_factory.mktemp("clarq-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CLARQ_CACHE_DIR", str(folder))
        yield folder


def test_bank_matches_its_manifest_with_counts_per_origin() -> None:
    manifest = json.loads(bank_module.MANIFEST.read_text(encoding="utf-8"))["languages"]
    for language in ("en", "zh"):
        bank = question_bank(language, UPSTREAM_RESULTS)
        assert bank_module.checksum(bank) == manifest[language]["sha256"]
        counts = bank.counts()
        assert counts == manifest[language]["counts"] and len(bank.task_ids) == 260
        assert all(counts[origin] > 0 for origin in bank_module.ORIGINS)
        assert counts["released"] + counts["explanation"] + counts["content_free"] == len(bank.entries)
        assert all(e.nodes for e in bank.entries if e.origin != "content_free")
    assert bank_module.cache_path("en").is_file()
    # the repository ships the builder and the manifest, never bank text
    shipped = [p for p in (REPO / "clarq_bench" / "clarify").rglob("*") if p.suffix in (".jsonl", ".gz")]
    assert shipped == [] and "text" not in bank_module.MANIFEST.read_text(encoding="utf-8")


def test_a_tampered_cache_is_rebuilt_and_other_files_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = bank_module.cache_path("zh")
    question_bank("zh", UPSTREAM_RESULTS)
    path.write_text('{"not": "a bank"}\n', encoding="utf-8")
    assert len(question_bank("zh", UPSTREAM_RESULTS).entries) > 2000  # checksum differs: rebuilt, not parsed
    one_file = tmp_path / "results"
    one_file.mkdir()
    source = next(UPSTREAM_RESULTS.glob("*Chat.En.json"))
    (one_file / source.name).write_bytes(source.read_bytes())
    monkeypatch.setattr(bank_module, "cache_path", lambda language: tmp_path / f"bank.{language}.jsonl")
    with pytest.raises(ClarqError, match=r"does not match bank_manifest\.json"):
        question_bank("en", one_file)
    with pytest.raises(ClarqError, match="no released zh results"):
        question_bank("zh", one_file)


def test_results_are_found_beside_the_data_and_other_tasks_of_the_same_ids_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CLARQ_DATA", str(UPSTREAM_DATA))
    assert bank_module.resolve_results_dir() == UPSTREAM_RESULTS
    monkeypatch.delenv("CLARQ_DATA")
    monkeypatch.setattr(bank_module, "upstream_dir", lambda: tmp_path)
    with pytest.raises(ClarqError, match="clarq data download --results"):
        bank_module.resolve_results_dir()
    with pytest.raises(ClarqError, match="no such folder"):
        question_bank("en", tmp_path / "missing")
    # the sample tasks reuse ids such as en/01/0 for other content: never scored against the released bank
    with pytest.raises(ClarqError, match="differ from the released tasks"):
        select("bm25", lang="en", **dict(COMMON, data=str(REPO / "tasks")))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_shipped_baselines_order_best_bm25_random_worst(language: str) -> None:
    mrr, summaries = {}, {}
    for ranker in ("best-question", "bm25", "random", "worst-question", "no-question"):
        summary = select(ranker, lang=language, limit=52, **COMMON).summary
        summaries[ranker], mrr[ranker] = summary, summary.selection["mrr"].value
        assert summary.track == "clarify-offline" and summary.tasks == 52 and summary.errors == 0
    assert mrr["best-question"] == 1.0 > mrr["bm25"] > mrr["random"] > mrr["worst-question"]
    assert mrr["no-question"] == 0.0 and summaries["no-question"].selection["lar"].value == 0.0
    assert summaries["best-question"].need["f1"] == 1.0 and summaries["best-question"].need_mse.value == 0.0
    chance = summaries["random"].random_expectation["mrr"]
    assert abs(mrr["random"] - chance["mean"]) < 4 * chance["sd"] + 0.02  # one random draw sits near chance
    assert summaries["worst-question"].selection["lar"].value == 0.5  # one wrong question: (0 + 1/1) / 2
    states = summaries["bm25"].states
    assert states == summaries["bm25"].needed_states + 52  # one complete control per task


def test_llm_seeker_through_the_fake_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-clarq-test-secret-18")
    seen: list[int] = []

    def responder(body: dict[str, Any]) -> str:
        prompt = body["messages"][-1]["content"]
        numbers = [int(n) for n in re.findall(r"^\[(\d+)\]", prompt, re.MULTILINE)]
        seen.append(len(numbers))
        if len(seen) == 1:
            return "I think question 2 is best."  # not JSON: the client re-asks
        return json.dumps({"need": 3, "questions": [2, 1, 999]})

    cache = tmp_path / "responses.sqlite3"
    with FakeOpenAIServer(responder=responder) as server:
        options = dict(COMMON, lang="en", limit=3, api_base=server.base_url, cache=cache)
        result = select("openai/fake-picker", **options)
        paid = server.hits
        again = select("openai/fake-picker", **options)
        assert server.hits == paid  # every state answered from the cache
    states = result.summary.states
    assert paid == states + 1 and result.summary.usage["calls"] == states + 1 and again.summary.usage["calls"] == 0
    assert [(r.need_pred, len(r.returned), r.note) for r in result.results] == [
        (3, 2, "1 chosen numbers were not on the list")
    ] * states
    assert result.summary.errors == 0 and result.summary.notes == states
    assert seen[0] == result.results[0].pool  # the whole pool is offered, numbered
    assert [r.model_dump() for r in again.results] == [r.model_dump() for r in result.results]
    with FakeOpenAIServer(responder=responder) as server:
        options = dict(COMMON, lang="en", limit=3, api_base=server.base_url, no_cache=True, max_cost=0.0)
        with pytest.raises(ClarqError, match="no price is known"):
            select("openai/fake-picker", **options)
        spent = select("openai/fake-picker", allow_unpriced=True, **options)  # $0 of $0: spent before the first state
        assert server.hits == 0 and spent.summary.errors == spent.summary.states
        assert all("--max-cost" in (r.error or "") for r in spent.results)
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written and not any(b"sk-clarq-test-secret-18" in p.read_bytes() for p in written)


class Picker:
    """A custom seeker implementing the optional offline method: the shortest candidate, need 2."""

    def __init__(self, task: object, config: object = None) -> None:
        pass

    async def respond(self, view: object) -> str:
        raise AssertionError("the offline track must use select_questions")

    async def select_questions(self, view: object, candidates: list[Any]) -> dict[str, Any]:
        shortest = min(candidates, key=lambda c: (len(c.text), c.id))
        return {"need": 2, "questions": [shortest.id, "nope"]}


def test_custom_seeker_select_questions() -> None:
    if "test-clarify-picker" not in seekers:
        register_seeker("test-clarify-picker")(Picker)
    result = select("test-clarify-picker", lang="zh", limit=2, **COMMON)
    assert all(r.need_pred == 2 and len(r.returned) == 1 and "1 question ids" in (r.note or "") for r in result.results)
    assert result.summary.notes == result.summary.states and result.summary.errors == 0


def test_cli_select_writes_the_report_and_refuses_bad_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bm25"
    argv = [
        "select",
        "--seeker",
        "bm25",
        "--lang",
        "en",
        "--limit",
        "4",
        "--data",
        str(UPSTREAM_DATA),
        "--results",
        str(UPSTREAM_RESULTS),
        "--out",
        str(out),
        "--resamples",
        "100",
    ]
    assert main(argv) == 0
    assert {p.name for p in out.iterdir()} == {"summary.json", "report.md", "selections.jsonl", "selection.png"}
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["track"] == "clarify-offline" and summary["tasks"] == 4
    assert len((out / "selections.jsonl").read_text(encoding="utf-8").splitlines()) == summary["states"]
    assert "MRR" in capsys.readouterr().out
    row = read_track_summary(out / "summary.json")  # the leaderboard layer reads it as a track row
    assert row.track == "clarify-offline" and row.seeker == "bm25"
    assert row.selection["mrr"].value == summary["selection"]["mrr"]["value"]
    dialogue = tmp_path / "dialogue-summary.json"
    dialogue.write_text(json.dumps({"success": {"value": 0.5}}), encoding="utf-8")
    with pytest.raises(ClarqError, match="is not a clarify-offline summary"):
        read_track_summary(dialogue)
    assert main(["select", "--seeker", "no-such-thing", "--data", str(UPSTREAM_DATA)]) == 2
    assert main(["select", "--seeker", "human", "--data", str(UPSTREAM_DATA)]) == 2
    err = capsys.readouterr().err
    assert err.count("clarq: error:") == 2 and "Traceback" not in err and "bm25" in err
    assert main(["select-bank", "--lang", "zh", "--results", str(UPSTREAM_RESULTS)]) == 0
    assert "explanation 1149" in capsys.readouterr().out


def test_offline_vs_online_on_shipped_seekers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = tmp_path / "runs"
    for seeker in ("oracle", "heuristic", "no-question"):
        assert (
            main(
                [
                    "run",
                    "--seeker",
                    seeker,
                    "--provider",
                    "offline",
                    "--lang",
                    "en",
                    "--data",
                    str(UPSTREAM_DATA),
                    "--limit",
                    "8",
                    "--runs-dir",
                    str(runs),
                    "--no-progress",
                ]
            )
            == 0
        )
    capsys.readouterr()
    report = select_online_offline(sorted(runs.iterdir()), results=UPSTREAM_RESULTS, out=tmp_path / "corr")
    assert sorted(t.seeker for t in report.seekers) == ["heuristic", "no-question", "oracle"]
    assert all(len(t.offline) == len(t.online) == 8 for t in report.seekers)
    assert report.leaderboards["mrr"][0] == report.leaderboards["success"][0] == "oracle"
    assert report.leaderboards["mrr"][-1] == "no-question"
    assert report.pooled["mrr~success"]["n"] == 24 and report.across_seekers["mrr~success"]["n"] == 3
    assert report.pooled["mrr~success"]["pearson"] > 0
    assert report.per_seeker["no-question"]["mrr~success"]["pearson"] is None  # constant zero: undefined
    assert (tmp_path / "corr" / "report.md").is_file() and (tmp_path / "corr" / "correlation.json").is_file()
    assert main(["select-correlate", *map(str, sorted(runs.iterdir())), "--results", str(UPSTREAM_RESULTS)]) == 0
    assert "leaderboards" in capsys.readouterr().out
