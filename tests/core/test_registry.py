"""The generic Registry: decorator, lazy import strings, entry points loaded once on a miss, helpful misses."""

from __future__ import annotations

import importlib.metadata

import pytest

from clarq_bench.core.errors import ClarqError
from clarq_bench.core.registry import Registry, import_object, looks_like_import_path


def test_decorator_registers_and_duplicates_are_refused() -> None:
    kinds: Registry[type] = Registry("widget")

    @kinds.register("round")
    class Round:
        pass

    assert kinds.get("round") is Round
    with pytest.raises(ClarqError, match="widget 'round' is already registered"):
        kinds.add("round", object)
    with pytest.raises(ClarqError, match="already registered"):
        kinds.add_lazy("round", "collections:OrderedDict")


def test_lazy_string_is_imported_on_first_use_only() -> None:
    kinds: Registry[object] = Registry("widget")
    kinds.add_lazy("ordered", "collections:OrderedDict")
    kinds.add_lazy("broken", "no_such_module_xyz:Thing")
    from collections import OrderedDict

    assert "ordered" in kinds and kinds.names() == ["broken", "ordered"]
    assert kinds.get("ordered") is OrderedDict
    with pytest.raises(ClarqError, match="cannot import module 'no_such_module_xyz'"):
        kinds.get("broken")


def test_unknown_name_lists_close_matches_and_every_choice() -> None:
    kinds: Registry[int] = Registry("seeker")
    for number, name in enumerate(["heuristic", "oracle", "no-question"]):
        kinds.add(name, number)
    with pytest.raises(ClarqError) as caught:
        kinds.get("heuristik")
    message = str(caught.value)
    assert "unknown seeker 'heuristik'" in message and "did you mean heuristic?" in message
    assert "known: heuristic, no-question, oracle" in message
    assert "did you mean" not in str(kinds.unknown("zzzzzz"))


def test_entry_points_load_once_on_a_miss_and_never_override(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    points = [
        importlib.metadata.EntryPoint(name="plugged", value="collections:Counter", group="clarq.test"),
        importlib.metadata.EntryPoint(name="local", value="collections:deque", group="clarq.test"),
    ]

    def fake_entry_points(*, group: str) -> list[importlib.metadata.EntryPoint]:
        calls.append(group)
        return [point for point in points if point.group == group]

    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points)
    kinds: Registry[object] = Registry("widget", entry_point_group="clarq.test")
    kinds.add("local", dict)
    assert kinds.get("local") is dict and calls == []  # a hit never loads entry points
    from collections import Counter

    assert kinds.get("plugged") is Counter
    assert "missing" not in kinds
    assert kinds.get("local") is dict  # the registered one wins over the entry point of the same name
    assert calls == ["clarq.test"]


def test_import_paths() -> None:
    assert looks_like_import_path("pkg.mod:Class") and not looks_like_import_path("gpt-4o")
    assert not looks_like_import_path("openai/gpt-4o") and not looks_like_import_path("a:")
    assert import_object("os.path:join") is __import__("os").path.join
    with pytest.raises(ClarqError, match="has no attribute 'Nope'"):
        import_object("os:Nope")
    with pytest.raises(ClarqError, match="bad import path"):
        import_object("os")


def test_one_provider_rule_names_every_kind_and_refuses_the_rest() -> None:
    """provider/registry.py is where a provider name is decided (the runner, setup, identity, fidelity, verify and
    consistency all ask it): offline names, `llm` with a model, an import path, a model name; nothing else."""
    from clarq_bench.core.errors import ClarqError
    from clarq_bench.core.provider_names import recorded_kind
    from clarq_bench.provider.registry import resolve_provider

    assert resolve_provider("offline-e5")[:4] == ("offline", "offline-e5", None, True)
    assert resolve_provider("llm", "openai/m")[:3] == ("llm", "llm", "openai/m")
    assert resolve_provider("gpt-4o")[:3] == ("llm", "gpt-4o", "gpt-4o")
    assert resolve_provider("runner_helpers:TreeWalkingProvider").kind == "import"
    assert resolve_provider("nowhere.at_all:Thing", check_import=False).kind == "import"
    assert (
        resolve_provider("offline").fingerprint("single") and resolve_provider("gpt-4o").fingerprint("single") is None
    )
    for bad, message in (
        ("gtp-4o", "unknown provider 'gtp-4o'"),
        ("llm", "needs a model"),
        ("offline-e6", "unknown provider"),
        ("", "unknown provider"),
    ):
        with pytest.raises(ClarqError, match=message):
            resolve_provider(bad)
    with pytest.raises(ClarqError, match="cannot import module"):
        resolve_provider("nowhere.at_all:Thing")
    assert [recorded_kind(n) for n in ("offline", "x.y:Z", "gpt-4o", "gtp-4o")] == ["offline", "import", "llm", "llm"]


def test_offline_fingerprint_covers_the_offline_package_and_what_it_shares_only() -> None:
    """The fingerprint follows imports into provider/offline/ and back up to the shared modules (a missed module
    would let a changed decision pass verify); it never takes in the LLM provider or the name registry."""
    from pathlib import Path

    from clarq_bench.provider import identity

    root = Path(identity.__file__).resolve().parent
    names = {p.relative_to(root).as_posix() for p in identity.offline_sources() if p.suffix == ".py"}
    assert {f"offline/{p.name}" for p in (root / "offline").glob("*.py")} <= names
    assert {"focus.py", "answering.py", "screen.py", "lexical.py", "intents.py", "replies.py", "base.py"} <= names
    assert not names & {"llm_provider.py", "registry.py", "factory.py", "identity.py", "human.py", "leakage.py"}
