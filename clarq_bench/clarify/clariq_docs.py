"""ClariQ's document relevance (its Table 5: MRR@100, P@1, nDCG@3, nDCG@5), only from the official tool's evaluation
pickle that the user supplies: the documents retrieved once a question and its answer are added to the request were
scored in advance by ClariQ's authors, per facet and question, and the pickle holds those figures.

As the tool reads it: `figures[metric][facet_id][question_id]["with_answer"]`, plus a "MIN" entry per facet. Each
facet of the split that the pickle covers takes the run's top question for its topic (highest score; among equal
top scores the last in file order, which is what a stable sort gives: the tool's own sort does not fix that
choice, so a run with tied top scores may differ there; clarq's exported runs have none); "MAX" is read as "MIN"; a
question the pickle does not list scores the facet's "MIN"; a topic the run leaves out scores 0. The figure is the
mean over facets. A pickle can run code when loaded, so only plain containers, numbers and strings (and numpy
scalars) are accepted: anything else is refused in one line.
"""

from __future__ import annotations

import io
import pickle
from collections.abc import Iterable
from pathlib import Path

from ..core.errors import DataError
from .clariq_data import ClariqTopic
from .clariq_score import RunLine

METRICS = ("MRR100", "P1", "NDCG3", "NDCG5")
_ALLOWED = (
    {("builtins", name) for name in ("dict", "list", "tuple", "set", "frozenset", "float", "int", "str")}
    | {(module, name) for module in ("numpy.core.multiarray", "numpy._core.multiarray") for name in ("scalar",)}
    | {("numpy", "dtype")}
)


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):  # type: ignore[no-untyped-def]
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"refusing {module}.{name}")
        return super().find_class(module, name)


def load_figures(path: Path) -> dict:
    """The tool's evaluation pickle, read without running anything it might carry."""
    try:
        blob = Path(path).read_bytes()
    except FileNotFoundError:
        raise DataError(str(path), "no such file") from None
    try:
        figures = _PlainUnpickler(io.BytesIO(blob)).load()
    except Exception as exc:  # noqa: BLE001 - any failure of an untrusted file is the same one-line error
        raise DataError(str(path), f"not ClariQ's evaluation pickle ({type(exc).__name__}: {exc})") from None
    if not isinstance(figures, dict) or not any(m in figures for m in METRICS):
        raise DataError(str(path), f"not ClariQ's evaluation pickle (no {', '.join(METRICS)} figures)")
    return figures


def top_questions(lines: Iterable[RunLine]) -> dict[str, str]:
    """topic -> its highest-scored question (the last in file order among equal top scores)."""
    best: dict[str, RunLine] = {}
    for line in lines:
        if line.topic not in best or line.score >= best[line.topic].score:
            best[line.topic] = line
    return {topic: line.question for topic, line in best.items()}


def document_relevance(topics: list[ClariqTopic], lines: Iterable[RunLine], figures: dict) -> dict[str, float]:
    """Mean over the split's facets that the pickle covers, per metric the pickle holds."""
    facet_topic = {facet: t.id for t in topics for facet in t.facets}
    chosen = top_questions(lines)
    out = {}
    for metric, per_facet in figures.items():
        if not isinstance(per_facet, dict):
            raise DataError("evaluation pickle", f"{metric!r} does not map facets to figures")
        values = []
        for facet, by_question in per_facet.items():
            if facet not in facet_topic:
                continue
            question = chosen.get(facet_topic[facet])
            if question is None:
                values.append(0.0)
                continue
            question = "MIN" if question == "MAX" else question
            entry = by_question.get(question, by_question.get("MIN"))
            try:
                values.append(float(entry["with_answer"]))
            except (TypeError, KeyError, ValueError):
                raise DataError("evaluation pickle", f"{metric} {facet}: no 'with_answer' figure") from None
        if values:
            out[metric] = sum(values) / len(values)
    return out
