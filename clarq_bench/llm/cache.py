"""The response cache: one SQLite file (WAL), JSON values, keyed by what changes the answer.

The key hashes the resolved model, the normalized endpoint (llm/endpoint.py: the same model name at two endpoints
is two models), the messages, the sampling parameters, the seed and the trial index, so repeated trials differ while
a rerun replays them exactly. Timeouts, retries, keys and headers are not part of the key and are never stored. One connection guarded by a lock serves asyncio tasks and threads alike; WAL and a busy
timeout let several processes share the file.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    value TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def cache_key(model: str, messages: list[dict[str, Any]], params: dict[str, Any], seed: int | None,
              trial: int, endpoint: str | None = None) -> str:
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


class ResponseCache:
    """get/put JSON objects by key; counts hits and misses."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, timeout=30.0, check_same_thread=False, isolation_level=None)
        self._setup()
        self.hits = 0
        self.misses = 0

    def _setup(self) -> None:
        """WAL mode and the table. Switching to WAL can fail with "database is locked" at once, without waiting
        for the busy timeout, while another connection opens the same new file; that is retried briefly."""
        deadline = time.monotonic() + 30.0
        while True:
            try:
                self._conn.execute("PRAGMA busy_timeout=30000")
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=NORMAL")
                self._conn.execute(SCHEMA)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._conn.execute("SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
            if row is None:
                self.misses += 1
                return None
            self.hits += 1
        return json.loads(row[0])

    def put(self, key: str, model: str, value: dict[str, Any]) -> None:
        blob = json.dumps(value, ensure_ascii=False, sort_keys=True)
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO responses (key, model, value, created) VALUES (?, ?, ?, ?)",
                (key, model, blob, time.time()),
            )

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()
