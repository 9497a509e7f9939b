"""Bounded retries (tenacity) and the sorting of call failures into retry / surface as one line / internal fault.

Retried: 429, 408/409, 5xx, timeouts and dropped connections, with exponential backoff and full jitter, or the
server's Retry-After when it sends one. Not retried: rejected keys (401/403), bad requests (400/404/422),
context-window overflows and refused connections (nothing listens at the address), which become typed LLMErrors with
a one-line message. Anything else is a bug and keeps its traceback.
Waits go through the module attribute `sleep`, so tests can remove them (tests/conftest.py does).
"""

from __future__ import annotations

import asyncio
import email.utils
import errno
import random
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, NoReturn, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from .errors import (
    LLMAuthError,
    LLMBadRequestError,
    LLMConnectionRefusedError,
    LLMContextWindowError,
    LLMError,
    LLMUnavailableError,
)

T = TypeVar("T")

#: Replaced by tests to skip real waiting; looked up at every wait.
sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

RETRY_STATUSES = frozenset({408, 409, 425, 429})
AUTH_STATUSES = frozenset({401, 403})
BAD_REQUEST_STATUSES = frozenset({400, 404, 413, 422})


class HTTPStatusError(Exception):
    """A non-2xx reply on the direct transport (litellm raises its own exception types)."""

    def __init__(self, status_code: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.message = message
        self.headers = dict(headers or {})


def _status(exc: BaseException) -> int | None:
    code = getattr(exc, "status_code", None)
    return code if isinstance(code, int) else None


def _is_network_error(exc: BaseException) -> bool:
    if isinstance(exc, (TimeoutError, asyncio.TimeoutError, ConnectionError)):
        return True
    names = {cls.__name__ for cls in type(exc).__mro__}
    # litellm.Timeout / APIConnectionError, openai.APIConnectionError, httpx.TransportError, aiohttp.ClientError
    return bool(
        names
        & {
            "Timeout",
            "APITimeoutError",
            "APIConnectionError",
            "TransportError",
            "ClientError",
            "ServerDisconnectedError",
        }
    )


#: How OpenAI-compatible servers (OpenAI, vLLM, llama.cpp, ...) word a too-long prompt in a plain 400 reply; litellm
#: maps these to its ContextWindowExceededError, the direct transport sees only the status and the message.
CONTEXT_WINDOW_MARKERS = (
    "context_length_exceeded",
    "maximum context length",
    "context window",
    "context length",
    "prompt is too long",
)


def is_context_overflow(exc: BaseException) -> bool:
    """The prompt does not fit the model (litellm's ContextWindowExceededError, or a 400/413 saying so)."""
    if type(exc).__name__ == "ContextWindowExceededError":
        return True
    if _status(exc) not in (400, 413):
        return False
    text = str(getattr(exc, "message", None) or exc).lower()
    return any(marker in text for marker in CONTEXT_WINDOW_MARKERS)


def _chain(exc: BaseException) -> list[BaseException]:
    """`exc` and the exceptions it was raised from (litellm wraps openai wraps httpx wraps aiohttp wraps OSError)."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not other for other in seen) and len(seen) < 20:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


#: errno values of "the host cannot be reached at all": no route, network down or unreachable, address not available.
UNREACHABLE_ERRNOS = frozenset(
    {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN, errno.EHOSTDOWN, errno.EADDRNOTAVAIL}
)


def _unreachable(error: object) -> bool:
    if isinstance(error, (ConnectionRefusedError, socket.gaierror)):
        return True
    return isinstance(error, OSError) and error.errno in UNREACHABLE_ERRNOS


def is_connection_refused(exc: BaseException) -> bool:
    """Nothing listens at the address, the name does not resolve, or there is no route to the host: no retry helps
    (whichever client library wrapped it), so the run stops after one call instead of retrying every dialogue."""
    return any(_unreachable(link) or _unreachable(getattr(link, "os_error", None)) for link in _chain(exc))


def is_transient(exc: BaseException) -> bool:
    """Worth another attempt: rate limits, server errors, timeouts, dropped connections (not refused ones)."""
    if type(exc).__name__ == "ContextWindowExceededError" or is_connection_refused(exc):
        return False
    status = _status(exc)
    if status is not None:
        return status in RETRY_STATUSES or status >= 500
    return _is_network_error(exc)


def _headers(exc: BaseException) -> Mapping[str, str]:
    for candidate in (
        getattr(exc, "headers", None),
        getattr(exc, "litellm_response_headers", None),
        getattr(getattr(exc, "response", None), "headers", None),
    ):
        if candidate:
            return candidate
    return {}


def retry_after(exc: BaseException) -> float | None:
    """Seconds the server asked us to wait (Retry-After / retry-after-ms), if it said."""
    headers = _headers(exc)
    try:
        milliseconds = headers.get("retry-after-ms")
        if milliseconds is not None:
            return max(0.0, float(milliseconds) / 1000)
        value = headers.get("retry-after") or headers.get("Retry-After")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError, AttributeError):
        return None


def short_message(exc: BaseException) -> str:
    """The server's own words, without the wrapper prefixes litellm adds, on one line, redacted (some endpoints echo
    the key back) before it is shortened (a cut key would escape the patterns)."""
    from ..core.redact import redact

    text = redact(str(getattr(exc, "message", None) or exc))
    for marker in ("Exception - ", "Error - "):
        if marker in text:
            text = text.rsplit(marker, 1)[1]
    text = " ".join(text.split())
    return text if len(text) <= 200 else text[:197] + "..."


def surface(exc: BaseException, model: str, attempts: int) -> LLMError | None:
    """The typed one-line LLMError for a failure not worth retrying or retried in vain; None for internal faults."""
    status = _status(exc)
    detail = short_message(exc)
    if is_context_overflow(exc):
        return LLMContextWindowError(
            f"{model}: the prompt is longer than the model's context window ({detail})",
            "use a model with a longer context or fewer turns",
            model=model,
            attempts=attempts,
        )
    if status in AUTH_STATUSES:
        return LLMAuthError(
            f"{model}: the endpoint rejected the API key ({status}: {detail})",
            "check the key variable for this provider",
            model=model,
            attempts=attempts,
        )
    if status in BAD_REQUEST_STATUSES:
        return LLMBadRequestError(
            f"{model}: the endpoint rejected the request ({status}: {detail})",
            "check the model name and --api-base",
            model=model,
            attempts=attempts,
        )
    if is_connection_refused(exc):
        refused = any(
            isinstance(link, ConnectionRefusedError)
            or isinstance(getattr(link, "os_error", None), ConnectionRefusedError)
            for link in _chain(exc)
        )
        what = "connection refused" if refused else "cannot reach the host (no such name or no route)"
        return LLMConnectionRefusedError(
            f"{model}: {what} ({detail})",
            "check --api-base and that the server there is running",
            model=model,
            attempts=attempts,
        )
    if is_transient(exc):
        what = f"HTTP {status}" if status is not None else type(exc).__name__
        fix = (
            "lower --model-concurrency / set --rpm, or retry later"
            if status == 429
            else "retry later; check --api-base and the server"
            if status is None or status >= 500
            else "retry later"
        )
        return LLMUnavailableError(
            f"{model}: no reply after {attempts} attempts (last: {what}: {detail})", fix, model=model, attempts=attempts
        )
    if isinstance(exc, LLMError):
        return exc
    return None


class _Wait:
    """Retry-After when given (plus a little jitter), else exponential backoff with full jitter.

    `offset` is the number of attempts made before tenacity took over (the first one runs outside it).
    """

    def __init__(self, base: float, max_wait: float, offset: int = 0) -> None:
        self.base = base
        self.max_wait = max_wait
        self.offset = offset

    def __call__(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        return self.seconds(exc, state.attempt_number + self.offset)

    def seconds(self, exc: BaseException | None, attempt_number: int) -> float:
        """The wait after failed attempt number `attempt_number` (1-based) raised `exc`."""
        asked = retry_after(exc) if exc is not None else None
        if asked is not None:
            return min(self.max_wait, asked + random.uniform(0, min(1.0, 0.1 * asked)))
        ceiling = min(self.max_wait, self.base * 2 ** (attempt_number - 1))
        return random.uniform(0, ceiling)


async def _sleep(seconds: float) -> None:
    await sleep(seconds)


def _raise_surfaced(exc: Exception, model: str, attempts: int) -> NoReturn:
    error = surface(exc, model, attempts)
    if error is None or error is exc:
        raise exc
    raise error from exc


async def with_retries(
    call: Callable[[], Awaitable[T]],
    *,
    model: str,
    max_attempts: int,
    base_wait: float = 1.0,
    max_wait: float = 60.0,
    on_retry: Callable[[BaseException], Any] | None = None,
) -> tuple[T, int]:
    """(result, attempts made). Raises a typed LLMError when the failure is not transient or retries run out.

    The first attempt is a plain await: almost every call succeeds at once, and building tenacity's retry state
    costs more CPU than the rest of our per-call work. Only after a transient failure (and its wait) does tenacity
    run the remaining attempts, with the same stop, wait and retry rules.
    """
    try:
        return await call(), 1
    except Exception as exc:
        if max_attempts <= 1 or not is_transient(exc):
            _raise_surfaced(exc, model, 1)
        first_failure = exc
    wait = _Wait(base_wait, max_wait, offset=1)
    if on_retry is not None:
        on_retry(first_failure)
    await _sleep(wait.seconds(first_failure, 1))
    attempts = 1

    def before_sleep(state: RetryCallState) -> None:
        failure = state.outcome.exception() if state.outcome is not None else None
        if on_retry is not None and failure is not None:
            on_retry(failure)

    retrying = AsyncRetrying(
        stop=stop_after_attempt(max_attempts - 1),
        wait=wait,
        sleep=_sleep,
        retry=retry_if_exception(is_transient),
        before_sleep=before_sleep,
        reraise=True,
    )
    try:
        async for attempt in retrying:
            with attempt:
                attempts += 1
                result = await call()
    except Exception as exc:
        _raise_surfaced(exc, model, attempts)
    return result, attempts
