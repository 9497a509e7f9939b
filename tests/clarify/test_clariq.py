"""The ClariQ track on ClariQ's own files: the official tool's conventions on small synthetic files written here,
hostile run and data files, the BM25 baseline by hand, the pinned download over loopback HTTP, and, where a copy of
ClariQ is at hand ($CLARQ_CLARIQ_DIR or the download cache), the paper's BM25 row."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import math
import threading
from pathlib import Path

import pytest

from clarq_bench.clarify.clariq_bm25 import OkapiIndex, bm25_rankings, tokenize
from clarq_bench.clarify.clariq_data import load_question_bank, load_topics
from clarq_bench.clarify.clariq_score import (
    clarification_need,
    means,
    official_lists,
    question_relevance,
    read_need_run,
    read_ranking_run,
    write_ranking_run,
)
from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError, DataError
from clarq_bench.data import companion

HEADER = (
    "topic_id\tinitial_request\ttopic_desc\tclarification_need\tfacet_id\tfacet_desc\tquestion_id\tquestion\tanswer\n"
)


def write_clariq(folder: Path) -> Path:
    """Three topics: 7 has relevant Q2, Q3, Q4 (need 3); 8 has Q00001 only (need 1); 9 has Q5 (need 2)."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = [
        ("7", "Tell me about dog food", "3", "F1", "Q2"),
        ("7", "Tell me about dog food", "3", "F1", "Q3"),
        ("7", "Tell me about dog food", "3", "F2", "Q4"),
        ("8", "What is a cat", "1", "F3", "Q00001"),
        ("9", '"Who said ""hello""?"', "2", "F4", "Q5"),
    ]
    (folder / "dev.tsv").write_text(
        HEADER + "".join(f"{t}\t{r}\tdesc\t{n}\t{f}\tfd\t{q}\tq\ta\n" for t, r, n, f, q in rows), encoding="utf-8"
    )
    bank = {
        "Q00001": "",
        "Q1": "are you looking for cat food",
        "Q2": "do you want dry dog food",
        "Q3": "do you want wet dog food",
        "Q4": "is the dog a puppy",
        "Q5": "who said hello",
    }
    (folder / "question_bank.tsv").write_text(
        "question_id\tquestion\n" + "".join(f"{k}\t{v}\n" for k, v in bank.items()), encoding="utf-8"
    )
    return folder


@pytest.fixture
def clariq(tmp_path: Path) -> Path:
    return write_clariq(tmp_path / "clariq")


