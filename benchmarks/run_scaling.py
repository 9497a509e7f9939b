"""How close does the runner get to the critical path? 260 dialogues, the `llm` seeker against the LLM provider
(clarq_bench.provider.llm_provider), every model call going through LLMClient to the fake OpenAI server in another
process with a fixed latency (default 100 ms), at several concurrencies, for each LLM transport (direct, litellm).

The server plays both models: the provider's gate and decision calls get JSON (related; the first offered answer),
the seeker asks until the provider says it has enough, then says goodbye. So every dialogue walks its whole tree.
Critical path = the longest dialogue's sequential model calls x latency: no schedule can beat it.
Concurrency 1 is measured on the first --serial-sample dialogues and extrapolated to all of them (said in the table).

    python benchmarks/run_scaling.py [--latency 0.1] [--dialogues 260] [--concurrency 1,16,64,260]
                                     [--transport direct,litellm] [--profile FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from clarq_bench.core.tasks import Task
from clarq_bench.play.run_config import AgentSettings, RunConfig
from clarq_bench.play.runner import read_transcripts, run_dialogues
from clarq_bench.testing.fake_agents import both_agents
from clarq_bench.testing.fake_openai import FakeOpenAIServer

SEEKER_MODEL, PROVIDER_MODEL = "openai/bench-seeker", "openai/bench-provider"


def _serve(latency: float, port_out: Any, stop: Any) -> None:
    with FakeOpenAIServer(latency_s=latency, responder=both_agents(SEEKER_MODEL, PROVIDER_MODEL)) as server:
        port_out.send(server.base_url)
        stop.wait()


@contextmanager
def server_process(latency: float) -> Iterator[str]:
    """The fake server in its own process, so its CPU work does not share our interpreter lock."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    stop = context.Event()
    process = context.Process(target=_serve, args=(latency, send, stop), daemon=True)
    process.start()
    try:
        if not receive.poll(30):
            raise SystemExit("the fake server process did not start")
        yield receive.recv()
    finally:
        stop.set()
        process.join(5)


def make_client(base_url: str, transport: str, concurrency: int) -> Any:
    from clarq_bench.llm import LLMClient, LLMSettings

    return LLMClient(LLMSettings(api_base=base_url, api_key="sk-bench", use_cache=False, transport=transport,
                                 max_concurrency_per_model=max(concurrency, 1)))  # fmt: skip


async def one_setting(tasks: list[Task], concurrency: int, base_url: str, transport: str,
                      run_dir: Path) -> tuple[float, int, float]:
    """Wall time of one run, the most model calls any single dialogue made, and the run's CPU seconds."""
    client = make_client(base_url, transport, concurrency)
    config = RunConfig(
        seeker=AgentSettings(name="llm", model=SEEKER_MODEL),
        provider=AgentSettings(name="llm", model=PROVIDER_MODEL),
        concurrency=concurrency, progress=False, use_cache=False,
    )  # fmt: skip
    cpu, started = time.process_time(), time.perf_counter()
    try:
        await run_dialogues(config, tasks, run_dir, client=client)
    finally:
        await client.aclose()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    records = read_transcripts(run_dir / "transcripts.jsonl")
    errors = [r.error for r in records if r.error]
    if errors:
        raise SystemExit(f"{len(errors)} dialogues failed, e.g. {errors[0]}")
    calls = max(sum(turn.usage.calls for turn in r.turns) for r in records)
    return wall, calls, cpu


async def all_settings(tasks: list[Task], levels: list[int], serial_sample: int, base_url: str, transport: str,
                       folder: Path) -> tuple[list[tuple[int, float, float, str]], int]:
    """Every concurrency level in one event loop (litellm's background worker binds itself to the first loop)."""
    await one_setting(tasks[:4], 4, base_url, transport, folder / "warm-up")  # imports, price table, sockets
    rows, longest_calls = [], 0
    for concurrency in levels:
        if concurrency == 1 and len(tasks) > serial_sample:
            sample = tasks[:serial_sample]
            wall, _, cpu = await one_setting(sample, 1, base_url, transport, folder / "c1")
            wall, cpu = wall * len(tasks) / len(sample), cpu * len(tasks) / len(sample)
            note = f"extrapolated from {len(sample)} dialogues"
        else:
            wall, calls, cpu = await one_setting(tasks, concurrency, base_url, transport, folder / f"c{concurrency}")
            longest_calls, note = max(longest_calls, calls), ""
        rows.append((concurrency, wall, cpu, note))
    if not longest_calls:  # the critical path comes from the full set
        _, longest_calls, _ = await one_setting(tasks, len(tasks), base_url, transport, folder / "probe")
    return rows, longest_calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared/clarq-llm-upstream/data"))
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--dialogues", type=int, default=260)
    parser.add_argument("--concurrency", default="1,16,64,260")
    parser.add_argument("--transport", default="direct,litellm", help="LLM transports to measure, comma-separated")
    parser.add_argument("--serial-sample", type=int, default=8, help="dialogues actually run at concurrency 1")
    parser.add_argument("--profile", metavar="FILE", help="cProfile each transport's runs into FILE.<transport>")
    args = parser.parse_args()
    from clarq_bench.data.loader import load_tasks

    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")
    tasks = load_tasks(Path(args.data), ["en"], split="test")[: args.dialogues]
    levels = [int(c) for c in args.concurrency.split(",")]
    with server_process(args.latency) as base_url, tempfile.TemporaryDirectory() as tmp:
        for transport in args.transport.split(","):
            run = all_settings(tasks, levels, args.serial_sample, base_url, transport, Path(tmp) / transport)
            if args.profile:
                import cProfile

                profiler = cProfile.Profile()
                rows, longest_calls = profiler.runcall(asyncio.run, run)
                profiler.dump_stats(f"{args.profile}.{transport}")
            else:
                rows, longest_calls = asyncio.run(run)
            critical = longest_calls * args.latency
            print(f"\ntransport {transport}: llm seeker vs LLM provider through LLMClient, fake server in a separate "
                  f"process")  # fmt: skip
            print(f"{len(tasks)} dialogues, {args.latency * 1000:.0f} ms per call, longest dialogue {longest_calls} "
                  f"calls -> critical path {critical:.2f} s")  # fmt: skip
            print(f"{'concurrency':>11}  {'wall s':>8}  {'x critical':>10}  {'client CPU s':>12}  note")
            for concurrency, wall, cpu, note in rows:
                print(f"{concurrency:>11}  {wall:>8.2f}  {wall / critical:>10.2f}  {cpu:>12.2f}  {note}")


if __name__ == "__main__":
    main()
