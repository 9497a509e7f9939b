"""Verify by replay: play a submission's seeker turns through the installed deterministic provider.

Why: the offline providers are pure in the dialogue (provider/base.py: state is recomputed from the turns so far), so
given the recorded turns up to a seeker turn they must say exactly what the submission records next. Any edit of a
seeker turn (a word, the order), of a provider turn (text, kind, intent, revealed ids) or of the provider's mode
shows up as the first turn where the replay disagrees. It is only meaningful with the very provider that played the
run, hence the fingerprint check first (provider/identity.py).
"""

from __future__ import annotations

from typing import Any

from ..core.errors import ClarqError
from ..core.tasks import Task
from ..core.transcript import Transcript, Turn
from ..provider.factory import ProviderMode, make_provider
from ..provider.identity import provider_fingerprint
from .schema import Manifest, dialogue_key

FIELDS = ("text", "kind", "intent", "revealed")


def provider_mode(manifest: Manifest) -> str:
    settings = manifest.run_config.get("provider")
    mode = settings.get("mode") if isinstance(settings, dict) else None
    return str(mode or ProviderMode.single.value)


def fingerprint_problem(manifest: Manifest) -> str | None:
    """Why this clarq cannot replay the submission's provider, or None when its fingerprint is the installed one."""
    name, mode = manifest.provider.name, provider_mode(manifest)
    try:
        installed = provider_fingerprint(name, mode)
    except ValueError:
        return f"provider mode {mode!r} is not a provider mode"
    if manifest.provider_fingerprint != installed:
        return (
            f"provider fingerprint {str(manifest.provider_fingerprint)[:12]}... is not this clarq's {name} provider "
            f"({str(installed)[:12]}...): verify with the clarq that packed it (clarq {manifest.clarq_version}) "
            "and the same provider build"
        )
    return None


def _show(turn: Any) -> str:
    text = turn.text if len(turn.text) <= 60 else turn.text[:57] + "..."
    kind = getattr(turn.kind, "value", turn.kind)
    return f"{kind} {list(turn.revealed)} {text!r}"


def replay_dialogue(transcript: Transcript, task: Task, name: str, mode: str) -> str | None:
    """The first provider turn the replay disagrees with, as one line; None when every turn matches."""
    provider: Any = make_provider(name, task, mode)
    key = dialogue_key(transcript.task_id, transcript.trial)
    turns: list[Turn] = transcript.turns
    for index in range(0, len(turns), 2):
        expected = provider.greeting() if index == 0 else provider.decide(turns[:index])
        recorded = turns[index]
        differs = [field for field in FIELDS if getattr(expected, field) != getattr(recorded, field)]
        if differs:
            return (
                f"dialogue {key} turn {index}: the {name} provider replays {_show(expected)}, the submission "
                f"records {_show(recorded)} ({', '.join(differs)} differ)"
            )
    return None


def replay_all(transcripts: list[Transcript], tasks: dict[str, Task], manifest: Manifest, skip: set[str]) -> list[str]:
    """Replay every dialogue not in `skip` (keys already failed by other checks); one line per disagreement."""
    name, mode = manifest.provider.name, provider_mode(manifest)
    problems = []
    for transcript in transcripts:
        key = dialogue_key(transcript.task_id, transcript.trial)
        task = tasks.get(transcript.task_id)
        if key in skip or task is None:
            continue
        try:
            problem = replay_dialogue(transcript, task, name, mode)
        except ClarqError as exc:  # e.g. offline-e5 without its extra: one line, no replay
            return [f"cannot replay the {name} provider: {exc}"]
        if problem:
            problems.append(problem)
    return problems
