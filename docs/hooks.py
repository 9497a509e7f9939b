"""MkDocs hooks: tables that are generated from the code when the site is built, never typed by hand.

`<!-- clarq:provider-rules -->` becomes the provider's rule catalogue (clarq_bench.provider.catalogue.RULES: each rule
with its id, name, why, a turn it refuses and one it lets through); where that module is absent the page says so in
a visible note instead of failing the build. `<!-- clarq:seekers -->` becomes the table `clarq seekers` prints.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def this_checkout() -> None:
    """Import clarq from the checkout the site is built from (mkdocs restores sys.path after loading a hook)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


RULES_MARK = "<!-- clarq:provider-rules -->"
SEEKERS_MARK = "<!-- clarq:seekers -->"
CATALOGUE = "clarq_bench.provider.catalogue"
NO_CATALOGUE = (
    '!!! note "Rule catalogue not available"\n    This build of clarq has no provider rule catalogue '
    f"(`{CATALOGUE}`), so the table of rules is left out.\n"
)


def cell(value: Any) -> str:
    """One table cell: on one line, with the characters that would break a Markdown table escaped."""
    text = " ".join(str(value if value is not None else "").split())
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;")


def rules_table(rules: Iterable[Any]) -> str:
    """The catalogue as a Markdown table (a rule is any object with id, name, why, fires and passes)."""
    lines = ["| rule | what it does and why | refused | let through |", "|---|---|---|---|"]
    for rule in rules:
        lines.append(
            f"| `{cell(rule.id)}` {cell(rule.name)} | {cell(rule.why)} | {cell(rule.fires)} | {cell(rule.passes)} |"
        )
    if len(lines) == 2:
        raise ValueError(f"{CATALOGUE}.RULES is empty")
    return "\n".join(lines) + "\n"


def load_rules() -> list[Any] | None:
    """RULES from the catalogue, or None when the module does not exist (an error inside it is not hidden)."""
    try:
        module = importlib.import_module(CATALOGUE)
    except ModuleNotFoundError as exc:
        if exc.name in (CATALOGUE, "clarq_bench.provider"):
            return None
        raise
    return list(module.RULES)


def seekers_table() -> str:
    """The seekers a user picks, as `clarq seekers` lists them."""
    from clarq_bench.seekers.registry import seeker_group, seeker_summary

    lines = ["| seeker | what it does |", "|---|---|"]
    lines += [f"| `{cell(name)}` | {cell(text)} |" for name, text in seeker_summary() if seeker_group(name) == "seeker"]
    return "\n".join(lines) + "\n"


def render(markdown: str) -> str:
    """The page with every generated table in place of its mark."""
    this_checkout()
    if RULES_MARK in markdown:
        rules = load_rules()
        markdown = markdown.replace(RULES_MARK, NO_CATALOGUE if rules is None else rules_table(rules))
    if SEEKERS_MARK in markdown:
        markdown = markdown.replace(SEEKERS_MARK, seekers_table())
    return markdown


def on_page_markdown(markdown: str, **_: Any) -> str:
    return render(markdown)