def run_file(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "run"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_topics_and_bank_are_read_as_the_tool_reads_them(clariq: Path) -> None:
    topics = {t.id: t for t in load_topics(clariq, "dev")}
    assert topics["7"].relevant == {"Q2", "Q3", "Q4"} and topics["7"].need == 3 and topics["7"].facets == ["F1", "F2"]
    assert topics["9"].request == 'Who said "hello"?'  # a doubled quote inside a quoted field
    assert load_question_bank(clariq)["Q00001"] == ""


def test_recall_keeps_one_question_per_score_counts_ids_once_and_zero_for_missing_topics(clariq, tmp_path) -> None:
    topics = load_topics(clariq, "dev")
    lines = read_ranking_run(
        run_file(
            tmp_path,
            [
                "7 0 Q1 0 9 r",
                "7 0 Q2 1 9 r",  # a tie: only Q1, the first in the file, is kept
                "7 0 Q3 2 8 r",
                "7 0 Q3 3 7 r",  # a repeated id counts once
                "7 0 Q4 4 1.0 r",
                "7 0 Q1 5 1 r",  # 1.0 and 1 are one score
                "0008 0 Q00001 0 5 r",  # "0008" is topic 8, as in the tool (numbers)
            ],
        )
    )
    assert official_lists(lines)["7"] == ["Q1", "Q3", "Q3", "Q4"]
    recall = question_relevance(topics, lines)
    # topic 7: first 5 = {Q1, Q3, Q4}, 2 of its 3 relevant; topic 8: 1 of 1; topic 9 is not in the run: 0
    assert recall["Recall5"] == pytest.approx({"7": 2 / 3, "8": 1.0, "9": 0.0})
    assert means(recall)["Recall30"] == pytest.approx((2 / 3 + 1) / 3)


def test_recall_at_five_stops_at_five(clariq, tmp_path) -> None:
    lines = [f"7 0 Q{n} {rank} {100 - rank} r" for rank, n in enumerate((10, 11, 12, 13, 14, 2, 3, 4))]
    recall = question_relevance(load_topics(clariq, "dev"), read_ranking_run(run_file(tmp_path, lines)))
    assert recall["Recall5"]["7"] == 0.0 and recall["Recall10"]["7"] == 1.0


def test_need_counts_every_topic_a_missing_one_as_zero_and_the_last_line_wins(clariq, tmp_path) -> None:
    topics = load_topics(clariq, "dev")  # gold: 7 -> 3, 8 -> 1, 9 -> 2
    need = clarification_need(topics, read_need_run(run_file(tmp_path, ["7 2", "7 3", "8 1"])))
    # predicted 3, 1, 0: labels 3 and 1 right (P = R = F1 = 1 each), label 2 missed (P = R = F1 = 0); weights 1/3
    assert need == pytest.approx({"Precision": 2 / 3, "Recall": 2 / 3, "F1": 2 / 3})
    unlabelled = [t.model_copy(update={"need": None}) for t in topics]
    with pytest.raises(DataError, match="no clarification_need"):
        clarification_need(unlabelled, {})


@pytest.mark.parametrize(
    "line, problem",
    [
        ("7 0 Q1 0", "4 fields"),
        ("7 0 Q1 0 high", "not a number"),
        ("7 0 Q1 0 nan", "not finite"),
        ("7 0 Q1 0 inf r", "not finite"),
    ],
)
def test_hostile_run_lines_are_one_line_errors(clariq, tmp_path, line, problem, capsys, monkeypatch) -> None:
    path = run_file(tmp_path, ["7 0 Q1 0 3 r", line])
    with pytest.raises(DataError, match=problem):
        read_ranking_run(path)
    monkeypatch.setenv(companion.DATASETS["clariq"], str(clariq))
    assert main(["clariq", "score", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 2" in err


def test_hostile_need_run_and_binary_run_are_errors(tmp_path) -> None:
    with pytest.raises(DataError, match="not an integer"):
        read_need_run(run_file(tmp_path, ["7 three"]))
    path = tmp_path / "binary"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(DataError, match="UTF-8"):
        read_ranking_run(path)


@pytest.mark.parametrize(
    "edit, problem",
    [
        (lambda t: t.replace("\t3\tF1", "\t5\tF1", 1), "is not 1-4"),
        (lambda t: t.replace("clarification_need", "need"), "no column 'clarification_need'"),
        (lambda t: t.replace("\tQ5\t", "\t\t"), "empty topic_id or question_id"),
    ],
)
def test_malformed_split_files_are_one_line_errors(clariq, edit, problem) -> None:
    path = clariq / "dev.tsv"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(DataError, match=problem):
        load_topics(clariq, "dev")


def test_a_bank_with_a_repeated_id_is_refused(clariq) -> None:
    path = clariq / "question_bank.tsv"
    path.write_text(path.read_text(encoding="utf-8") + "Q2\tagain\n", encoding="utf-8")
    with pytest.raises(DataError, match="Q2 appears twice"):
        load_question_bank(clariq)


def test_exported_runs_refuse_repeats_and_score_as_written(clariq, tmp_path) -> None:
    with pytest.raises(DataError, match="ranked twice"):
        write_ranking_run(tmp_path / "x", {"7": ["Q2", "Q2"]}, "r")
    with pytest.raises(DataError, match="one word"):
        write_ranking_run(tmp_path / "x", {"7": ["Q2"]}, "two words")
    write_ranking_run(tmp_path / "run", {"7": ["Q1", "Q2", "Q3"], "9": ["Q5"]}, "mine")
    assert (tmp_path / "run").read_text().splitlines()[:2] == ["7 0 Q1 0 3 mine", "7 0 Q2 1 2 mine"]
    recall = question_relevance(load_topics(clariq, "dev"), read_ranking_run(tmp_path / "run"))
    assert recall["Recall5"] == {"7": 2 / 3, "8": 0.0, "9": 1.0}


def test_stemmed_tokenization_is_the_notebooks() -> None:
    # stop words are removed as written, before the stemmer lower-cases: "I" stays, "the" and "about" go
    assert tokenize("I want information about the Dogs.", "stemmed") == ["i", "want", "inform", "dog", "."]
    assert tokenize("I want information about the Dogs.", "clarq") == [
        "i",
        "want",
        "information",
        "about",
        "the",
        "dogs",
    ]
    with pytest.raises(ClarqError, match="unknown tokenization"):
        tokenize("x", "porter")


def test_okapi_by_hand_with_the_negative_idf_floor() -> None:
    docs = [["a", "b"], ["a"], ["a", "c", "c"]]  # N = 3; df a = 3, b = 1, c = 1; mean length 2
    idf_a, idf_b = math.log(0.5 / 3.5), math.log(2.5 / 1.5)  # a's idf is negative: floored to 0.25 x mean idf
    floor = 0.25 * (idf_a + 2 * idf_b) / 3
    index = OkapiIndex(docs)
    assert index.idf["a"] == pytest.approx(floor)

    def term(idf: float, tf: int, length: int) -> float:
        return idf * tf * 2.5 / (tf + 1.5 * (0.25 + 0.75 * length / 2))

    assert index.scores(["c", "a", "a"]) == pytest.approx(
        [2 * term(floor, 1, 2), 2 * term(floor, 1, 1), term(idf_b, 2, 3) + 2 * term(floor, 1, 3)]
    )


def test_bm25_ranks_the_bank_and_breaks_ties_towards_the_later_question() -> None:
    bank = {"Q1": "red apple", "Q2": "green apple", "Q3": "red pear", "Q4": "blue sky", "Q5": "grey sky"}
    ranking = bm25_rankings({"t": "apple"}, bank, "clarq", depth=3)["t"]
    assert ranking == ["Q2", "Q1", "Q5"]  # Q1/Q2 tie (apple: idf ln(3.5 / 2.5)), then zero scores, the later first


def test_cli_runs_bm25_writes_the_official_run_and_scores_it(clariq, tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv(companion.DATASETS["clariq"], str(clariq))
    assert main(["clariq", "run", "--ranker", "bm25-clarq", "--out", str(tmp_path / "o"), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["topics"] == 3 and shown["document_relevance"].startswith("absent")
    run = (tmp_path / "o" / "run.txt").read_text().splitlines()
    assert run[0].split()[0] == "7" and len(run) == 3 * 6
    assert main(["clariq", "score", str(tmp_path / "o" / "run.txt"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["question_relevance"] == shown["question_relevance"]


def test_download_verifies_each_file_and_never_stores_a_bad_one(clariq, tmp_path, monkeypatch) -> None:
    mirror = tmp_path / "mirror"
    (mirror / "data").mkdir(parents=True)
    files = {}
    for name in ("dev.tsv", "question_bank.tsv"):
        blob = (clariq / name).read_bytes()
        (mirror / "data" / name).write_bytes(blob)
        files[f"data/{name}"] = hashlib.sha256(blob).hexdigest()
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "clariq.json").write_text(json.dumps({"repository": "x/y", "commit": "c" * 40, "files": files}))
    monkeypatch.setattr(companion, "CHECKSUMS", tables)
    monkeypatch.setenv("CLARQ_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(companion.DATASETS["clariq"], raising=False)
    handler = functools.partial(Quiet, directory=str(mirror))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        (mirror / "data" / "dev.tsv").write_bytes(b"tampered")
        with pytest.raises(ClarqError, match="checksum mismatch"):
            companion.download_dataset("clariq", base_url=url)
        cached = tmp_path / "cache" / f"clariq-{'c' * 12}" / "data"
        assert not (cached / "dev.tsv").exists()
        with pytest.raises(ClarqError, match="no clariq data"):
            companion.dataset_dir("clariq")
        (mirror / "data" / "dev.tsv").write_bytes((clariq / "dev.tsv").read_bytes())
        report = companion.download_dataset("clariq", base_url=url)
        assert report.fetched == ["data/dev.tsv"] and report.already_present == ["data/question_bank.tsv"]
        assert companion.dataset_dir("clariq") == cached
        assert companion.verify_dataset("clariq", cached) == {}
    finally:
        server.shutdown()
        server.server_close()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # type: ignore[no-untyped-def]
        pass


def real_clariq() -> Path | None:
    try:
        folder = companion.dataset_dir("clariq")
    except ClarqError:
        return None
    return folder if companion.verify_dataset("clariq", folder) == {} else None


REAL = real_clariq()
needs_clariq = pytest.mark.skipif(
    REAL is None,
    reason="no verified ClariQ copy: `clarq data download --dataset "
    "clariq` or $CLARQ_CLARIQ_DIR (ClariQ states no licence, so it is not shipped)",
)


@needs_clariq
def test_bm25_with_the_notebooks_tokenization_reproduces_the_papers_dev_row() -> None:
    topics = load_topics(REAL, "dev")
    rankings = bm25_rankings({t.id: t.request for t in topics}, load_question_bank(REAL), "stemmed")
    from clarq_bench.clarify.clariq_score import RunLine

    lines = [
        RunLine(topic=t, question=q, rank=str(i), score=len(r) - i, line=0)
        for t, r in rankings.items()
        for i, q in enumerate(r)
    ]
    recall = means(question_relevance(topics, lines))
    paper = {"Recall5": 0.3245, "Recall10": 0.5638, "Recall20": 0.6675, "Recall30": 0.6913}
    assert recall == pytest.approx(paper, abs=0.01)
    # measured: 0.3246 / 0.5649 / 0.6725 / 0.6975
    assert recall == pytest.approx(
        {"Recall5": 0.3246, "Recall10": 0.5649, "Recall20": 0.6725, "Recall30": 0.6975}, abs=5e-5
    )


def test_a_model_ranks_the_bm25_prefilter_and_predicts_the_need_through_the_fake_server(
    clariq, tmp_path, capsys, monkeypatch
) -> None:
    import re

    from clarq_bench.testing.fake_openai import FakeOpenAIServer

    monkeypatch.setenv("OPENAI_API_KEY", "sk-clarq-test-secret-30")
    monkeypatch.setenv(companion.DATASETS["clariq"], str(clariq))
    prompts: list[str] = []

    def responder(body: dict) -> str:
        prompt = body["messages"][-1]["content"]
        prompts.append(prompt)
        return json.dumps({"need": 4 if "Tell me about dog food" in prompt else 2, "questions": [2, 1, 2, 99]})

    out = tmp_path / "m"
    with FakeOpenAIServer(responder=responder) as server:
        argv = [
            "clariq",
            "run",
            "--ranker",
            "openai/fake-asker",
            "--depth",
            "4",
            "--out",
            str(out),
            "--json",
            "--api-base",
            server.base_url,
            "--cache",
            str(tmp_path / "cache.sqlite3"),
        ]
        assert main(argv) == 0
        shown = json.loads(capsys.readouterr().out)
        paid = server.hits
        assert main(argv) == 0 and server.hits == paid  # answered from the cache
    capsys.readouterr()
    assert paid == 3 and shown["errors"] == 0 and shown["dropped_numbers"] == 3 * 2  # 2 again and 99, per topic
    # the model sees the request and 4 numbered candidates, never the facet, the answer or Q00001's empty line
    dog = next(p for p in prompts if "Tell me about dog food" in p)
    assert len(re.findall(r"^\[\d\] ", dog, re.MULTILINE)) == 4 and "[1] \n" not in dog and "fd" not in dog
    run = [line.split() for line in (out / "run.txt").read_text().splitlines()]
    topic7 = [f[2] for f in run if f[0] == "7"]
    assert len(topic7) == 4 and len(set(topic7)) == 4 and "Q00001" not in topic7
    assert (out / "need.txt").read_text().splitlines() == ["7 4", "8 2", "9 2"]
    # gold needs 3, 1, 2 -> predicted 4, 2, 2: only label 2 right (P 1/2, R 1), weighted by support 1/3
    assert shown["clarification_need"]["Recall"] == pytest.approx(1 / 3)
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert not any(b"sk-clarq-test-secret-30" in p.read_bytes() for p in written)


def test_document_relevance_only_from_a_supplied_pickle_read_as_the_tool_reads_it(
    clariq, tmp_path, capsys, monkeypatch
) -> None:
    import pickle

    import numpy as np

    from clarq_bench.clarify.clariq_docs import document_relevance, load_figures

    # facets: F1, F2 (topic 7), F3 (topic 8), F4 (topic 9); F9 is no facet of the split and is left out
    figures = {
        "MRR100": {
            "F1": {"Q2": {"with_answer": np.float64(0.8)}, "MIN": {"with_answer": 0.1}},
            "F2": {"Q3": {"with_answer": 0.6}, "MIN": {"with_answer": 0.2}},
            "F3": {"MIN": {"with_answer": 0.3}, "Q00001": {"with_answer": 0.9}},
            "F4": {"Q5": {"with_answer": 1.0}, "MIN": {"with_answer": 0.0}},
            "F9": {"MIN": {"with_answer": 1.0}},
        }
    }
    path = tmp_path / "eval.pkl"
    path.write_bytes(pickle.dumps(figures))
    # topic 7: Q1 and Q2 tie on the top score, the later line (Q2) is chosen; topic 8 picks MAX, read as MIN;
    # topic 9 is not in the run
    run = run_file(tmp_path, ["7 0 Q1 0 5 r", "7 0 Q2 1 5 r", "7 0 Q3 2 1 r", "8 0 MAX 0 2 r"])
    scores = document_relevance(load_topics(clariq, "dev"), read_ranking_run(run), load_figures(path))
    # F1: Q2 -> 0.8; F2: Q2 not listed -> MIN 0.2; F3: MIN 0.3; F4: topic 9 unranked -> 0
    assert scores == pytest.approx({"MRR100": (0.8 + 0.2 + 0.3 + 0.0) / 4})
    monkeypatch.setenv(companion.DATASETS["clariq"], str(clariq))
    assert main(["clariq", "score", str(run), "--doc-eval", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["document_relevance"] == pytest.approx({"MRR100": 1.3 / 4})
    assert main(["clariq", "score", str(run), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["document_relevance"].startswith("absent")


def test_a_pickle_that_would_run_code_is_refused(tmp_path, capsys, clariq, monkeypatch) -> None:
    import os
    import pickle

    from clarq_bench.clarify.clariq_docs import load_figures

    class Evil:
        def __reduce__(self):  # type: ignore[no-untyped-def]
            return (os.system, (f"touch {tmp_path / 'pwned'}",))

    path = tmp_path / "evil.pkl"
    path.write_bytes(pickle.dumps({"MRR100": Evil()}))
    with pytest.raises(DataError, match="not ClariQ's evaluation pickle"):
        load_figures(path)
    assert not (tmp_path / "pwned").exists()
    (tmp_path / "text.pkl").write_text("hello")
    monkeypatch.setenv(companion.DATASETS["clariq"], str(clariq))
    assert (
        main(["clariq", "score", str(run_file(tmp_path, ["7 0 Q1 0 1 r"])), "--doc-eval", str(tmp_path / "text.pkl")])
        == 2
    )
    assert capsys.readouterr().err.count("\n") == 1
