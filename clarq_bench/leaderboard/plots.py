"""PNG charts for a submission page: success per task type and success against the number of required nodes.

matplotlib is imported inside the function with the Agg backend (no display), so the CLI stays fast to start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _bars(ax: Any, groups: list[dict[str, Any]], title: str, xlabel: str) -> None:
    labels = [str(g.get("key", "")).split("=", 1)[-1] for g in groups]
    values = [(g.get("success") or {}).get("value") or 0.0 for g in groups]
    lows = [(g.get("success") or {}).get("low") for g in groups]
    highs = [(g.get("success") or {}).get("high") for g in groups]
    err = [
        [max(0.0, v - (lo if lo is not None else v)) for v, lo in zip(values, lows)],
        [max(0.0, (hi if hi is not None else v) - v) for v, hi in zip(values, highs)],
    ]
    ax.bar(range(len(values)), values, color="#3f6fb5", yerr=err, capsize=2, ecolor="#777")
    ax.set_xticks(range(len(values)), labels, fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("success")
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)


def write_plots(summary: dict[str, Any], out_dir: Path, stem: str) -> list[str]:
    """Write `<stem>-types.png` and `<stem>-required.png` into out_dir; returns the file names written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    charts = [
        ("types", summary.get("by_type") or [], "Success per task type (95% CI)", "task type", (8, 3)),
        ("required", summary.get("by_required") or [], "Success by required nodes (95% CI)", "required nodes", (5, 3)),
    ]
    for name, groups, title, xlabel, size in charts:
        if not groups:
            continue
        fig, ax = plt.subplots(figsize=size, dpi=100)
        _bars(ax, groups, title, xlabel)
        fig.tight_layout()
        file_name = f"{stem}-{name}.png"
        fig.savefig(out_dir / file_name)
        plt.close(fig)
        written.append(file_name)
    return written
