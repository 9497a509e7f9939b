"""How close does the runner get to the critical path? 260 dialogues, llm seeker + a one-call-per-turn LLM provider,
every model call served by the fake OpenAI server with a fixed latency (default 100 ms), at several concurrencies.

Critical path = the longest dialogue's sequential latency (its model calls x latency): no schedule can beat it.
Concurrency 1 is measured on the first --serial-sample dialogues and extrapolated to all of them (said in the table).

    python benchmarks/run_scaling.py [--latency 0.1] [--dialogues 260] [--concurrency 1,16,64,260]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import tempfile
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Iterator

from clarq_bench.provider.base import ProviderState, ProviderTurn
from clarq_bench.run_config import AgentSettings, RunConfig
from clarq_bench.runner import read_transcripts, run_dialogues
from clarq_bench.tasks import Task
from clarq_bench.testing.fake_openai import FakeOpenAIServer
from clarq_bench.transcript import ReplyKind, Speaker, Turn

SEEKER_MODEL, PROVIDER_MODEL = "openai/bench-seeker", "openai/bench-provider"
ENOUGH = "That is all you need."


class OneCallProvider:
    """Stands in for the LLM provider: one model call per turn (its text is ignored), then walks the tree."""

    def __init__(self, task: Task, settings: AgentSettings) -> None:
        self.task = task
        self.client = CLIENT

    def greeting(self) -> ProviderTurn:
        return ProviderTurn(text="what can help you?", kind=ReplyKind.greeting)

    async def respond(self, turns: list[Turn]) -> ProviderTurn:
        last = next(t.text for t in reversed(turns) if t.speaker == Speaker.seeker)
        await self.client.complete([{"role": "user", "content": last}], model=PROVIDER_MODEL, role="provider")
        state = ProviderState.from_turns(self.task.tree, turns)
        if not state.root_given:
            return ProviderTurn(text=self.task.tree.root.text, kind=ReplyKind.root, revealed=["0"])
        if not state.frontier:
            return ProviderTurn(text=ENOUGH, kind=ReplyKind.enough)
        node = self.task.tree[state.frontier[0]]
        return ProviderTurn(text=node.text, kind=ReplyKind.response_i, revealed=[node.id])


def seeker_reply(body: dict[str, Any]) -> str:
    """The fake server's seeker: asks until the provider says there is nothing left, then says goodbye."""
    prompt = body["messages"][-1]["content"]
    return "Thank you, goodbye!" if ENOUGH in prompt else "Which one should I choose?"


class SDKClient:
    """Fallback when clarq_bench.llm is not installed yet: the same `complete` call over the openai SDK."""

    def __init__(self, base_url: str) -> None:
        from openai import AsyncOpenAI

        self.sdk = AsyncOpenAI(base_url=base_url, api_key="fake", max_retries=0)
        self.budget_exhausted = False

    async def complete(self, messages: list[dict[str, str]], *, model: str, **_: Any) -> Any:
        reply = await self.sdk.chat.completions.create(model=model.split("/", 1)[-1], messages=messages)  # type: ignore[arg-type]
        return type("Completion", (), {"text": reply.choices[0].message.content or ""})()


class SleepClient:
    """`--transport sleep`: no HTTP at all, each call just waits the latency (isolates the runner's own overhead)."""

    budget_exhausted = False

    def __init__(self, latency: float) -> None:
        self.latency = latency

    async def complete(self, messages: list[dict[str, str]], *, model: str, **_: Any) -> Any:
        await asyncio.sleep(self.latency)
        text = seeker_reply({"messages": messages}) if model == SEEKER_MODEL else "ok"
        return type("Completion", (), {"text": text})()


def make_client(base_url: str, concurrency: int) -> Any:
    if base_url.startswith("sleep:"):
        return SleepClient(float(base_url.split(":", 1)[1]))
    if not has_llm_layer():
        return SDKClient(base_url)
    from clarq_bench.llm import LLMClient, LLMSettings

    return LLMClient(LLMSettings(api_base=base_url, use_cache=False, max_concurrency_per_model=max(concurrency, 1)))


