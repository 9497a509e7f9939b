"""Offline vs online, an analogue of MIMICS-Duo's question (not its analysis, which mimics_duo.py computes on its
released labels): do a seeker's offline track scores agree with its dialogue outcomes?

For each run folder (a `clarq run` of some seeker), the same seeker is put through the offline track on the tasks
that run played (same language, same data): per task, the offline figures (question-ranking MRR, nDCG@3, OLAR, averaged over the
task's states that need a question) are paired with the online ones (success, share of required nodes obtained,
AQD, averaged over trials). Reported: Pearson, Spearman and Kendall per seeker across tasks, pooled over every
(seeker, task) pair, and across seekers on their means; and whether the two leaderboards order the seekers alike
(Kendall's tau between them, and the two orders). Online success and nodes are higher-better, AQD lower-better.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..core.errors import ClarqError
from ..core.run_config import RunConfig
from ..core.run_folder import RunDir
from ..scoring.sources import judge_source, load_run
from .coefficients import all_three, kendall_tau_b
from .track import SelectOptions, select

OFFLINE = ("mrr", "ndcg@3", "olar")
ONLINE = ("success", "nodes", "aqd")


class SeekerTrack(BaseModel):
    """One seeker's per-task figures in both tracks (tasks it played, in the bank)."""

    seeker: str
    run_dir: str
    offline: dict[str, dict[str, float]]  # task id -> figure -> value
    online: dict[str, dict[str, float]]

    def means(self) -> dict[str, float]:
        tasks = sorted(set(self.offline) & set(self.online))
        out = {}
        for side, names in ((self.offline, OFFLINE), (self.online, ONLINE)):
            for name in names:
                out[name] = sum(side[t][name] for t in tasks) / len(tasks) if tasks else 0.0
        return out


class CorrelationReport(BaseModel):
    track: str = "clarify-offline-vs-online"
    seekers: list[SeekerTrack]
    per_seeker: dict[str, dict[str, dict[str, Any]]]  # seeker -> "offline~online" -> coefficients
    pooled: dict[str, dict[str, Any]]
    across_seekers: dict[str, dict[str, Any]]
    leaderboards: dict[str, Any]


def online_by_task(run_dir: Path, data: str | None) -> tuple[RunConfig, dict[str, dict[str, float]]]:
    config = RunDir(run_dir).config()
    verdicts = asyncio.run(judge_source(load_run(run_dir, data), None, "none"))
    grouped: dict[str, list] = defaultdict(list)
    for verdict in verdicts:
        grouped[verdict.task_id].append(verdict)
    out = {}
    for task_id, items in grouped.items():
        out[task_id] = {
            "success": sum(v.success for v in items) / len(items),
            "nodes": sum(v.obtained_count / max(1, v.required_count) for v in items) / len(items),
            "aqd": sum(v.aqd for v in items) / len(items),
        }
    return config, out


def offline_by_task(
    config: RunConfig, tasks: list[str], *, data: str | None, results: str | None, llm: dict[str, Any]
) -> dict[str, dict[str, float]]:
    seeker = config.seeker
    name = seeker.model if seeker.name == "llm" and seeker.model else seeker.name
    out: dict[str, dict[str, float]] = {}
    for language in ("en", "zh"):
        wanted = [t for t in tasks if t.startswith(f"{language}/")]
        if not wanted:
            continue
        options = SelectOptions(
            seeker=name,
            seeker_model=seeker.model,
            seeker_options=seeker.options,
            lang=language,
            data=data or config.data_dir,
            results=results,
            task_ids=wanted,
            write=False,
            chance=False,
            resamples=1,
            llm=llm,
        )
        sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        counts: dict[str, int] = defaultdict(int)
        for result in select(options).results:
            if result.figures:
                counts[result.task_id] += 1
                for figure in OFFLINE:
                    sums[result.task_id][figure] += result.figures[figure]
        out.update({t: {f: sums[t][f] / counts[t] for f in OFFLINE} for t in counts})
    return out


def correlate(
    run_dirs: list[str | Path],
    *,
    data: str | None = None,
    results: str | None = None,
    llm: dict[str, Any] | None = None,
) -> CorrelationReport:
    if len(run_dirs) < 1:
        raise ClarqError("no run folders given", "pass one `clarq run` folder per seeker")
    tracks: list[SeekerTrack] = []
    for run_dir in map(Path, run_dirs):
        if not RunDir(run_dir).is_run():
            raise ClarqError(f"{run_dir} is not a run folder (no config.json)", "pass folders written by `clarq run`")
        config, online = online_by_task(run_dir, data)
        offline = offline_by_task(config, sorted(online), data=data, results=results, llm=llm or {})
        label = config.seeker.model or config.seeker.name
        if any(track.seeker == label for track in tracks):
            label = f"{label} ({run_dir.name})"
        tracks.append(SeekerTrack(seeker=label, run_dir=str(run_dir), offline=offline, online=online))
    per_seeker = {track.seeker: pairings([track]) for track in tracks}
    means = [track.means() for track in tracks]
    across = {f"{a}~{b}": all_three([m[a] for m in means], [m[b] for m in means]) for a in OFFLINE for b in ONLINE}
    boards: dict[str, Any] = {}
    for name in (*OFFLINE, *ONLINE):
        sign = 1 if name != "aqd" else -1  # AQD: fewer extra turns is better
        boards[name] = [t.seeker for _, t in sorted(zip(means, tracks), key=lambda p: -sign * p[0][name])]
    boards["agreement"] = {
        f"{a}~{b}": {
            "kendall": kendall_tau_b([m[a] for m in means], [(m[b] if b != "aqd" else -m[b]) for m in means]),
            "same_order": boards[a] == boards[b],
        }
        for a in OFFLINE
        for b in ONLINE
    }
    return CorrelationReport(
        seekers=tracks, per_seeker=per_seeker, pooled=pairings(tracks), across_seekers=across, leaderboards=boards
    )


def pairings(tracks: list[SeekerTrack]) -> dict[str, dict[str, Any]]:
    """Coefficients of every offline~online pair over the (seeker, task) pairs both tracks measured."""
    pairs = [(t.offline[k], t.online[k]) for t in tracks for k in sorted(set(t.offline) & set(t.online))]
    return {f"{a}~{b}": all_three([p[0][a] for p in pairs], [p[1][b] for p in pairs]) for a in OFFLINE for b in ONLINE}
