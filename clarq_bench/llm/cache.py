"""The response cache: one SQLite file (WAL), JSON values, keyed by what changes the answer.

The key hashes the resolved model, the normalized endpoint (llm/endpoint.py: the same model name at two endpoints
is two models), the messages, the sampling parameters, the seed and the trial index, so repeated trials differ while
a rerun replays them exactly. Timeouts, retries, keys and headers are not part of the key and are never stored;
values pass the redactor before they are written (an endpoint that echoes the Authorization header into its reply
must not leave the key in the file).

Why it never stops a run: the cache only saves money. SQLite blocks (a lock held by another process waits up to
the busy timeout), so every call runs on one worker thread, never on the event loop, with a short busy timeout (puts
are queued and written in batches, one transaction each, however many callers wait for the same batch); any
fault (locked past the timeout, a full disk, a corrupt or unreadable file) turns the cache off for the rest of the
run with one warning, and the reply that was being stored is still returned and counted.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from ..core.redact import redact, redact_data

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    value TEXT NOT NULL,
    created REAL NOT NULL
)
"""

#: Seconds a cache call waits for a lock held by another connection before the cache is given up.
BUSY_TIMEOUT_S = 1.0


def cache_key(
    model: str,
    messages: list[dict[str, Any]],
    params: dict[str, Any],
    seed: int | None,
    trial: int,
    endpoint: str | None = None,
) -> str:
    """sha256 over canonical JSON of everything that changes a reply (`endpoint`: normalized api_base, or None)."""
    payload = {"model": model, "messages": messages, "params": params, "seed": seed, "trial": trial}
    if endpoint:
        payload["endpoint"] = endpoint
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def default_cache_path() -> Path:
    """<user cache dir>/clarq/llm-cache.sqlite3 (platformdirs; honours XDG_CACHE_HOME)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("clarq", appauthor=False)) / "llm-cache.sqlite3"


def _storable(value: dict[str, Any]) -> bool:
    """A reply with text: a blank one is no answer and is never stored."""
    return isinstance(value.get("text"), str) and bool(value["text"].strip())


def _warn(message: str) -> None:
    print(f"clarq: warning: {message}", file=sys.stderr, flush=True)


class ResponseCache:
    """get/put JSON objects by key; counts hits and misses. `aget`/`aput` run on the cache's own thread.

    `fault` is the one-line reason the cache was turned off (None while it works); `on_fault` is told once."""

    def __init__(
        self,
        path: Path | str,
        *,
        busy_timeout_s: float = BUSY_TIMEOUT_S,
        on_fault: Callable[[str], None] | None = _warn,
    ) -> None:
        self.path = Path(path)
        self.busy_timeout_s = busy_timeout_s
        self.on_fault = on_fault
        self.fault: str | None = None
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._opened = False
        self._executor: ThreadPoolExecutor | None = None
        self._queue_lock = threading.Lock()
        self._queued: dict[str, tuple[str, dict[str, Any]]] = {}  # replies waiting for the worker to write them
        self._flush_due: Future[None] | None = None  # the write the queued replies wait for

    # ---- the connection and its faults ---------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection | None:
        """The open connection (opened on first use), or None once the cache is off. Call with the lock held."""
        if self.fault is not None:
            return None
        if not self._opened:
            self._opened = True
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                self.path, timeout=self.busy_timeout_s, check_same_thread=False, isolation_level=None
            )
            self._setup(self._conn)
        return self._conn

    def _setup(self, conn: sqlite3.Connection) -> None:
        """WAL mode and the table. Switching to WAL can fail with "database is locked" at once, without waiting
        for the busy timeout, while another connection opens the same new file; that is retried briefly."""
        deadline = time.monotonic() + self.busy_timeout_s
        while True:
            try:
                conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout_s * 1000)}")
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute(SCHEMA)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def _failed(self, exc: BaseException) -> None:
        """Turn the cache off for good (this run), once, saying why in one line."""
        if self.fault is not None:
            return
        detail = " ".join(redact(str(exc)).split())[:200] or type(exc).__name__
        self.fault = f"response cache {self.path} is not usable ({detail}); going on without it"
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except sqlite3.Error:
                pass
        if self.on_fault is not None:
            self.on_fault(self.fault)

    def _guarded(self, work: Callable[[sqlite3.Connection], T], default: T) -> T:
        with self._lock:
            try:
                conn = self._connection()
                return default if conn is None else work(conn)
            except (sqlite3.Error, OSError, ValueError, TypeError, MemoryError) as exc:
                self._failed(exc)
                return default

    # ---- get / put ---------------------------------------------------------------------------------------------

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored value, or None (a miss, or the cache is off)."""

        def read(conn: sqlite3.Connection) -> dict[str, Any] | None:
            row = conn.execute("SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
            value = json.loads(row[0]) if row is not None else None
            if row is not None and (not isinstance(value, dict) or not isinstance(value.get("text"), str)):
                raise ValueError("a stored value is not a reply")
            return value

        value = self._guarded(read, None)
        if value is None or not str(value["text"]).strip():  # a blank reply is never played from the cache
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, model: str, value: dict[str, Any]) -> None:
        """Store a reply, redacted; a blank one is not stored (it is no answer)."""
        self.put_many({key: (model, value)})

    def put_many(self, items: dict[str, tuple[str, dict[str, Any]]]) -> None:
        """Store replies (key -> (model, value)), redacted, in one transaction; blank ones are not stored."""
        now = time.time()
        rows = [
            (key, redact(model), json.dumps(redact_data(value), ensure_ascii=False, sort_keys=True), now)
            for key, (model, value) in items.items()
            if _storable(value)
        ]
        if not rows:
            return

        def write(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN")
            try:
                conn.executemany(
                    "INSERT OR REPLACE INTO responses (key, model, value, created) VALUES (?, ?, ?, ?)", rows
                )
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

        self._guarded(write, None)

    async def aget(self, key: str) -> dict[str, Any] | None:
        if self.fault is not None:
            return None
        with self._queue_lock:
            queued = self._queued.get(key)
        if queued is not None:  # stored a moment ago, not yet written
            self.hits += 1
            return redact_data(queued[1])
        return await self._off_loop(self.get, key)

    async def aput(self, key: str, model: str, value: dict[str, Any]) -> None:
        """Queue a reply for the worker thread, which writes everything queued in one transaction, and wait for that
        write (shielded: a caller cancelled meanwhile, by a turn timeout just after a paid reply came, does not take
        the put back; close() writes what is still queued). Once it returns, every connection to the file sees it.
        (One INSERT and commit per reply made a cache miss 40 ms slower at 64 calls in flight; llm_overhead.py.)"""
        if self.fault is not None or not _storable(value):
            return
        with self._queue_lock:
            self._queued[key] = (model, value)
            written = self._flush_due
            if written is None:
                written = self._flush_due = self._worker().submit(self._flush)
        await asyncio.shield(asyncio.wrap_future(written))

    def _flush(self) -> None:
        """On the worker thread: write what is queued."""
        with self._queue_lock:
            items, self._queued = self._queued, {}
            self._flush_due = None
        if items:
            self.put_many(items)

    def _worker(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clarq-cache")
            return self._executor

    def _off_loop(self, func: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Run `func` on the cache's one worker thread (SQLite calls block; the event loop must not)."""
        return asyncio.get_running_loop().run_in_executor(self._worker(), func, *args)

    def __len__(self) -> int:
        self._flush()
        return int(self._guarded(lambda conn: conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0], 0))

    def close(self) -> None:
        """Write what is queued, stop the worker thread, close the file."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)
        self._flush()  # anything queued after the worker's last flush
        with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                try:
                    conn.close()
                except sqlite3.Error:
                    pass