CLIENT: Any = None


def has_llm_layer() -> bool:
    try:
        import clarq_bench.llm  # noqa: F401
    except ImportError:
        return False
    return hasattr(clarq_bench.llm, "LLMClient")


def _serve(latency: float, port_out: Any, stop: Any) -> None:
    with FakeOpenAIServer(latency_s=latency, responder=seeker_reply) as server:
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


async def one_setting(tasks: list[Task], concurrency: int, base_url: str, folder: Path) -> tuple[float, int]:
    """Wall time of one run, and the most model calls any single dialogue made."""
    global CLIENT
    CLIENT = make_client(base_url, concurrency)
    config = RunConfig(
        seeker=AgentSettings(name="llm", model=SEEKER_MODEL),
        provider=AgentSettings(name=f"{__name__}:OneCallProvider"),
        concurrency=concurrency,
        progress=False,
        use_cache=False,
    )
    run_dir = folder / f"c{concurrency}"
    started = time.perf_counter()
    await run_dialogues(config, tasks, run_dir, client=CLIENT)
    wall = time.perf_counter() - started
    records = read_transcripts(run_dir / "transcripts.jsonl")
    errors = [r.error for r in records if r.error]
    if errors:
        raise SystemExit(f"{len(errors)} dialogues failed, e.g. {errors[0]}")
    calls = max(len(r.seeker_turns) + len(r.provider_turns) - 1 for r in records)  # greeting costs no call
    return wall, calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared/clarq-llm-upstream/data"))
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--dialogues", type=int, default=260)
    parser.add_argument("--concurrency", default="1,16,64,260")
    parser.add_argument("--transport", choices=["http", "sleep"], default="http",
                        help="http: the fake server (default); sleep: no HTTP, the runner's own overhead only")
    parser.add_argument("--serial-sample", type=int, default=4, help="dialogues actually run at concurrency 1")
    args = parser.parse_args()
    from clarq_bench.data import load_tasks

    tasks = load_tasks(Path(args.data), ["en"], split="test")[: args.dialogues]
    rows = []
    serving = server_process(args.latency) if args.transport == "http" else nullcontext(f"sleep:{args.latency}")
    with serving as base_url, tempfile.TemporaryDirectory() as tmp:
        # the critical path comes from the full set: every dialogue's call count is known from a fast run
        _, longest_calls = asyncio.run(one_setting(tasks, len(tasks), base_url, Path(tmp) / "probe"))
        critical = longest_calls * args.latency
        for concurrency in (int(c) for c in args.concurrency.split(",")):
            if concurrency == 1:
                sample = tasks[: args.serial_sample]
                wall, _ = asyncio.run(one_setting(sample, 1, base_url, Path(tmp)))
                wall, note = wall * len(tasks) / len(sample), f"extrapolated from {len(sample)} dialogues"
            else:
                wall, _ = asyncio.run(one_setting(tasks, concurrency, base_url, Path(tmp)))
                note = ""
            rows.append((concurrency, wall, wall / critical, note))
    print(f"transport {args.transport}: {'LLM layer' if args.transport == 'http' and has_llm_layer() else 'openai SDK' if args.transport == 'http' else 'asyncio.sleep'}")
    print(f"{len(tasks)} dialogues, {args.latency * 1000:.0f} ms per call, longest dialogue {longest_calls} calls "
          f"-> critical path {critical:.2f} s")  # fmt: skip
    print(f"{'concurrency':>11}  {'wall s':>8}  {'x critical':>10}  note")
    for concurrency, wall, ratio, note in rows:
        print(f"{concurrency:>11}  {wall:>8.2f}  {ratio:>10.2f}  {note}")


if __name__ == "__main__":
    main()
