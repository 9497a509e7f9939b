"""The run's ledger under concurrent writers (issue 28's leftover: the run lock covers playing, not scoring).

A scoring may run beside the writer of dialogues (`clarq score` during `clarq run --resume`) and beside another
scoring. Both read spending.json, add their part and rewrite it: without a lock, one side's figure is lost whenever
both read before either writes, and the next resume's --max-cost budget forgets dollars already paid. Real processes,
real files: three scorings and one writer hammer one ledger at once, and every dollar is still there at the end.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from clarq_bench.core import run_guard
from clarq_bench.core.run_guard import add_scoring_spending, read_ledger, save_spending

SCORINGS, ADDS, SAVES, USD = 3, 150, 150, 0.01


def _score(run_dir: str, start: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    start.wait()
    for _ in range(ADDS):
        add_scoring_spending(Path(run_dir), USD)


def _play(run_dir: str, start: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    start.wait()
    for number in range(1, SAVES + 1):
        save_spending(Path(run_dir), number * 0.001)  # the writer's running total of its dialogues


def _race(run_dir: Path) -> tuple[float, float]:
    context = multiprocessing.get_context("fork")
    start = context.Event()
    workers = [context.Process(target=_score, args=(str(run_dir), start)) for _ in range(SCORINGS)]
    workers.append(context.Process(target=_play, args=(str(run_dir), start)))
    for worker in workers:
        worker.start()
    start.set()
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    return read_ledger(run_dir)


def test_scorings_beside_the_writer_lose_no_dollar(tmp_path: Path) -> None:
    dialogues, scoring = _race(tmp_path)
    assert round(scoring, 6) == round(SCORINGS * ADDS * USD, 6)  # every judge's dollars
    assert round(dialogues, 6) == round(SAVES * 0.001, 6)  # the writer's last figure
    assert (tmp_path / "spending.lock").is_file() and not list(tmp_path.glob("*.tmp"))


def test_without_the_lock_the_same_race_loses_dollars(tmp_path: Path, monkeypatch) -> None:
    """The race above is real: with the lock made a no-op, some scoring's figure is overwritten (this guards the
    first test against passing by luck of timing)."""
    from contextlib import nullcontext

    monkeypatch.setattr(run_guard, "ledger_lock", lambda run_dir: nullcontext())
    lost = False
    for attempt in range(5):  # a lost update is all but certain in one round; a few rounds make it so
        folder = tmp_path / str(attempt)
        folder.mkdir()
        _, scoring = _race(folder)
        if round(scoring, 6) < round(SCORINGS * ADDS * USD, 6):
            lost = True
            break
    assert lost
