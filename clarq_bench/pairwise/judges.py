"""Model judges: one call per item (all criteria in one JSON reply) through the LLM layer, role "judge" (cached,
costed, limited like every other call). Wording lives in prompts/pairwise/ (en, zh, by the task's language).

A reply that is no JSON object even after the client's re-asks, or a criterion whose value is not an option, is
recorded as an invalid answer with the raw text; only errors no answer can fix (rejected key, unknown model,
refused connection) stop the session.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from ..core import prompts
from ..core.defaults import DEFAULT_SEED
from .answers import MAX_RAW, OPTIONS, PairAnswer, now, parse_choice
from .items import ItemSet, PairItem

if TYPE_CHECKING:
    from ..llm import LLMClient


class JudgeReply(BaseModel):
    """Any JSON object: the criteria are read from it one by one, so one bad value spoils only its criterion."""

    model_config = ConfigDict(extra="allow")


def dialogue_text(turns: list[tuple[str, str]], language: str) -> str:
    return "\n".join(prompts.render(f"pairwise/line_{speaker}", language, text=text) for speaker, text in turns)


def criteria_text(criteria: list[str], language: str) -> str:
    return "\n".join(prompts.render(f"pairwise/criterion_{c}", language, key=c) for c in criteria)


def judge_messages(item: PairItem, criteria: list[str], design: int, shown_a: int) -> list[dict[str, str]]:
    """The chat messages of one judgment with system `shown_a` in position A."""
    lang = item.language
    first, second = item.sides[shown_a - 1], item.sides[2 - shown_a]
    example = json.dumps({c: OPTIONS[design][i % 2] for i, c in enumerate(criteria)}, ensure_ascii=False)
    system = prompts.render(
        "pairwise/judge_system", lang, options=prompts.load(f"pairwise/options_{design}", lang), example=example
    )
    user = prompts.render(
        "pairwise/judge_user",
        lang,
        brief=item.brief,
        dialogue_a=dialogue_text(first.turns, lang),
        dialogue_b=dialogue_text(second.turns, lang),
        criteria=criteria_text(criteria, lang),
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


async def ask(
    client: LLMClient, model: str, items: ItemSet, item: PairItem, *, swapped: bool = False, seed: int = DEFAULT_SEED
) -> list[PairAnswer]:
    """One judge's answers on one item, one per criterion (invalid ones with choice None)."""
    from ..llm import LLMJSONError

    shown_a = item.shown_a if not swapped else 3 - item.shown_a
    messages = judge_messages(item, items.criteria, items.design, shown_a)
    try:
        completion = await client.complete(
            messages, model=model, role="judge", schema=JudgeReply, temperature=0.0, seed=seed, trial=int(swapped)
        )
        values, raw = dict(completion.parsed.model_extra or {}), completion.text
    except LLMJSONError as exc:
        values, raw = {}, exc.text or str(exc)
    stamp = now()
    return [
        PairAnswer(
            judge=model,
            item=item.id,
            criterion=c,
            shown_a=shown_a,
            swapped=swapped,
            choice=parse_choice(values.get(c), items.design),
            raw=raw[:MAX_RAW],
            at=stamp,
        )
        for c in items.criteria
    ]


async def judge_all(
    client: LLMClient,
    models: list[str],
    items: ItemSet,
    todo: list[tuple[str, str, bool]],
    *,
    seed: int = DEFAULT_SEED,
    on_answers: Callable[[list[PairAnswer]], object] | None = None,
) -> list[PairAnswer]:
    """Answers for every (model, item id, swapped) in `todo`, concurrently; `on_answers(list)` after each call.
    Once the client's --max-cost budget is spent no new call starts (the rest stay pending for a rerun)."""
    by_id = {i.id: i for i in items.items}
    gate = asyncio.Semaphore(client.settings.max_concurrency_per_model * max(1, len(models)))

    async def one(model: str, item_id: str, swapped: bool) -> list[PairAnswer]:
        async with gate:
            if client.budget_exhausted:
                return []
            answers = await ask(client, model, items, by_id[item_id], swapped=swapped, seed=seed)
        if on_answers is not None:
            on_answers(answers)
        return answers

    results = await asyncio.gather(*(one(*job) for job in todo))
    return [a for group in results for a in group]
