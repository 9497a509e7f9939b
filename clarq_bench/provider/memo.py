"""Per-reader memo of pure readings: a turn's questions are read against every frontier node, and most of what a
rule asks of a question (its lists, its named options, the kinds its interrogatives govern) does not depend on the
node. Each reader (one per task) keeps its own bounded table per method, so nothing outlives the task's provider.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

#: Entries one reader keeps per method; a table is emptied when full (a provider reads a dozen turns of a few
#: questions).
MEMO_SIZE = 4096

F = TypeVar("F", bound=Callable[..., Any])

#: Marks a key made with keyword arguments, so it never equals a key of positional arguments alone.
_KEYWORDS = object()
#: What a table holds for no key (a memoized value may be None).
_MISSING = object()


def per_reader(method: F) -> F:
    """Memoize a method by its (hashable) arguments in its instance. Only for methods that are pure functions of the
    reader's task and their arguments, whose results the callers never mutate. (The hottest calls of a turn go
    through here: the key is the argument tuple itself, in a table of the method's own.)"""
    table = f"_memo_{method.__name__}"

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        key = (_KEYWORDS, args, *kwargs.items()) if kwargs else args
        memo: dict[Any, Any] | None = self.__dict__.get(table)
        if memo is None:
            memo = self.__dict__[table] = {}
        else:
            value = memo.get(key, _MISSING)  # (a lookup, not a try: most misses raised and caught a KeyError)
            if value is not _MISSING:
                return value
            if len(memo) >= MEMO_SIZE:
                memo.clear()
        value = memo[key] = method(self, *args, **kwargs)
        return value

    return wrapper  # type: ignore[return-value]


class Table(dict[Any, Any]):
    """A memo table of a pure function of one key (`read`) whose hits cost one dict lookup (table[key], or
    map(table.__getitem__, keys) with no Python call at all), emptied when it holds `size` entries."""

    def __init__(self, read: Callable[[Any], Any], size: int) -> None:
        super().__init__()
        self.read, self.size = read, size

    def __missing__(self, key: Any) -> Any:
        if len(self) >= self.size:
            self.clear()
        value = self[key] = self.read(key)
        return value

    def put(self, key: Any, value: Any) -> Any:
        """Hold `value` for `key`: what `read` gives for it, read some cheaper way (the bound kept)."""
        if len(self) >= self.size:
            self.clear()
        self[key] = value
        return value
