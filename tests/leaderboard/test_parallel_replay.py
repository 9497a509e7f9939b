"""Verify by replay in worker processes says exactly what replaying here says: the same lines in the same order,
the dialogues other checks failed left out, the trials of a task sharing one built provider."""

from __future__ import annotations

from pathlib import Path

import pytest
from leaderboard_runs import make_run, sample_tasks, scripted_transcript

from clarq_bench.core.transcript import Transcript
from clarq_bench.leaderboard import build_submission
from clarq_bench.leaderboard.replay import PARALLEL_MIN, Replay, replay_all, replay_workers
from clarq_bench.leaderboard.schema import dialogue_key
from clarq_bench.provider.factory import make_provider


def _played(transcript: Transcript, task) -> Transcript:
    """The scripted dialogue's seeker turns with the offline provider's own replies: a dialogue that replays clean."""
    provider = make_provider("offline", task, "single")
    turns = list(transcript.turns)
    for index in range(0, len(turns), 2):
        reply = provider.greeting() if index == 0 else provider.decide(turns[:index])
        turns[index] = reply.to_turn()
    return transcript.model_copy(update={"turns": turns})


@pytest.fixture(scope="module")
def offline_dialogues(tmp_path_factory: pytest.TempPathFactory):
    sub = build_submission(make_run(tmp_path_factory.mktemp("run") / "run"))
    manifest = sub.manifest.model_copy(
        update={"provider": sub.manifest.provider.model_copy(update={"name": "offline"})}
    )
    tasks = {task.id: task for task in sample_tasks()}
    transcripts = []
    for trial in range(2):
        for task in tasks.values():
            transcripts.append(_played(scripted_transcript(task, trial=trial), task))
    # every third dialogue edited: one provider turn says something else
    for i in range(0, len(transcripts), 3):
        turns = list(transcripts[i].turns)
        turns[2] = turns[2].model_copy(update={"text": turns[2].text + " (edited)"})
        transcripts[i] = transcripts[i].model_copy(update={"turns": turns})
    return transcripts, tasks, manifest


def test_workers_give_the_lines_of_the_replay_here(offline_dialogues) -> None:
    transcripts, tasks, manifest = offline_dialogues
    here = replay_all(transcripts, tasks, manifest, skip=set())
    edited = {dialogue_key(t.task_id, t.trial) for t in transcripts[::3]}
    assert len(here) == len(edited) and all(line.startswith("dialogue ") for line in here)
    assert {line.split()[1] for line in here} == edited
    assert Replay(transcripts, tasks, manifest, workers=2).problems(set()) == here

    skip = {dialogue_key(transcripts[0].task_id, transcripts[0].trial)}
    missing = {k: v for k, v in tasks.items() if k != transcripts[3].task_id}
    expected = replay_all(transcripts, missing, manifest, skip=skip)
    assert len(expected) < len(here)
    assert Replay(transcripts, missing, manifest, workers=2).problems(skip) == expected


def test_a_provider_that_cannot_be_built_is_one_line_either_way(offline_dialogues) -> None:
    transcripts, tasks, manifest = offline_dialogues
    unknown = manifest.model_copy(update={"provider": manifest.provider.model_copy(update={"name": "offline-e9"})})
    here = replay_all(transcripts, tasks, unknown, skip=set())
    assert len(here) == 1 and here[0].startswith("cannot replay the offline-e9 provider")
    assert Replay(transcripts, tasks, unknown, workers=2).problems(set()) == here


def test_workers_only_for_many_dialogues(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CLARQ_REPLAY_WORKERS", raising=False)
    assert replay_workers(PARALLEL_MIN - 1) == 0 and replay_workers(PARALLEL_MIN) >= 1
    monkeypatch.setenv("CLARQ_REPLAY_WORKERS", "0")
    assert replay_workers(10_000) == 0


def test_forked_workers_inherit_the_offline_provider_loaded_here() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from clarq_bench.leaderboard import replay\n"
        "name = 'clarq_bench.provider.offline.provider'\n"
        "replay._load_provider('gpt-4o'); replay._load_provider('no such provider')\n"
        "assert name not in sys.modules, 'loaded for an LLM provider'\n"
        "replay._load_provider('offline')\n"
        "assert name in sys.modules, 'not loaded for the offline provider'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
