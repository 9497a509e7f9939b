"""Which tasks a command or a run works on: languages, split and type numbers, as `--lang`, `--split` and `--types`
spell them (`all`, `1-13,20`), resolved against the loader.

Imports core and the loader only.
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import ClarqError
from ..core.tasks import Task


def parse_types(spec: str | list[int] | None) -> list[int] | None:
    """`1-13,20` -> [1..13, 20]; a list of numbers is taken as it is; None means all types."""
    if isinstance(spec, (list, tuple)):
        return [int(number) for number in spec]
    if not spec:
        return None
    numbers: list[int] = []
    try:
        for part in spec.split(","):
            low, _, high = part.strip().partition("-")
            numbers.extend(range(int(low), int(high or low) + 1))
    except ValueError:
        raise ClarqError(f"bad --types value {spec!r}", "use numbers and ranges such as 1-13,20") from None
    return numbers


def selected_languages(lang: str) -> tuple[str, ...]:
    return ("en", "zh") if lang == "all" else (lang,)


def load_selected(source: str | Path | None = None, *, lang: str = "all", split: str = "all",
                  types: str | list[int] | None = None) -> list[Task]:
    """The tasks of a data folder (None: $CLARQ_DATA, then the download cache) in `lang` (en, zh or all), `split`
    (test, dev or all) and `types` (`1-13,20`, a list of numbers, or None for all)."""
    from .loader import load_tasks, resolve_data_dir

    root = resolve_data_dir(source)
    return load_tasks(root, selected_languages(lang), split=None if split == "all" else split, types=parse_types(types))
