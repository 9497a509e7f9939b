"""`clarq play --web` starts at most MAX_PLAYERS runs at once, over real HTTP on 127.0.0.1: a stream of new names is
told to come back later (503) instead of starting runs without end; someone already playing is let back in."""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from clarq_bench.runner.web_play import MAX_PLAYERS, PlayServer


async def test_new_names_past_the_cap_are_told_to_come_back(tmp_path: Path) -> None:
    started: list[str] = []

    async def run(options, **hooks):  # a person's run that goes on until the server stops
        started.append(options.seeker_option["person"])
        await asyncio.Event().wait()

    server = PlayServer(
        tmp_path / "runs", {"tasks": str(Path(__file__).resolve().parents[2] / "tasks"), "provider": "offline"}, run=run
    )
    async with TestClient(TestServer(server.app())) as client:
        for index in range(MAX_PLAYERS):
            reply = await client.post("/start", data={"name": f"person {index}"}, allow_redirects=False)
            assert reply.status == 303
        late = await client.post("/start", data={"name": "one too many"}, allow_redirects=False)
        assert late.status == 503 and "try again" in await late.text()
        back = await client.post("/start", data={"name": "person 0"}, allow_redirects=False)
        assert back.status == 303
        await asyncio.sleep(0.2)
    assert len(started) == MAX_PLAYERS and "one too many" not in started
    for task in server.runs.values():
        task.cancel()
