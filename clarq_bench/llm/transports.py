"""How one request reaches a model: a direct OpenAI-compatible HTTP path, litellm, or a script.

Each transport takes the resolved model, the messages and the request parameters and returns a RawReply, or raises
the failure for retry.py to sort. litellm's own retries are switched off (ours are counted and bounded).

Which transport answers (LLMSettings.transport, decided once per resolved model by `uses_direct`):

- scripted models (`scripted/...` registered with the client) never touch HTTP;
- "auto" (recommended) and "direct" (the same rule, the older name): the direct HTTP path when an api_base is
  set (http:// over http11.py's kept-alive connections, https:// over aiohttp) and the model speaks the OpenAI chat-completions wire format there, i.e. its provider prefix is one of DIRECT_PREFIXES (`openai/...`,
  `hosted_vllm/...`, `custom_openai/...`) or it is a bare name litellm places with OpenAI (`gpt-4o-2024-05-13`);
  the request goes to {api_base}/chat/completions with the name after the prefix;
- everything else goes through litellm: any model without an api_base (hosted OpenAI included) and every other
  provider string (`anthropic/...`, `bedrock/...`, `ollama/...`, `gemini/...`), whose wire formats, auth schemes
  and parameter quirks litellm translates;
- "litellm" sends every model through litellm. The default is "auto" (LLMSettings and `--transport`), so a plain
  LLMSettings() already takes the direct path where it applies.

Why direct is preferred where it applies: litellm spends ~4-6 ms of CPU per call (the openai SDK's request
transformation, httpx-style response objects, litellm's response conversion and bookkeeping; its tunable switches
are set in models.litellm_module), so at 64 calls in flight on two cores a run queues on our own CPU (~200 ms median
overhead); the direct path costs ~0.2 ms of CPU a call over http:// and ~0.4 ms over https:// (about a hand-written aiohttp
call; benchmarks/llm_overhead.py compares them with a raw aiohttp baseline). The two paths send the same body and
are held to the same tests (retries, Retry-After, 401, JSON re-asks, cache, cost).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import weakref
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ..core.redact import register_secret
from .errors import LLMBadRequestError, LLMReplyTooLargeError
from .http11 import Http11Pool
from .models import bare_name, litellm_module, provider_of
from .reply_cap import MAX_REPLY_BYTES, ReplyTooLarge
from .retry import HTTPStatusError

if TYPE_CHECKING:
    import aiohttp


class ScriptedModel(Protocol):
    """A model in-process (testing.scripted.ScriptedModel is one): replies to messages, and says what the fake
    server would have counted. llm asks it through this shape and imports no test double."""

    def __call__(self, messages: list[dict[str, Any]]) -> str | Awaitable[str]: ...

    def usage_for(self, messages: list[dict[str, Any]], text: str) -> tuple[int, int]: ...


#: Provider prefixes whose models are served over the OpenAI chat-completions API at an api_base.

#: Added to a litellm call's total deadline: litellm's own work before the request leaves (lazy imports and
#: client setup on a first call take a few hundred milliseconds) is not the endpoint's time.
LITELLM_SETUP_S = 1.0

DIRECT_PREFIXES = frozenset({"openai", "hosted_vllm", "custom_openai"})


def uses_direct(transport: str, api_base: str | None, resolved: str) -> bool:
    """Whether `resolved` goes over the direct HTTP path under this transport setting (the rule in the docstring)."""
    if transport == "litellm" or not api_base:
        return False
    prefix, slash, _ = resolved.partition("/")
    if slash:
        return prefix in DIRECT_PREFIXES
    return provider_of(resolved) == "openai"


class RawReply(NamedTuple):
    """What one successful request returned."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    model: str = ""  # the model the server says answered ("" when it did not say)
    served_by: str = ""  # the router deployment that answered ("" when the model is not pooled)
    priced_as: str = ""  # the deployment's model, whose price applies ("" = the model asked for)


def request_params(temperature: float, seed: int | None, max_tokens: int | None, json_mode: bool) -> dict[str, Any]:
    """The sampling parameters sent with a request (and hashed into the cache key)."""
    params: dict[str, Any] = {"temperature": temperature}
    if seed is not None:
        params["seed"] = seed
    if max_tokens is not None:
        params["max_tokens"] = max_tokens
    if json_mode:
        params["response_format"] = {"type": "json_object"}
    return params


