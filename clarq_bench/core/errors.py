"""User-fixable problems as one exception type, printed by the CLI as one line without a traceback."""

from __future__ import annotations


class ClarqError(Exception):
    """A problem the user can fix: bad input, missing data or key, unknown name.

    `problem` says what is wrong, `fix` (optional) says what to do about it.
    """

    def __init__(self, problem: str, fix: str | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.fix = fix

    def __str__(self) -> str:
        return f"{self.problem} ({self.fix})" if self.fix else self.problem


class DataError(ClarqError):
    """A task or dialogue file that cannot be used; the message names the file and record."""

    def __init__(self, source: str, problem: str, record: int | None = None) -> None:
        where = source if record is None else f"{source} record {record}"
        super().__init__(f"{where}: {problem}")
        self.source = source
        self.record = record


class PlayQuit(KeyboardInterrupt):
    """The person at the terminal typed /quit or Ctrl-D where the dialogue cannot simply end (as the provider):
    a KeyboardInterrupt, so it stops the dialogue as Ctrl-C does instead of being recorded as an agent's error."""
