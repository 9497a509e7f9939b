"""Prepared readers kept on disk between processes (provider/prepared_store.py): read back they decide exactly as
readers built afresh; a cut, foreign or unreadable file, a read-only folder or the switch turned off only cost the
time saved; another version of the code never reads them."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
from test_provider_offline import EN_NODES, ZH_NODES, dialogue, make_task

import clarq_bench.provider.prepared as prepared_module
from clarq_bench.provider import prepared_store
from clarq_bench.provider.offline.provider import OfflineProvider

ASKS = {
    "en": ["Which mine has rubies?", "How do I enter the mine?", "How do I stun the monsters?", "Any tips?"],
    "zh": ["我应该去哪个山脉挖胡萝卜？", "去哪个山脉的高处制造烟雾？", "还有什么？"],
}
NODES = {"en": EN_NODES, "zh": ZH_NODES}


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty store in a folder of the test's own, and no readers in memory."""
    monkeypatch.setenv("CLARQ_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(prepared_store.ENV_SWITCH, raising=False)
    monkeypatch.setattr(prepared_module, "_PREPARED", type(prepared_module._PREPARED)())
    return tmp_path / "prepared" / str(prepared_store.code_digest())


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle")) if folder.is_dir() else []


def replies(language: str) -> list[object]:
    """What a fresh provider of the language's task answers to each ask, in order."""
    task = make_task(language, NODES[language])
    provider = OfflineProvider(task)
    opening = "I need help with the task." if language == "en" else "我需要帮助完成任务。"
    root = provider.decide(dialogue((opening, None)))
    return [root, *(provider.decide(dialogue((opening, root), (ask, None))) for ask in ASKS[language])]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_readers_read_back_decide_as_readers_built_afresh(store: Path, monkeypatch, language: str) -> None:
    built = replies(language)
    assert len(entries(store)) == 1
    prepared_module._PREPARED.clear()  # a new process: nothing in memory, the store on disk

    def never(task: object) -> object:
        raise AssertionError("read back from the store, not built")

    monkeypatch.setattr(prepared_module, "_prepare", never)
    assert replies(language) == built
    assert any(reply.revealed for reply in built[1:])  # (a real comparison: some asks reveal a node)


def test_a_cut_or_foreign_file_is_ignored_and_written_again(store: Path) -> None:
    built = replies("en")
    (entry,) = entries(store)
    for spoiled in (entry.read_bytes()[:100], pickle.dumps({"not": "readers"}), b""):
        entry.write_bytes(spoiled)
        prepared_module._PREPARED.clear()
        assert replies("en") == built
        assert pickle.loads(entry.read_bytes()).__class__ is prepared_module.PreparedTask


def test_switched_off_nothing_is_read_or_written(store: Path, monkeypatch) -> None:
    monkeypatch.setenv(prepared_store.ENV_SWITCH, "0")
    replies("en")
    assert not store.exists()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a folder this user cannot write")
def test_a_folder_it_cannot_write_costs_nothing_but_time(store: Path) -> None:
    store.parent.mkdir(parents=True)
    store.parent.chmod(0o500)
    try:
        built = replies("en")
        assert built and not store.exists()
    finally:
        store.parent.chmod(0o700)


def test_a_file_in_the_way_costs_nothing_but_time(store: Path) -> None:
    store.parent.mkdir(parents=True)
    store.write_bytes(b"a file where the folder goes")
    assert replies("en")
    assert store.is_file()


def test_another_version_of_the_code_never_reads_them_and_old_versions_are_pruned(store: Path, monkeypatch) -> None:
    replies("en")
    root = store.parent
    for number, version in enumerate(["v1", "v2", "v3", "v4"]):
        prepared_module._PREPARED.clear()
        monkeypatch.setattr(prepared_store, "code_digest", lambda version=version: version)
        replies("en")
        assert len(entries(root / version)) == 1  # built and stored anew, not read from another version
        os.utime(root / version, (1_000_000 + number, 1_000_000 + number))
    kept = sorted(p.name for p in root.iterdir())
    assert len(kept) == prepared_store.KEPT_VERSIONS and "v4" in kept
