"""What a run records about who played, beyond the names given on the command line.

Why: a leaderboard row is only as honest as its record. The endpoint (normalized --api-base), the deterministic
provider's fingerprint and the seeker's access to the response tree are facts of the run that change its results,
so they go into config.json (and its hash: a resume against another endpoint or provider build is a changed config),
into the seeker / provider identity of every transcript, and from there into the submission. The name a server
reported when it differs from the model asked for is stamped on each transcript as it is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.run_config import RunConfig
from ..core.run_folder import tasks_digest
from ..core.tasks import Task
from ..core.transcript import AgentInfo, Transcript

if TYPE_CHECKING:
    from ..provider.registry import ProviderSpec
    from ..seekers.registry import SeekerSpec


def stamp_config(
    config: RunConfig, tasks: list[Task], client: Any, seeker: SeekerSpec, provider: ProviderSpec
) -> RunConfig:
    """The config with what this run decided filled in: the selected tasks (ids and digest), the endpoint, the
    provider fingerprint, an LLM provider's reading (provider.options.reading) and the seeker's tree access. The one place a config is stamped, once, when a run is made
    ready (prepared.ready), before anything else reads its hash or writes it."""
    endpoint = getattr(client, "endpoint", None) if client is not None else None
    return with_reading(config, provider).model_copy(
        update={
            "task_ids": [task.id for task in tasks],
            "tasks_digest": tasks_digest(tasks),
            "api_base": endpoint,
            "router": used_pools(config, client),
            "provider_fingerprint": provider.fingerprint(config.provider.mode),
            "seeker_tree_access": seeker.tree_access,
        }
    )


def with_reading(config: RunConfig, provider: ProviderSpec) -> RunConfig:
    """The config with an LLM provider's reading written down (`model` unless `strict` was asked for); a reading
    asked of a provider without one is a ClarqError (provider/registry.py)."""
    reading = provider.reading(config.provider.options)
    if reading is None:
        return config
    options = {**config.provider.options, "reading": reading}
    return config.model_copy(update={"provider": config.provider.model_copy(update={"options": options})})


def used_pools(config: RunConfig, client: Any) -> dict[str, Any] | None:
    """The router pools (identity and deployments) of the models this run's roles name; None without --router."""
    router = getattr(client, "router", None) if client is not None else None
    if router is None:
        return None
    named = {config.seeker.name, config.seeker.model, config.provider.name, config.provider.model, config.judge_model}
    return {name: pool for name, pool in router.describe().items() if name in named} or None


def _endpoint(config: RunConfig, model: str | None) -> str | None:
    """Where `model` was served: its router pool's identity, else the normalized --api-base."""
    pool = (config.router or {}).get(model or "")
    return str(pool["identity"]) if pool else config.api_base


def agent_infos(
    config: RunConfig, seeker_name: str, seeker_model: str | None, provider: ProviderSpec
) -> tuple[AgentInfo, AgentInfo]:
    """(seeker, provider) identities as every transcript of the run records them."""
    seeker = AgentInfo(
        name=seeker_name,
        model=seeker_model,
        settings=config.seeker.model_dump(mode="json"),
        endpoint=_endpoint(config, seeker_model) if seeker_model else None,
        tree_access=config.seeker_tree_access,
    )
    provider_info = AgentInfo(
        name=config.provider.name,
        model=config.provider.model,
        settings=config.provider.model_dump(mode="json"),
        endpoint=_endpoint(config, provider.model) if provider.kind == "llm" else None,
        fingerprint=config.provider_fingerprint,
    )
    return seeker, provider_info


def stamp_transcript(transcript: Transcript, client: Any) -> Transcript:
    """Record the names servers answered as (when they differed from the model asked for) on both sides."""
    reported = getattr(client, "reported_models", None) if client is not None else None
    if not reported:
        return transcript
    resolve = getattr(client, "resolve_model", lambda name: name)
    update = {}
    for side in ("seeker", "provider"):
        agent = getattr(transcript, side)
        asked = agent.model or (agent.name if agent.endpoint else None)
        if asked and resolve(asked) in reported:
            update[side] = agent.model_copy(update={"reported_model": reported[resolve(asked)]})
    return transcript.model_copy(update=update) if update else transcript
