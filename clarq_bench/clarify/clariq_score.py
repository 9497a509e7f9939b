"""ClariQ's figures computed as its official evaluation tool (clariq_eval_tool.py) computes them, on its run formats.

Run files (space-separated, one line each): question ranking `topic Q0 question_id rank score [run_name]`,
clarification need `topic label`. The tool's conventions, kept here:
- Question relevance: a topic's questions are ordered by score, highest first, and only the first question (in file
  order) of each distinct score is kept, so a run that gives several questions one score is cut to one of them;
  Recall@k (k = 5, 10, 20, 30) is the share of the topic's relevant question ids found among the first k, counted as
  a set (a repeated id counts once); every topic of the split counts, including those with need 1, and a topic the
  run leaves out scores 0.
- Clarification need: every topic of the split counts; a topic without a prediction is given 0; precision, recall
  and F1 are averaged over the labels weighted by gold support (scikit-learn's "weighted"); when a topic appears
  twice in the run the last line wins.
- Document relevance (MRR@100, P@1, nDCG@3, nDCG@5 of the documents retrieved after the question and its answer are
  added) needs the tool's evaluation pickle; without one these figures are absent, never substituted.
Where clarq departs from the tool on purpose (docs/tracks-clariq-departures.md): a topic id that is not digits names no
topic of the split and is left out (the tool then reads every id as text and scores every topic 0; it also reads
"101.0" or "+101" as topic 101); a score that is not finite (nan, inf) or a need label that is not an integer refuses
the file in one line (the tool scores nan last and inf first, counts the label 2.0 as 2 and stops on nan).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel

from ..core.errors import DataError
from .clariq_data import ClariqTopic, topic_key
from .metrics import need_scores

RECALL_KS = (5, 10, 20, 30)


class RunLine(BaseModel):
    topic: str
    question: str
    rank: str
    score: float
    line: int


def read_ranking_run(path: Path) -> list[RunLine]:
    """The ranking run's lines; a line without 5 fields or with a score that is not a finite number is an error."""
    out = []
    for number, raw in enumerate(_lines(path), start=1):
        fields = raw.split()
        if not fields:
            continue
        if len(fields) < 5:
            raise DataError(str(path), f"line {number} has {len(fields)} fields, not `topic Q0 question rank score`")
        try:
            score = float(fields[4])
        except ValueError:
            raise DataError(str(path), f"line {number}: score {fields[4]!r} is not a number") from None
        if not math.isfinite(score):
            raise DataError(str(path), f"line {number}: score {fields[4]!r} is not finite")
        out.append(RunLine(topic=topic_key(fields[0]), question=fields[2], rank=fields[3], score=score, line=number))
    return out


def read_need_run(path: Path) -> dict[str, int]:
    """topic -> predicted need (last line wins, as in the tool); labels must be integers."""
    out: dict[str, int] = {}
    for number, raw in enumerate(_lines(path), start=1):
        fields = raw.split()
        if not fields:
            continue
        if len(fields) < 2:
            raise DataError(str(path), f"line {number} has no label (`topic label`)")
        try:
            out[topic_key(fields[0])] = int(fields[1])
        except ValueError:
            raise DataError(str(path), f"line {number}: label {fields[1]!r} is not an integer") from None
    return out


def _lines(path: Path) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise DataError(str(path), "no such file") from None
    except UnicodeDecodeError:
        raise DataError(str(path), "not UTF-8 text") from None


def official_lists(lines: Iterable[RunLine]) -> dict[str, list[str]]:
    """topic -> question ids by descending score, one per distinct score (the first in file order)."""
    by_topic: dict[str, list[RunLine]] = {}
    for line in lines:
        by_topic.setdefault(line.topic, []).append(line)
    out = {}
    for topic, rows in by_topic.items():
        seen: set[float] = set()
        kept = []
        for row in sorted(rows, key=lambda r: -r.score):  # stable: equal scores stay in file order
            if row.score not in seen:
                seen.add(row.score)
                kept.append(row.question)
        out[topic] = kept
    return out


def question_relevance(topics: list[ClariqTopic], lines: Iterable[RunLine]) -> dict[str, dict[str, float]]:
    """Per-topic Recall@k by the tool's conventions: {"Recall5": {topic: value}, ...}."""
    lists = official_lists(lines)
    out: dict[str, dict[str, float]] = {f"Recall{k}": {} for k in RECALL_KS}
    for topic in topics:
        ranked = lists.get(topic.id)
        for k in RECALL_KS:
            found = len(set(ranked[:k]) & topic.relevant) if ranked is not None else 0
            out[f"Recall{k}"][topic.id] = found / len(topic.relevant)
    return out


def clarification_need(topics: list[ClariqTopic], predicted: dict[str, int]) -> dict[str, float]:
    """Weighted precision, recall and F1 over every topic of the split, a missing prediction counting as 0."""
    gold = [t.need for t in topics if t.need is not None]
    if len(gold) != len(topics):
        raise DataError("topics", "some topics have no clarification_need label (score on a labelled split)")
    guessed = [predicted.get(t.id, 0) for t in topics]
    scores = need_scores(gold, guessed)
    return {"Precision": scores["precision"], "Recall": scores["recall"], "F1": scores["f1"]}


def means(per_topic: dict[str, dict[str, float]]) -> dict[str, float]:
    return {metric: sum(values.values()) / len(values) if values else 0.0 for metric, values in per_topic.items()}


def write_ranking_run(path: Path, rankings: dict[str, list[str]], run_name: str) -> None:
    """The official ranking format, scores strictly decreasing so that the tool keeps every line."""
    if not run_name or any(c.isspace() for c in run_name):
        raise DataError(run_name or "run name", "a run name must be one word")
    lines = []
    for topic, ranking in rankings.items():
        if len(set(ranking)) != len(ranking):
            raise DataError(run_name, f"topic {topic}: a question id is ranked twice")
        lines += [f"{topic} 0 {qid} {rank} {len(ranking) - rank} {run_name}" for rank, qid in enumerate(ranking)]
    Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def write_need_run(path: Path, needs: dict[str, int]) -> None:
    Path(path).write_text("".join(f"{topic} {need}\n" for topic, need in needs.items()), encoding="utf-8")
