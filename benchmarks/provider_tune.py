"""Refit the offline provider's matcher (clarq_bench/provider/matcher.py) on released dialogues of types 1-13.

Usage: python benchmarks/provider_tune.py [RESULTS_DIR]   (default ../shared/clarq-llm-upstream/results)
Prints the weights, bias and threshold to paste into matcher.py. Types 14-26 are never read here.
Labels follow the reference's selection rule: in single-info files the revealed node is positive and the frontier
nodes before it negative (later ones are unknown and skipped); in the multi-info file every frontier node is
labelled by whether it was revealed. A turn that revealed nothing makes its whole frontier negative.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from clarq_bench.provider.lexical import TaskIndex
from clarq_bench.provider.matcher import FEATURES, node_features
from clarq_bench.provider_eval import load_dialogues, replay_steps

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "clarq-llm-upstream" / "results"
TUNING_TYPES = range(1, 14)


def collect(files: list[Path]) -> list[tuple[list[str], list[str], np.ndarray]]:
    steps = []
    for file in files:
        for dialogue in load_dialogues(file, types=TUNING_TYPES):
            index = TaskIndex(dialogue.task.tree, dialogue.task.language)
            for step in replay_steps(dialogue):
                rows = node_features(index, step.prefix[-1].text, step.frontier)
                matrix = np.array([[row[name] for name in FEATURES] for row in rows], float).reshape(-1, len(FEATURES))
                steps.append((step.frontier, step.reference, matrix))
    return steps


def examples(steps, multi: bool):
    xs, ys = [], []
    for frontier, reference, matrix in steps:
        for node_id, row in zip(frontier, matrix):
            xs.append(row)
            ys.append(float(node_id in reference))
            if not multi and node_id in reference:
                break
    return np.array(xs), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iterations: int = 3000) -> tuple[np.ndarray, float]:
    """L2 logistic regression by gradient descent on standardised features; returns raw-scale weights and bias."""
    mean, std = x.mean(0), x.std(0) + 1e-9
    z = np.hstack([(x - mean) / std, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-z @ w))
        w -= (z.T @ (p - y) / len(y) + l2 * np.r_[w[:-1], 0] / len(y))
    raw = w[:-1] / std
    return raw, float(w[-1] - np.sum(w[:-1] * mean / std))


def agreement(steps, weights, bias, threshold, multi: bool) -> float:
    agree = 0
    for frontier, reference, matrix in steps:
        p = 1 / (1 + np.exp(-(matrix @ weights + bias))) if len(frontier) else np.array([])
        chosen = [n for n, v in zip(frontier, p) if v >= threshold]
        agree += sorted(chosen if multi else chosen[:1]) == sorted(reference)
    return agree / len(steps)


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    files = sorted(folder.glob("*.json"))
    for name, multi in (("SINGLE_INFO", False), ("MULTI_INFO", True)):
        chosen = [f for f in files if ("multi_info" in f.name) == multi]
        steps = collect(chosen)
        weights, bias = fit(*examples(steps, multi))
        thresholds = [t / 40 for t in range(4, 36)]
        best = max(thresholds, key=lambda t: agreement(steps, weights, bias, t, multi))
        print(f"{name}: {len(steps)} steps, agreement on types 1-13 {agreement(steps, weights, bias, best, multi):.4f}")
        print("  weights=" + repr({k: round(float(v), 4) for k, v in zip(FEATURES, weights)}))
        print(f"  bias={bias:.4f}, threshold={best}")


if __name__ == "__main__":
    main()
