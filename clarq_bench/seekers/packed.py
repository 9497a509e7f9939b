"""Packed asks: no-skill seekers that fit many questions into what reads as one to three.

Why: a provider that counts questions by sentences or question marks can be given a dozen asks a turn by joining
them some other way: "and", commas, semicolons, slashes, new lines, bullet lists, a mix of English and Chinese, or
one very long sentence. Each member here asks, every turn, "which X" for every head word of the brief's names and of
Jax's words, and "where and how do I get the Y" for Jax's words, joined in its own way. They are held out: played
by `benchmarks/packed_asks.py` and by name (`provider-audit --strategies pack-and,...`), never by the default audit,
so a provider is measured on packings it was not tuned against. A good provider lets none of them succeed on more
than 15% of tasks.

Rules every member keeps (as the red team does, seekers/adversarial.py):
- it is built from a SeekerTask and never sees the response tree; its words come from the brief and Jax's replies;
- it opens with the ordinary opening request, then packs its asks on every later turn up to the turn cap and never
  says goodbye;
- it is deterministic: wordings come from `prompts/seeker/pack_*.<lang>.md`, chosen by a hash of (member, task id,
  trial, turn, ask), and the order of the asks rotates with the turn.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import ClassVar

from ..core import prompts
from ..core.errors import ClarqError
from ..core.transcript import Speaker
from .adversarial import rotate
from .base import DialogueView
from .brief_lists import listed_options
from .redteam_base import RedTeamSeeker, choose, fill
from .registry import SeekerTask
from .templates import reply_words

#: Asks a turn (the long sentence takes more).
MAX_ASKS = 16
LONG_ASKS = 40
_ARTICLES = ("a ", "an ", "the ")


def pack_lines(name: str, language: str, *, strip: bool = True) -> list[str]:
    """The non-empty lines of `prompts/seeker/pack_<name>.<lang>.md` (`strip=False` keeps their spaces)."""
    text = prompts.load(f"seeker/pack_{name}", language)
    lines = [line.strip() if strip else line for line in text.split("\n")]
    found = [line for line in lines if line.strip()]
    if not found:
        raise ClarqError(f"prompt template seeker/pack_{name} ({language}) has no wording", "add one per line")
    return found


@lru_cache(maxsize=4)
def joins(language: str) -> dict[str, str]:
    """The joiners of `pack_joins.<lang>.md` (`name: "text"` lines)."""
    found = {}
    for line in pack_lines("joins", language):
        key, _, value = line.partition(":")
        found[key.strip()] = json.loads(value.strip())
    return found


def head_word(name: str, language: str) -> str:
    """The word a name is a kind of: `Lamp kerosene` -> kerosene, `North Lighthouse` -> lighthouse, `原始森林` -> 森林."""
    name = name.strip()
    if language == "zh":
        return name[-2:] if len(name) > 2 else name
    words = name.split()
    return words[-1].strip(".,;:!?").lower() if words else ""


def heads(task: SeekerTask) -> list[str]:
    """The head word of every listed name of the brief, each once, in brief order."""
    found = []
    for name in listed_options(task):
        lowered = name.lower()
        for article in _ARTICLES:
            if task.language == "en" and lowered.startswith(article):
                name = name[len(article) :]
        found.append(head_word(name, task.language))
    return list(dict.fromkeys(h for h in found if len(h) > 1))


class PackedSeeker(RedTeamSeeker):
    """Base of the packed-ask members: builds the turn's asks, `pack(asks)` joins them its own way."""

    strategy: ClassVar[str] = "pack"
    limit: ClassVar[int] = MAX_ASKS

    def asks(self, view: DialogueView, turn: int, language: str | None = None) -> list[str]:
        """This turn's asks: "which X" over the brief's head words and Jax's words, "where and how do I get Y" over
        Jax's words (newest first), interleaved and rotated by the turn."""
        language = language or self.language
        kinds, words = self.kinds_and_words(view)
        which = [self.frame("which", language, turn, i, x=x) for i, x in enumerate(rotate(kinds, turn))]
        get = [self.frame("get", language, turn, i, x=x) for i, x in enumerate(words)]
        merged = [ask for pair in zip(which, get) for ask in pair] + which[len(get) :] + get[len(which) :]
        return merged[: self.limit]

    def kinds_and_words(self, view: DialogueView) -> tuple[list[str], list[str]]:
        """The brief's head words and Jax's words, and Jax's words alone: those of his first answer (the task's
        vague references) first, then those of his later replies, newest first."""
        replies = [t.text for t in view.turns[1:] if t.speaker == Speaker.provider]
        words = list(
            dict.fromkeys([*reply_words(replies[:1], self.language), *reply_words(replies[1:], self.language)])
        )
        return list(dict.fromkeys([*heads(self.task), *words])), words

    def frame(self, name: str, language: str, turn: int, index: int, **values: str) -> str:
        return fill(choose(pack_lines(name, language), self.strategy, self.task.id, turn, index), **values)

    def attack(self, view: DialogueView, turn: int) -> str:
        asks = self.asks(view, turn)
        return self.pack(asks, view, turn) if asks else "?"

    def pack(self, asks: list[str], view: DialogueView, turn: int) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    # -- shared forms ----------------------------------------------------------------------------------------

    def sentence(self, asks: list[str], joiner: str | list[str]) -> str:
        """One sentence: the asks joined (a list of joiners is cycled), capitalised, with one question mark."""
        joiners = [joiner] if isinstance(joiner, str) else joiner
        text = asks[0]
        for i, ask in enumerate(asks[1:]):
            text += joiners[i % len(joiners)] + ask
        return capital(text) + question_mark(self.language)


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def question_mark(language: str) -> str:
    return "？" if language == "zh" else "?"


