"""Who played, told three times: the run's config, the manifest and every transcript must agree.

Why: identities cannot be recomputed, but they are recorded redundantly (config.json as the runner wrote it, the
manifest as the packer summarized it, each transcript's seeker / provider identity), so an edit made in one place
only, or a label that the config does not earn, shows up as a disagreement. A consistent rewrite of all three is
caught by the seal (seal.py) unless re-sealed, and for offline providers by the replay.
"""

from __future__ import annotations

from typing import Any

from ..core.provider_names import recorded_kind
from ..core.transcript import AgentInfo, Speaker, Transcript
from .schema import Manifest, Submission, dialogue_key

SEEKER_FIELDS = ("name", "model", "endpoint", "reported_model", "tree_access")
PROVIDER_FIELDS = ("name", "model", "endpoint", "reported_model", "fingerprint")


def _differs(agent: AgentInfo, reference: AgentInfo, fields: tuple[str, ...]) -> str | None:
    for field in fields:
        if field == "reported_model" and agent.reported_model is None:
            continue  # a dialogue that ended before any reply came back saw no report
        if getattr(agent, field) != getattr(reference, field):
            return f"{field} {getattr(agent, field)!r}, not the manifest's {getattr(reference, field)!r}"
    return None


def side_identity(transcripts: list[Transcript], side: str) -> AgentInfo:
    """A side's identity for the manifest: the first transcript's, with the model name a server reported (dialogues
    that ended before any reply came back have none)."""
    reported = next((getattr(t, side).reported_model for t in transcripts if getattr(t, side).reported_model), None)
    return getattr(transcripts[0], side).model_copy(update={"reported_model": reported})


def recorded_models(transcripts: list[Transcript], speaker: Speaker, side: str) -> list[str]:
    """Model versions a side used: its identity's model (and the name a server reported for it, marked as such)
    plus any `model` a turn recorded in its notes."""
    found: set[str] = set()
    for transcript in transcripts:
        agent = getattr(transcript, side)
        if agent.model:
            found.add(str(agent.model))
        if agent.reported_model:
            found.add(f"{agent.reported_model} (reported by the server)")
        for turn in transcript.turns:
            model = turn.notes.get("model") if turn.speaker == speaker else None
            if isinstance(model, str) and model:
                found.add(model)
    return sorted(found)


def _expected_seeker_model(config: dict[str, Any]) -> str | None:
    from ..llm.models import resolve_model
    from ..seekers.registry import SeekerConfig, describe

    settings = got if isinstance(got := config.get("seeker"), dict) else {}
    name = str(settings.get("name") or "")
    _, model = describe(SeekerConfig(name=name, model=settings.get("model"))) if name else (None, None)
    return resolve_model(model) if model else None


def _builtin_tree_access(name: str) -> bool | None:
    """Whether a shipped seeker is built from the tree (None for other names: their code is never imported)."""
    from ..seekers.registry import BUILTIN, seekers

    return bool(getattr(seekers.get(name), "needs_tree", False)) if name in BUILTIN else None


def _config_problems(manifest: Manifest) -> list[str]:
    config, problems = manifest.run_config, []
    provider = got if isinstance(got := config.get("provider"), dict) else {}
    if provider.get("name") != manifest.provider.name:
        problems.append(f"provider {manifest.provider.name!r} is not the run config's {provider.get('name')!r}")
    fingerprints = {config.get("provider_fingerprint"), manifest.provider_fingerprint, manifest.provider.fingerprint}
    if len(fingerprints) > 1:
        problems.append("the provider fingerprint differs between the run config, the manifest and its provider")
    elif recorded_kind(manifest.provider.name) != "offline" and fingerprints != {None}:
        problems.append(f"provider {manifest.provider.name!r} carries an offline provider's fingerprint")
    access = {bool(config.get("seeker_tree_access")), manifest.tree_access, manifest.seeker.tree_access}
    builtin = _builtin_tree_access(manifest.seeker.name)
    if len(access) > 1 or (builtin is not None and access != {builtin}):
        problems.append(
            f"tree access of seeker {manifest.seeker.name!r} differs between the run config, the manifest "
            "and what the seeker is"
        )
    expected = _expected_seeker_model(config)
    if expected != manifest.seeker.model:
        problems.append(f"seeker model {manifest.seeker.model!r} is not the run config's {expected!r}")
    endpoint = config.get("api_base")
    pools = got if isinstance(got := config.get("router"), dict) else {}
    allowed = {None, endpoint} | {str(pool.get("identity")) for pool in pools.values() if isinstance(pool, dict)}
    for side, agent in (("seeker", manifest.seeker), ("provider", manifest.provider)):
        if agent.endpoint not in allowed:  # --api-base, or a --router pool the run config records
            problems.append(f"{side} endpoint {agent.endpoint!r} is not the run config's {endpoint!r}")
    for field in ("trials", "max_turns"):
        if field in config and config[field] != getattr(manifest, field):
            problems.append(f"{field} {getattr(manifest, field)} is not the run config's {config[field]}")
    return problems


def _config_reading(config: dict[str, Any]) -> str | None:
    provider = got if isinstance(got := config.get("provider"), dict) else {}
    options = found if isinstance(found := provider.get("options"), dict) else {}
    return str(options["reading"]) if options.get("reading") else None


def check_consistency(sub: Submission) -> list[str]:
    """One line per disagreement between config, manifest and transcripts."""
    manifest = sub.manifest
    problems = _config_problems(manifest)
    for side, speaker, listed in (
        ("seeker", Speaker.seeker, manifest.seeker_models),
        ("provider", Speaker.provider, manifest.provider_models),
    ):
        found = recorded_models(sub.transcripts, speaker, side)
        if found != listed:
            problems.append(f"{side}_models {listed} are not the models the transcripts record ({found})")
    seed = manifest.run_config.get("seed")
    reading = _config_reading(manifest.run_config)
    for transcript in sub.transcripts:
        key = dialogue_key(transcript.task_id, transcript.trial)
        played = {turn.notes.get("reading") for turn in transcript.turns if turn.speaker == Speaker.provider} - {None}
        if played and played != {reading}:  # the board a row is on is earned by the turns, not by the label
            problems.append(
                f"dialogue {key}: the provider played in reading {sorted(map(str, played))}, not the run "
                f"config's {reading!r}"
            )
        for side, fields in (("seeker", SEEKER_FIELDS), ("provider", PROVIDER_FIELDS)):
            why = _differs(getattr(transcript, side), getattr(manifest, side), fields)
            if why:
                problems.append(f"dialogue {key}: {side} {why}")
        if isinstance(seed, int) and transcript.seed != seed + transcript.trial:
            problems.append(
                f"dialogue {key}: seed {transcript.seed}, but trial {transcript.trial} of a run with seed "
                f"{seed} plays with {seed + transcript.trial}"
            )
    return problems
