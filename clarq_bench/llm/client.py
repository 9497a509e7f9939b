"""LLMClient: the one door to language models (its settings and result records: settings.py).

`await client.complete(messages, model=..., role=..., schema=...)` resolves the model alias, answers from the cache
or sends the request (per-model limits, bounded retries), prices it, adds it to the run's and the open scopes'
meters, and for a schema parses and validates the JSON reply, re-asking a bounded number of times. The parts live
in sibling modules; this one only puts them in order.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from ..core.redact import redact, register_secret
from ..core.transcript import Usage
from .accounting import UsageMeter, call_cost, record_in_scopes
from .cache import ResponseCache, cache_key, default_cache_path
from .endpoint import normalize_endpoint
from .errors import LLMBadRequestError, LLMCredentialsError, LLMEmptyReplyError, LLMHaltedError, LLMJSONError
from .jsonreply import ask_until_valid
from .limits import ModelLimits
from .models import SCRIPTED_PREFIX, bare_name, check_credentials, resolve_model, supports_json_mode
from .retry import with_retries
from .router_file import load_router_file
from .router_pool import RouterPool
from .settings import Completion, LLMSettings
from .transports import DirectOpenAI, RawReply, ScriptedModel, litellm_call, request_params, scripted_call, uses_direct

Messages = list[dict[str, Any]]


class LLMClient:
    """Calls models for one run; holds its cache, limits and meters. Use one per run, share it between dialogues."""

    def __init__(
        self, settings: LLMSettings | None = None, *, scripted: Mapping[str, ScriptedModel] | None = None
    ) -> None:
        self.settings = settings or LLMSettings()
        if self.settings.api_key is not None:
            register_secret(self.settings.api_key.get_secret_value())
        self.scripted: dict[str, ScriptedModel] = dict(scripted or {})
        self.limits = ModelLimits(self.settings.max_concurrency_per_model, self.settings.rpm)
        self.meter = UsageMeter()
        self.retries = 0
        self._late_replies = 0  # replies to attempts their caller had given up on, counted and cached (_unabandoned)
        self._background: set[asyncio.Future[Any]] = set()
        #: cache key -> the reply of the same request already in flight: an identical request waits for it instead
        #: of paying for it a second time (as a cache hit would have served it a moment later)
        self._flying: dict[str, asyncio.Future[str]] = {}
        self.spent_before = 0.0  # dollars earlier sessions of the same run spent (a resume): max_cost caps the total
        #: told when a call is sent and when a paid call is counted (the run's ledger writes spending.json then, not
        #: at a dialogue's end)
        self.on_paid: Callable[[], None] | None = None
        #: estimated dollars of the calls sent and not yet answered: counted by the budget and the ledger, so a
        #: process killed with calls in flight has them on disk (the endpoint bills them all the same)
        self.in_flight_usd = 0.0
        self._longest_reply: dict[str, int] = {}  # completion tokens of the longest reply seen, per model
        self.halted: str | None = None  # why no new call may be sent (halt()); cache hits are still served
        self._cache: ResponseCache | None = None
        self._cache_lock = threading.Lock()
        self._direct: DirectOpenAI | None = None
        self._uses_direct: dict[str, bool] = {}
        self.endpoint = normalize_endpoint(self.settings.api_base)  # in the cache key and the recorded identity
        self.reported_models: dict[str, str] = {}  # resolved name -> the different name a server answered as
        self.router: RouterPool | None = None
        if self.settings.router_file is not None:
            self.router = RouterPool(load_router_file(self.settings.router_file), self.settings.transport)

    # ---- names, credentials, budget ----------------------------------------------------------------------------

    def resolve_model(self, name: str) -> str:
        """The dated version behind an alias; scripted model names are kept as they are."""
        return name if name in self.scripted or self.pooled(name) else resolve_model(name)

    def pooled(self, name: str | None) -> bool:
        """`name` is a logical model of the router file (its deployments serve it)."""
        return self.router is not None and name is not None and self.router.has(name)

    def endpoint_of(self, name: str | None) -> str | None:
        """What identifies where `name` is served: the router pool's identity, else the normalized --api-base."""
        if name is not None and self.router is not None and self.pooled(name):
            return self.router.identity(name)
        return self.endpoint

    def check_credentials(self, models: Iterable[str | None]) -> None:
        """LLMCredentialsError for a hosted model without a key (scripted models need none); for a pooled model,
        every key variable its deployments name must be set."""
        key = self.settings.api_key.get_secret_value() if self.settings.api_key else None
        models = [m for m in models if m not in self.scripted]
        for model in models:
            if model is None or self.router is None or not self.pooled(model):
                continue
            missing = self.router.missing_keys(model)
            if missing:
                raise LLMCredentialsError(
                    f"{model}: the router file names {missing[0]}, which is not set", f"set {missing[0]}", model=model
                )
        check_credentials([m for m in models if not self.pooled(m)], api_base=self.settings.api_base, api_key=key)

    @property
    def usage(self) -> Usage:
        """Everything this client has spent so far."""
        return self.meter.total

    @property
    def usage_by_role(self) -> dict[str, Usage]:
        return dict(self.meter.by_role)

    def halt(self, reason: str) -> None:
        """Send no new call from now on (each raises LLMHaltedError); replies to calls already sent are still
        counted and cached when they arrive."""
        self.halted = self.halted or reason

    @property
    def budget_exhausted(self) -> bool:
        """True once max_cost is spent; the runner checks it before starting each new dialogue."""
        return self.settings.max_cost is not None and self.spent_before + self.spent_usd >= self.settings.max_cost

    @property
    def spent_usd(self) -> float:
        """Dollars of this client's calls, with those in flight at their estimate (the ledger's and the budget's
        figure; `usage` holds only answered calls)."""
        return self.meter.cost_usd + max(self.in_flight_usd, 0.0)

    @property
    def cache(self) -> ResponseCache | None:
        """The response cache (opened on first use), or None when caching is off."""
        if not self.settings.use_cache:
            return None
        with self._cache_lock:
            if self._cache is None:
                self._cache = ResponseCache(self.settings.cache_path or default_cache_path())
            return self._cache

    # ---- calls -------------------------------------------------------------------------------------------------

    async def complete(
        self,
        messages: Messages,
        *,
        model: str,
        role: str = "seeker",
        schema: type[BaseModel] | None = None,
        temperature: float = 0.0,
        seed: int | None = None,
        trial: int = 0,
        max_tokens: int | None = None,
    ) -> Completion:
        """Ask `model`; with `schema`, the reply must be JSON valid for it (`parsed`), else LLMJSONError."""
        started = time.perf_counter()
        resolved = self.resolve_model(model)
        json_mode = (
            schema is not None
            and resolved not in self.scripted
            and (
                self.router.supports_json_mode(resolved)
                if self.router is not None and self.pooled(resolved)
                else supports_json_mode(resolved)
            )
        )
        params = request_params(temperature, seed, max_tokens, json_mode)
        total: Usage | None = None
        attempts, all_cached = 0, True

        async def ask(conversation: Messages) -> str:
            nonlocal total, attempts, all_cached
            try:
                text, usage, made, cached = await self._ask(resolved, conversation, params, seed, trial, role)
            except LLMEmptyReplyError as empty:  # paid (the scopes counted it); with a schema, re-asked like bad JSON
                attempts += empty.attempts
                raise
            total = usage if total is None else total + usage
            attempts, all_cached = attempts + made, all_cached and cached
            return text

        def failed(asks: int, why: str, text: str) -> LLMJSONError:
            return LLMJSONError(
                f"{resolved}: {why}",
                "try another model or raise json_retries",
                model=resolved,
                attempts=attempts,
                text=text,
            )

        text, parsed, ask_count = await ask_until_valid(ask, list(messages), schema, self.settings.json_retries, failed)
        # validated, not model_construct: for a model this small pydantic-core's validation is the quicker of the
        # two (~2.7 vs ~6.2 us a call)
        return Completion(
            text=text,
            parsed=parsed,
            usage=total or Usage(),
            model=resolved,
            requested_model=model,
            role=role,
            latency_s=time.perf_counter() - started,
            cached=all_cached,
            attempts=attempts,
            asks=ask_count,
        )

    async def _ask(
        self, resolved: str, messages: Messages, params: dict[str, Any], seed: int | None, trial: int, role: str
    ) -> tuple[str, Usage, int, bool]:
        """(text, usage, attempts, cached) for one request, from the cache or the model; accounted here.

        The reply is redacted before anything uses it (an endpoint may echo the key back), so what is played, cached
        and written agree; a blank reply is paid and counted, never cached, and raised as LLMEmptyReplyError."""
        scripted = resolved in self.scripted
        cache = None if scripted else self.cache
        pool = self.router if self.pooled(resolved) else None
        key = (
            cache_key(resolved, messages, params, seed, trial, self.endpoint_of(resolved)) if cache is not None else ""
        )
        if cache is not None and (hit := await cache.aget(key)) is not None:
            usage = Usage(prompt_tokens=0, completion_tokens=0, cost_usd=0.0, calls=0, cached_calls=1)
            self._account(role, resolved, usage, str(hit.get("served_by") or ""))
            self._note_reported(resolved, str(hit.get("reported_model") or ""))
            return str(hit["text"]), usage, 0, True

        if cache is not None:
            flying = self._flying.get(key)
            if flying is not None:
                try:
                    text = await asyncio.shield(flying)
                except Exception:  # the first one failed: this one makes its own attempts
                    pass
                else:
                    usage = Usage(prompt_tokens=0, completion_tokens=0, cost_usd=0.0, calls=0, cached_calls=1)
                    self._account(role, resolved, usage)
                    return text, usage, 0, True
            if key not in self._flying:
                mine = self._flying[key] = asyncio.get_running_loop().create_future()
                try:
                    answer = await self._ask_model(resolved, messages, params, role, scripted, cache, pool, key)
                except BaseException as exc:
                    mine.set_exception(exc if isinstance(exc, Exception) else LLMHaltedError(str(exc) or "cancelled"))
                    mine.exception()  # retrieved here: nobody else may be waiting
                    raise
                else:
                    mine.set_result(answer[0])
                    return answer
                finally:
                    if self._flying.get(key) is mine:
                        del self._flying[key]
        return await self._ask_model(resolved, messages, params, role, scripted, cache, pool, key)

    async def _ask_model(
        self,
        resolved: str,
        messages: Messages,
        params: dict[str, Any],
        role: str,
        scripted: bool,
        cache: ResponseCache | None,
        pool: RouterPool | None,
        key: str,
    ) -> tuple[str, Usage, int, bool]:
        """The model's reply to one request (the cache missed): sent, retried, accounted and cached."""
        if self.halted is not None and not scripted:
            raise LLMHaltedError(
                f"{resolved}: no new call is sent: {self.halted}",
                "free the space or fix the folder, then resume the run",
                model=resolved,
            )

        def late(raw: RawReply) -> None:  # the reply to an attempt whose caller had given up: still paid, so kept
            self._late_replies += 1
            text, usage, value = self._settle(raw, resolved, scripted, pool is not None)
            self.meter.add(role, resolved, usage)  # the run's spending (spending.json, the budget); no dialogue's
            self._paid(usage)
            if cache is not None and value is not None and text.strip():
                self._keep(cache.aput(key, resolved, value))

        async def attempt() -> RawReply:
            async with self.limits.slot(resolved):  # adaptive: halved by refusals no deployment could absorb
                if pool is not None:
                    work = pool.call(resolved, messages, params, self.limits, self.settings.timeout_s)
                else:
                    work = self._send(resolved, messages, params)
                if scripted:
                    return await work
                return await self._unabandoned(self._in_flight(work, resolved, messages, params), late)

        retries = pool.spec.router_settings.num_retries if pool is not None else None
        raw, attempts = await with_retries(
            attempt,
            model=resolved,
            max_attempts=self.settings.max_attempts if retries is None else retries + 1,
            base_wait=self.settings.retry_base_wait,
            max_wait=self.settings.retry_max_wait,
            on_retry=self._count_retry,
        )
        text, usage, value = self._settle(raw, resolved, scripted, pool is not None)
        self._account(role, resolved, usage, raw.served_by)
        if not text.strip():
            raise LLMEmptyReplyError(
                f"{resolved}: the model returned an empty reply",
                "retry later with --resume --retry-errors, or try another model",
                model=resolved,
                attempts=attempts,
            )
        if cache is not None and value is not None:
            await cache.aput(key, resolved, value)  # shielded: a turn timeout now does not drop the put
        return text, usage, attempts, False

    def _settle(
        self, raw: RawReply, resolved: str, scripted: bool, pooled: bool
    ) -> tuple[str, Usage, dict[str, Any] | None]:
        """A reply's text (redacted), usage (priced) and the value the cache keeps (None for scripted models)."""
        cost = 0.0 if scripted else call_cost(raw.priced_as or resolved, raw.prompt_tokens, raw.completion_tokens)
        usage = Usage(
            prompt_tokens=raw.prompt_tokens,
            completion_tokens=raw.completion_tokens,
            cost_usd=cost,
            calls=1,
            cached_calls=0,
        )
        reported = "" if scripted or pooled else self._note_reported(resolved, redact(raw.model))
        text = (raw.text or "") if scripted else redact(raw.text or "")
        if scripted:
            return text, usage, None
        value = {
            "text": text,
            "model": resolved,
            "prompt_tokens": raw.prompt_tokens,
            "completion_tokens": raw.completion_tokens,
            "cost_usd": cost,
            "reported_model": reported,
        }
        if raw.served_by:
            value["served_by"] = raw.served_by
        return text, usage, value

    async def _unabandoned(self, work: Awaitable[RawReply], late: Callable[[RawReply], None]) -> RawReply:
        """Await one attempt in its own task. When the caller gives up on it (a turn timeout, the dialogue or the
        run cancelled), the slot is released and no further attempt is made, but the request already sent goes on
        to its end (at most the per-attempt timeout): the endpoint answers and bills it anyway, so its reply is
        counted in the run's spending and kept in the cache (`late`), and a resume or --retry-errors finds it
        there instead of paying for it again. aclose() cancels what is still under way."""
        task = asyncio.ensure_future(work)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():
                self._keep(task)
                task.add_done_callback(
                    lambda done: late(done.result()) if not done.cancelled() and done.exception() is None else None
                )
            raise

    async def _in_flight(
        self, work: Awaitable[RawReply], resolved: str, messages: Messages, params: dict[str, Any]
    ) -> RawReply:
        """`work`, its estimated cost counted in flight until it ends (answered, failed or cancelled): the prompt
        at 4 characters a token, the reply at the longest seen from this model (or max_tokens, else 1,000)."""
        chars = sum(len(str(message.get("content") or "")) for message in messages)
        reply = params.get("max_tokens") or self._longest_reply.get(resolved, 1000)
        estimate = 0.0 if self.pooled(resolved) else call_cost(resolved, chars // 4 + 1, int(reply))
        self.in_flight_usd += estimate
        self._paid_signal()
        try:
            raw = await work
            if raw.completion_tokens > self._longest_reply.get(resolved, 0):
                self._longest_reply[resolved] = raw.completion_tokens
            return raw
        finally:
            self.in_flight_usd -= estimate

    def _keep(self, work: Awaitable[Any]) -> None:
        """Run `work` in the background until it ends or aclose() cancels it (a failure there is nobody's error)."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(lambda done: done.cancelled() or done.exception())

    def _note_reported(self, resolved: str, reported: str) -> str:
        """Remember the name a server answered as when it differs from the one asked for (a local model behind
        --api-base answering to `gpt-4o`); returns it, or "" when it matches or was not said."""
        if not reported or reported in (resolved, bare_name(resolved)):
            return ""
        self.reported_models[resolved] = reported
        return reported

    async def _send(self, resolved: str, messages: Messages, params: dict[str, Any]) -> RawReply:
        if resolved in self.scripted:
            return await scripted_call(self.scripted[resolved], messages)
        if resolved.startswith(SCRIPTED_PREFIX):
            raise LLMBadRequestError(
                f"no scripted model named {resolved!r} is registered with this client",
                "pass it in LLMClient(scripted={...})",
                model=resolved,
            )
        settings = self.settings
        direct = self._uses_direct.get(resolved)
        if direct is None:
            direct = self._uses_direct[resolved] = uses_direct(settings.transport, settings.api_base, resolved)
        if direct:
            if self._direct is None:
                key = settings.api_key.get_secret_value() if settings.api_key else None
                self._direct = DirectOpenAI(settings.api_base or "", key)
            return await self._direct.call(resolved, messages, params, timeout_s=settings.timeout_s)
        key = settings.api_key.get_secret_value() if settings.api_key else None
        return await litellm_call(
            resolved, messages, params, api_base=settings.api_base, api_key=key, timeout_s=settings.timeout_s
        )

    def _account(self, role: str, resolved: str, usage: Usage, served_by: str = "") -> None:
        self.meter.add(role, resolved, usage)
        record_in_scopes(role, resolved, usage, served_by)
        self._paid(usage)

    def _paid(self, usage: Usage) -> None:
        if usage.calls:
            self._paid_signal()

    def _paid_signal(self) -> None:
        if self.on_paid is not None:
            self.on_paid()

    def _count_retry(self, exc: BaseException | None) -> None:
        self.retries += 1

    async def settle(self, timeout_s: float) -> int:
        """Wait up to `timeout_s` for the attempts callers gave up on (and the cache puts of their replies), so a
        reply the endpoint bills is kept rather than cut off at the end of a run; returns how many were under way."""
        deadline = time.monotonic() + timeout_s
        waited = sum(not task.done() for task in self._background)
        while (pending := [task for task in self._background if not task.done()]) and time.monotonic() < deadline:
            await asyncio.wait(pending, timeout=deadline - time.monotonic())
        return waited

    async def aclose(self) -> None:
        """Cancel the abandoned attempts still under way, release HTTP sessions of the current event loop and close
        the cache."""
        background = [task for task in self._background if not task.done()]
        for task in background:
            task.cancel()
        if background:
            await asyncio.wait(background, timeout=5)
        if self._direct is not None:
            await self._direct.aclose()
        if self.router is not None:
            await self.router.aclose()
        with self._cache_lock:
            if self._cache is not None:
                self._cache.close()
                self._cache = None

    async def __aenter__(self) -> LLMClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
