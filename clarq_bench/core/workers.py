"""How this process starts worker processes for work that runs beside its own, or None when it should not.

A process with one thread forks its workers: they start in milliseconds with every module and cache already loaded,
and nothing is run again. A process with other threads (a lock one of them holds would stay held in the child)
spawns them instead, where that is safe: a spawned worker first imports the program's main module again. `clarq` (the console script, guarded) and
`python -m clarq_bench` (a package's __main__, which multiprocessing never re-runs) are safe, and so is a script
whose work sits under `if __name__ == "__main__":`; a script calling clarq at its top level would run again in
every worker (a second run, a second verification). There clarq keeps the work in this process.
"""

from __future__ import annotations

import multiprocessing
import re
import sys
import threading
from functools import lru_cache
from multiprocessing.context import BaseContext

_GUARD = re.compile(r"""__name__\s*==\s*['"]__main__['"]""")


@lru_cache(maxsize=1)
def may_spawn() -> bool:
    main = sys.modules.get("__main__")
    if main is None:
        return False
    spec = getattr(main, "__spec__", None)
    if spec is not None and (spec.name == "__main__" or spec.name.endswith(".__main__")):
        return True  # python -m package: multiprocessing does not run a package's __main__ again
    path = getattr(main, "__file__", None)
    if path is None:
        return True  # python -c, an interactive session: nothing is run again
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return bool(_GUARD.search(handle.read(1_000_000)))
    except OSError:
        return False


def worker_context() -> BaseContext | None:
    """fork for a process with one thread, spawn where the main program is safe to import again, else None."""
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn") if may_spawn() else None
