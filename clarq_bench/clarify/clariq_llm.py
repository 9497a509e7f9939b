"""A model on the ClariQ track: one call per topic (cached by the LLM layer), prompt in prompts/clarify/clariq_select.

The model sees the request only (no facet, no answer) and the topic's BM25 pre-filter (the `depth` best questions
of the bank by the notebook's BM25, Q00001 "no question" left out: it has no text) as a numbered list, and replies
with a need score 1-4 and the numbers of 1-5 questions, best first. The topic's ranking is its list, then the rest
of the pre-filter in BM25 order; numbers not on the list are dropped and counted. A topic whose call fails gets no
line in either run file, which the official tool scores as 0 (Recall) and as the label 0 (need).
"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel, Field

from ..core import prompts
from ..core.redact import redact
from ..llm import LLMClient
from .clariq_bm25 import bm25_rankings
from .clariq_data import ClariqTopic

NO_QUESTION = "Q00001"


class ClariqChoice(BaseModel):
    need: int = Field(ge=1, le=4)
    questions: list[int] = Field(default_factory=list, max_length=5)


class TopicAnswer(BaseModel):
    ranking: list[str] = Field(default_factory=list)
    need: int | None = None
    dropped: int = 0
    error: str | None = None


def prefilter(topics: list[ClariqTopic], bank: dict[str, str], depth: int) -> dict[str, list[str]]:
    """topic -> the `depth` best bank questions by the notebook's BM25 (Q00001 left out)."""
    askable = {qid: text for qid, text in bank.items() if qid != NO_QUESTION}
    return bm25_rankings({t.id: t.request for t in topics}, askable, "stemmed", depth)


def messages(topic: ClariqTopic, candidates: list[str], bank: dict[str, str]) -> list[dict[str, str]]:
    listed = "\n".join(
        prompts.render("clarify/candidate", "en", number=n, text=bank[qid]) for n, qid in enumerate(candidates, start=1)
    )
    return [
        {
            "role": "user",
            "content": prompts.render("clarify/clariq_select", "en", request=topic.request, candidates=listed),
        }
    ]


async def ask_all(
    client: LLMClient,
    model: str,
    topics: list[ClariqTopic],
    bank: dict[str, str],
    depth: int,
    *,
    concurrency: int = 16,
    seed: int = 0,
) -> dict[str, TopicAnswer]:
    pools = prefilter(topics, bank, depth)
    gate = asyncio.Semaphore(concurrency)

    async def one(topic: ClariqTopic) -> TopicAnswer:
        pool = pools[topic.id]
        async with gate:
            try:
                completion = await client.complete(
                    messages(topic, pool, bank),
                    model=model,
                    role="seeker",
                    schema=ClariqChoice,
                    temperature=0.0,
                    seed=seed,
                )
            except Exception as exc:  # noqa: BLE001 - a failed topic is recorded, the others go on
                return TopicAnswer(error=redact(f"{type(exc).__name__}: {exc}")[:300])
        choice: ClariqChoice = completion.parsed
        chosen = []
        for number in choice.questions:
            if 1 <= number <= len(pool) and pool[number - 1] not in chosen:
                chosen.append(pool[number - 1])
        dropped = len(choice.questions) - len(chosen)
        return TopicAnswer(ranking=chosen + [q for q in pool if q not in chosen], need=choice.need, dropped=dropped)

    answers = await asyncio.gather(*(one(t) for t in topics))
    return {t.id: a for t, a in zip(topics, answers)}
