"""Hand-made run directories for the leaderboard tests: scripted dialogues on the repo's sample tasks (tasks/).

A dialogue asks for each required node in tree order and a "scripted" provider (self-reported: it cannot be
replayed) answers with the node text verbatim, claiming it; `drop` leaves the last `drop` nodes unasked, so the
dialogue fails. No runner or model is involved.
"""

from __future__ import annotations

import json
from pathlib import Path

from upstream_paths import SAMPLE_TASKS

from clarq_bench.core.tasks import Task
from clarq_bench.core.transcript import AgentInfo, EndReason, Intent, ReplyKind, Speaker, Transcript, Turn, Usage
from clarq_bench.data.loader import load_tasks


def sample_tasks(languages=("en", "zh")) -> list[Task]:
    return load_tasks(SAMPLE_TASKS, languages, split="test")


def scripted_transcript(
    task: Task,
    *,
    seeker: str = "scripted",
    drop: int = 0,
    trial: int = 0,
    opening: str | None = None,
    provider: str = "scripted",
    cost: float = 0.0,
) -> Transcript:
    nodes = task.tree.required[: len(task.tree.required) - drop]
    notes = {"model": f"{provider}-model"}  # as the LLM provider records the model version on every reply
    turns = [
        Turn(speaker=Speaker.provider, text="what can help you?", kind=ReplyKind.greeting, notes=notes),
        Turn(speaker=Speaker.seeker, text=opening or f"Hello, I need to do this: {task.brief.task_name}"),
        Turn(speaker=Speaker.provider, text=task.tree.root.text, kind=ReplyKind.root, revealed=["0"], notes=notes),
    ]
    for node in nodes:
        turns.append(Turn(speaker=Speaker.seeker, text=f"Could you tell me more about step {node.id} please?"))
        turns.append(
            Turn(
                speaker=Speaker.provider,
                text=node.text,
                kind=ReplyKind.response_i,
                intent=Intent.answerable,
                revealed=[node.id],
                notes=notes,
            )
        )
    turns.append(Turn(speaker=Speaker.seeker, text="Thanks, goodbye!"))
    return Transcript.of_task(
        task,
        trial=trial,
        seed=8848 + trial,
        seeker=AgentInfo(name=seeker, model="scripted-1"),
        provider=AgentInfo(name=provider),
        turns=turns,
        end_reason=EndReason.goodbye,
        usage={"seeker": Usage(cost_usd=cost, calls=1)},
    )


def write_run(
    run_dir: Path,
    transcripts: list[Transcript],
    tasks: list[Task],
    *,
    provider: dict | None = None,
    max_turns: int = 12,
    trials: int = 1,
    extra: dict | None = None,
) -> Path:
    """A run directory as the runner writes it (config.json + transcripts.jsonl)."""
    from clarq_bench.core.run_folder import tasks_digest

    run_dir.mkdir(parents=True, exist_ok=True)
    config = {
        "data_dir": str(SAMPLE_TASKS),
        "tasks_digest": tasks_digest(tasks),
        "task_ids": [t.id for t in tasks],
        "languages": sorted({t.language for t in tasks}),
        "split": "test",
        "types": None,
        "limit": None,
        "trials": trials,
        "seed": 8848,
        "max_turns": max_turns,
        "seeker": {"name": transcripts[0].seeker.name, "model": "scripted-1", "mode": None},
        "provider": provider or {"name": "scripted", "model": None, "mode": None},
        "judge_model": None,
        "run_id": run_dir.name,
        **(extra or {}),
    }
    (run_dir / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (run_dir / "transcripts.jsonl").write_text(
        "".join(t.model_dump_json() + "\n" for t in transcripts), encoding="utf-8"
    )
    return run_dir


def make_run(run_dir: Path, *, seeker: str = "scripted", drop_every: int = 0, **kwargs) -> Path:
    """Every sample test task once; with drop_every=k, every k-th dialogue misses its last node."""
    tasks = sample_tasks()
    transcripts = [
        scripted_transcript(task, seeker=seeker, drop=1 if drop_every and i % drop_every == 0 else 0, cost=0.01)
        for i, task in enumerate(tasks)
    ]
    return write_run(run_dir, transcripts, tasks, **kwargs)


def edit_submission(path: Path, out_dir: Path, edit, *, reseal: bool = True) -> Path:
    """A copy of a JSON submission changed by `edit(payload)`; re-sealed by default, as a forger who knows the seal
    would (tests of the seal itself pass reseal=False), so that the checks below the seal are exercised."""
    from clarq_bench.leaderboard.schema import Submission
    from clarq_bench.leaderboard.seal import seal

    payload = json.loads(path.read_text(encoding="utf-8"))
    edit(payload)
    if reseal:
        payload = json.loads(seal(Submission.model_validate(payload)).model_dump_json())
    out = out_dir / "tampered.json"
    out.write_text(json.dumps(payload), encoding="utf-8")
    return out