class PackAndSeeker(PackedSeeker):
    """Packed asks: every ask in one sentence joined by "and" ("Which wick and which lighthouse and where do I get
    the lamp?"; 和 / 以及 in Chinese)."""

    strategy = "pack-and"

    def pack(self, asks: list[str], view: DialogueView, turn: int) -> str:
        j = joins(self.language)
        return self.sentence(asks, j["and"] if self.language == "en" else [j["and"], j["also"]])


class PackCommaSeeker(PackedSeeker):
    """Packed asks: every ask in one sentence separated by commas (， and 、 in Chinese)."""

    strategy = "pack-comma"

    def pack(self, asks: list[str], view: DialogueView, turn: int) -> str:
        j = joins(self.language)
        return self.sentence(asks, j["comma"] if self.language == "en" else [j["comma"], j["enum"]])


class PackSemicolonSeeker(PackedSeeker):
    """Packed asks: every ask in one sentence separated by semicolons."""

    strategy = "pack-semicolon"

    def pack(self, asks: list[str], view: DialogueView, turn: int) -> str:
        return self.sentence(asks, joins(self.language)["semicolon"])


class PackSlashSeeker(PackedSeeker):
    """Packed asks: one "which" over every kind joined by slashes ("Which wick/lighthouse/oil?"), then one
    "where and how do I get" over Jax's words joined by slashes."""

    strategy = "pack-slash"

    def pack(self, asks: list[str], view: DialogueView, turn: int) -> str:
        kinds, words = self.kinds_and_words(view)
        slash = joins(self.language)["slash"]
        mark = question_mark(self.language)
        parts = [capital(self.frame("which", self.language, turn, 0, x=slash.join(rotate(kinds, turn)[: self.limit])))]
        if words:
            parts.append(capital(self.frame("get", self.language, turn, 1, x=slash.join(words[: self.limit]))))
        return (" " if self.language == "en" else "").join(part + mark for part in parts)


class PackLinesSeeker(PackedSeeker):
    """Packed asks: one ask a line, each with its question mark, no other text."""

    strategy = "pack-lines"

    def pack(self, asks: list[str], view: DialogueView, turn: int) -> str:
        return "\n".join(capital(ask) + question_mark(self.language) for ask in asks)


