"""How one request reaches a model: litellm (the default door), a direct OpenAI-compatible HTTP path, or a script.

Each transport takes the resolved model, the messages and the request parameters and returns a RawReply, or raises
the failure for retry.py to sort. litellm's own retries are switched off (ours are counted and bounded). The direct
path exists because litellm costs a few milliseconds of CPU per call, which at high concurrency on a small machine
dominates latency; it is used only when asked (`transport="direct"`) for `openai/...` models with an api_base.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import weakref
from typing import TYPE_CHECKING, Any, NamedTuple

from .models import bare_name, litellm_module
from .retry import HTTPStatusError

if TYPE_CHECKING:
    import aiohttp

    from ..testing.scripted import ScriptedModel


class RawReply(NamedTuple):
    """What one successful request returned."""

    text: str
    prompt_tokens: int
    completion_tokens: int


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


async def litellm_call(model: str, messages: list[dict[str, Any]], params: dict[str, Any], *,
                       api_base: str | None, api_key: str | None, timeout_s: float) -> RawReply:
    """One attempt through litellm.acompletion (its retries off; unsupported parameters dropped)."""
    litellm = litellm_module()
    extra: dict[str, Any] = {}
    if api_base:
        extra["api_base"] = api_base
    if api_key:
        extra["api_key"] = api_key
    response = await litellm.acompletion(
        model=model, messages=messages, timeout=timeout_s, max_retries=0, num_retries=0, drop_params=True,
        **params, **extra,
    )
    text = response.choices[0].message.content or ""
    usage = getattr(response, "usage", None)
    return RawReply(text, int(getattr(usage, "prompt_tokens", 0) or 0),
                    int(getattr(usage, "completion_tokens", 0) or 0))


class DirectOpenAI:
    """POST {api_base}/chat/completions with aiohttp; one session per event loop, reused across calls."""

    def __init__(self, api_base: str, api_key: str | None) -> None:
        self.url = api_base.rstrip("/") + "/chat/completions"
        key = api_key or os.environ.get("OPENAI_API_KEY") or "no-key"
        self.headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        self._sessions: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aiohttp.ClientSession] = (
            weakref.WeakKeyDictionary()
        )

    def _session(self) -> "aiohttp.ClientSession":
        import aiohttp

        loop = asyncio.get_running_loop()
        session = self._sessions.get(loop)
        if session is None or session.closed:
            session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), headers=self.headers)
            self._sessions[loop] = session
        return session

    async def call(self, model: str, messages: list[dict[str, Any]], params: dict[str, Any], *,
                   timeout_s: float) -> RawReply:
        import aiohttp

        body = {"model": bare_name(model), "messages": messages, **params}
        async with self._session().post(self.url, json=body, timeout=aiohttp.ClientTimeout(total=timeout_s)) as rsp:
            raw = await rsp.read()
            if rsp.status >= 300:
                raise HTTPStatusError(rsp.status, raw.decode("utf-8", "replace")[:500], rsp.headers)
        try:
            import json

            data = json.loads(raw)
            text = data["choices"][0]["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError):
            raise HTTPStatusError(502, f"malformed reply body: {raw[:100]!r}") from None
        usage = data.get("usage") or {}
        return RawReply(text, int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0))

    async def aclose(self) -> None:
        """Close the current loop's session."""
        session = self._sessions.pop(asyncio.get_running_loop(), None)
        if session is not None:
            await session.close()


async def scripted_call(script: "ScriptedModel", messages: list[dict[str, Any]]) -> RawReply:
    """Ask a ScriptedModel; tokens estimated from text length."""
    text = script(messages)
    if inspect.isawaitable(text):
        text = await text
    prompt_tokens, completion_tokens = script.usage_for(messages, str(text))
    return RawReply(str(text), prompt_tokens, completion_tokens)
