"""What the screen may find in a seeker turn, and what it makes of it: the verdicts and a screening.

Why apart from screen.py: a provider that only records or answers a verdict (the LLM provider's default reading, the
rule catalogue) needs these names without loading the screen's patterns, which cost a run's first dialogue a
noticeable share of a second to compile.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from ..core.transcript import Intent


class Verdict(str, Enum):
    """Why a turn may reveal nothing (recorded in the provider turn's notes as `screen`)."""

    no_question = "no_question"
    too_long = "too_long"
    other_language = "other_language"
    spray = "spray"
    instruction = "instruction"
    repeat = "repeat"
    echo = "echo"
    names_only = "names_only"
    one_at_a_time = "one_at_a_time"
    bare_frame = "bare_frame"


class Screened(NamedTuple):
    """The screening of one post-root seeker turn."""

    verdict: Verdict | None  # None: an ordinary turn, which may reveal up to `max_nodes` nodes
    max_nodes: int  # distinct things it asks (asks_in); multi-info mode never reveals more

    @property
    def blocks_reveal(self) -> bool:
        return self.verdict is not None

    @property
    def intent(self) -> Intent | None:
        """The intent a blocked turn gets without further reading (None: let the provider's rules decide)."""
        if self.verdict in (Verdict.repeat, Verdict.echo):
            return Intent.repeat
        if self.verdict in (
            Verdict.too_long,
            Verdict.other_language,
            Verdict.spray,
            Verdict.instruction,
            Verdict.names_only,
            Verdict.one_at_a_time,
            Verdict.bare_frame,
        ):
            return Intent.vague
        return None
