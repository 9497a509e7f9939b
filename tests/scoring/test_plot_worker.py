"""The plots drawn by the worker process are the very files drawn here; a worker that cannot start leaves them to
this process, and a failed write is the same one-line error either way."""

from __future__ import annotations

from pathlib import Path

import pytest
from leaderboard_runs import sample_tasks, scripted_transcript

from clarq_bench.core.errors import ClarqError
from clarq_bench.scoring import report
from clarq_bench.scoring.judge import judge_deterministic
from clarq_bench.scoring.metrics import summarize


@pytest.fixture(scope="module")
def judged():
    tasks = sample_tasks()
    transcripts = [scripted_transcript(task, drop=i % 2) for i, task in enumerate(tasks)]
    verdicts = [judge_deterministic(t, task) for t, task in zip(transcripts, tasks, strict=True)]
    return summarize(verdicts, resamples=50), verdicts


def test_the_workers_plots_are_the_files_drawn_here(tmp_path: Path, judged) -> None:
    summary, verdicts = judged
    here = report.write_plots(summary, tmp_path / "here", verdicts, {1: "Find"})
    worker = report.PlotWorker()
    there = worker.draw(summary, tmp_path / "there", verdicts, {1: "Find"})
    assert worker._executor is None  # closed once the plots are drawn
    assert [p.name for p in there] == [p.name for p in here]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(here, there, strict=True))


def test_a_worker_that_cannot_start_leaves_the_plots_to_this_process(
    tmp_path: Path, judged, monkeypatch: pytest.MonkeyPatch
) -> None:
    import concurrent.futures

    def refuse(*args, **kwargs):
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refuse)
    summary, verdicts = judged
    written = report.write_report(summary, tmp_path, verdicts=verdicts, plotter=report.PlotWorker())
    assert {p.name for p in written} >= {"success_by_required.png", "success_by_type.png", "report.md"}


def test_a_failed_plot_write_is_one_line(tmp_path: Path, judged) -> None:
    summary, verdicts = judged
    (tmp_path / "success_by_required.png").mkdir()  # the plot's path is a folder: writing it fails in the worker
    with pytest.raises(ClarqError, match="cannot write the plots into"):
        report.write_report(summary, tmp_path, verdicts=verdicts, plotter=report.PlotWorker())
