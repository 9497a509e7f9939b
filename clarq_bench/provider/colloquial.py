"""A seeker's turn in the forms every rule is written against, before any rule reads it: spoken Chinese
interrogatives in their written forms, and a doubt or a lack said as the question it is (both languages).

Why apart: people chat in spoken forms ("用啥挖？", "矿山咋进去？", "为啥不行？") and say what they do not know instead of
asking it ("I don't know which tavern you mean."), and every rule of the reader, the screen and the matcher is written
against the written question (什么, 怎么; "Which tavern do you mean?"). Rewriting the turn once, where the provider
takes it, keeps each rule single and the transcript as the seeker wrote it. A spoken form, a doubt or a lack ("I don't
have a shovel.": where can I get one?) asks exactly what its question asks, so this reads no question that the question would not: the guards a bare "Which tavern?" meets
(asked before any tavern came up, it is a guess) meet "I don't know which tavern." too.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..core.transcript import Speaker, Turn
from .indirect_questions import (
    DOUBT_ABOUT_WORDS,
    DOUBT_WORDS_EN,
    DOUBT_WORDS_ZH,
    SAID_DOUBT_ABOUT_EN,
    SAID_DOUBT_ABOUT_ZH,
    SAID_DOUBT_EN,
    SAID_DOUBT_ZH,
    SAID_LACK_EN,
    SAID_LACK_ZH,
    asks_indirectly,
)
from .lexical import TEXT_CACHE, lowered_for_search

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
#: (en) Words a said lack needs, a cheap test before the sentence patterns are tried.
_LACK_EN = re.compile(r"\b(?:have|own|carry|find|locate|see|get|buy|sure|unsure|uncertain|unclear|confused)\b", re.I)


#: Per language: a sentence, what a said doubt may trail off from ("..., but I don't know"), and how the question it
#: is joins what came before and ends.
_DOUBTS = {
    "en": (
        re.compile(r"[^.!?\n]+[.!?]*\s*|\n"),
        SAID_DOUBT_EN,
        DOUBT_WORDS_EN,
        re.compile(r"[\s,;:]*\b(?:but|and|so|yet)?[\s,;:]*$", re.IGNORECASE),
        ". ",
        "? ",
    ),
    "zh": (
        re.compile(r"[^。！？!?\n]+[。！？!?]*|\n"),
        SAID_DOUBT_ZH,
        DOUBT_WORDS_ZH,
        re.compile(r"[，,、\s]*(?:可是|可|但是|但|而且|就)?[，,、\s]*$"),  # ("…，可我不知道")
        "，",
        "？",
    ),
}


#: Per language: a lack said, and the question it is: where to find what cannot be found, else where to get it.
_LACKS = {
    "en": (SAID_LACK_EN, "Where can I find {thing}? ", "Where can I get {thing}? "),
    "zh": (SAID_LACK_ZH, "哪里能找到{thing}？", "哪里能弄到{thing}？"),
}


#: Per language: a doubt said about a thing, and the question it is ("What is the voltage ...?", "线路电压是什么？").
_ABOUTS = {"en": (SAID_DOUBT_ABOUT_EN, "What is {thing}? "), "zh": (SAID_DOUBT_ABOUT_ZH, "{thing}是什么？")}


def _mentions(piece: str, words: tuple[str, ...]) -> bool:
    """May a case-blind pattern that needs one of these lower-case words match in the piece? A plain search of the
    lower-cased piece, so the sentence patterns (which try every start of a sentence) run only on the few that may
    say a doubt; True when lower-casing cannot tell (lexical.lowered_for_search)."""
    lowered = lowered_for_search(piece)
    return lowered is None or any(word in lowered for word in words)


def _about_asked(piece: str, language: str) -> str | None:
    """The question a sentence that says the seeker is unsure about a thing is ("I'm unsure about the voltage." ->
    "What is the voltage?"), or None."""
    if not _mentions(piece, DOUBT_ABOUT_WORDS[language]):
        return None
    pattern, question = _ABOUTS[language]
    doubt = pattern.match(piece.strip())
    if doubt is None:
        return None
    before = doubt.groupdict().get("before") or ""
    return before + question.format(thing=doubt.group("thing").strip())


def _lack_asked(piece: str, language: str) -> str | None:
    """The question a sentence that says what the seeker lacks is ("I don't have a shovel." -> "Where can I get a
    shovel?"), or None."""
    pattern, find, get = _LACKS[language]
    lack = pattern.match(piece.strip())
    if lack is None:
        return None
    asked = (find if lack.group("find") else get).format(thing=lack.group("thing").strip())
    return lack.group("before") + asked


#: A turn that asks anything itself: its lacks are what it asks about ("I don't have a shovel. Where can I buy one?").
_ASKS_ITSELF = re.compile(r"[?？]|哪|什么|怎么|怎样|如何|谁|几|多少|吗")


def _doubts_asked(text: str, language: str) -> str:
    """The text with each sentence that says what the seeker does not know asked as the question it is; in a turn
    that asks nothing itself, each that says what it lacks too."""
    sentence, said_doubt, doubt_words, trailing, join, mark = _DOUBTS[language]
    lacks = not _ASKS_ITSELF.search(text)
    out = []
    for piece in sentence.findall(text):
        doubt = said_doubt.match(piece.strip()) if _mentions(piece, doubt_words) else None
        if doubt is None:
            asked = _about_asked(piece, language) or (_lack_asked(piece, language) if lacks else None)
            out.append(piece if asked is None else asked)
            continue
        before = trailing.sub("", doubt.group("before"))
        out.append((before + join if before.strip() else "") + doubt.group("asked").strip() + mark)
    return "".join(out)


def written(text: str) -> str:
    """(zh) The text with its spoken interrogatives in their written forms, and each sentence that says what the
    seeker does not know asked as the question it is ("不知道是哪颗宝石。" -> "哪颗宝石？")."""
    return _doubts_asked(_SPOKEN.sub(lambda match: _SPOKEN_ZH[match.group(0)], text), "zh")


def asked_outright(text: str) -> str:
    """(en) The text with each sentence that says what the seeker does not know asked as the question it is: "There
    are three taverns, I don't know which one you mean." -> "There are three taverns. which one you mean?"."""
    return _doubts_asked(text, "en").strip()


def written_turns(turns: list[Turn], language: str) -> list[Turn]:
    """The dialogue with every seeker turn in the forms the rules read (unchanged turns as given)."""
    rewritten = list(turns)
    for index, turn in enumerate(turns):
        if turn.speaker != Speaker.seeker:
            continue
        text = _as_written(turn.text, language)
        if text != turn.text:
            rewritten[index] = turn.model_copy(update={"text": text})
    return rewritten


@lru_cache(maxsize=TEXT_CACHE)
def _as_written(text: str, language: str) -> str:
    """One seeker turn in the forms the rules read, read once per text: every later turn of a dialogue hands the
    provider the whole dialogue again, whose earlier turns were rewritten already (a tenth of a turn's CPU)."""
    if language == "zh":
        return written(text)
    if language == "en" and (asks_indirectly(text.lower()) or _LACK_EN.search(text)):
        return asked_outright(text)
    return text


__all__ = ["asked_outright", "written", "written_turns"]
