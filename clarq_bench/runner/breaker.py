"""The run's circuit breaker: stop starting dialogues when errors say the rest would fail the same way.

Why: a run whose every model call fails (a rejected key, a misspelled model, nothing listening at --api-base) used to
play every dialogue and print "Success 0.0000" like a result. Errors that no retry can fix are fatal: the endpoint
rejected the key (401/403), rejected the request (400/404/422: unknown model, bad parameter; a too-long prompt is
not fatal, it belongs to one dialogue) or refused the connection. The first fatal error of a role trips the breaker:
no new dialogue starts, the ones in flight end (they hit the same wall within a call), what finished is written, and
the CLI prints one line naming the role, the error and the fix, then exits 1. `max_errors` trips it after that many
errored dialogues of any kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.redact import redact
from ..llm.errors import (LLMAuthError, LLMBadRequestError, LLMConnectionRefusedError, LLMContextWindowError,
                          LLMHaltedError)


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


@dataclass
class CircuitBreaker:
    """Counts errored dialogues and fatal errors; `reason` is the one line to print once it has tripped."""

    max_errors: int | None = None
    errors: int = 0
    reason: str | None = None

    @property
    def tripped(self) -> bool:
        return self.reason is not None

    def agent_failed(self, role: str, exc: BaseException) -> None:
        """A seeker or provider call failed (told by the dialogue as it happens)."""
        fatal = fatal_error(exc)
        if fatal is not None and self.reason is None:
            self.reason = redact(f"the {role} failed with an error no retry can fix: {fatal}")

    def dialogue_errored(self) -> None:
        """A dialogue ended with an error (counted against max_errors)."""
        self.errors += 1
        if self.max_errors is not None and self.errors >= self.max_errors and self.reason is None:
            self.reason = (f"{self.errors} dialogues ended with an error (--max-errors {self.max_errors}); "
                           "see the `error` field in transcripts.jsonl")
