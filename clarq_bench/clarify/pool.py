"""A state's candidate pool: the bank questions of every task of the state's type (its own task's questions about
other nodes and the other tasks' questions are the negatives) plus the content-free questions, in an order shuffled
per state so that no ranker can read relevance from where a question sits."""

from __future__ import annotations

import random
import zlib

from .bank import Bank, BankEntry
from .states import ClarifyState


def pool_for(state: ClarifyState, bank: Bank) -> list[BankEntry]:
    """Every candidate of the state, in its per-state shuffled order (the same on every run)."""
    entries = list(bank.by_type.get(state.type_number, [])) + list(bank.by_type.get(0, []))
    random.Random(zlib.crc32(state.id.encode("utf-8"))).shuffle(entries)
    return entries


def is_relevant(entry: BankEntry, state: ClarifyState) -> bool:
    """Asked in this task, and it elicited (or was written for) a node the state could reveal next."""
    return entry.task_id == state.task_id and bool(set(entry.nodes) & set(state.frontier))


def relevant_ids(pool: list[BankEntry], state: ClarifyState) -> set[str]:
    return {entry.id for entry in pool if is_relevant(entry, state)}
