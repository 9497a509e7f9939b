"""The figures a submission records, computed one way for packing and verification, and compared field by field.

Figures = metrics.summarize over the verdicts (success, AQD, AQL with seeded bootstrap intervals, breakdowns) plus
the cost per language and role added up from the transcripts. Verification recomputes them with the bootstrap
settings the submission recorded (bounded, so a submission cannot ask for a billion resamples).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from ..core.defaults import DEFAULT_RESAMPLES
from ..core.transcript import Transcript
from ..scoring.judge import Verdict

MAX_RESAMPLES = 10000
#: Figures renamed since submissions were first packed: old name -> the name written now. The old `success_eff`
#: charged turns only; verification recomputes `efficiency` from the transcripts instead of comparing the two.
RENAMED = {"success_eff": "efficiency"}


def cost_of(transcripts: Sequence[Transcript]) -> dict[str, Any]:
    """Dollars and tokens: total, per language and per role, as the transcripts recorded them."""
    total = 0.0
    tokens = 0
    by_language: dict[str, float] = defaultdict(float)
    by_role: dict[str, float] = defaultdict(float)
    for transcript in transcripts:
        for role, usage in transcript.usage.items():
            total += usage.cost_usd
            tokens += usage.prompt_tokens + usage.completion_tokens
            by_language[transcript.language] += usage.cost_usd
            by_role[role] += usage.cost_usd
    return {
        "total_usd": round(total, 6),
        "tokens": tokens,
        "by_language": {k: round(v, 6) for k, v in sorted(by_language.items())},
        "by_role": {k: round(v, 6) for k, v in sorted(by_role.items())},
    }


def compute_metrics(
    transcripts: Sequence[Transcript],
    verdicts: Sequence[Verdict],
    *,
    split: str = "test",
    seed: int | None = None,
    resamples: int = DEFAULT_RESAMPLES,
) -> dict[str, Any]:
    """The submission's `metrics` block (JSON-ready)."""
    from ..scoring.metrics import summarize
    from ..scoring.stats import DEFAULT_SEED

    summary = summarize(verdicts, split=split, seed=DEFAULT_SEED if seed is None else seed, resamples=resamples)
    # task_set is named from the task data where the figures are shown; it is no figure verify could recompute
    return {"summary": summary.model_dump(mode="json", exclude={"task_set"}), "cost": cost_of(transcripts)}


def bootstrap_settings(metrics: dict[str, Any]) -> tuple[int, int]:
    """(seed, resamples) a metrics block was computed with, clamped to sane bounds."""
    from ..scoring.stats import DEFAULT_SEED

    boot = (metrics.get("summary") or {}).get("bootstrap") or {}
    seed = boot.get("seed", DEFAULT_SEED)
    resamples = boot.get("resamples", DEFAULT_RESAMPLES)
    seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else DEFAULT_SEED
    resamples = resamples if isinstance(resamples, int) and 1 <= resamples <= MAX_RESAMPLES else DEFAULT_RESAMPLES
    return seed, resamples


def token_unit_differs(metrics: dict[str, Any]) -> str | None:
    """The recorded token unit when it is not this machine's (its token figures then cannot be verified), else None."""
    from ..scoring.lengths import token_counter

    recorded = (metrics.get("summary") or {}).get("token_unit")
    return None if recorded == token_counter().unit else str(recorded)


def without_token_figures(metrics: Any) -> Any:
    """A copy of a metrics block with every token figure left out: what a verified row may show when verify could
    not compare them (another tokenizer), so no unchecked figure sits in a row marked verified."""
    if isinstance(metrics, dict):
        return {k: without_token_figures(v) for k, v in metrics.items() if k != "aql_tokens"}
    if isinstance(metrics, list):
        return [without_token_figures(v) for v in metrics]
    return metrics


def old_names(metrics: Any) -> set[str]:
    """The renamed figures a metrics block still carries under an old name."""
    if isinstance(metrics, dict):
        found = {k for k in metrics if k in RENAMED and RENAMED[k] not in metrics}
        return found.union(*(old_names(v) for v in metrics.values()))
    if isinstance(metrics, list):
        return set().union(*(old_names(v) for v in metrics))
    return set()


def current_names(metrics: Any) -> Any:
    """A copy of a metrics block with every old figure name read as the current one (an unverified row's figures)."""
    if isinstance(metrics, dict):
        renamed = {RENAMED[k] if k in RENAMED and RENAMED[k] not in metrics else k: v for k, v in metrics.items()}
        return {k: current_names(v) for k, v in renamed.items()}
    if isinstance(metrics, list):
        return [current_names(v) for v in metrics]
    return metrics


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def differences(recorded: Any, recomputed: Any, path: str = "metrics", *, skip: tuple[str, ...] = ()) -> Iterator[str]:
    """One line per leaf that differs between what a submission recorded and what its transcripts give."""
    if isinstance(recorded, dict) and isinstance(recomputed, dict):
        for key in list(recomputed) + [k for k in recorded if k not in recomputed]:
            if key in skip:
                continue
            where = f"{path}.{key}"
            if key not in recorded:
                yield f"{where} is missing (transcripts give {_short(recomputed[key])})"
            elif key not in recomputed:
                yield f"{where} is not a recognised figure (recorded {_short(recorded[key])})"
            else:
                yield from differences(recorded[key], recomputed[key], where, skip=skip)
    elif isinstance(recorded, list) and isinstance(recomputed, list) and len(recorded) == len(recomputed):
        for index, (a, b) in enumerate(zip(recorded, recomputed)):
            key = b.get("key") if isinstance(b, dict) else None
            yield from differences(a, b, f"{path}[{key or index}]", skip=skip)
    elif not _same(recorded, recomputed):
        yield f"{path}: recorded {_short(recorded)} but the transcripts give {_short(recomputed)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
