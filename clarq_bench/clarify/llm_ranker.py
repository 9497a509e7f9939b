"""An LLM seeker on the offline track: one call per state (cached by the LLM layer), prompt in prompts/clarify/select.

The model sees the brief, the dialogue so far and the state's pool as a numbered list, and replies in JSON with a
need score and the numbers of 1-5 questions, best first (validated with llm/jsonreply through the client's schema
re-asks). The full ranking is its list, then the rest of the pool in BM25 order against the dialogue. Numbers that
are not on the list are dropped and counted in `Selection.note`.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..core import prompts
from ..llm import LLMClient
from ..seekers import SeekerTask
from ..seekers.llm import render_brief
from .rankers import MAX_LIST, Item, Selection, bm25_order, dialogue_query


class LLMChoice(BaseModel):
    """The JSON the model must reply with."""

    need: int = Field(ge=1, le=4)
    questions: list[int] = Field(default_factory=list, max_length=MAX_LIST)


def select_messages(item: Item) -> list[dict[str, str]]:
    language = item.view.language
    transcript = "\n".join(
        prompts.render(f"seeker/line_{turn.speaker.value}", language, text=turn.text.strip())
        for turn in item.view.turns
    )
    listed = "\n".join(
        prompts.render("clarify/candidate", language, number=number, text=entry.text)
        for number, entry in enumerate(item.pool, start=1)
    )
    brief = render_brief(SeekerTask.of(item.task))
    text = prompts.render("clarify/select", language, brief=brief, transcript=transcript, candidates=listed)
    return [{"role": "user", "content": text}]


class LLMRanker:
    """`clarq select --seeker MODEL`: the llm seeker's model choosing from the pool."""

    def __init__(self, client: LLMClient, model: str, *, seed: int = 0, temperature: float = 0.0) -> None:
        self.client, self.model, self.seed, self.temperature = client, model, seed, temperature
        self.name = f"llm:{model}"

    async def select(self, item: Item) -> Selection:
        completion = await self.client.complete(
            select_messages(item),
            model=self.model,
            role="seeker",
            schema=LLMChoice,
            temperature=self.temperature,
            seed=self.seed,
        )
        choice: LLMChoice = completion.parsed
        chosen: list[str] = []
        dropped = 0
        for number in choice.questions:
            if 1 <= number <= len(item.pool) and item.pool[number - 1].id not in chosen:
                chosen.append(item.pool[number - 1].id)
            else:
                dropped += 1
        rest, _ = bm25_order(dialogue_query(item.view), item.pool, item.view)
        ranking = chosen + [i for i in rest if i not in chosen]
        note = f"{dropped} chosen numbers were not on the list" if dropped else None
        return Selection(need=choice.need, ranking=ranking, returned=chosen, note=note)
