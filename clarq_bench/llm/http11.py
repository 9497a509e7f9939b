"""A lean HTTP/1.1 client for the direct transport's plain-http endpoints (a model server on this machine or the LAN).

Why: at hundreds of calls in flight the client's CPU per call decides how close a run gets to its critical path, and
aiohttp spends ~0.22 ms of CPU on a call (request and response objects, header multidicts, timers, hooks) where
this protocol spends ~0.06 ms (benchmarks/run_scaling.py: 260 dialogues at once, 100 ms server). https endpoints keep
aiohttp (transports.DirectOpenAI picks): TLS costs more than either there, and certificates stay the library's job.

Scope, all an OpenAI-compatible server needs: one POST at a time per connection, kept alive and reused (the most
recently used first); a reply framed by Content-Length, chunked, or the connection's close; no compression asked
for (a compressed reply is refused); the whole call, connecting included, within one deadline (TimeoutError); a
body past `cap` bytes refused as soon as it is known to be (ReplyTooLarge), never buffered past it. A reused
connection the server closed while idle is retried once on a new one when nothing of the reply had arrived.
"""

from __future__ import annotations

import asyncio
from typing import NamedTuple
from urllib.parse import urlsplit

from .reply_cap import ReplyTooLarge

#: Longest status line and headers accepted (a server sending endless headers is cut off here).
MAX_HEAD_BYTES = 64 * 1024


class Reply(NamedTuple):
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes


class ProtocolError(ConnectionError):
    """The server's bytes are not an HTTP/1.1 reply we can read (a dropped connection to the retry rules)."""


