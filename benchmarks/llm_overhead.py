"""Per-call overhead of the LLM layer over raw fake-server latency, next to a raw aiohttp baseline.

The fake OpenAI-compatible server runs in its own process with a fixed reply latency. Each measurement runs in a
fresh process (so one transport's imports and heap do not tax another): N calls at concurrency C, cache off, after a
warm-up of C concurrent calls that fills the connection pool. Three clients are measured:

- raw:     a hand-written aiohttp POST + json.loads, no clarq code at all (the floor for any Python client here);
- direct:  LLMClient with transport="direct" (what transport="auto" picks for OpenAI-compatible api_base models);
- litellm: LLMClient with transport="litellm" (the path for every other provider string).

For each it prints the median and p95 of (call latency - server latency), i.e. our per-call overhead over raw
fake-server latency (the issue's figure), then the same minus the raw client's (the layer's own added cost), the
client's CPU ms per call and the server's CPU ms per request. The server shares the machine's cores with the
client, so on a small machine part of every figure is the server's CPU and both event loops' queueing. With
--repeat R the configurations run R times interleaved and the summary gives the median of the R runs and their range.

--cache on (or both) measures the clarq clients with the response cache on, in a fresh SQLite file per run: every
timed call is then a miss (a get and a put on the cache's own thread, llm/cache.py, besides the HTTP call), and the
same calls are then asked again, all served from the cache (one get; no HTTP), timed on their own ("hits").

Run: python benchmarks/llm_overhead.py [--calls 1000] [--concurrency 64] [--latency 0.05] [--repeat 3]
                                       [--cache off|on|both]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from clarq_bench.core.defaults import DEFAULT_SEED

MODEL = "openai/gpt-4o-2024-05-13"
CLIENTS = ("raw", "direct", "litellm")


# ---- one measurement (runs in its own process) -------------------------------------------------------------------


async def _raw_client(base_url: str) -> tuple[Any, Any]:
    """The baseline: what a careful hand-written aiohttp call costs, with nothing of clarq imported."""
    import aiohttp

    session = aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0),
        headers={"Authorization": "Bearer sk-bench", "Content-Type": "application/json"},
    )
    url = base_url + "/chat/completions"
    timeout = aiohttp.ClientTimeout(total=120)

    async def call(i: int) -> str:
        body = json.dumps(
            {
                "model": "gpt-4o-2024-05-13",
                "messages": [{"role": "user", "content": f"question {i}"}],
                "temperature": 0.0,
                "seed": DEFAULT_SEED,
            }
        ).encode()
        async with session.post(url, data=body, timeout=timeout) as rsp:
            raw = await rsp.read()
            if rsp.status != 200:
                raise RuntimeError(f"HTTP {rsp.status}")
        data = json.loads(raw)
        usage = data["usage"]
        return f"{data['choices'][0]['message']['content']}{usage['prompt_tokens']}{usage['completion_tokens']}"

    return call, session.close


async def _clarq_client(base_url: str, transport: str, concurrency: int, cache_file: str | None) -> tuple[Any, Any]:
    from clarq_bench.llm import LLMClient, LLMSettings

    client = LLMClient(
        LLMSettings(
            api_base=base_url,
            api_key="sk-bench",
            use_cache=cache_file is not None,
            cache_path=cache_file,
            transport=transport,
            max_concurrency_per_model=concurrency,
        )
    )

    async def call(i: int) -> str:
        completion = await client.complete(
            [{"role": "user", "content": f"question {i}"}], model=MODEL, seed=DEFAULT_SEED
        )
        return completion.text

    async def close() -> None:
        measure.cost_usd = client.usage.cost_usd  # type: ignore[attr-defined]
        await client.aclose()

    return call, close


async def measure(
    base_url: str, which: str, calls: int, concurrency: int, latency: float, cache_file: str | None = None
) -> dict[str, float]:
    transport = which.removesuffix("+cache")
    if which == "raw":
        call, close = await _raw_client(base_url)
    else:
        call, close = await _clarq_client(base_url, transport, concurrency, cache_file)
    gate = asyncio.Semaphore(concurrency)
    overheads: list[float] = []

    async def one(i: int, wait: float) -> None:
        async with gate:
            started = time.perf_counter()
            await call(i)
            overheads.append(time.perf_counter() - started - wait)

    async def timed(wait: float) -> dict[str, float]:
        overheads.clear()
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.gather(*(one(i, wait) for i in range(calls)))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        overheads.sort()
        return {
            "median_ms": 1000 * statistics.median(overheads),
            "p95_ms": 1000 * overheads[int(0.95 * len(overheads))],
            "wall_s": wall,
            "cpu_ms_per_call": 1000 * cpu / calls,
        }

    await asyncio.gather(*(one(-1 - i, latency) for i in range(concurrency)))  # warm-up: imports, pool, prices
    result = await timed(latency)
    if cache_file is not None:  # the same calls again: every one a cache hit, no server latency to take off
        result.update({f"hit_{key}": value for key, value in (await timed(0.0)).items()})
    await close()
    result["cost_usd"] = getattr(measure, "cost_usd", 0.0)
    return result


# ---- the driver --------------------------------------------------------------------------------------------------


def _process_cpu_s(pid: int) -> float | None:
    """user+system CPU seconds of a process so far (Linux /proc), else None."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _run_one(args: argparse.Namespace, base_url: str, which: str, server_pid: int) -> dict[str, float]:
    before = _process_cpu_s(server_pid)
    with tempfile.TemporaryDirectory(prefix="clarq-overhead-") as folder:  # a fresh, empty cache per run
        cache = ["--cache-file", str(Path(folder) / "cache.sqlite")] if which.endswith("+cache") else []
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--worker",
                which,
                "--base-url",
                base_url,
                "--calls",
                str(args.calls),
                "--concurrency",
                str(args.concurrency),
                "--latency",
                str(args.latency),
                *cache,
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    result = json.loads(out.strip().splitlines()[-1])
    after = _process_cpu_s(server_pid)
    # the server also served the warm-up calls: count them in the per-request figure
    requests = args.calls + args.concurrency
    result["server_cpu_ms"] = float("nan") if before is None or after is None else 1000 * (after - before) / requests
    return result