async def litellm_call(
    model: str,
    messages: list[dict[str, Any]],
    params: dict[str, Any],
    *,
    api_base: str | None,
    api_key: str | None,
    timeout_s: float,
) -> RawReply:
    """One attempt through litellm.acompletion (its retries off; unsupported parameters dropped), held to the
    direct transport's rules: one total deadline for the whole call (litellm's own timeout restarts with every
    byte that arrives), the reply-size cap (reply_cap.py), and a reply without choices is a malformed body."""
    from .reply_cap import too_large

    litellm = litellm_module()
    extra: dict[str, Any] = {}
    if api_base:
        extra["api_base"] = api_base
    if api_key:
        register_secret(api_key)
        extra["api_key"] = api_key
    try:
        response = await asyncio.wait_for(
            litellm.acompletion(
                model=model,
                messages=messages,
                timeout=timeout_s,
                max_retries=0,
                num_retries=0,
                drop_params=True,
                **params,
                **extra,
            ),
            timeout_s + LITELLM_SETUP_S,
        )
    except Exception as exc:
        if too_large(exc):
            raise _too_large(model) from None
        raise
    choices = getattr(response, "choices", None)
    if not choices:
        raise HTTPStatusError(502, "malformed reply body: no choices")
    text = getattr(getattr(choices[0], "message", None), "content", None) or ""
    usage = getattr(response, "usage", None)
    return RawReply(
        text,
        int(getattr(usage, "prompt_tokens", 0) or 0),
        int(getattr(usage, "completion_tokens", 0) or 0),
        str(getattr(response, "model", "") or ""),
    )


def _error_message(raw: bytes) -> str:
    """The server's own error message from an OpenAI-style error body, else the start of the body; redacted, since
    some endpoints echo the Authorization header back."""
    from ..core.redact import redact

    text = raw.decode("utf-8", "replace")
    try:
        error = json.loads(text).get("error")
        message = error.get("message") if isinstance(error, dict) else error
        if isinstance(message, str) and message:
            return redact(message)
    except (ValueError, AttributeError):
        pass
    return redact(text[:500])


