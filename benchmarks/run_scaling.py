"""How close does the runner get to the critical path? 260 dialogues, the `llm` seeker against the LLM provider
(clarq_bench.provider.llm_provider), every model call going through LLMClient to the fake OpenAI server in another
process with a fixed latency (default 100 ms), at several concurrencies, for each LLM transport (direct, litellm).

The server plays both models: the provider's gate and decision calls get JSON (related; the first offered answer),
the seeker asks until the provider says it has enough, then says goodbye. So every dialogue walks its whole tree.
Critical path = the longest dialogue's sequential model calls x latency: no schedule can beat it.
The fake server speaks plain http, so `direct` measures the direct transport's http:// client (llm/http11.py); an
https:// endpoint goes through aiohttp (~0.1-0.2 ms more CPU a call, benchmarks/llm_overhead.py's `raw` client).
The first dialogue plays one exchange alone before the others start (runner/batch.py's probe: a refusing endpoint
stops the run after one call), which costs two latencies of wall time that the critical path does not count.
Concurrency 1 is measured on the first --serial-sample dialogues and extrapolated to all of them (said in the table).
Runs go on the event loop `clarq run` uses (core.loop.run_to_end: uvloop where installed; CLARQ_EVENT_LOOP=asyncio
measures asyncio's own).

    python benchmarks/run_scaling.py [--latency 0.1] [--dialogues 260] [--concurrency 1,16,64,260]
                                     [--transport direct,litellm] [--profile FILE]
    python benchmarks/run_scaling.py --router      # the scale-out case below, instead of the table

Router case (--router): three fake servers, each in its own process, each refusing (429) any request beyond 16 in
flight, one also refusing 10% of all requests at random; one logical model `bench` pooled over the three by a
--router file (max_parallel_requests 16 each), playing both roles for 260 dialogues at once. Ideal wall time =
calls / 48 x latency (48 calls in flight at best), or the critical path if that is longer; the figure printed is
wall / ideal, with the refusals each server gave and the share of calls each deployment served.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from clarq_bench.core.loop import run_to_end
from clarq_bench.core.run_config import AgentSettings, RunConfig
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.core.tasks import Task
from clarq_bench.runner.batch import run_dialogues
from clarq_bench.testing.fake_agents import both_agents, both_agents_one_model
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


def _serve_limited(latency: float, max_concurrent: int, failure_rate: float, port_out: Any, stop: Any) -> None:
    with FakeOpenAIServer(
        latency_s=latency,
        responder=both_agents_one_model(),
        max_concurrent=max_concurrent,
        failure_rate=failure_rate,
        seed=1,
    ) as server:
        port_out.send(server.base_url)
        stop.wait()
        port_out.send((server.served, server.throttled))


@contextmanager
def pool_processes(latency: float, limits: list[tuple[int, float]], counts: list) -> Iterator[list[str]]:
    """One fake server process per (max_concurrent, failure_rate); `counts` gets each one's (served, refused)."""
    context = multiprocessing.get_context("spawn")
    started = []
    for max_concurrent, failure_rate in limits:
        receive, send = context.Pipe(duplex=True)
        stop = context.Event()
        process = context.Process(
            target=_serve_limited, args=(latency, max_concurrent, failure_rate, send, stop), daemon=True
        )
        process.start()
        started.append((process, receive, stop))
    try:
        urls = []
        for _, receive, _ in started:
            if not receive.poll(30):
                raise SystemExit("a fake server process did not start")
            urls.append(receive.recv())
        yield urls
    finally:
        for process, receive, stop in started:
            stop.set()
            counts.append(receive.recv() if receive.poll(10) else (0, 0))
            process.join(5)


def router_file(urls: list[str], folder: Path, cap: int) -> Path:
    import json

    deployments = [
        {
            "model_name": "bench",
            "model_info": {"id": f"server{i}"},
            "litellm_params": {"model": "openai/bench", "api_base": url, "max_parallel_requests": cap},
        }
        for i, url in enumerate(urls)
    ]
    path = folder / "router.yaml"
    path.write_text(json.dumps({"model_list": deployments, "router_settings": ROUTER_SETTINGS}), encoding="utf-8")
    return path


#: The 10%-refusing server stays in the pool: its refusals are retried at once on another deployment, and it is
#: cooled down (for a second) only after 200 refusals within a second of each other, i.e. when it fails for real.
ROUTER_SETTINGS = {"allowed_fails": 200, "cooldown_time": 1}


async def router_case(tasks: list[Task], urls: list[str], folder: Path) -> tuple[float, list, float, dict]:
    """Wall time, the transcripts, the client CPU seconds and calls per deployment of one pooled run."""
    from collections import Counter

    from clarq_bench.llm import LLMClient, LLMSettings

    folder.mkdir(parents=True, exist_ok=True)
    client = LLMClient(
        LLMSettings(router_file=router_file(urls, folder, 16), use_cache=False, max_concurrency_per_model=64)
    )
    config = RunConfig(
        seeker=AgentSettings(name="llm", model="bench"),
        provider=AgentSettings(name="llm", model="bench"),
        concurrency=len(tasks),
        progress=False,
        use_cache=False,
    )
    cpu, started = time.process_time(), time.perf_counter()
    try:
        await run_dialogues(config, tasks, folder / "run", client=client)
    finally:
        await client.aclose()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    records = read_transcripts(folder / "run" / "transcripts.jsonl")
    served = Counter(
        name for r in records for turn in r.turns for name in cast("list[str]", turn.notes.get("served_by", []))
    )
    return wall, records, cpu, dict(sorted(served.items()))