def _fmt(values: list[float], spec: str = "7.1f") -> str:
    middle = statistics.median(values)
    if len(values) == 1:
        return f"{middle:{spec}}"
    return f"{middle:{spec}} [{min(values):.1f}-{max(values):.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.05, help="server reply latency in seconds")
    parser.add_argument(
        "--transport",
        choices=["litellm", "direct", "both"],
        default="both",
        help="which LLMClient transports to measure (the raw baseline always runs)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs of every client")
    parser.add_argument(
        "--cache",
        choices=["off", "on", "both"],
        default="off",
        help="the clarq clients with the response cache off, on (fresh file per run), or both",
    )
    parser.add_argument("--worker", choices=[*CLIENTS, "direct+cache", "litellm+cache"], help=argparse.SUPPRESS)
    parser.add_argument("--base-url", help=argparse.SUPPRESS)
    parser.add_argument("--cache-file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        result = asyncio.run(
            measure(args.base_url, args.worker, args.calls, args.concurrency, args.latency, args.cache_file)
        )
        print(json.dumps(result))
        return

    transports = ["direct", "litellm"] if args.transport == "both" else [args.transport]
    clients = ["raw"]
    for transport in transports:
        clients += {"off": [transport], "on": [f"{transport}+cache"], "both": [transport, f"{transport}+cache"]}[
            args.cache
        ]
    server = subprocess.Popen(
        [sys.executable, "-m", "clarq_bench.testing.fake_openai", "--latency", str(args.latency)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    runs: dict[str, list[dict[str, float]]] = {c: [] for c in clients}
    try:
        assert server.stdout is not None
        base_url = f"http://127.0.0.1:{int(server.stdout.readline())}/v1"
        print(
            f"{args.calls} calls, concurrency {args.concurrency}, server latency {args.latency * 1000:.0f} ms, "
            f"cache {args.cache}, server and every client in separate processes, {os.cpu_count()} CPUs, "
            f"{args.repeat} interleaved run(s)"
        )
        for round_number in range(1, args.repeat + 1):
            for which in clients:
                r = _run_one(args, base_url, which, server.pid)
                runs[which].append(r)
                print(
                    f"  run {round_number} {which:13s} over server latency: median {r['median_ms']:7.1f} ms  "
                    f"p95 {r['p95_ms']:7.1f} ms | client CPU {r['cpu_ms_per_call']:.2f} ms/call, "
                    f"server CPU {r['server_cpu_ms']:.2f} ms/req, wall {r['wall_s']:.2f} s",
                    flush=True,
                )
    finally:
        if server.stdin is not None:
            server.stdin.close()
        server.wait(10)

    ideal = args.calls / args.concurrency * args.latency
    print(f"\nsummary: median of {args.repeat} run(s) [min-max]; ideal wall {ideal:.2f} s")
    print(
        f"{'client':13s} {'overhead over server latency (ms)':^44s} {'added over raw client (ms)':^36s} "
        f"{'client CPU':>18s} {'server CPU':>11s}"
    )
    print(f"{'':13s} {'median':>21s} {'p95':>22s} {'median':>17s} {'p95':>18s} {'ms/call':>18s} {'ms/req':>11s}")
    raw = runs["raw"]
    for which in clients:
        rs = runs[which]
        added_median = [r["median_ms"] - b["median_ms"] for r, b in zip(rs, raw)]
        added_p95 = [r["p95_ms"] - b["p95_ms"] for r, b in zip(rs, raw)]
        print(
            f"{which:13s} {_fmt([r['median_ms'] for r in rs]):>21s} {_fmt([r['p95_ms'] for r in rs]):>22s} "
            f"{_fmt(added_median) if which != 'raw' else '-':>17s} {_fmt(added_p95) if which != 'raw' else '-':>18s} "
            f"{_fmt([r['cpu_ms_per_call'] for r in rs], '5.2f'):>18s} "
            f"{statistics.median(r['server_cpu_ms'] for r in rs):11.2f}"
        )
    cached = [which for which in clients if which.endswith("+cache")]
    if cached:
        print("\ncache hits (the same calls asked again; no HTTP): latency per call and client CPU")
        for which in cached:
            rs = runs[which]
            print(
                f"{which:13s} median {_fmt([r['hit_median_ms'] for r in rs], '6.2f')} ms  "
                f"p95 {_fmt([r['hit_p95_ms'] for r in rs], '6.2f')} ms  "
                f"CPU {_fmt([r['hit_cpu_ms_per_call'] for r in rs], '5.2f')} ms/call  "
                f"wall {_fmt([r['hit_wall_s'] for r in rs], '5.2f')} s for {args.calls} calls"
            )
    costs = {which: runs[which][-1]["cost_usd"] for which in clients if which != "raw"}
    if costs:
        print("cost of the measured calls (priced, not paid): " + ", ".join(f"{k} ${v:.4f}" for k, v in costs.items()))


if __name__ == "__main__":
    main()
