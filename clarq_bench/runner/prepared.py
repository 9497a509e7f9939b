"""A run ready to play: both sides resolved once, at the door, and the config stamped once with what they and the
client decided.

Why: the seeker used to be resolved three times (the key check, the runner, the identical-run warning) and the
settings travelled as AgentSettings, then SeekerConfig. Now `resolve_agents` is the one place a run's seeker and
provider names are resolved (seekers.registry, provider.registry), `ready` the one place the config is stamped
(run_identity.stamp_config); prepare.py (from a run's options) and batch.run_dialogues (from a config) both come
here, and nothing after it resolves a name again: each dialogue builds its agents from the two specs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from ..core.errors import ClarqError
from ..core.run_config import RunConfig
from ..core.tasks import Task
from ..provider.registry import ProviderSpec, resolve_provider
from ..seekers.registry import SeekerSpec, resolve_seeker
from .run_identity import stamp_config


class PreparedRun(NamedTuple):
    """A run ready to play: its config (stamped: task ids and digest, endpoint, router pools, provider fingerprint,
    tree access), tasks, LLM client (None when no role calls a model), run folder and both agents resolved."""

    config: RunConfig
    tasks: list[Task]
    client: Any
    run_dir: Path
    seeker: SeekerSpec
    provider: ProviderSpec


def resolve_agents(config: RunConfig) -> tuple[SeekerSpec, ProviderSpec]:
    """The one place a run's two sides are resolved: an unknown seeker or provider name is one ClarqError here,
    before any key is checked or any dialogue starts."""
    seeker = resolve_seeker(config.seeker)
    try:
        provider = resolve_provider(config.provider.name, config.provider.model)
    except ClarqError as exc:
        raise with_suggestion(exc, config.provider.name) from None
    return seeker, provider


def with_suggestion(exc: ClarqError, name: str) -> ClarqError:
    """An unknown provider's error with the close names in front of its fix, as an unknown seeker's has
    (`--provider ofline` -> offline, `--provider gtp-4o` -> the model gpt-4o)."""
    import difflib

    from ..llm.models import ALIASES
    from ..provider.registry import OFFLINE

    if not exc.problem.startswith("unknown provider"):
        return exc
    names = [*OFFLINE.names(), "llm"]
    models = sorted(set(ALIASES) - set(names))
    close = difflib.get_close_matches(name, [*names, *models], n=3, cutoff=0.6)
    if not close:
        return exc
    named = " or ".join(f"the model {c}" if c in models else c for c in close)
    return ClarqError(exc.problem, f"did you mean {named}? {exc.fix}" if exc.fix else f"did you mean {named}?")


def ready(
    config: RunConfig,
    tasks: list[Task],
    client: Any,
    run_dir: str | Path,
    agents: tuple[SeekerSpec, ProviderSpec] | None = None,
) -> PreparedRun:
    """The run with its agents (resolved now unless given) holding the client, and its config stamped once."""
    seeker, provider = agents if agents is not None else resolve_agents(config)
    seeker = seeker.with_client(client)
    stamped = stamp_config(config, tasks, client, seeker, provider)
    return PreparedRun(stamped, tasks, client, Path(run_dir), seeker, provider)
