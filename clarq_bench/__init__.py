"""clarq: a benchmark of how well language-model agents ask clarification questions.

The Python API (api/) is re-exported here: `clarq_bench.run(...)`, `score(...)`, `compare(...)`, `load_tasks(...)`
and the seeker names (`register_seeker`, `DialogueView`, ...). Importing the package is cheap on purpose: the API
loads on first use, and heavy modules (litellm, numpy, matplotlib) load only where used.
"""

from __future__ import annotations

import importlib as _importlib
from pathlib import Path as _Path
from typing import Any as _Any

from .core.version import __version__ as __version__


def __getattr__(name: str) -> _Any:
    """The names of the Python API, as clarq_bench/api/ lists them (its `__all__`, the one list), loaded on first
    access; `__all__` too, so that `import clarq_bench` loads nothing of the API until one of them is used. Other
    dunders and the subpackages' own names (`from clarq_bench import cli` asks here first) load nothing."""
    here = _Path(__file__).parent
    if (name.startswith("__") and name != "__all__") or (here / name).is_dir() or (here / f"{name}.py").is_file():
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    api = _importlib.import_module(f"{__name__}.api")

    if name == "__all__":
        return ["__version__", *api.__all__]
    if name in api.__all__:
        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """Tab completion (`clarq_bench.<TAB>`, `dir(clarq_bench)`) shows the public API, not this module's helpers."""
    return sorted(__getattr__("__all__"))
