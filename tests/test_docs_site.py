"""The documentation site: the README stays short, no page speaks of how clarq was built, and the build hook renders
the provider's rule catalogue (or says it is absent) and the seekers table from the code."""

from __future__ import annotations

import importlib.util
import re
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import pytest
from doc_text import PAGES, REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def load_hooks() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("clarq_docs_hooks", REPO / "docs" / "hooks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class FakeRule:
    id: str
    name: str
    why: str
    fires: str
    passes: str


def test_readme_is_short_keeps_the_ci_commands_and_points_at_the_site() -> None:
    assert len(README.splitlines()) <= 250
    assert "<!-- ci:main -->\n```bash\npip install -e . && clarq run" in README
    assert '<!-- ci:test -->\n```bash\npip install -e ".[test]" && python -m pytest -q\n```' in README
    assert "mkdocs serve" in README and "docs/" in README
    nav = re.findall(r"^  - [^:]+: (\S+\.md)$", (REPO / "mkdocs.yml").read_text(encoding="utf-8"), re.MULTILINE)
    assert sorted(nav) == sorted(page.name for page in PAGES if page.parent.name == "docs")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_no_page_speaks_of_how_clarq_was_built(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for pattern in (r"\bissue \d+", r"\bround \d+", r"\bsession \d+", r"\bsessions? of\b", r"\bthis round\b"):
        assert not re.search(pattern, text, re.IGNORECASE), (
            f"{page.name}: {re.search(pattern, text, re.IGNORECASE).group(0)}"
        )


def test_the_rules_table_is_rendered_from_the_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    hooks = load_hooks()
    catalogue = types.ModuleType(hooks.CATALOGUE)
    catalogue.RULES = [
        FakeRule(
            "spray", "Name spray", "a list of names asks nothing", "What about A, B, C | D?", "Which gem do I need?"
        ),
        FakeRule("repeat", "Repeat", "asked and answered", "Where is Henry?\nAgain?", "<b>new</b>"),
    ]
    monkeypatch.setitem(sys.modules, hooks.CATALOGUE, catalogue)
    page = hooks.render("before\n\n<!-- clarq:provider-rules -->\n\nafter")
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert rows == [
        "| `spray` Name spray | a list of names asks nothing | What about A, B, C \\| D? | Which gem do I need? |",
        "| `repeat` Repeat | asked and answered | Where is Henry? Again? | &lt;b>new&lt;/b> |",
    ]
    assert page.startswith("before") and page.endswith("after") and "not available" not in page
    catalogue.RULES = []
    with pytest.raises(ValueError, match="empty"):
        hooks.render("<!-- clarq:provider-rules -->")


def test_a_missing_catalogue_is_a_visible_note_and_a_broken_one_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    hooks = load_hooks()
    monkeypatch.setitem(sys.modules, hooks.CATALOGUE, None)  # import of it raises ModuleNotFoundError
    assert "Rule catalogue not available" in hooks.render("<!-- clarq:provider-rules -->")
    broken = types.ModuleType(hooks.CATALOGUE)  # a module without RULES is an error, not a note
    monkeypatch.setitem(sys.modules, hooks.CATALOGUE, broken)
    with pytest.raises(AttributeError):
        hooks.render("<!-- clarq:provider-rules -->")


def test_the_seekers_table_is_what_clarq_seekers_lists() -> None:
    page = load_hooks().render("<!-- clarq:seekers -->")
    names = re.findall(r"^\| `([^`]+)` \|", page, re.MULTILINE)
    assert {"heuristic", "oracle", "no-question", "llm", "human"} <= set(names)
    assert not [name for name in names if name.startswith(("red-", "tpl-", "enum-"))]


def test_dir_of_the_package_is_its_public_api() -> None:
    import clarq_bench

    shown = dir(clarq_bench)
    assert {"run", "score", "register_seeker", "DialogueView"} <= set(shown)
    assert not {"API", "Any", "annotations"} & set(shown)


@pytest.mark.timeout(300)
def test_the_site_builds_without_a_warning(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="the docs extra (in the test extra) is not installed")
    import os
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=280,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "site" / "providers" / "index.html").is_file()


def test_the_figures_the_pages_state_are_the_softwares() -> None:
    """The defaults and counts the pages give in words are read from the code (and the data, where it is at hand)."""
    from clarq_bench.core.run_config import RunConfig

    text = "\n".join(page.read_text(encoding="utf-8") for page in PAGES)
    fields = RunConfig.model_fields
    assert f"--concurrency`, default {fields['concurrency'].default}" in text
    assert (
        f"--max-turns {fields['max_turns'].default}" in text
        and f"(`--max-turns`, {fields['max_turns'].default})" in text
    )
    assert f"at most {fields['max_turns'].default} seeker turns" in README


def test_the_task_counts_the_readme_gives_are_the_released_data() -> None:
    from upstream_paths import UPSTREAM_DATA

    if not UPSTREAM_DATA.is_dir():
        pytest.skip("the released task data is not at hand")
    from clarq_bench.api import load_tasks

    test, dev = re.search(r"\((\d+) test and (\d+) development tasks per language\)", README).groups()
    for language in ("en", "zh"):
        assert len(load_tasks(UPSTREAM_DATA, lang=language, split="test")) == int(test)
        assert len(load_tasks(UPSTREAM_DATA, lang=language, split="dev")) == int(dev)