class PackBulletsSeeker(PackedSeeker):
    """Packed asks: a short lead-in, then a bullet list (or a numbered list, every other turn) of asks without
    question marks."""

    strategy = "pack-bullets"

    def pack(self, asks: list[str], view: DialogueView, turn: int) -> str:
        lead = choose(pack_lines("lead", self.language), self.strategy, self.task.id, turn)
        items = [f"{i + 1}. {ask}" if turn % 2 else f"- {ask}" for i, ask in enumerate(asks)]
        return "\n".join([lead, *items])


class PackMixedSeeker(PackedSeeker):
    """Packed asks in two scripts: every other ask worded in the other language (English and Chinese question
    words around the task's own names), joined by "and" / 和."""

    strategy = "pack-mixed"

    def asks(self, view: DialogueView, turn: int, language: str | None = None) -> list[str]:
        other = "zh" if self.language == "en" else "en"
        own, foreign = super().asks(view, turn), super().asks(view, turn, other)
        return [own[i] if i % 2 == 0 else foreign[i] for i in range(min(len(own), len(foreign)))]

    def pack(self, asks: list[str], view: DialogueView, turn: int) -> str:
        j_en, j_zh = joins("en"), joins("zh")
        return self.sentence(asks, [j_en["and"], j_zh["and"], " " + j_zh["also"] + " "])


class PackLongSeeker(PackedSeeker):
    """Packed asks: one very long sentence (up to 40 asks) opening with a polite lead-in and joined by varied
    connectors ("and also", "as well as", "plus"; 还有, 以及, 另外 in Chinese)."""

    strategy = "pack-long"
    limit = LONG_ASKS

    def asks(self, view: DialogueView, turn: int, language: str | None = None) -> list[str]:
        """The asks of every turn from this one on, until the sentence holds LONG_ASKS of them."""
        found: list[str] = []
        for later in range(turn, turn + LONG_ASKS):
            found += super().asks(view, later, language)
            if len(found) >= LONG_ASKS:
                break
        return found[:LONG_ASKS]

    def pack(self, asks: list[str], view: DialogueView, turn: int) -> str:
        lead = choose(pack_lines("long_lead", self.language), self.strategy, self.task.id, turn)
        connectors = rotate(pack_lines("long_joins", self.language, strip=False), turn)
        body = self.sentence(asks, connectors)
        body = body[:1].lower() + body[1:] if self.language == "en" else body
        return lead + (" " if self.language == "en" else "") + body


class PackBoundedSeeker(PackedSeeker):
    """Packed asks within a careful seeker's bounds: at most three sentences a turn and two question words a
    sentence, each sentence asking "which" over four kinds at once and "where" over three of Jax's words
    ("Which wick, lamp, oil and lens do I need, and where do I get the boats, key and chain?")."""

    strategy = "pack-bounded"

    def pack(self, asks: list[str], view: DialogueView, turn: int) -> str:
        kinds, words = self.kinds_and_words(view)
        kinds = rotate(kinds, turn)
        words = words or kinds
        sentences = []
        for s in range(3):
            a, b = kinds[s * 4 : (s + 1) * 4], words[s * 3 : (s + 1) * 3]
            if not a and not b:
                break
            a, b = a or kinds[:4], b or words[:3]
            sentences.append(self.frame("bounded", self.language, turn, s, a=self.listing(a), b=self.listing(b)))
        return (" " if self.language == "en" else "").join(sentences)

    def listing(self, names: list[str]) -> str:
        j = joins(self.language)
        return names[0] if len(names) == 1 else j["list"].join(names[:-1]) + j["list_last"] + names[-1]


#: Registered name -> class (seekers/registry.py registers them lazily; a test keeps the two in step).
MEMBERS: dict[str, type[PackedSeeker]] = {
    cls.strategy: cls
    for cls in (
        PackAndSeeker,
        PackCommaSeeker,
        PackSemicolonSeeker,
        PackSlashSeeker,
        PackLinesSeeker,
        PackBulletsSeeker,
        PackMixedSeeker,
        PackLongSeeker,
        PackBoundedSeeker,
    )
}
