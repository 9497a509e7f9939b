"""What decided a scored source's dialogues, for `compare`: the task content each dialogue was played on and the
run's settings (a run's config.json, else the agents a released file records), and which settings differ.

Reads Sources (sources.py) and config.json (through core.run_folder) only. `task_ids` is not a setting: the
selection that made it is (languages, split, types, limit, seed), and the pairing covers the tasks.
"""

from __future__ import annotations

import json

from ..core.jsonl import flatten
from ..core.provider_names import recorded_kind
from ..core.run_folder import RunDir


def task_hashes(source) -> dict[tuple[str, int], str]:  # type: ignore[no-untyped-def]
    """(task id, trial) -> content hash of the task each dialogue was played on (as recorded, else as loaded)."""
    return {(t.task_id, t.trial): t.task_hash or task.content_hash() for t, task in source.pairs}


#: Recorded in config.json but not a setting of the experiment (identity, timing, display, execution limits).
NOT_SETTINGS = (
    "run_id",
    "written_at",
    "config_hash",
    "progress",
    "concurrency",
    "max_cost",
    "use_cache",
    "turn_timeout",
    "max_errors",
    "task_ids",
    "cache_path",
    "router_file",
)


def run_settings(source) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """What decided a side's dialogues: a run's config.json, else (a released file) its agents as recorded."""
    folder = RunDir(source.run_dir) if source.run_dir is not None else None
    if folder is not None and folder.is_run():
        config = folder.raw_config()
    else:
        first = source.pairs[0][0]
        config = {"seeker": first.seeker.model_dump(mode="json"), "provider": first.provider.model_dump(mode="json")}
    flat = flatten(config if isinstance(config, dict) else {})
    return {key: value for key, value in flat.items() if key.split(".")[0] not in NOT_SETTINGS}


def settings_differ(a, b) -> list[str]:  # type: ignore[no-untyped-def]
    """`provider.name: "offline" -> "gpt-4o"` for every setting that differs between the two sides."""
    left, right = run_settings(a), run_settings(b)
    keys = list(left) + [key for key in right if key not in left]
    shown = lambda value: json.dumps(value, ensure_ascii=False)  # noqa: E731
    return [
        f"{key}: {shown(left.get(key))} -> {shown(right.get(key))}" for key in keys if left.get(key) != right.get(key)
    ]


def setting_of(source) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """What a side's figures depend on besides its seeker: the provider (a deterministic one by name and
    fingerprint, an LLM one by model version), its mode, an LLM provider's reading and the turn cap (None: not
    recorded)."""
    settings = run_settings(source)
    provider = source.pairs[0][0].provider
    name = str(settings.get("provider.name") or provider.name)
    offline = provider.model is None and not settings.get("provider.model")
    identity = (
        f"{name} ({(provider.fingerprint or '')[:12]})"
        if offline and provider.fingerprint
        else (name if offline else str(provider.model or settings.get("provider.model")))
    )
    released = str(settings.get("provider.settings.source") or "")
    mode = settings.get("provider.mode") or ("multi" if "multi_info" in released else "single")
    return {
        "provider": identity,
        "provider mode": str(mode).replace("multi-info", "multi"),
        "provider reading": provider_reading(settings, name),
        "turn cap": settings.get("max_turns"),
    }


def provider_reading(settings: dict[str, object], name: str) -> str | None:
    """Who decided what an LLM provider revealed: `model` (its model; the released provider's files too) or `strict`
    (the offline provider's reading as well); `unrecorded` for a run made before clarq recorded it, which is not
    taken for either; None for a provider without a reading (offline, an import path)."""
    if recorded_kind(name) != "llm":
        return None
    recorded = settings.get("provider.options.reading") or settings.get("provider.settings.options.reading")
    if recorded:
        return str(recorded)
    return "model" if settings.get("provider.settings.source") else "unrecorded"


def setting_conflicts(a, b) -> list[str]:  # type: ignore[no-untyped-def]
    """`provider: offline (e4183259) -> gpt-4o-2024-05-13` for each setting that makes the two sides' figures
    incomparable (an unrecorded turn cap is not counted as a difference; an unrecorded provider reading is)."""
    left, right = setting_of(a), setting_of(b)
    return [
        f"{key}: {left[key]} -> {right[key]}"
        for key in left
        if left[key] != right[key] and left[key] is not None and right[key] is not None
    ]
