"""tools/strip_fmt_skip.py removes a `# fmt: skip` only when no reason stands beside it, and never touches strings."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "strip_fmt_skip.py"
spec = importlib.util.spec_from_file_location("strip_fmt_skip", SCRIPT)
assert spec is not None and spec.loader is not None
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


@pytest.mark.parametrize(("source", "expected"), [
    ("x = [1,  2]  # fmt: skip\n", "x = [1,  2]\n"),
    ("x = f(a)  # type: ignore[arg-type]  # fmt: skip\n", "x = f(a)  # type: ignore[arg-type]\n"),
    ("x = [1,  2]  # fmt: skip  # columns aligned\n", None),
    ("x = [1,  2]  # columns aligned  # fmt: skip\n", None),
    ("s = '# fmt: skip'\n", None),
    ("a = 1  # fmt: skip\nb = 2  # fmt: skip\n", "a = 1\nb = 2\n"),
])  # fmt: skip  # one case a line
def test_only_bare_markers_go(source: str, expected: str | None) -> None:
    assert tool.strip(source)[0] == (source if expected is None else expected)


def test_check_lists_and_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.py"
    path.write_text("x = [1,  2]  # fmt: skip\n", encoding="utf-8")
    assert tool.main(["--check", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == "x = [1,  2]  # fmt: skip\n" and "m.py:1" in capsys.readouterr().out
    assert tool.main([str(path)]) == 0 and path.read_text(encoding="utf-8") == "x = [1,  2]\n"
