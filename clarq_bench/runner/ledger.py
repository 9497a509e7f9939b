"""The run's ledger kept as calls are paid: spending.json is rewritten once per turn of the event loop in which a
call was sent or a paid call counted, not when a dialogue ends; calls in flight count at their estimate.

Why: a process killed with -9 loses what it had not written; with the ledger written at each dialogue's end, every
dollar of the dialogues in flight was lost to spending.json, and `--max-cost` on resume started from too little. Now
at most the calls whose replies arrived in the last turn of the loop (one per dialogue in flight) are not on disk.
A ledger that cannot be written halts the client at once (no new call is paid that could not be recorded) and
tells the run, which starts no new dialogue.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..core.errors import ClarqError
from ..core.run_folder import RunDir


class Ledger:
    def __init__(self, folder: RunDir, before: float, client: Any, on_failure: Callable[[BaseException], None]) -> None:
        self.folder, self.before, self.client, self.on_failure = folder, before, client, on_failure
        self._pending = False
        self._written: float | None = None  # the dialogues' figure spending.json holds now
        self.failed: BaseException | None = None

    def paid(self) -> None:
        """A paid call was counted: write the ledger at the end of this turn of the loop (once for all of them)."""
        if self._pending or self.failed is not None:
            return
        self._pending = True
        try:
            asyncio.get_running_loop().call_soon(self.write)
        except RuntimeError:  # told from outside a running loop: write now
            self.write()

    def write(self) -> None:
        """spending.json from the client's running total; a failure halts the client and is told once."""
        self._pending = False
        if self.failed is not None:
            return
        total = self.before + spent_by(self.client)
        if total == self._written:  # unchanged (unpriced models, calls settling at their estimate): no rewrite
            return
        try:
            self.folder.save_spending(total)
            self._written = total
        except (OSError, ClarqError) as exc:
            self.failed = exc
            halt = getattr(self.client, "halt", None)
            if halt is not None:
                halt("a file of the run could not be written")
            self.on_failure(exc)


def spent_by(client: Any) -> float:
    """The client's running dollar total, its calls in flight at their estimate (a process killed now has paid
    for them); its meter's sum, so no Usage records are built on every write."""
    spent = getattr(client, "spent_usd", None)
    return spent if isinstance(spent, float) else client.usage.cost_usd
