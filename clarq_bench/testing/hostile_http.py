"""A hostile OpenAI-compatible endpoint on 127.0.0.1 for tests: replies no honest server sends.

Modes: `big` (a 50 MB reply with its length), `endless` (a chunked reply that never ends, as fast as it is read),
`trickle` (a chunked reply of one byte a second, forever: no read ever waits long), `no-choices` (a reply whose
`choices` is empty). Runs in a thread; `base_url` is http://127.0.0.1:PORT/v1.
"""

from __future__ import annotations

import asyncio
import json
import threading

MODES = ("big", "endless", "trickle", "no-choices")
BIG_BYTES = 50 * 1024 * 1024


class HostileServer:
    def __init__(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        self.mode = mode
        self.hits = 0
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> HostileServer:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    async def _shutdown(self) -> None:
        self._server.close()
        tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(
                (
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                ),
                0,
            )
            await reader.readexactly(length)
            self.hits += 1
            await getattr(self, "_" + self.mode.replace("-", "_"))(writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def _big(self, writer: asyncio.StreamWriter) -> None:
        prefix = b'{"choices":[{"message":{"role":"assistant","content":"'
        suffix = b'"}}],"usage":{"prompt_tokens":1,"completion_tokens":1}}'
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
            % (len(prefix) + BIG_BYTES + len(suffix))
        )
        writer.write(prefix)
        block = b"x" * (1 << 20)
        for _ in range(BIG_BYTES >> 20):
            writer.write(block)
            await writer.drain()
        writer.write(suffix)
        await writer.drain()

    async def _chunked(self, writer: asyncio.StreamWriter, piece: bytes, pause: float) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        writer.write(b'%x\r\n{"choices":[{"message":{"content":"\r\n' % len(b'{"choices":[{"message":{"content":"'))
        chunk = b"%x\r\n%s\r\n" % (len(piece), piece)
        while True:
            writer.write(chunk)
            await writer.drain()
            if pause:
                await asyncio.sleep(pause)

    async def _endless(self, writer: asyncio.StreamWriter) -> None:
        await self._chunked(writer, b"x" * 65536, 0)

    async def _trickle(self, writer: asyncio.StreamWriter) -> None:
        await self._chunked(writer, b"x", 1.0)

    async def _no_choices(self, writer: asyncio.StreamWriter) -> None:
        body = json.dumps(
            {
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": "m",
                "choices": [],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
        ).encode()
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        await writer.drain()
