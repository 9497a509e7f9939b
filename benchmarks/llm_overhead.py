"""Per-call overhead of the LLM layer over raw server latency.

Starts the fake OpenAI-compatible server in a separate process (so its work does not share this process's CPU)
with a fixed reply latency, makes N calls at concurrency C through LLMClient with the cache off, and prints the
median and p95 of (measured call latency - server latency). Run: python benchmarks/llm_overhead.py [--transport both]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time

from clarq_bench.llm import LLMClient, LLMSettings

MODEL = "openai/gpt-4o-2024-05-13"


async def measure(base_url: str, transport: str, calls: int, concurrency: int, latency: float) -> dict[str, float]:
    client = LLMClient(LLMSettings(api_base=base_url, api_key="sk-bench", use_cache=False, transport=transport,
                                   max_concurrency_per_model=concurrency))
    gate = asyncio.Semaphore(concurrency)
    overheads: list[float] = []

    async def one(i: int) -> None:
        async with gate:
            started = time.perf_counter()
            await client.complete([{"role": "user", "content": f"question {i}"}], model=MODEL, seed=8848)
            overheads.append(time.perf_counter() - started - latency)

    for i in range(3):  # warm-up: imports, connection pool, price table
        await one(-1 - i)
    overheads.clear()
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(calls)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    await client.aclose()
    overheads.sort()
    return {"median_ms": 1000 * statistics.median(overheads), "p95_ms": 1000 * overheads[int(0.95 * len(overheads))],
            "wall_s": wall, "cpu_ms_per_call": 1000 * cpu / calls, "ideal_wall_s": calls / concurrency * latency,
            "cost_usd": client.usage.cost_usd}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.05, help="server reply latency in seconds")
    parser.add_argument("--transport", choices=["litellm", "direct", "both"], default="both")
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, "-c", "from clarq_bench.testing.fake_openai import main; main()",
                               "--latency", str(args.latency)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        base_url = f"http://127.0.0.1:{int(server.stdout.readline())}/v1"
        transports = ["litellm", "direct"] if args.transport == "both" else [args.transport]
        print(f"{args.calls} calls, concurrency {args.concurrency}, server latency {args.latency * 1000:.0f} ms, "
              f"cache off, server in a separate process")
        for transport in transports:
            r = asyncio.run(measure(base_url, transport, args.calls, args.concurrency, args.latency))
            print(f"{transport:8s} overhead median {r['median_ms']:7.1f} ms  p95 {r['p95_ms']:7.1f} ms  "
                  f"| wall {r['wall_s']:.2f} s (ideal {r['ideal_wall_s']:.2f} s), "
                  f"client CPU {r['cpu_ms_per_call']:.2f} ms/call, cost ${r['cost_usd']:.4f}")
    finally:
        server.stdin.close()
        server.wait(10)


if __name__ == "__main__":
    main()
