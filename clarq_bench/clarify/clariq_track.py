"""`clarq clariq run|score`: the ClariQ track on ClariQ's own data, scored as its official tool scores it.

`run` ranks the question bank for each topic's request (the request only: no facet, no answer) with the BM25
baseline, writes the run in the official format (`run.txt`, re-scorable with ClariQ's tool) and scores it. `score`
scores any run file (and a need run) the same way. The figures are ClariQ's: question relevance Recall@5/10/20/30
over every topic of the split, clarification-need weighted P/R/F1 with a missing prediction as 0. Document
relevance needs the tool's evaluation pickle, which clarq does not read: it is reported as absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from ..data.companion import dataset_dir
from .clariq_bm25 import bm25_rankings
from .clariq_data import load_question_bank, load_topics
from .clariq_score import (RECALL_KS, clarification_need, means, question_relevance, read_need_run, read_ranking_run,
                           write_ranking_run)  # fmt: skip

ABSENT = "not computed: document relevance needs ClariQ's evaluation pickle, which clarq does not read"


class ClariqScores(BaseModel):
    """Figures of one run on one split, named as ClariQ names them."""

    split: str
    topics: int
    run: str
    question_relevance: dict[str, float] = Field(description="Recall5..Recall30, the official tool's conventions.")
    clarification_need: dict[str, float] | None = Field(default=None, description="Weighted P/R/F1, or None.")
    topics_ranked: int = Field(description="Topics of the split the run ranks anything for (the rest score 0).")
    document_relevance: str = ABSENT


class ClariqRunOptions(BaseModel):
    split: Literal["train", "dev", "test"] = "dev"
    tokenization: Literal["stemmed", "clarq"] = "stemmed"
    depth: int = Field(default=30, ge=1)
    data: str | None = None
    out: str | None = None


def score_run(run: Path, split: str = "dev", need_run: Path | None = None, data: str | None = None) -> ClariqScores:
    folder = dataset_dir("clariq", data)
    topics = load_topics(folder, split)
    lines = read_ranking_run(run)
    ranked = {line.topic for line in lines} & {t.id for t in topics}
    need = clarification_need(topics, read_need_run(need_run)) if need_run else None
    return ClariqScores(split=split, topics=len(topics), run=str(run), topics_ranked=len(ranked),
                        question_relevance=means(question_relevance(topics, lines)), clarification_need=need)


def run_bm25(options: ClariqRunOptions) -> tuple[ClariqScores, Path]:
    """Rank, write `run.txt` and `summary.json` in the out folder, score."""
    folder = dataset_dir("clariq", options.data)
    topics = load_topics(folder, options.split)
    bank = load_question_bank(folder)
    name = "bm25" if options.tokenization == "stemmed" else "bm25-clarq"
    rankings = bm25_rankings({t.id: t.request for t in topics}, bank, options.tokenization, options.depth)
    out = Path(options.out or Path("runs") / "clariq" / f"{name}-{options.split}")
    out.mkdir(parents=True, exist_ok=True)
    write_ranking_run(out / "run.txt", rankings, name)
    scores = score_run(out / "run.txt", options.split, data=options.data)
    (out / "summary.json").write_text(json.dumps(scores.model_dump(), indent=2) + "\n", encoding="utf-8")
    return scores, out


def table_rows(scores: ClariqScores) -> list[tuple[str, str]]:
    rows = [(f"Recall@{k}", f"{scores.question_relevance[f'Recall{k}']:.4f}") for k in RECALL_KS]
    if scores.clarification_need:
        rows += [(f"need {k}", f"{v:.4f}") for k, v in scores.clarification_need.items()]
    rows.append(("document relevance", "absent (needs the tool's pickle)"))
    return rows
