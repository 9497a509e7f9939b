"""Any dialogue seeker on the offline track, so the two tracks can be compared seeker by seeker.

A seeker class may implement the optional method

    async def select_questions(self, view: DialogueView, candidates: list[Candidate]) -> dict | SeekerAnswer

returning `{"need": 1-4, "questions": [candidate ids, best first, 0-5], "ranking": [optional full ranking]}`.
A seeker without it is asked for its next line (`respond`), as in a dialogue: a goodbye is need 1 and no question;
anything else is need 4, the pool ranked by BM25 against that line and the top candidate returned. That reads the
shipped heuristic, oracle and red-team seekers offline without any code of theirs knowing about this track.
"""

from __future__ import annotations

import inspect

from pydantic import BaseModel, Field

from ..core.goodbye import is_goodbye
from ..seekers.registry import SeekerSpec
from .rankers import MAX_LIST, Item, Selection, bm25_order, dialogue_query


class Candidate(BaseModel):
    """A bank question as a seeker sees it: its id and words, nothing about where it came from."""

    id: str
    text: str


class SeekerAnswer(BaseModel):
    need: int = Field(ge=1, le=4)
    questions: list[str] = Field(default_factory=list, max_length=MAX_LIST)
    ranking: list[str] | None = None


class SeekerRanker:
    """`clarq select --seeker NAME` for a registered or `package.module:Class` seeker."""

    def __init__(self, spec: SeekerSpec) -> None:
        self.spec = spec
        self.name = spec.config.name

    async def select(self, item: Item) -> Selection:
        seeker = self.spec.build(item.task)
        method = getattr(seeker, "select_questions", None)
        if method is None:
            return await self._from_next_line(seeker, item)
        candidates = [Candidate(id=e.id, text=e.text) for e in item.pool]
        raw = method(item.view, candidates)
        raw = await raw if inspect.isawaitable(raw) else raw
        answer = raw if isinstance(raw, SeekerAnswer) else SeekerAnswer.model_validate(raw)
        known = {e.id for e in item.pool}
        returned = [i for i in dict.fromkeys(answer.questions) if i in known]
        base = (
            answer.ranking
            if answer.ranking is not None
            else bm25_order(dialogue_query(item.view), item.pool, item.view)[0]
        )
        ranking = returned + [i for i in dict.fromkeys(base) if i in known and i not in returned]
        unknown = len(answer.questions) - len(returned)
        return Selection(
            need=answer.need,
            ranking=ranking,
            returned=returned,
            note=f"{unknown} question ids were not candidates" if unknown else None,
        )

    async def _from_next_line(self, seeker: object, item: Item) -> Selection:
        line = await seeker.respond(item.view)  # type: ignore[attr-defined]
        if not isinstance(line, str) or is_goodbye(line):
            return Selection(need=1)
        ranking, _ = bm25_order(line, item.pool, item.view)
        return Selection(need=4, ranking=ranking, returned=ranking[:1])