class _Connection(asyncio.Protocol):
    """One kept-alive connection; reads one reply at a time into `waiter`."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.waiter: asyncio.Future[Reply] | None = None
        self.buffer = bytearray()
        self.received = False  # any byte of the current reply arrived
        self._reset()

    def _reset(self) -> None:
        self.status = 0
        self.headers: dict[str, str] = {}
        self.framing = ""  # "length", "chunked" or "close" once the head is read
        self.length = 0
        self.body = bytearray()
        self.chunk_left = -1  # chunked: bytes left in the current chunk (-1: a size line is next, -2: trailers)
        self.keep_alive = True

    # ---- asyncio.Protocol ----------------------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a stream transport (create_connection)

    def data_received(self, data: bytes) -> None:
        if self.waiter is None or self.waiter.done():  # bytes nobody asked for: the connection is not reusable
            self.close()
            return
        self.received = True
        self.buffer += data
        try:
            self._parse(eof=False)
        except Exception as exc:
            self._fail(exc)

    def eof_received(self) -> bool:
        self._end_of_stream()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._end_of_stream(exc)

    # ---- reading a reply ----------------------------------------------------------------------------------------
    def _end_of_stream(self, exc: Exception | None = None) -> None:
        if self.waiter is None or self.waiter.done():
            self.closed = True
            return
        try:
            self._parse(eof=True)
        except Exception as error:
            self._fail(error)
            return
        if not self.waiter.done():
            self._fail(ConnectionResetError(f"the server closed the connection mid-reply ({exc or 'EOF'})"))

    def _fail(self, exc: BaseException) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(exc)
        self.close()

    def _parse(self, eof: bool) -> None:
        if not self.framing and not self._head():
            if len(self.buffer) > MAX_HEAD_BYTES:
                raise ProtocolError("the reply's headers are longer than 64 KB")
            return
        if self.framing == "length":
            if len(self.buffer) >= self.length:
                self._done(bytes(self.buffer[: self.length]), extra=len(self.buffer) > self.length)
        elif self.framing == "chunked":
            self._chunks()
        else:  # read to the close
            if len(self.buffer) > self.cap:
                raise ReplyTooLarge(f"the reply body is larger than {self.cap // (1024 * 1024)} MB")
            if eof:
                self.keep_alive = False
                self._done(bytes(self.buffer), extra=False)

    def _head(self) -> bool:
        """Read the status line and headers once they are all here; interim 1xx replies are skipped."""
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return False
            lines = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
            del self.buffer[: end + 4]
            version, _, rest = lines[0].partition(" ")
            code = rest[:3]
            if not version.startswith("HTTP/1.") or not code.isdigit():
                raise ProtocolError(f"not an HTTP/1.x status line: {lines[0][:80]!r}")
            if 100 <= int(code) < 200:
                continue
            self.status = int(code)
            for line in lines[1:]:
                name, colon, value = line.partition(":")
                if colon:
                    self.headers[name.strip().lower()] = value.strip()
            break
        connection = self.headers.get("connection", "").lower()
        self.keep_alive = "close" not in connection and (version != "HTTP/1.0" or "keep-alive" in connection)
        if self.status in (204, 304):  # no body, whatever the headers say
            self.framing, self.length = "length", 0
            return True
        encoding = self.headers.get("content-encoding", "identity").lower()
        if encoding not in ("", "identity"):
            raise ProtocolError(f"a {encoding}-encoded reply, though none was asked for")
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            self.framing = "chunked"
        elif "content-length" in self.headers:
            length = self.headers["content-length"]
            if not length.isdigit():
                raise ProtocolError(f"Content-Length {length[:20]!r}")
            self.framing, self.length = "length", int(length)
            if self.length > self.cap:
                raise ReplyTooLarge(f"the reply body is larger than {self.cap // (1024 * 1024)} MB")
        else:
            self.framing = "close"
        return True

    def _chunks(self) -> None:
        buffer = self.buffer
        while True:
            if self.chunk_left == -1:  # a size line
                end = buffer.find(b"\r\n")
                if end < 0:
                    if len(buffer) > 1024:
                        raise ProtocolError("a chunk size line longer than 1 KB")
                    return
                size = bytes(buffer[:end]).split(b";", 1)[0].strip()
                try:
                    self.chunk_left = int(size, 16)
                except ValueError:
                    raise ProtocolError(f"chunk size {size[:20]!r}") from None
                del buffer[: end + 2]
                if self.chunk_left == 0:
                    self.chunk_left = -2
            if self.chunk_left == -2:  # the last chunk: trailers (usually none) up to an empty line
                if buffer[:2] == b"\r\n":
                    del buffer[:2]
                else:
                    end = buffer.find(b"\r\n\r\n")
                    if end < 0:
                        if len(buffer) > MAX_HEAD_BYTES:
                            raise ProtocolError("trailers longer than 64 KB")
                        return
                    del buffer[: end + 4]
                self._done(bytes(self.body), extra=bool(buffer))
                return
            if len(buffer) < self.chunk_left + 2:
                take = min(len(buffer), self.chunk_left)  # keep what is here, so the buffer stays one chunk long
                self.body += buffer[:take]
                del buffer[:take]
                self.chunk_left -= take
                self._check_size()
                if self.chunk_left:
                    return
                if len(buffer) < 2:
                    return
            else:
                self.body += buffer[: self.chunk_left]
                del buffer[: self.chunk_left]
                self.chunk_left = 0
                self._check_size()
            if buffer[:2] != b"\r\n":
                raise ProtocolError("a chunk not followed by CRLF")
            del buffer[:2]
            self.chunk_left = -1

    def _check_size(self) -> None:
        if len(self.body) > self.cap:
            raise ReplyTooLarge(f"the reply body is larger than {self.cap // (1024 * 1024)} MB")

    def _done(self, body: bytes, extra: bool) -> None:
        reply = Reply(self.status, self.headers, body)
        if extra:  # bytes past the reply: nothing on this connection can be trusted after it
            self.keep_alive = False
        self.buffer.clear()
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(reply)

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    def send(self, head: bytes, body: bytes, waiter: asyncio.Future[Reply]) -> None:
        self._reset()
        self.waiter, self.received = waiter, False
        self.buffer.clear()
        assert self.transport is not None
        self.transport.write(head + body)


class Http11Pool:
    """Kept-alive connections to one http:// origin, for one event loop."""

    def __init__(self, url: str, headers: dict[str, str], cap: int) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"not a plain http URL: {url}")
        self.host, self.port, self.cap = parts.hostname, parts.port or 80, cap
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        host = parts.netloc.rpartition("@")[2]
        fixed = {"Host": host, **headers, "Accept-Encoding": "identity", "Connection": "keep-alive"}
        self._head = f"POST {target} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fixed.items())
        self._idle: list[_Connection] = []
        self._open: set[_Connection] = set()
        self.closed = False

    async def post(self, body: bytes, timeout_s: float) -> Reply:
        """One POST within `timeout_s` seconds in all (TimeoutError after that)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        head = (self._head + f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
        for reused in (True, False):
            connection = self._idle_connection() if reused else None
            if connection is None:
                connection = await self._connect(deadline)
                reused = False
            try:
                return await self._exchange(connection, head, body, deadline)
            except ConnectionError:
                if reused and not connection.received:  # closed by the server while idle: once more, on a new one
                    continue
                raise
        raise AssertionError("unreachable: the second pass returns or raises")  # pragma: no cover

    def _idle_connection(self) -> _Connection | None:
        while self._idle:
            connection = self._idle.pop()
            transport = connection.transport
            if not connection.closed and transport is not None and not transport.is_closing():
                return connection
            self._open.discard(connection)
        return None

    async def _connect(self, deadline: float) -> _Connection:
        loop = asyncio.get_running_loop()
        left = deadline - loop.time()
        if left <= 0:
            raise TimeoutError("no reply within the call's deadline")
        try:
            _, connection = await asyncio.wait_for(
                loop.create_connection(lambda: _Connection(self.cap), self.host, self.port), left
            )
        except asyncio.TimeoutError:
            raise TimeoutError("no connection within the call's deadline") from None
        self._open.add(connection)
        return connection

    async def _exchange(self, connection: _Connection, head: bytes, body: bytes, deadline: float) -> Reply:
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Reply] = loop.create_future()
        timer = loop.call_at(deadline, _expire, waiter, connection)
        clean = False
        try:
            connection.send(head, body, waiter)
            reply = await waiter
            clean = connection.keep_alive and not connection.closed
            return reply
        finally:
            timer.cancel()
            connection.waiter = None
            if clean and not self.closed:
                self._idle.append(connection)
            else:  # failed, cancelled, or the server will not keep it: never reused
                connection.close()
                self._open.discard(connection)

    def close(self) -> None:
        """Close every connection (those in use too: their calls fail)."""
        self.closed = True
        for connection in list(self._open):
            connection.close()
        self._open.clear()
        self._idle.clear()


def _expire(waiter: asyncio.Future[Reply], connection: _Connection) -> None:
    if not waiter.done():
        waiter.set_exception(TimeoutError("no reply within the call's deadline"))
    connection.close()
