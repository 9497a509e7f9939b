"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for tests and benchmarks.

It speaks real HTTP/1.1 (keep-alive, Content-Length bodies) from an asyncio loop in a background thread, so the real
client stack (litellm, openai, httpx/aiohttp) stays in the path. Replies follow a script of behaviours (normal reply,
error status with optional Retry-After, slow reply, garbage body); when the script runs out, a responder callable
answers. Standard library only: importing this module must stay cheap.

Capacity, for scale-out tests: `max_concurrent=K` answers 429 at once to a request that would be the (K+1)-th in
flight (what vLLM behind a proxy or a rate-limited key does), `failure_rate=p` answers 429 at once to a seeded random
share p of the requests; `throttled` counts both kinds, `served` the 200 replies.

It is test infrastructure that benchmarks share a machine with, so it is kept cheap per request (~0.1 ms of CPU): a
bare asyncio.Protocol parses requests from the socket buffer (no stream reader tasks), and a reply's latency is a
loop timer (call_later) rather than a sleeping task. Replies on one connection are written in request order.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Behaviour", "FakeOpenAIServer", "reply", "error", "garbage", "estimate_tokens"]


@dataclass(frozen=True)
class Behaviour:
    """What the server does for one request.

    kind: "reply" (200 with `text` as the message content), "error" (`status` with an OpenAI-style error body and
    optional Retry-After header), "garbage" (200 with a body that is not JSON). `delay_s` is waited before answering;
    None means the server's default latency.
    """

    kind: str = "reply"
    text: str | None = None
    status: int = 200
    retry_after: float | None = None
    message: str = ""
    delay_s: float | None = None


def reply(text: str | None = None, delay_s: float | None = None) -> Behaviour:
    """A normal 200 reply; text None means "ask the responder"."""
    return Behaviour("reply", text=text, delay_s=delay_s)


def error(status: int, retry_after: float | None = None, message: str = "", delay_s: float | None = None) -> Behaviour:
    """An HTTP error (429, 500, 401, 400, ...), optionally with a Retry-After header in seconds."""
    return Behaviour("error", status=status, retry_after=retry_after, message=message, delay_s=delay_s)


def garbage(delay_s: float | None = None) -> Behaviour:
    """A 200 whose body is not JSON at all (a broken proxy)."""
    return Behaviour("garbage", delay_s=delay_s)


def estimate_tokens(text: str) -> int:
    """The fake servers' token count: one token per 4 characters, at least 1 (deterministic, testable)."""
    return max(1, (len(text) + 3) // 4)


def _default_responder(body: dict[str, Any]) -> str:
    if (body.get("response_format") or {}).get("type") == "json_object":
        return '{"ok": true}'
    last = body.get("messages", [{}])[-1].get("content", "")
    return f"echo: {last}" if isinstance(last, str) else "echo"


_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}


@dataclass
class _Stats:
    requests: list[dict[str, Any]] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    throttled: int = 0
    served: int = 0


