"""A run's two sides are resolved once, at the door (runner/prepared.py), and its config stamped once: the key
check, the identical-run warning, the stamp and every dialogue reuse the two specs. The test counts calls of the
resolvers wherever they are looked up, so a second resolution anywhere in `clarq.run` fails it."""

from __future__ import annotations

from pathlib import Path

import pytest
from upstream_paths import SAMPLE_TASKS

import clarq_bench as clarq
import clarq_bench.provider.registry as provider_registry
import clarq_bench.runner.prepared as prepared
import clarq_bench.runner.run_identity as run_identity
import clarq_bench.seekers.registry as seeker_registry
from clarq_bench.core.errors import ClarqError


def counting(monkeypatch: pytest.MonkeyPatch, calls: list[str]) -> None:
    for name, modules in (
        ("resolve_seeker", (seeker_registry, prepared)),
        ("resolve_provider", (provider_registry, prepared)),
    ):
        real = getattr(seeker_registry if name == "resolve_seeker" else provider_registry, name)

        def wrapped(*args: object, _real=real, _name=name, **kwargs: object) -> object:
            calls.append(_name)
            return _real(*args, **kwargs)

        for module in modules:
            monkeypatch.setattr(module, name, wrapped)
    real_stamp = run_identity.stamp_config

    def stamp(*args: object, **kwargs: object) -> object:
        calls.append("stamp")
        return real_stamp(*args, **kwargs)

    monkeypatch.setattr(prepared, "stamp_config", stamp)


def test_a_run_resolves_each_side_once_and_stamps_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    counting(monkeypatch, calls)
    seen: list[int] = []
    result = clarq.run(
        seeker="heuristic",
        provider="offline",
        tasks=str(SAMPLE_TASKS),
        lang="en",
        limit=3,
        trials=2,
        runs_dir=tmp_path / "runs",
        no_progress=True,
        on_run_dir=lambda folder, identical: seen.append(len(identical)),
    )
    assert result.stats.done == 6 and seen == [0]
    assert calls == ["resolve_seeker", "resolve_provider", "stamp"]
    assert result.summary is not None


def test_resume_resolves_once_too_and_a_bad_name_stops_before_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = clarq.run(
        seeker="oracle",
        provider="offline",
        tasks=str(SAMPLE_TASKS),
        lang="en",
        limit=2,
        runs_dir=tmp_path / "runs",
        no_progress=True,
    )
    calls: list[str] = []
    counting(monkeypatch, calls)
    again = clarq.run(resume=first.run_dir, no_progress=True)
    assert again.stats.skipped == 2 and calls == ["resolve_seeker", "resolve_provider", "stamp"]
    with pytest.raises(ClarqError, match="unknown seeker 'heuristc'"):
        clarq.run(seeker="heuristc", provider="offline", tasks=str(SAMPLE_TASKS), runs_dir=tmp_path / "other")
    assert not (tmp_path / "other").exists()
