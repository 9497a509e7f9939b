"""Typed failures of model calls. All are ClarqErrors, so the CLI prints them as one line without a traceback.

User-fixable ones (missing key, rejected key, bad request, prompt too long) say what to change; transient ones that
outlived their retries carry how many attempts were made, so a transcript can record the failure honestly.
"""

from __future__ import annotations

from ..core.errors import ClarqError


class LLMError(ClarqError):
    """A model call that did not produce a usable reply. `model` is the resolved model name."""

    def __init__(self, problem: str, fix: str | None = None, *, model: str = "", attempts: int = 0) -> None:
        super().__init__(problem, fix)
        self.model = model
        self.attempts = attempts


class LLMCredentialsError(LLMError):
    """No API key in the environment for a hosted model (caught before a run starts)."""


class LLMAuthError(LLMError):
    """The endpoint rejected the key (401/403). Never retried."""


class LLMBadRequestError(LLMError):
    """The endpoint rejected the request (400/404/422): unknown model, bad parameter. Never retried."""


class LLMContextWindowError(LLMBadRequestError):
    """The prompt does not fit the model's context window. Never retried."""


class LLMUnavailableError(LLMError):
    """Rate limits, server errors, timeouts or connection errors outlasted the bounded retries."""


class LLMJSONError(LLMError):
    """The reply was not valid JSON for the schema, even after the bounded re-asks. `text` is the last reply."""

    def __init__(
        self, problem: str, fix: str | None = None, *, model: str = "", attempts: int = 0, text: str = ""
    ) -> None:
        super().__init__(problem, fix, model=model, attempts=attempts)
        self.text = text


class LLMConnectionRefusedError(LLMError):
    """Nothing listens at the endpoint (connection refused). Never retried: a wrong --api-base or a stopped server."""


class LLMEmptyReplyError(LLMError):
    """The model answered with no text (empty or null content): paid, counted, never cached, never played as a
    blank turn; the dialogue ends with an error a resume with --retry-errors plays again."""


class LLMReplyTooLargeError(LLMError):
    """The reply body is larger than any model reply can be (llm/reply_cap.MAX_REPLY_BYTES): a hostile or broken
    endpoint. Not read to the end (memory stays bounded), never retried (each attempt would be paid), never cached;
    it ends only its dialogue."""


class LLMHaltedError(LLMError):
    """The run stopped making calls (a file of the run could not be written): no new call is sent, so nothing more
    is paid that could not be recorded. Never retried; the dialogue is played again on resume."""
