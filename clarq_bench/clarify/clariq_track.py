"""`clarq clariq run|score`: the ClariQ track on ClariQ's own data, scored as its official tool scores it.

`run` ranks the question bank for each topic's request (the request only: no facet, no answer) with the BM25
baseline or a model (which sees the BM25 pre-filter, clariq_llm.py, and also predicts the need), writes the run in
the official format (`run.txt`, and `need.txt` for a model: re-scorable with ClariQ's tool) and scores it. `score`
scores any run file (and a need run) the same way. The figures are ClariQ's: question relevance Recall@5/10/20/30
over every topic of the split, clarification-need weighted P/R/F1 with a missing prediction as 0. Document
relevance (ClariQ's MRR/P@1/nDCG) is computed only from the tool's evaluation pickle given with `--doc-eval`
(clariq_docs.py); without one it is reported as absent, never substituted.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from ..core.defaults import DEFAULT_SEED
from ..data.companion import dataset_dir
from ..llm.options import ModelCallOptions
from .clariq_bm25 import bm25_rankings
from .clariq_data import load_question_bank, load_topics
from .clariq_score import (
    RECALL_KS,
    clarification_need,
    means,
    question_relevance,
    read_need_run,
    read_ranking_run,
    write_need_run,
    write_ranking_run,
)

ABSENT = "absent: document relevance needs ClariQ's evaluation pickle (--doc-eval FILE)"


class ClariqScores(BaseModel):
    """Figures of one run on one split, named as ClariQ names them."""

    split: str
    topics: int
    run: str
    question_relevance: dict[str, float] = Field(description="Recall5..Recall30, the official tool's conventions.")
    clarification_need: dict[str, float] | None = Field(default=None, description="Weighted P/R/F1, or None.")
    topics_ranked: int = Field(description="Topics of the split the run ranks anything for (the rest score 0).")
    document_relevance: dict[str, float] | str = Field(
        default=ABSENT, description="MRR100, P1, NDCG3, NDCG5 from the tool's pickle, or why they are absent."
    )
    ranker: str = ""
    errors: int = Field(default=0, description="Topics whose model call failed (no line in the runs: scored 0).")
    dropped_numbers: int = Field(default=0, description="Chosen numbers that were not on the candidate list.")
    usage: dict[str, Any] = Field(default_factory=dict)


class ClariqRunOptions(BaseModel):
    split: Literal["train", "dev", "test"] = "dev"
    ranker: str = Field(default="bm25", description="bm25 (the notebook's tokens), bm25-clarq, or a model name.")
    depth: int = Field(default=30, ge=1, description="Questions ranked (BM25) or offered to the model per topic.")
    data: str | None = None
    out: str | None = None
    seed: int = DEFAULT_SEED
    concurrency: int = Field(default=16, ge=1)
    llm: ModelCallOptions = Field(default_factory=ModelCallOptions, description="How models are called.")

    @field_validator("llm", mode="before")
    @classmethod
    def _llm(cls, value: Any) -> ModelCallOptions:
        return ModelCallOptions.of(value)  # a misspelled option is one ClarqError line


def score_run(
    run: Path, split: str = "dev", need_run: Path | None = None, data: str | None = None, doc_eval: Path | None = None
) -> ClariqScores:
    folder = dataset_dir("clariq", data)
    topics = load_topics(folder, split)
    lines = read_ranking_run(run)
    ranked = {line.topic for line in lines} & {t.id for t in topics}
    need = clarification_need(topics, read_need_run(need_run)) if need_run else None
    documents: dict[str, float] | str = ABSENT
    if doc_eval is not None:
        from .clariq_docs import document_relevance, load_figures

        documents = document_relevance(topics, lines, load_figures(doc_eval))
    return ClariqScores(
        split=split,
        topics=len(topics),
        run=str(run),
        topics_ranked=len(ranked),
        question_relevance=means(question_relevance(topics, lines)),
        clarification_need=need,
        document_relevance=documents,
    )


async def run_async(options: ClariqRunOptions) -> tuple[ClariqScores, Path]:
    """Rank (and, for a model, predict the need), write the runs and `summary.json` in the out folder, score."""
    folder = dataset_dir("clariq", options.data)
    topics = load_topics(folder, options.split)
    bank = load_question_bank(folder)
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in options.ranker).strip("_") or "model"
    out = Path(options.out or Path("runs") / "clariq" / f"{safe}-{options.split}")
    extra: dict[str, Any] = {"ranker": options.ranker}
    needs: dict[str, int] | None = None
    if options.ranker in ("bm25", "bm25-clarq"):
        tokenization = "stemmed" if options.ranker == "bm25" else "clarq"
        rankings = bm25_rankings({t.id: t.request for t in topics}, bank, tokenization, options.depth)
    else:
        answers, usage = await _ask_model(options, topics, bank)
        rankings = {topic: a.ranking for topic, a in answers.items() if a.error is None}
        needs = {topic: a.need for topic, a in answers.items() if a.need is not None}
        extra.update(
            errors=sum(a.error is not None for a in answers.values()),
            usage=usage,
            dropped_numbers=sum(a.dropped for a in answers.values()),
        )
    out.mkdir(parents=True, exist_ok=True)
    write_ranking_run(out / "run.txt", rankings, safe)
    if needs is not None:
        write_need_run(out / "need.txt", needs)
    scores = score_run(out / "run.txt", options.split, out / "need.txt" if needs is not None else None, options.data)
    scores = scores.model_copy(update=extra)
    (out / "summary.json").write_text(json.dumps(scores.model_dump(), indent=2) + "\n", encoding="utf-8")
    return scores, out


async def _ask_model(options: ClariqRunOptions, topics: list, bank: dict[str, str]) -> tuple[dict, dict[str, Any]]:
    from ..runner.prepare import open_client
    from .clariq_llm import ask_all

    client = open_client([("seeker", options.ranker)], options.llm)  # the key, and the price under --max-cost
    try:
        answers = await ask_all(
            client, options.ranker, topics, bank, options.depth, concurrency=options.concurrency, seed=options.seed
        )
    finally:
        await client.aclose()
    total = client.usage
    return answers, {"calls": total.calls, "cached_calls": total.cached_calls, "cost_usd": total.cost_usd}


def run(options: ClariqRunOptions) -> tuple[ClariqScores, Path]:
    return asyncio.run(run_async(options))


def table_rows(scores: ClariqScores) -> list[tuple[str, str]]:
    rows = [(f"Recall@{k}", f"{scores.question_relevance[f'Recall{k}']:.4f}") for k in RECALL_KS]
    if scores.clarification_need:
        rows += [(f"need {k}", f"{v:.4f}") for k, v in scores.clarification_need.items()]
    if isinstance(scores.document_relevance, dict):
        rows += [(f"document {k}", f"{v:.4f}") for k, v in scores.document_relevance.items()]
    else:
        rows.append(("document relevance", "absent (needs the tool's pickle: --doc-eval)"))
    if scores.errors or scores.dropped_numbers:
        rows.append(("failed topics / dropped numbers", f"{scores.errors} / {scores.dropped_numbers}"))
    return rows
