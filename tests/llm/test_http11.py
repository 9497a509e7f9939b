"""The direct transport's plain-http client (llm/http11.py) against a raw server on 127.0.0.1 whose every reply is
written by hand: the framings an OpenAI-compatible server may use, replies split at every byte, connections the
server closes while idle or after a reply, and what it must refuse."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from clarq_bench.llm.http11 import Http11Pool, ProtocolError
from clarq_bench.llm.reply_cap import ReplyTooLarge

BODY = b'{"choices":[{"message":{"content":"hi"}}]}'
LENGTH = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(BODY), BODY)


class RawServer:
    """Answers each request with `answer(n)` (n counts requests over all connections); None closes the connection."""

    def __init__(self, answer: Callable[[int], bytes | None], split: bool = False) -> None:
        self.answer, self.split = answer, split
        self.requests: list[bytes] = []
        self.connections = 0
        self.writers: list[asyncio.StreamWriter] = []

    async def __aenter__(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/v1/chat/completions"

    async def __aexit__(self, *_: object) -> None:
        for writer in self.writers:
            writer.close()
        self.server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.append(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(
                    next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))[15:]
                )
                self.requests.append(head + await reader.readexactly(length))
                reply = self.answer(len(self.requests))
                if reply is None:
                    writer.close()
                    return
                for piece in [reply[i : i + 1] for i in range(len(reply))] if self.split else [reply]:
                    writer.write(piece)
                    await writer.drain()
                    if self.split:
                        await asyncio.sleep(0)
                if b"Connection: close" in reply:  # as a server does after a reply framed by its close
                    writer.close()
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()


def _pool(url: str, cap: int = 1 << 20) -> Http11Pool:
    return Http11Pool(url, {"Authorization": "Bearer k", "Content-Type": "application/json"}, cap)


@pytest.mark.parametrize("split", [False, True])
async def test_length_chunked_and_close_framings_read_whole_and_keep_alive_only_when_allowed(split: bool) -> None:
    chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\n" + BODY[:5] + b"\r\n"
    chunked += b"%x\r\n%s\r\n0\r\nX-Trailer: y\r\n\r\n" % (len(BODY) - 5, BODY[5:])
    interim = b"HTTP/1.1 100 Continue\r\n\r\n" + LENGTH
    closing = b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + BODY
    replies = [LENGTH, chunked, interim, closing, LENGTH]
    server = RawServer(lambda n: replies[n - 1], split=split)
    async with server as url:
        pool = _pool(url)
        for _ in replies:
            reply = await pool.post(b'{"x":1}', 5)
            assert (reply.status, reply.body) == (200, BODY)
        pool.close()
    assert server.connections == 2  # the four replies up to the close-framed one shared the first connection


async def test_one_connection_is_reused_and_a_close_framed_reply_ends_it() -> None:
    closing = b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + BODY
    server = RawServer(lambda n: closing if n == 2 else LENGTH)
    async with server as url:
        pool = _pool(url)
        for _ in range(4):
            assert (await pool.post(b"{}", 5)).body == BODY
        pool.close()
    assert server.connections == 2  # requests 1-2 on the first, 3-4 on the second
    first = server.requests[0].decode("latin-1")
    assert first.startswith("POST /v1/chat/completions HTTP/1.1\r\n") and "Authorization: Bearer k" in first
    assert "Accept-Encoding: identity" in first and "Content-Length: 2" in first


async def test_a_reply_without_a_body_by_its_status_ends_at_its_headers() -> None:
    server = RawServer(lambda n: b"HTTP/1.1 204 No Content\r\n\r\n" if n == 1 else LENGTH)
    async with server as url:
        pool = _pool(url)
        assert (await pool.post(b"{}", 2)) == (204, {}, b"")
        assert (await pool.post(b"{}", 2)).body == BODY
        pool.close()
    assert server.connections == 1


async def test_a_connection_the_server_closed_while_idle_is_replaced_without_an_error() -> None:
    server = RawServer(lambda n: LENGTH)
    async with server as url:
        pool = _pool(url)
        assert (await pool.post(b"{}", 5)).body == BODY
        for writer in server.writers:  # the server's keep-alive timeout
            writer.close()
        await asyncio.sleep(0.05)
        assert (await pool.post(b"{}", 5)).body == BODY
        pool.close()
    assert server.connections == 2


async def test_a_connection_dropped_before_any_reply_byte_on_a_reused_connection_is_retried_once() -> None:
    server = RawServer(lambda n: None if n == 2 else LENGTH)  # the second request meets a closing server
    async with server as url:
        pool = _pool(url)
        assert (await pool.post(b"{}", 5)).body == BODY
        assert (await pool.post(b"{}", 5)).body == BODY  # retried on a new connection: request 3
        pool.close()
    assert len(server.requests) == 3


async def test_a_new_connection_dropped_mid_reply_is_a_connection_error() -> None:
    async with RawServer(lambda n: b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{") as url:
        pool = _pool(url)
        task = asyncio.ensure_future(pool.post(b"{}", 5))
        await asyncio.sleep(0.1)
        pool.close()
        with pytest.raises(ConnectionError):
            await task


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (b"HTTP/1.1 200 OK\r\nContent-Length: 4096\r\n\r\n", ReplyTooLarge),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + b"400\r\n" + b"x" * 1024 + b"\r\n", ReplyTooLarge),
        (b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}", ProtocolError),
        (b"SMTP ready\r\n\r\n", ProtocolError),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", ProtocolError),
    ],
)
async def test_too_large_compressed_or_broken_replies_are_refused(reply: bytes, error: type) -> None:
    async with RawServer(lambda n: reply * 8) as url:
        pool = _pool(url, cap=1000)
        with pytest.raises(error):
            await pool.post(b"{}", 5)
        pool.close()


async def test_the_deadline_covers_the_whole_call() -> None:
    async with RawServer(lambda n: b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{") as url:
        pool = _pool(url)
        started = asyncio.get_running_loop().time()
        with pytest.raises(TimeoutError):
            await pool.post(b"{}", 0.3)
        assert asyncio.get_running_loop().time() - started < 2
        pool.close()


async def test_a_redirect_is_one_line_naming_where_it_points() -> None:
    from clarq_bench.llm.errors import LLMBadRequestError
    from clarq_bench.llm.transports import DirectOpenAI

    moved = b"HTTP/1.1 308 Permanent Redirect\r\nLocation: https://example.com/v1/chat/completions\r\n"
    async with RawServer(lambda n: moved + b"Content-Length: 0\r\n\r\n") as url:
        direct = DirectOpenAI(url.removesuffix("/chat/completions"), "k" * 12)
        with pytest.raises(LLMBadRequestError, match=r"redirects \(308 to https://example\.com/v1"):
            await direct.call("openai/m", [{"role": "user", "content": "hi"}], {}, timeout_s=5)
        await direct.aclose()


def test_only_plain_http_urls_are_taken() -> None:
    with pytest.raises(ValueError):
        _pool("https://example.com/v1/chat/completions")
