"""What litellm says about a model on every run (its per-token rates, whether it takes JSON mode), kept on disk.

Why: a run through the direct transport sends no call through litellm, yet pricing its first reply and choosing its
first request's JSON mode imported litellm: ~2 s of CPU on the event loop while every dialogue in flight waited.
The facts are a pure function of the litellm release and its local price table (clarq reads litellm with
LITELLM_LOCAL_MODEL_COST_MAP=True), so they are kept in `<user cache>/clarq/litellm-facts-<key>.json`, the key being
that release and the table's SHA-256. They are read and written only while this process had not imported litellm
before clarq asked its first fact: a program that imported litellm itself (and may have registered prices of its
own) always asks litellm. A missing, damaged or foreign file only costs the import again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

PRICE_TABLE = "model_prices_and_context_window_backup.json"
_LOCK = threading.Lock()
#: None until the first fact is asked; then whether litellm was already imported by someone else.
_STATE: dict[str, Any] = {"pristine": None}


def _pristine() -> bool:
    if _STATE["pristine"] is None:
        _STATE["pristine"] = "litellm" not in sys.modules
    return bool(_STATE["pristine"])


@lru_cache(maxsize=1)
def _path() -> Path | None:
    """This litellm release's facts file, or None when there is none to trust (no litellm, a remote price table)."""
    if os.environ.get("LITELLM_LOCAL_MODEL_COST_MAP", "True") != "True":
        return None
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return None
    table = Path(next(iter(spec.submodule_search_locations))) / PRICE_TABLE
    try:
        from importlib.metadata import version

        key = hashlib.sha256(f"{version('litellm')}\n".encode() + table.read_bytes()).hexdigest()[:24]
    except Exception:  # no metadata, no table: nothing to key the facts by
        return None
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("clarq", appauthor=False)) / f"litellm-facts-{key}.json"


def _read(path: Path) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {kind: value for kind, value in data.items() if isinstance(kind, str) and isinstance(value, dict)}


def known(kind: str, model: str) -> Any:
    """The kept fact `kind` ("rates", "json_mode") of `model`, or None when none is kept (or none may be used)."""
    if not _pristine():
        return None
    path = _path()
    if path is None:
        return None
    with _LOCK:
        return _read(path).get(kind, {}).get(model)


def remember(kind: str, model: str, value: Any) -> None:
    """Keep a fact litellm just gave (a failed write only costs the speed)."""
    if not _pristine():
        return
    path = _path()
    if path is None:
        return
    with _LOCK:
        data = _read(path)
        data.setdefault(kind, {})[model] = value
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
            partial.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
            os.replace(partial, path)
        except OSError:
            return
