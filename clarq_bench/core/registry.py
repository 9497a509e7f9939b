"""A generic name -> object registry, one instance per kind of plug-in (seekers, providers, ...).

Filled three ways: a decorator (`@registry.register("name")`), a lazy `"pkg.mod:Attr"` string (imported on first
use, so registration never imports heavy or optional packages), and an entry-point group loaded once, on the first
miss. Duplicate names are refused; an unknown name is a ClarqError naming close matches and every known name.
Imports nothing from the rest of the package except errors.
"""

from __future__ import annotations

import difflib
import importlib
import os
import re
import sys
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from .errors import ClarqError

T = TypeVar("T")


#: Model families a bare `--seeker` name may start with to be read as "the llm seeker on this model".
MODEL_NAME = re.compile(
    r"^(gpt|chatgpt|o[1-9]|claude|gemini|gemma|llama|meta-llama|mistral|mixtral|codestral|qwen|deepseek|ernie|"
    r"glm|yi|phi|command|grok|kimi|moonshot)([-_.:/\w]*)$",
    re.IGNORECASE,
)


def import_object(spec: str) -> object:
    """Import `package.module:Attr` (Attr may be dotted). Raises ClarqError when the module or attribute is missing."""
    module_name, colon, attr = spec.partition(":")
    if not colon or not module_name or not attr:
        raise ClarqError(f"bad import path {spec!r}", "write it as package.module:ClassName")
    _importable_from_working_directory()
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise ClarqError(
                f"cannot import module {module_name!r}", "check the name and that it is installed"
            ) from None
        raise
    target: object = module
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ClarqError(f"module {module_name!r} has no attribute {attr!r}", "check the class name") from None
    return target


def _importable_from_working_directory() -> None:
    """`clarq run --seeker my_seeker:MySeeker` should find ./my_seeker.py, as `python -m` would."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.append(cwd)


def looks_like_import_path(name: str) -> bool:
    """`pkg.mod:Class` style names are imported directly instead of looked up."""
    module_name, colon, attr = name.partition(":")
    return bool(colon and module_name and attr) and "/" not in module_name


def looks_like_model(name: str) -> bool:
    """True for names read as a model for the llm seeker: `provider/model` or a known model family prefix."""
    if looks_like_import_path(name):
        return False
    return "/" in name or bool(MODEL_NAME.match(name))


class Registry(Generic[T]):
    """Named plug-ins of one kind. `kind` is used in messages ("unknown seeker ...")."""

    def __init__(self, kind: str, entry_point_group: str | None = None) -> None:
        self.kind = kind
        self.entry_point_group = entry_point_group
        self._items: dict[str, T] = {}
        self._lazy: dict[str, str] = {}
        self._entry_points_loaded = entry_point_group is None

    def add(self, name: str, item: T) -> T:
        """Register `item` under `name`; a name already taken raises ClarqError."""
        self._refuse_duplicate(name)
        self._items[name] = item
        return item

    def add_lazy(self, name: str, spec: str) -> None:
        """Register `pkg.mod:Attr`, imported the first time `name` is looked up."""
        self._refuse_duplicate(name)
        self._lazy[name] = spec

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator form of `add`."""

        def decorate(item: T) -> T:
            return self.add(name, item)

        return decorate

    def _refuse_duplicate(self, name: str) -> None:
        if not name or not name.strip():
            raise ClarqError(f"empty {self.kind} name", "give the plug-in a name")
        if name in self._items or name in self._lazy:
            raise ClarqError(f"{self.kind} {name!r} is already registered", "choose another name")

    def load_entry_points(self) -> None:
        """Register every entry point of the group (once); names already present are kept, not overridden."""
        if self._entry_points_loaded:
            return
        self._entry_points_loaded = True
        from importlib.metadata import entry_points

        for point in entry_points(group=self.entry_point_group or ""):
            if point.name not in self._items and point.name not in self._lazy:
                self._lazy[point.name] = point.value.replace(" ", "")

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if name in self._items or name in self._lazy:
            return True
        self.load_entry_points()
        return name in self._items or name in self._lazy

    def get(self, name: str) -> T:
        """The item called `name`, importing it if lazy. Unknown -> ClarqError with close matches and choices."""
        if name not in self:
            raise self.unknown(name)
        if name not in self._items:
            self._items[name] = import_object(self._lazy.pop(name))  # type: ignore[assignment]
        return self._items[name]

    def unknown(self, name: str) -> ClarqError:
        known = self.names()
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        return ClarqError(f"unknown {self.kind} {name!r}", f"{hint}known: {', '.join(known) or 'none'}")

    def names(self) -> list[str]:
        """Every registered name (entry points included), sorted."""
        self.load_entry_points()
        return sorted({*self._items, *self._lazy})

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())


def import_file(path: str | os.PathLike) -> object:
    """Import a Python file by its path (`--seeker-module my_seeker.py`), so the `@register_seeker` decorators in it
    run and its seekers work by name. Imported once per path; a missing file or one that fails to import is one
    ClarqError line naming the file and the error."""
    import importlib.util
    from pathlib import Path

    file = Path(path).expanduser()
    if not file.is_file() or file.suffix != ".py":
        raise ClarqError(f"--seeker-module {path}: no such Python file", "pass the path of a .py file")
    file = file.resolve()
    name = f"clarq_user_{file.stem}_{abs(hash(str(file))):x}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        raise ClarqError(f"--seeker-module {path}: cannot be imported", "pass the path of a .py file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if str(file.parent) not in sys.path:  # the file's own helper modules beside it
        sys.path.insert(0, str(file.parent))
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the user's code: one line, not a traceback
        del sys.modules[name]
        raise ClarqError(
            f"--seeker-module {path} failed to import: {type(exc).__name__}: {exc}",
            "run `python FILE.py` to see the full error",
        ) from None
    return module