class DirectOpenAI:
    """POST {api_base}/chat/completions; per event loop one aiohttp session (https) or one pool of kept-alive
    connections of http11.py (plain http: a model server nearby, where calls are many and quick, and aiohttp's CPU per
    call is most of the client's). Either is reused across calls; the lookup is a pointer comparison on the hot path.

    The aiohttp path is kept as lean as a hand-written aiohttp call: the body is serialised once to bytes (no aiohttp
    JSON payload), headers and timeout objects are built once.
    """

    def __init__(self, api_base: str, api_key: str | None) -> None:
        from .endpoint import chat_url

        self.url = chat_url(api_base)
        key = api_key or os.environ.get("OPENAI_API_KEY") or "no-key"
        register_secret(key)
        self.headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        self._sessions: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aiohttp.ClientSession] = (
            weakref.WeakKeyDictionary()
        )
        self._last: tuple[asyncio.AbstractEventLoop, aiohttp.ClientSession] | None = None
        self._timeouts: dict[float, aiohttp.ClientTimeout] = {}
        self.lean = self.url.lower().startswith("http://")  # plain http: http11.py's connections, not aiohttp
        self._pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Http11Pool] = weakref.WeakKeyDictionary()
        self._last_pool: tuple[asyncio.AbstractEventLoop, Http11Pool] | None = None

    def _session(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        last = self._last
        if last is not None and last[0] is loop and not last[1].closed:
            return last[1]
        import aiohttp

        session = self._sessions.get(loop)
        if session is None or session.closed:
            session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), headers=self.headers)
            self._sessions[loop] = session
        self._last = (loop, session)
        return session

    def _pool(self) -> Http11Pool:
        loop = asyncio.get_running_loop()
        last = self._last_pool
        if last is not None and last[0] is loop and not last[1].closed:
            return last[1]
        pool = self._pools.get(loop)
        if pool is None or pool.closed:
            pool = self._pools[loop] = Http11Pool(self.url, {**self.headers, "User-Agent": "clarq"}, MAX_REPLY_BYTES)
        self._last_pool = (loop, pool)
        return pool

    def _timeout(self, seconds: float) -> aiohttp.ClientTimeout:
        timeout = self._timeouts.get(seconds)
        if timeout is None:
            import aiohttp

            timeout = self._timeouts[seconds] = aiohttp.ClientTimeout(total=seconds)
        return timeout

    async def call(
        self, model: str, messages: list[dict[str, Any]], params: dict[str, Any], *, timeout_s: float
    ) -> RawReply:
        body = json.dumps({"model": bare_name(model), "messages": messages, **params}).encode()
        if self.lean:
            try:
                reply = await self._pool().post(body, timeout_s)
            except ReplyTooLarge:
                raise _too_large(model) from None
            if 300 <= reply.status < 400:  # followed by no one: said in one line (an http:// base moved to https)
                raise LLMBadRequestError(
                    f"{model}: {self.url} redirects ({reply.status} to {reply.headers.get('location', '?')})",
                    "pass the address it redirects to as --api-base",
                    model=model,
                )
            if reply.status >= 300:
                raise HTTPStatusError(reply.status, _error_message(reply.body), reply.headers)
            return _parsed(reply.body)
        async with self._session().post(self.url, data=body, timeout=self._timeout(timeout_s)) as rsp:
            length = rsp.content_length
            if length is not None and length <= MAX_REPLY_BYTES:
                raw = await rsp.read()  # aiohttp reads no more than Content-Length
            else:  # too long, or chunked (no length said): read in pieces and stop past the cap
                raw = await _bounded_body(rsp, model)
            status = rsp.status
            if status >= 300:
                raise HTTPStatusError(status, _error_message(raw), rsp.headers)
        return _parsed(raw)

    async def aclose(self) -> None:
        """Close the current loop's session and connections."""
        loop = asyncio.get_running_loop()
        pool = self._pools.pop(loop, None)
        if self._last_pool is not None and self._last_pool[0] is loop:
            self._last_pool = None
        if pool is not None:
            pool.close()
        session = self._sessions.pop(loop, None)
        if self._last is not None and self._last[0] is loop:
            self._last = None
        if session is not None:
            await session.close()


def _parsed(raw: bytes) -> RawReply:
    """A 2xx body's text, usage and model; a body that is not a chat completion is a malformed reply (502)."""
    try:
        data = json.loads(raw)
        text = data["choices"][0]["message"]["content"] or ""
        usage = data.get("usage") or {}
        return RawReply(
            text,
            int(usage.get("prompt_tokens") or 0),
            int(usage.get("completion_tokens") or 0),
            str(data.get("model") or ""),
        )
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise HTTPStatusError(502, f"malformed reply body: {raw[:100]!r}") from None


async def _bounded_body(rsp: Any, model: str) -> bytes:
    """The body of a reply that did not say a length within the cap, read until it ends or passes the cap."""
    if rsp.content_length is None or rsp.content_length <= MAX_REPLY_BYTES:
        chunks, size = [], 0
        async for chunk in rsp.content.iter_any():
            size += len(chunk)
            if size > MAX_REPLY_BYTES:
                break
            chunks.append(chunk)
        else:
            return b"".join(chunks)
    raise _too_large(model)


def _too_large(model: str) -> LLMReplyTooLargeError:
    return LLMReplyTooLargeError(
        f"{model}: the reply body is larger than {MAX_REPLY_BYTES // (1024 * 1024)} MB, far more than any model "
        "reply (a broken or hostile endpoint); it was not read to the end and is not retried",
        "check --api-base and the server",
        model=model,
        attempts=1,
    )


async def scripted_call(script: ScriptedModel, messages: list[dict[str, Any]]) -> RawReply:
    """Ask a ScriptedModel; tokens estimated from text length."""
    text = script(messages)
    if inspect.isawaitable(text):
        text = await text
    prompt_tokens, completion_tokens = script.usage_for(messages, str(text))
    return RawReply(str(text), prompt_tokens, completion_tokens)