def run_router_case(tasks: list[Task], latency: float) -> None:
    counts: list = []
    with (
        pool_processes(latency, [(16, 0.0), (16, 0.0), (16, 0.1)], counts) as urls,
        tempfile.TemporaryDirectory() as tmp,
    ):
        run_to_end(router_case(tasks[:8], urls, Path(tmp) / "warm-up"))  # imports, sockets
        wall, records, cpu, served = run_to_end(router_case(tasks, urls, Path(tmp) / "bench"))
    errors = [r.error for r in records if r.error]
    calls = sum(turn.usage.calls for r in records for turn in r.turns)
    longest = max(sum(turn.usage.calls for turn in r.turns) for r in records)
    ideal = max(calls / 48 * latency, longest * latency)
    print(
        f"\nrouter case: {len(records)} dialogues, llm seeker and LLM provider on one pooled model, 3 fake servers "
        f"(processes), each 429 beyond 16 in flight, server2 also 429 on 10% of calls; {latency * 1000:.0f} ms per "
        f"call; router settings {ROUTER_SETTINGS}"
    )
    print(
        f"calls {calls}, longest dialogue {longest} calls; ideal max(calls/48, critical path) x latency = {ideal:.2f} s"
    )
    print(
        f"wall {wall:.2f} s = {wall / ideal:.2f} x ideal; client CPU {cpu:.2f} s ({cpu / calls * 1000:.2f} ms a call); "
        f"dialogues with an error: {len(errors)}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print("calls served per deployment: " + ", ".join(f"{k} {v}" for k, v in served.items()))
    print(
        "per server (served 200, refused 429, incl. warm-up): "
        + ", ".join(f"server{i} {s}/{r}" for i, (s, r) in enumerate(counts))
    )
    if errors:
        raise SystemExit(f"{len(errors)} dialogues failed, e.g. {errors[0]}")


def make_client(base_url: str, transport: str, concurrency: int) -> Any:
    from clarq_bench.llm import LLMClient, LLMSettings

    return LLMClient(
        LLMSettings(
            api_base=base_url,
            api_key="sk-bench",
            use_cache=False,
            transport=transport,
            max_concurrency_per_model=max(concurrency, 1),
        )
    )


async def one_setting(
    tasks: list[Task], concurrency: int, base_url: str, transport: str, run_dir: Path
) -> tuple[float, int, float]:
    """Wall time of one run, the most model calls any single dialogue made, and the run's CPU seconds."""
    client = make_client(base_url, transport, concurrency)
    config = RunConfig(
        seeker=AgentSettings(name="llm", model=SEEKER_MODEL),
        provider=AgentSettings(name="llm", model=PROVIDER_MODEL),
        concurrency=concurrency,
        progress=False,
        use_cache=False,
    )
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


async def all_settings(
    tasks: list[Task], levels: list[int], serial_sample: int, base_url: str, transport: str, folder: Path
) -> tuple[list[tuple[int, float, float, str]], int]:
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
    parser.add_argument("--router", action="store_true", help="the router case (three limited servers) instead")
    args = parser.parse_args()
    from clarq_bench.data.loader import load_tasks

    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")
    tasks = load_tasks(Path(args.data), ["en"], split="test")[: args.dialogues]
    if args.router:
        run_router_case(tasks, args.latency)
        return
    levels = [int(c) for c in args.concurrency.split(",")]
    with server_process(args.latency) as base_url, tempfile.TemporaryDirectory() as tmp:
        for transport in args.transport.split(","):
            run = all_settings(tasks, levels, args.serial_sample, base_url, transport, Path(tmp) / transport)
            if args.profile:
                import cProfile

                profiler = cProfile.Profile()
                rows, longest_calls = profiler.runcall(run_to_end, run)
                profiler.dump_stats(f"{args.profile}.{transport}")
            else:
                rows, longest_calls = run_to_end(run)
            critical = longest_calls * args.latency
            print(
                f"\ntransport {transport}: llm seeker vs LLM provider through LLMClient, fake server in a separate "
                f"process"
            )
            print(
                f"{len(tasks)} dialogues, {args.latency * 1000:.0f} ms per call, longest dialogue {longest_calls} "
                f"calls -> critical path {critical:.2f} s"
            )
            print(f"{'concurrency':>11}  {'wall s':>8}  {'x critical':>10}  {'client CPU s':>12}  note")
            for concurrency, wall, cpu, note in rows:
                print(f"{concurrency:>11}  {wall:>8.2f}  {wall / critical:>10.2f}  {cpu:>12.2f}  {note}")


if __name__ == "__main__":
    main()
