"""The user-facing documentation as the tests read it: README.md and every page of docs/."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def documentation() -> str:
    """README.md and the docs/ pages, one after another (a figure or example may live on any of them)."""
    return "\n\n".join(page.read_text(encoding="utf-8") for page in PAGES)


DOCS = documentation()
