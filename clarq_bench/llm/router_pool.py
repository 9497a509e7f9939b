"""A pooled model: litellm's Router picks the deployment and keeps the cool-downs, clarq's transports send the call.

Why split this way: litellm.Router decides which deployment serves a call (its weighted shuffle, its cool-down of
failing deployments, its allowed-fails policy) in ~0.03 ms, but its own call path goes through litellm.acompletion
(~5 ms of CPU per call), which caps one process at ~200 calls/s on a core. So clarq asks the Router for a
deployment, sends the request itself (the direct HTTP path for OpenAI-compatible servers, litellm for the rest,
as for any model), and reports each outcome back to the Router, which cools a deployment down as it would have.

A call that fails on one deployment (rate limit, server error, timeout, rejected key, refused connection) is sent
again at once to another deployment of the pool that this call has not tried; when every deployment of the pool is
cooling down the pool's fallbacks are asked; when nothing is left, the failure goes to the client's retries (with
backoff). A bad request (400/404/422, a prompt too long) is the request's fault and fails at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .retry import BAD_REQUEST_STATUSES, HTTPStatusError, is_context_overflow
from .router_file import Deployment, RouterFile
from .transports import DirectOpenAI, RawReply, litellm_call, uses_direct

if TYPE_CHECKING:
    from .limits import ModelLimits

#: litellm_params clarq interprets itself (everything else is passed on to litellm).
OWN_PARAMS = frozenset({"model", "api_base", "api_key", "rpm", "tpm", "weight", "max_parallel_requests"})


class RouterPool:
    """The deployments of a router file, for one client."""

    def __init__(self, spec: RouterFile, transport: str = "auto") -> None:
        self.spec = spec
        self.transport = transport
        self.by_id: dict[str, Deployment] = dict(zip(spec.ids(), spec.model_list))
        self._names = set(spec.names())
        self._identities = {name: spec.identity(name) for name in self._names}
        self._router: Any = None
        self._direct: dict[tuple[str, str | None], DirectOpenAI] = {}

    def has(self, model: str) -> bool:
        return model in self._names

    def identity(self, model: str) -> str:
        return self._identities[model]

    def describe(self) -> dict[str, dict[str, Any]]:
        """Per logical model: its identity (with the deployment-list hash) and deployments, as config.json records."""
        return {
            name: {"identity": self._identities[name], "deployments": self.spec.describe(name)}
            for name in sorted(self._names)
        }

    def missing_keys(self, model: str) -> list[str]:
        """The key variables `model`'s deployments name that are not set (for a hosted deployment that names none
        and has no api_base: the variables litellm would read for it)."""
        from .models import missing_credentials

        out: list[str] = []
        for entry in self.spec.describe(model):
            params = self.by_id[entry["id"]].litellm_params
            if params.key_variable:
                missing = [] if params.key() else [params.key_variable]
            else:
                missing = [] if params.api_base else missing_credentials(params.model)
            out += [variable for variable in missing if variable not in out]
        return out

    def deployment_models(self, model: str) -> list[str]:
        return sorted({entry["model"] for entry in self.spec.describe(model)})

    def supports_json_mode(self, model: str) -> bool:
        """JSON mode is asked for only when every deployment (and fallback) of the pool supports it."""
        from .models import supports_json_mode

        return all(supports_json_mode(deployed) for deployed in self.deployment_models(model))

    @property
    def router(self) -> Any:
        """The litellm Router (built on first use, without keys: it only picks and cools down)."""
        if self._router is None:
            from .models import litellm_module

            litellm_module()
            from litellm import Router

            settings = self.spec.router_settings
            model_list = [
                {
                    "model_name": deployment.model_name,
                    "litellm_params": {
                        key: value
                        for key, value in (
                            ("model", deployment.litellm_params.model),
                            ("api_base", deployment.litellm_params.api_base),
                            ("rpm", deployment.litellm_params.rpm),
                            ("tpm", deployment.litellm_params.tpm),
                            ("weight", deployment.litellm_params.weight),
                        )
                        if value is not None
                    },
                    "model_info": {"id": ident},
                }
                for ident, deployment in self.by_id.items()
            ]
            options: dict[str, Any] = {"routing_strategy": settings.routing_strategy, "num_retries": 0}
            if settings.cooldown_time is not None:
                options["cooldown_time"] = settings.cooldown_time
            if settings.allowed_fails is not None:
                options["allowed_fails"] = settings.allowed_fails
            self._router = Router(model_list=model_list, **options)
        return self._router

    async def pick(self, model: str, messages: list[dict[str, Any]], tried: set[str]) -> str | None:
        """The id of a deployment of `model` (or of its fallbacks) that is not cooling down and was not tried: the
        Router's pick, or, when it picks one this call already tried, its weighted shuffle over the others."""
        from litellm.router_strategy.simple_shuffle import simple_shuffle

        for group in [model, *self.spec.fallbacks_of(model)]:
            try:
                chosen = await self.router.async_get_available_deployment(
                    model=group, request_kwargs={}, messages=messages
                )
            except Exception:  # litellm: every deployment of the group is cooling down
                continue
            if _ident(chosen) not in tried:
                return _ident(chosen)
            healthy = await self.router.async_get_healthy_deployments(model=group, request_kwargs={}, messages=messages)
            rest = [d for d in (healthy if isinstance(healthy, list) else [healthy]) if _ident(d) not in tried]
            if rest:
                return _ident(simple_shuffle(self.router, rest, group))
        return None

    async def call(
        self, model: str, messages: list[dict[str, Any]], params: dict[str, Any], limits: ModelLimits, timeout_s: float
    ) -> RawReply:
        """One attempt of the client: deployments in turn until one answers; the reply names who served it."""
        tried: set[str] = set()
        last: BaseException | None = None
        while True:
            ident = await self.pick(model, messages, tried)
            if ident is None:
                if last is not None:
                    raise last
                raise HTTPStatusError(
                    429,
                    f"every deployment of {model} is cooling down",
                    {"retry-after": str(self.router.cooldown_time or 1.0)},
                )
            tried.add(ident)
            deployment = self.by_id[ident]
            try:
                own = deployment.litellm_params
                async with limits.slot(
                    f"deployment:{ident}", own.max_parallel_requests, adaptive=False, rpm=own.rpm
                ):  # the deployment's own pace, else --rpm
                    raw = await self.send(deployment, messages, params, timeout_s)
            except Exception as exc:
                self.failed(ident, exc)
                if is_context_overflow(exc) or getattr(exc, "status_code", None) in BAD_REQUEST_STATUSES:
                    raise
                last = exc
                continue
            self.succeeded(ident)
            return raw._replace(served_by=ident, priced_as=deployment.litellm_params.model)

    async def send(
        self, deployment: Deployment, messages: list[dict[str, Any]], params: dict[str, Any], timeout_s: float
    ) -> RawReply:
        """One request to one deployment; its key is read from the environment now."""
        settings = deployment.litellm_params
        if uses_direct(self.transport, settings.api_base, settings.model):
            slot = (settings.api_base or "", settings.key_variable)
            direct = self._direct.get(slot)
            if direct is None:
                direct = self._direct[slot] = DirectOpenAI(slot[0], settings.key())
            return await direct.call(settings.model, messages, params, timeout_s=timeout_s)
        extra = {key: value for key, value in settings.extra_params().items() if key not in OWN_PARAMS}
        return await litellm_call(
            settings.model,
            messages,
            {**extra, **params},
            api_base=settings.api_base,
            api_key=settings.key(),
            timeout_s=timeout_s,
        )

    def failed(self, ident: str, exc: BaseException) -> None:
        """Tell the Router: it counts the failure and may cool the deployment down (its policy, its clock)."""
        try:
            self.router.deployment_callback_on_failure(
                kwargs={"exception": exc, "litellm_params": {"model_info": {"id": ident}}},
                completion_response=None,
                start_time=None,
                end_time=None,
            )
        except Exception:  # bookkeeping of the Router must never turn a reply into a failure
            pass

    def succeeded(self, ident: str) -> None:
        from litellm.router_utils.router_callbacks.track_deployment_metrics import (
            increment_deployment_successes_for_current_minute,
        )

        increment_deployment_successes_for_current_minute(self.router, ident)

    async def aclose(self) -> None:
        for direct in self._direct.values():
            await direct.aclose()


def _ident(deployment: dict[str, Any]) -> str:
    return str((deployment.get("model_info") or {}).get("id"))
