"""Remove every `# fmt: skip` that gives no reason, so that `ruff format` lays those lines out like the rest.

A marker stays when a reason stands beside it in the same comment, before or after it:
    x = [1, 0,  0]  # fmt: skip  # rows of the identity matrix, kept aligned
    x = [1, 0,  0]  # rows of the identity matrix, kept aligned  # fmt: skip
Pragmas (`type: ignore[...]`, `noqa: ...`, `pragma: ...`) are no reason, and stay where they are.

Usage: python tools/strip_fmt_skip.py [--check] [PATH ...]   (default: the repository's Python files)
--check: change nothing; list the bare markers and exit 1 if there are any. Run it before `ruff format .`.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

MARKER = re.compile(r"^fmt:\s*skip$")
PRAGMA = re.compile(r"^(type:|noqa\b|pragma:|fmt:|isort:|pyright:|mypy:)")


def stripped_comment(comment: str) -> str | None:
    """The comment without its bare `fmt: skip` (None: remove the whole comment), or the comment itself."""
    parts = [part.strip() for part in comment.lstrip("#").split("#")]
    if not any(MARKER.match(part) for part in parts):
        return comment
    if any(part and not PRAGMA.match(part) for part in parts):
        return comment  # a reason stands beside the marker
    kept = [part for part in parts if part and not MARKER.match(part)]
    return "  # ".join(f"# {part}" if i == 0 else part for i, part in enumerate(kept)) if kept else None


def strip(source: str) -> tuple[str, list[int]]:
    """The source without its bare markers, and the line numbers they were on."""
    lines = source.splitlines(keepends=True)
    changed: list[int] = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        new = stripped_comment(token.string)
        if new == token.string:
            continue
        row, col = token.start
        line = lines[row - 1]
        end = col + len(token.string)
        head = line[:col].rstrip() if new is None else line[:col] + new
        lines[row - 1] = head + line[end:]
        changed.append(row)
    return "".join(lines), changed


def python_files(paths: list[str]) -> list[Path]:
    if paths:
        return [p for arg in paths for p in ([Path(arg)] if Path(arg).is_file() else sorted(Path(arg).rglob("*.py")))]
    listed = subprocess.run(["git", "ls-files", "*.py"], capture_output=True, text=True, check=False)
    if listed.returncode != 0:  # not a git checkout: every Python file below here but virtual environments
        return [p for p in sorted(Path().rglob("*.py")) if not any(part.startswith(".") for part in p.parts)]
    return [Path(name) for name in listed.stdout.split()]


def main(argv: list[str]) -> int:
    check = "--check" in argv
    found = 0
    for path in python_files([a for a in argv if a != "--check"]):
        source = path.read_text(encoding="utf-8")
        new, rows = strip(source)
        found += len(rows)
        for row in rows:
            print(f"{path}:{row}: fmt: skip without a reason")
        if rows and not check:
            path.write_text(new, encoding="utf-8")
    print(f"{found} bare fmt: skip marker(s) {'found' if check else 'removed'}", file=sys.stderr)
    return 1 if check and found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
