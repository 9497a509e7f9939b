"""Offline-track summary.json files written by hand for the leaderboard's track table (no released data needed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HOSTILE_NAME = "<img src=x onerror=alert(1)>"


def estimate(value: float | None, low: float | None = None, high: float | None = None, n: int = 10) -> dict[str, Any]:
    return {"value": value, "low": low, "high": high, "n": n}


def track_summary(
    seeker: str,
    language: str = "en",
    *,
    mrr: float = 0.5,
    f1: float = 0.25,
    intervals: bool = True,
    states: int = 12,
    tasks: int = 3,
) -> dict[str, Any]:
    """A clarify-offline summary as `clarq select` writes it; nDCG@3, OLAR and LAR are derived from `mrr` so each
    column orders the rows the same way, each with an interval of +-0.05."""
    figures = {
        "mrr": mrr,
        "p@1": mrr / 2,
        "ndcg@3": mrr * 0.8,
        "ndcg@5": mrr * 0.7,
        "recall@10": mrr,
        "recall@20": mrr,
        "recall@30": mrr,
        "lar": mrr * 0.6,
        "olar": mrr * 0.5,
        "list_length": 2.0,
    }
    selection = {k: estimate(v, max(v - 0.05, 0.0), min(v + 0.05, 1.0), n=states - 2) for k, v in figures.items()}
    selection["list_length"] = estimate(2.0, 1.5, 2.5, n=states - 2)
    payload = {
        "track": "clarify-offline",
        "seeker": seeker,
        "language": language,
        "tasks": tasks,
        "states": states,
        "needed_states": states - 2,
        "bank": {"released": 10, "explanation": 5, "content_free": 2},
        "selection": selection,
        "need": {"precision": 0.3, "recall": 0.2, "f1": f1, "mse": 2.0},
        "need_binary": {"precision": 0.8, "recall": 1.0, "f1": 0.9},
        "need_mse": estimate(2.0, 1.5, 2.5, n=states),
        "random_expectation": {"mrr": {"mean": 0.16, "sd": 0.05}},
        "errors": 0,
    }
    if intervals:
        payload["need_intervals"] = {"f1": estimate(f1, f1 - 0.1, f1 + 0.1, n=states)}
    return payload


def write_json(path: Path, payload: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path
