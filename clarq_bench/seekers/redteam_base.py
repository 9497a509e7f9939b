"""What every red-team strategy shares: the opening request, then one attack a turn, worded from a prompt file.

Why a module of its own: the strategies live in several modules (adversarial.py, scrambled_walk.py, chains.py,
packed.py) and each needs the same base and the same deterministic choice of wording (see adversarial.py's rules).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from ..core import prompts
from ..core.errors import ClarqError
from ..core.goodbye import CHINESE_GOODBYE, ENGLISH_GOODBYE
from ..core.transcript import Speaker
from .base import DialogueView
from .baselines import goodbye, opening, seeker_turn_count, told_enough
from .registry import SeekerConfig, SeekerTask

T = TypeVar("T")


def prompt_lines(path: str, language: str) -> list[str]:
    """The wordings of one prompt file of seeker templates (`path` under prompts/): one per non-empty line."""
    lines = [line.strip() for line in prompts.load(path, language).splitlines()]
    found = [line for line in lines if line]
    if not found:
        raise ClarqError(f"prompt template {path} ({language}) has no wording", "add one per line")
    return found


def wordings(name: str, language: str) -> list[str]:
    """The wordings of one red-team template file: one per non-empty line."""
    return prompt_lines(f"seeker/redteam_{name}", language)


def choose(options: Sequence[T], *key: object) -> T:
    """A deterministic pick from `options` keyed by `key` (stable across processes, unlike hash())."""
    digest = zlib.crc32("|".join(str(part) for part in key).encode("utf-8"))
    return options[digest % len(options)]


def fill(template: str, **values: object) -> str:
    try:
        return template.format(**values)
    except (KeyError, IndexError) as exc:
        raise ClarqError(f"red-team wording {template!r} needs a value for {exc}") from None


def scrub_goodbye(text: str) -> str:
    """`text` with every goodbye word removed, so pasted text (the brief says 'say "goodbye"') never ends the
    dialogue early."""
    return CHINESE_GOODBYE.sub("", ENGLISH_GOODBYE.sub("", text))


class RedTeamSeeker:
    """Base of the red-team strategies: the opening request, then `attack(view, turn)` on every later turn, until
    Jax says the seeker already has enough information. Stopping there costs no success (nothing is left to reveal)
    and saves the turns the efficiency figure charges, as the honest heuristic does: an attacker is audited at its
    cheapest."""

    #: Registered name (`red-...`); also the key of the wording choice.
    strategy: ClassVar[str] = "red"

    def __init__(self, task: SeekerTask, config: SeekerConfig | None = None) -> None:
        if not isinstance(task, SeekerTask):  # the suite must never be handed the tree
            raise TypeError(f"{type(self).__name__} takes a SeekerTask, not {type(task).__name__}")
        self.task = task
        self.language = task.language

    async def respond(self, view: DialogueView) -> str:
        turn = seeker_turn_count(view)
        if turn == 0:
            return opening(self.task)
        replies = [t.text for t in view.turns[1:] if t.speaker == Speaker.provider]
        if replies and told_enough(replies[-1]):
            return goodbye(self.language)
        text = scrub_goodbye(self.attack(view, turn)).strip()
        return text or "?"

    def attack(self, view: DialogueView, turn: int) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def pick(self, name: str, view: DialogueView, turn: int, *extra: object, language: str | None = None) -> str:
        """One wording of `redteam_<name>` for this task, trial and turn."""
        return choose(wordings(name, language or self.language), self.strategy, self.task.id, view.trial, turn, *extra)
