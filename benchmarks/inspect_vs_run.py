"""How long 260 dialogues take through `inspect eval clarq_bench/clarq` against `clarq run`, same seeker, same server.

Both harnesses call one fake OpenAI server (clarq_bench/testing/fake_openai.py) that answers every request after
--latency seconds (default 0.1) with the scripted seeker of testing/fake_agents.py; the provider is clarq's offline
one, so every model call is a seeker turn. 260 dialogues: the released English test split when the data is found
($CLARQ_DATA, the download cache, or ../shared/clarq-llm-upstream/data), else the project's sample tasks played as
many trials as it takes. Both run at the same width (--concurrency: clarq's --concurrency and --model-concurrency,
inspect's max_connections and max_samples). Prints wall seconds, CPU seconds of this process (the fake server's
thread included, alike for both), model calls and the time per dialogue; and checks the two played the same turns.

    python benchmarks/inspect_vs_run.py [--latency 0.1] [--concurrency 32] [--dialogues 260]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SEEKER = "openai/fake-seeker"


def task_source(dialogues: int) -> tuple[str, int, int | None]:
    """(task folder, trials, limit) giving `dialogues` English test dialogues."""
    from clarq_bench import load_tasks

    upstream = REPO.parent / "shared" / "clarq-llm-upstream" / "data"
    for source in (None, upstream):
        try:
            tasks = load_tasks(source, lang="en", split="test")
        except Exception:
            continue
        if len(tasks) >= dialogues:
            return str(source or ""), 1, dialogues
    tasks = load_tasks(REPO / "tasks", lang="en", split="test")
    trials = -(-dialogues // len(tasks))
    return str(REPO / "tasks"), trials, None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--dialogues", type=int, default=260)
    args = parser.parse_args()

    from inspect_ai import eval as inspect_eval

    import clarq_bench as clarq
    from clarq_bench.core.run_folder import read_transcripts
    from clarq_bench.testing.fake_agents import both_agents
    from clarq_bench.testing.fake_openai import FakeOpenAIServer

    folder, trials, limit = task_source(args.dialogues)
    selection = {"lang": "en", "split": "test", "trials": trials, **({"limit": limit} if limit else {})}
    if folder:
        selection["tasks"] = folder
    work = Path(tempfile.mkdtemp(prefix="clarq-inspect-bench-"))
    rows = []
    with FakeOpenAIServer(responder=both_agents(SEEKER, None), latency_s=args.latency) as server:
        os.environ.setdefault("OPENAI_API_KEY", "sk-fake-bench")
        os.environ["FAKE_API_KEY"], os.environ["FAKE_BASE_URL"] = "sk-fake-bench", server.base_url

        wall, cpu = time.perf_counter(), time.process_time()
        ran = clarq.run(
            seeker=SEEKER,
            provider="offline",
            api_base=server.base_url,
            runs_dir=work / "runs",
            no_cache=True,
            no_progress=True,
            concurrency=args.concurrency,
            model_concurrency=args.concurrency,
            **selection,
        )
        rows.append(("clarq run", time.perf_counter() - wall, time.process_time() - cpu, server.hits))

        server.reset()
        wall, cpu = time.perf_counter(), time.process_time()
        log = inspect_eval(
            "clarq_bench/clarq",
            model="openai-api/fake/fake-seeker",
            task_args=selection,
            log_dir=str(work / "logs"),
            display="none",
            max_connections=args.concurrency,
            max_samples=args.concurrency,
        )[0]
        rows.append(("inspect eval", time.perf_counter() - wall, time.process_time() - cpu, server.hits))
    imported, _ = clarq.import_inspect(log.location, work / "imported", plots=False)
    played = {t.key: [turn.text for turn in t.turns] for t in read_transcripts(ran.run_dir / "transcripts.jsonl")}
    same = played == {t.key: [turn.text for turn in t.turns] for t in imported.transcripts}
    dialogues = len(played)
    print(
        f"{dialogues} dialogues, fake server latency {args.latency * 1000:.0f} ms, width {args.concurrency}, "
        f"tasks from {folder or 'the data folder'} x {trials} trial(s); same turns both ways: {same}"
    )
    print(f"{'harness':<14}{'wall s':>9}{'cpu s':>9}{'calls':>8}{'ms/dialogue':>13}{'calls/s':>9}")
    for name, seconds, cpu_s, calls in rows:
        print(
            f"{name:<14}{seconds:>9.1f}{cpu_s:>9.1f}{calls:>8}{seconds / dialogues * 1000:>13.0f}"
            f"{calls / seconds:>9.0f}"
        )
    print(
        f"inspect / clarq run: {rows[1][1] / rows[0][1]:.2f} x wall time, {rows[1][2] / rows[0][2]:.2f} x CPU; "
        f"files in {work}"
    )


if __name__ == "__main__":
    main()
