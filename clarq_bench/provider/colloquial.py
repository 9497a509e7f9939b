"""Spoken Chinese interrogatives read as their written forms before any rule reads a seeker's turn.

Why apart: people chat in the spoken forms ("用啥挖？", "矿山咋进去？", "为啥不行？"), and every rule of the reader, the
screen and the matcher is written against the written ones (什么, 怎么, 为什么). Rewriting the turn once, where the
provider takes it, keeps each rule single and the transcript as the seeker wrote it. A spoken form asks exactly what
its written form asks, so this reads no question that its written wording would not.
"""

from __future__ import annotations

import re

from ..core.transcript import Speaker, Turn

#: Spoken form -> written form, longest first ("咋办" before "咋").
_SPOKEN_ZH = {
    "为啥": "为什么",
    "干啥": "做什么",
    "咋整": "怎么办",
    "咋办": "怎么办",
    "咋样": "怎么样",
    "咋": "怎么",
    "啥": "什么",
    "哪儿": "哪里",
    "几时": "什么时候",
}
_SPOKEN = re.compile("|".join(map(re.escape, _SPOKEN_ZH)))


def written(text: str) -> str:
    """(zh) The text with its spoken interrogatives in their written forms."""
    return _SPOKEN.sub(lambda match: _SPOKEN_ZH[match.group(0)], text)


def written_turns(turns: list[Turn], language: str) -> list[Turn]:
    """The dialogue with every seeker turn in written forms (Chinese; other languages and unchanged turns as given)."""
    if language != "zh":
        return turns
    rewritten = list(turns)
    for index, turn in enumerate(turns):
        if turn.speaker == Speaker.seeker and _SPOKEN.search(turn.text):
            rewritten[index] = turn.model_copy(update={"text": written(turn.text)})
    return rewritten


__all__ = ["written", "written_turns"]