class FakeOpenAIServer:
    """POST /v1/chat/completions on 127.0.0.1:<free port>, scripted.

    Use as a context manager (or start()/stop()). `base_url` is "http://127.0.0.1:PORT/v1". `requests` holds every
    request body received (in arrival order), `max_in_flight` the most requests being served at once.
    """

    def __init__(
        self,
        script: Iterable[Behaviour | str] = (),
        *,
        latency_s: float = 0.0,
        responder: Callable[[dict[str, Any]], str] | None = None,
        report_model: str | None = None,
        max_concurrent: int | None = None,
        failure_rate: float = 0.0,
        throttle_retry_after: float | None = None,
        seed: int = 0,
        echo_header: str | None = None,
        echo_bare: bool = False,
        faults: dict[str, float] | None = None,
        port: int = 0,
        on_answer: Callable[[dict[str, Any], str, bool, float], None] | None = None,
    ) -> None:
        self._script: list[Behaviour] = [reply(b) if isinstance(b, str) else b for b in script]
        self.latency_s = latency_s
        self.responder = responder or _default_responder
        self.report_model = report_model  # the model name replies claim (default: the one asked for)
        self.max_concurrent = max_concurrent  # 429 beyond this many requests in flight (None: no limit)
        self.failure_rate = failure_rate  # share of requests answered 429 at random
        self.throttle_retry_after = throttle_retry_after  # Retry-After seconds on those 429s (None: no header)
        self.echo_header = echo_header  # a hostile endpoint: this request header is appended to every reply text
        #: ... without its scheme ("Bearer "): the bare key, in the reply text and as the model that answered
        self.echo_bare = echo_bare
        #: share of requests given each fault at random: error500, garbage, empty, null, hang (504 after 30 s),
        #: slow (a normal reply after 8 s)
        self.faults = dict(faults or {})
        self._random = random.Random(seed)
        self._stats = _Stats()
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.base_events.Server | None = None
        self._connections: set[_Connection] = set()
        self.port = port  # 0: any free port, known once started
        #: told (body, kind, delivered, asked_at) as each request is answered: kind is reply, empty, null, garbage
        #: or error<status>; delivered is False when the client had closed the connection before the answer was due;
        #: asked_at is when the request arrived (time.monotonic())
        self.on_answer = on_answer

    # ---- script and observations -------------------------------------------------------------------------------

    def push(self, *behaviours: Behaviour | str) -> None:
        """Append behaviours to the script (served first-in, first-out)."""
        with self._lock:
            self._script.extend(reply(b) if isinstance(b, str) else b for b in behaviours)

    @property
    def requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._stats.requests)

    @property
    def hits(self) -> int:
        with self._lock:
            return len(self._stats.requests)

    @property
    def max_in_flight(self) -> int:
        with self._lock:
            return self._stats.max_in_flight

    @property
    def throttled(self) -> int:
        """Requests answered 429 by the capacity limit or the failure rate (not the script)."""
        with self._lock:
            return self._stats.throttled

    @property
    def served(self) -> int:
        """Requests answered 200."""
        with self._lock:
            return self._stats.served

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def reset(self) -> None:
        """Forget recorded requests and the in-flight maximum (the script is kept)."""
        with self._lock:
            self._stats = _Stats(in_flight=self._stats.in_flight)

    # ---- lifecycle ---------------------------------------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            self._server = loop.run_until_complete(
                loop.create_server(lambda: _Connection(self), "127.0.0.1", self.port, backlog=512)
            )
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._shutdown())
            loop.close()

        self._thread = threading.Thread(target=run, name="fake-openai", daemon=True)
        self._thread.start()
        ready.wait(5)
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
            self._loop = self._thread = None

    async def _shutdown(self) -> None:
        assert self._server is not None
        self._server.close()
        for connection in list(self._connections):
            connection.close()
        self._connections.clear()

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- HTTP --------------------------------------------------------------------------------------------------

    def _begin(
        self, method: str, path: str, raw: bytes, headers: dict[str, str] | None = None
    ) -> tuple[Behaviour | None, Any]:
        """Route and record one request: (behaviour, body), or (None, (status, headers, payload)) when refused."""
        if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
            return None, (404, {}, json.dumps({"error": {"message": f"no route {method} {path}"}}).encode())
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return None, (400, {}, json.dumps({"error": {"message": "request body is not JSON"}}).encode())
        with self._lock:
            stats = self._stats
            stats.requests.append(body)
            full = self.max_concurrent is not None and stats.in_flight >= self.max_concurrent
            if full or (self.failure_rate and self._random.random() < self.failure_rate):
                stats.throttled += 1
                return None, self._respond(
                    error(429, self.throttle_retry_after, "fake server: too many requests"), body
                )
            behaviour = self._script.pop(0) if self._script else self._fault() or _DEFAULT
            stats.in_flight += 1
            if stats.in_flight > stats.max_in_flight:
                stats.max_in_flight = stats.in_flight
        if self.echo_header and behaviour.kind == "reply":
            echoed = (headers or {}).get(self.echo_header.lower(), "")
            text = behaviour.text if behaviour.text is not None else self.responder(body)
            if self.echo_bare:
                echoed = echoed.removeprefix("Bearer ").strip()
                body = {**body, "model": echoed}
                text = f"{text} {echoed}"
            else:
                text = f"{text} [{self.echo_header}: {echoed}]"
            behaviour = Behaviour("reply", text=text, delay_s=behaviour.delay_s)
        return behaviour, body

    def _fault(self) -> Behaviour | None:
        """A random fault per `faults` (called with the lock held), or None for a normal reply."""
        if not self.faults:
            return None
        draw = self._random.random()
        for kind, share in self.faults.items():
            if draw < share:
                return _FAULTS[kind]
            draw -= share
        return None

    def _finish(self, behaviour: Behaviour, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            self._stats.in_flight -= 1
            self._stats.served += behaviour.kind == "reply"
        return self._respond(behaviour, body)

    def _told(self, body: dict[str, Any], behaviour: Behaviour, delivered: bool, asked_at: float) -> None:
        if self.on_answer is not None:
            kind = f"error{behaviour.status}" if behaviour.kind == "error" else behaviour.kind
            self.on_answer(body, "empty" if kind == "reply" and behaviour.text == "" else kind, delivered, asked_at)

    def _respond(self, behaviour: Behaviour, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        if behaviour.kind == "garbage":
            return 200, {}, b"<html>this is not json"
        if behaviour.kind == "error":
            headers = {} if behaviour.retry_after is None else {"Retry-After": f"{behaviour.retry_after:g}"}
            kinds = {401: "invalid_api_key", 429: "rate_limit_exceeded", 400: "invalid_request_error"}
            message = behaviour.message or f"fake server error {behaviour.status}"
            err = {"message": message, "type": kinds.get(behaviour.status, "server_error"), "code": None}
            return behaviour.status, headers, json.dumps({"error": err}).encode()
        text: str | None = behaviour.text if behaviour.text is not None else self.responder(body)
        if behaviour.kind == "null":
            text = None
        prompt = "".join(str(m.get("content", "")) for m in body.get("messages", []))
        prompt_tokens, completion_tokens = estimate_tokens(prompt), estimate_tokens(text or "")
        payload = {
            "id": f"chatcmpl-fake-{time.monotonic_ns()}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.report_model or body.get("model", "fake"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
        return 200, {}, json.dumps(payload).encode()


_DEFAULT = Behaviour("reply")
_FAULTS = {
    "error500": Behaviour("error", status=500, message="fake server: internal error"),
    "garbage": Behaviour("garbage"),
    "empty": Behaviour("reply", text=""),
    "null": Behaviour("null"),
    "hang": Behaviour("error", status=504, message="fake server: gateway timeout", delay_s=30.0),
    "slow": Behaviour("reply", delay_s=8.0),
}  # a usable reply, later than a 5 s turn timeout waits


def _http_response(status: int, extra: dict[str, str], payload: bytes) -> bytes:
    head = (
        f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\nConnection: keep-alive\r\n"
    )
    for key, value in extra.items():
        head += f"{key}: {value}\r\n"
    return (head + "\r\n").encode("latin-1") + payload


class _Connection(asyncio.Protocol):
    """One client connection: parses requests out of the receive buffer, answers each after its delay, in order."""

    def __init__(self, server: FakeOpenAIServer) -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.pending: list[list[Any]] = []  # per request, in arrival order: [response bytes or None, close after,
        # (behaviour, body) to tell the server's on_answer about, arrival time]
        self.loop = asyncio.get_running_loop()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.server._connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server._connections.discard(self)
        self.transport = None

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buffer) > 1 << 16:
                    self.close()
                return
            try:
                lines = self.buffer[:end].decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:] if ln)}
                length = int(headers.get("content-length", "0"))
            except ValueError:
                self.close()
                return
            if len(self.buffer) < end + 4 + length:
                return
            raw = self.buffer[end + 4 : end + 4 + length]
            self.buffer = self.buffer[end + 4 + length :]
            self._request(method, path, raw, headers.get("connection", "").lower() == "close", headers)

    def _request(self, method: str, path: str, raw: bytes, close: bool, headers: dict[str, str]) -> None:
        slot: list[Any] = [None, close, None, time.monotonic()]
        self.pending.append(slot)
        behaviour, body = self.server._begin(method, path, raw, headers)
        if behaviour is None:
            slot[0] = _http_response(*body)
            self._flush()
            return
        delay = self.server.latency_s if behaviour.delay_s is None else behaviour.delay_s
        if delay > 0:
            self.loop.call_later(delay, self._answer, slot, behaviour, body)
        else:
            self._answer(slot, behaviour, body)

    def _answer(self, slot: list[Any], behaviour: Behaviour, body: dict[str, Any]) -> None:
        try:
            slot[0] = _http_response(*self.server._finish(behaviour, body))
            slot[2] = (behaviour, body)
        except Exception as exc:  # a broken responder: answer 500 rather than leave the client hanging
            message = json.dumps({"error": {"message": f"fake server responder failed: {exc!r}"}}).encode()
            slot[0] = _http_response(500, {}, message)
        self._flush()

    def _flush(self) -> None:
        while self.pending and self.pending[0][0] is not None:
            response, close, told, asked_at = self.pending.pop(0)
            transport = self.transport
            gone = transport is None or transport.is_closing()
            if told is not None:
                self.server._told(told[1], told[0], not gone, asked_at)
            if transport is None or gone:
                continue
            transport.write(response)
            if close:
                transport.close()


def main(argv: list[str] | None = None) -> None:
    """Serve from a separate process (benchmarks): prints the port on stdout, runs until stdin closes."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(description="fake OpenAI-compatible server on 127.0.0.1")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds to wait before each reply")
    parser.add_argument("--max-concurrent", type=int, help="answer 429 beyond this many requests in flight")
    parser.add_argument("--failure-rate", type=float, default=0.0, help="answer 429 to this share of requests")
    parser.add_argument("--faults", default="", help="KIND=SHARE,...: error500, garbage, empty, null, hang, slow")
    parser.add_argument("--responder", help="module:function answering each request body (default: echo)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    faults = {kind: float(share) for kind, _, share in (item.partition("=") for item in args.faults.split(",") if item)}
    responder = None
    if args.responder:
        import importlib

        module, _, name = args.responder.partition(":")
        responder = getattr(importlib.import_module(module), name)()
    with FakeOpenAIServer(
        latency_s=args.latency,
        max_concurrent=args.max_concurrent,
        failure_rate=args.failure_rate,
        faults=faults,
        responder=responder,
        seed=args.seed,
    ) as server:
        print(server.port, flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
