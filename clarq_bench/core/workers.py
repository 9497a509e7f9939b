"""Whether this process may start worker processes (spawn) for work that runs beside its own.

Why: a spawned worker first imports the program's main module again. `clarq` (the console script, guarded) and
`python -m clarq_bench` (a package's __main__, which multiprocessing never re-runs) are safe, and so is a script
whose work sits under `if __name__ == "__main__":`; a script calling clarq at its top level would run again in
every worker (a second run, a second verification). There clarq keeps the work in this process.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache

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
