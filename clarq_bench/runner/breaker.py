"""The run's circuit breaker: stop starting dialogues when errors say the rest would fail the same way.

Why: a run whose every model call fails (a rejected key, a misspelled model, nothing listening at --api-base) used to
play every dialogue and print "Success 0.0000" like a result. Errors that no retry can fix are fatal: the endpoint
rejected the key (401/403), rejected the request (400/404/422: unknown model, bad parameter; a too-long prompt is
not fatal, it belongs to one dialogue) or refused the connection. The first fatal error of a role trips the breaker:
no new dialogue starts, the ones in flight end (they hit the same wall within a call), what finished is written, and
the CLI prints one line naming the role, the error and the fix, then exits 1. `max_errors` trips it after that many
errored dialogues of any kind.

A seeker of the user's own that raises is a bug in that seeker, not bad luck: its first failure prints the seeker's
traceback once (its own frames, not clarq's), and when the first SAME_SEEKER_ERRORS dialogues to end all failed with
the same seeker error the breaker trips with that error and where it was raised.
"""

from __future__ import annotations

import sys
import sysconfig
import traceback
from dataclasses import dataclass
from pathlib import Path

from ..core.redact import redact
from ..llm.errors import (
    LLMAuthError,
    LLMBadRequestError,
    LLMConnectionRefusedError,
    LLMContextWindowError,
    LLMHaltedError,
)


def fatal_error(exc: BaseException) -> BaseException | None:
    """The error in `exc`'s chain that no retry can fix (see the module docstring), or None."""
    current: BaseException | None = exc
    for _ in range(20):
        if current is None:
            return None
        if isinstance(current, (LLMAuthError, LLMConnectionRefusedError, LLMHaltedError)) or (
            isinstance(current, LLMBadRequestError) and not isinstance(current, LLMContextWindowError)
        ):
            return current
        current = current.__cause__ or current.__context__
    return None


#: The run stops when this many dialogues, the first to end, all failed with the same seeker error.
SAME_SEEKER_ERRORS = 3
_NOT_THE_SEEKERS = (str(Path(__file__).resolve().parents[1]), sysconfig.get_paths()["stdlib"])


def own_frames(exc: BaseException) -> list[traceback.FrameSummary]:
    """The frames of `exc`'s traceback outside clarq and the standard library: the seeker's own code."""
    frames = traceback.extract_tb(exc.__traceback__)
    return [frame for frame in frames if not str(Path(frame.filename).resolve()).startswith(_NOT_THE_SEEKERS)]


def seeker_traceback(exc: BaseException) -> str:
    """The traceback to show for a seeker's failure: its own frames (none when clarq refused what it returned)."""
    try:
        lines = traceback.format_list(own_frames(exc)) + traceback.format_exception_only(type(exc), exc)
    except BaseException:  # a hostile __str__
        lines = [type(exc).__name__]
    return redact("".join(lines).rstrip())


@dataclass
class CircuitBreaker:
    """Counts errored dialogues and fatal errors; `reason` is the one line to print once it has tripped."""

    max_errors: int | None = None
    errors: int = 0
    reason: str | None = None
    seeker_raised: str | None = None  # "file:line" of the seeker's first failure, once it has been shown
    seeker_streak: int = 0  # the first dialogues to end, while all failed with the same seeker error
    seeker_error: str | None = None
    streak_over: bool = False

    @property
    def tripped(self) -> bool:
        return self.reason is not None

    def agent_failed(self, role: str, exc: BaseException) -> None:
        """A seeker or provider call failed (told by the dialogue as it happens)."""
        fatal = fatal_error(exc)
        if fatal is not None and self.reason is None:
            self.reason = redact(f"the {role} failed with an error no retry can fix: {fatal}")
        if role == "seeker" and fatal is None and self.seeker_raised is None:
            frames = own_frames(exc)
            self.seeker_raised = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else ""
            shown = (
                f"clarq: the seeker raised (first failure; later ones are recorded in transcripts.jsonl):\n"
                f"{seeker_traceback(exc)}"
            )
            try:  # a message that is not valid Unicode, a closed stderr: showing it must not fail the dialogue
                print(shown.encode("utf-8", "backslashreplace").decode("utf-8"), file=sys.stderr, flush=True)
            except (OSError, ValueError):
                pass

    @property
    def suspect_seeker(self) -> bool:
        """Every dialogue ended so far failed in the seeker, alike: play the next ones alone until that changes."""
        return not self.streak_over and self.seeker_streak > 0

    def dialogue_ended(self, error: str | None) -> None:
        """Each dialogue written, in the order they end: the first ones all failing alike in the seeker stop the run."""
        if self.streak_over:
            return
        slow = error is not None and error.startswith("seeker: TurnTimeout")  # a slow model, not a bug of its code
        if not error or slow or not error.startswith("seeker: ") or self.seeker_error not in (None, error):
            self.streak_over = True
            return
        self.seeker_error, self.seeker_streak = error, self.seeker_streak + 1
        if self.seeker_streak >= SAME_SEEKER_ERRORS and self.reason is None:
            where = f" at {self.seeker_raised}" if self.seeker_raised else ""
            self.reason = redact(
                f"the seeker failed on the first {self.seeker_streak} dialogues with the same error, "
                f"{error.removeprefix('seeker: ')}{where}"
            )

    def dialogue_errored(self) -> None:
        """A dialogue ended with an error (counted against max_errors)."""
        self.errors += 1
        if self.max_errors is not None and self.errors >= self.max_errors and self.reason is None:
            self.reason = (
                f"{self.errors} dialogues ended with an error (--max-errors {self.max_errors}); "
                "see the `error` field in transcripts.jsonl"
            )
