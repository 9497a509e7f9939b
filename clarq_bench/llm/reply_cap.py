"""One reply-size cap for every transport (MAX_REPLY_BYTES): the direct one reads to it, litellm is held to it here.

Why: litellm reads a reply body whole, through httpx, whatever its size: a 50 MB body costs half a gigabyte and a
never-ending one grows until memory runs out (no timeout fires while bytes keep coming). litellm offers no size
limit, so every response stream of the two httpx transports it uses (its aiohttp transport, the default, and httpx's
own) is wrapped once, when clarq first configures litellm, in a stream that stops past the cap. The total deadline
of a call is transports.litellm_call's.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

#: The largest reply body read, on both transports. A model reply of the longest turn clarq plays (100,000
#: characters, play/dialogue.MAX_TURN_CHARS) is at most ~0.6 MB of JSON even with every character escaped; a body past
#: this is a broken or hostile endpoint, and reading it whole (or forever, when chunked) would exhaust memory.
MAX_REPLY_BYTES = 8 * 1024 * 1024
#: Set on the wrapped transports so installing twice wraps once.
_MARK = "_clarq_reply_cap"


class ReplyTooLarge(Exception):
    """The body passed the cap (raised inside litellm's read; transports.litellm_call turns it into
    LLMReplyTooLargeError, which is not retried)."""


def _capped_stream(stream: Any, cap: int) -> Any:
    import httpx

    class Capped(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            size = 0
            async for chunk in stream:
                size += len(chunk)
                if size > cap:
                    raise ReplyTooLarge(f"the reply body is larger than {cap // (1024 * 1024)} MB")
                yield chunk

        async def aclose(self) -> None:
            await stream.aclose()

    return Capped()


def _wrap(cls: Any, cap: int) -> None:  # an httpx transport class, patched in place (its method replaced)
    original = cls.handle_async_request
    if getattr(original, _MARK, False):
        return

    async def handle_async_request(self: Any, request: Any) -> Any:
        response = await original(self, request)
        response.stream = _capped_stream(response.stream, cap)
        return response

    setattr(handle_async_request, _MARK, True)
    cls.handle_async_request = handle_async_request


def install(cap: int = MAX_REPLY_BYTES) -> None:
    """Cap every reply body litellm reads at `cap` bytes (idempotent)."""
    import httpx

    _wrap(httpx.AsyncHTTPTransport, cap)
    try:
        from litellm.llms.custom_httpx.aiohttp_transport import LiteLLMAiohttpTransport
    except ImportError:  # an older litellm without its aiohttp transport
        return
    _wrap(LiteLLMAiohttpTransport, cap)


def too_large(exc: BaseException) -> bool:
    """`exc` (or what it wraps: litellm re-raises as its own exception types) is the cap being passed."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, ReplyTooLarge) or "the reply body is larger than" in str(exc):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return False
