"""Where clarq's ClariQ scoring departs from the official tool on purpose (docs/tracks-clariq-departures.md), one
test per departure, each saying what the tool does with the same input; and the tied-score cases where the two agree."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_clariq import run_file, write_clariq

from clarq_bench.clarify.clariq_data import load_topics
from clarq_bench.clarify.clariq_docs import top_questions
from clarq_bench.clarify.clariq_score import (
    clarification_need,
    means,
    official_lists,
    question_relevance,
    read_need_run,
    read_ranking_run,
)
from clarq_bench.cli.main import main
from clarq_bench.core.errors import DataError
from clarq_bench.data import companion


@pytest.fixture
def clariq(tmp_path: Path) -> Path:
    return write_clariq(tmp_path / "clariq")  # topics 7 (Q2, Q3, Q4; need 3), 8 (Q00001; need 1), 9 (Q5; need 2)


def test_a_text_topic_id_leaves_the_other_topics_scored(clariq, tmp_path) -> None:
    # the tool reads the topic column as text once one id is not a number, and then every topic scores 0
    topics = load_topics(clariq, "dev")
    lines = read_ranking_run(run_file(tmp_path, ["7 0 Q2 0 3 r", "8 0 Q00001 0 3 r", "abc 0 Q5 0 3 r"]))
    recall = means(question_relevance(topics, lines))
    assert recall["Recall5"] == pytest.approx((1 / 3 + 1 + 0) / 3)
    # the need run: the tool loses every prediction (all given 0); clarq keeps 7 -> 3 and 8 -> 1
    need = clarification_need(topics, read_need_run(run_file(tmp_path, ["7 3", "8 1", "abc 2"])))
    assert need == pytest.approx({"Precision": 2 / 3, "Recall": 2 / 3, "F1": 2 / 3})


@pytest.mark.parametrize("topic", ["7.0", "+7", "7e0"])
def test_only_digits_name_a_topic(clariq, tmp_path, topic) -> None:
    # the tool reads 7.0, +7 and 7e0 as the number 7 (when the column is numeric) and scores them for topic 7
    lines = read_ranking_run(run_file(tmp_path, [f"{topic} 0 Q2 0 3 r", "0007 0 Q3 0 3 r"]))
    assert {line.topic for line in lines} == {topic, "7"}  # 0007 is 7, as in the tool
    assert question_relevance(load_topics(clariq, "dev"), lines)["Recall5"]["7"] == pytest.approx(1 / 3)


@pytest.mark.parametrize("score", ["nan", "NaN", "inf", "-inf", "Infinity"])
def test_a_score_that_is_not_finite_refuses_the_run(clariq, tmp_path, score, capsys, monkeypatch) -> None:
    # the tool scores such runs (nan sorts below every number, inf above); clarq refuses the file in one line
    path = run_file(tmp_path, ["7 0 Q2 0 3 r", f"7 0 Q3 1 {score} r"])
    with pytest.raises(DataError, match="not finite"):
        read_ranking_run(path)
    monkeypatch.setenv(companion.DATASETS["clariq"], str(clariq))
    assert main(["clariq", "score", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 2" in err and score in err


@pytest.mark.parametrize("label", ["2.0", "nan"])
def test_a_need_label_that_is_not_an_integer_refuses_the_need_run(tmp_path, label) -> None:
    # the tool counts 2.0 as 2 and stops on nan with a scikit-learn traceback
    with pytest.raises(DataError, match="not an integer"):
        read_need_run(run_file(tmp_path, ["7 3", f"9 {label}"]))


def test_tied_top_scores_choose_the_last_question_in_file_order_for_document_relevance(tmp_path) -> None:
    # the tool takes the last after pandas' default sort, which is not stable: among tied top questions its choice
    # depends on the sort; clarq takes the last in file order
    lines = read_ranking_run(
        run_file(
            tmp_path,
            ["7 0 Q2 0 5 r", "7 0 Q3 1 5 r", "7 0 Q4 2 1 r", "7 0 Q9 3 5 r", "8 0 Q1 0 1 r", "8 0 Q00001 1 1 r"],
        )
    )
    assert top_questions(lines) == {"7": "Q9", "8": "Q00001"}


def test_an_all_tied_run_keeps_the_first_question_of_each_topic_as_the_tool_does(clariq, tmp_path) -> None:
    # agreement, pinned: of the questions sharing a score only the first in file order is kept, in both
    lines = read_ranking_run(
        run_file(tmp_path, ["7 0 Q1 0 1 r", "7 0 Q2 1 1 r", "7 0 Q3 2 1 r", "9 0 Q5 0 1 r", "9 0 Q1 1 1 r"])
    )
    assert official_lists(lines) == {"7": ["Q1"], "9": ["Q5"]}
    recall = question_relevance(load_topics(clariq, "dev"), lines)["Recall30"]
    assert recall == {"7": 0.0, "8": 0.0, "9": 1.0}
