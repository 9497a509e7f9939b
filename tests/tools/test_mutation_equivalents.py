"""tools/mutate.py's EQUIVALENT arguments each name a mutation site of the current code: an edit that moves or removes
the line makes this fail, rather than leaving an argument about a line that is no longer there (or another line)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_SPEC = importlib.util.spec_from_file_location("clarq_tools_mutate", ROOT / "tools" / "mutate.py")
assert _SPEC is not None and _SPEC.loader is not None
mutate = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = mutate  # dataclasses look their module up while the class is built
_SPEC.loader.exec_module(mutate)


def test_every_equivalent_mutant_names_a_site_of_the_code_as_it_is() -> None:
    found = dict.fromkeys(mutate.EQUIVALENT, 0)
    for module in sorted({key[0] for key in mutate.EQUIVALENT}):
        sites, _ = mutate.sites_and_apply((ROOT / module).read_text(encoding="utf-8"), module)
        for site in sites:
            for key in ((site.module, site.text, site.change), (site.module, site.context, site.change)):
                if key in found:
                    found[key] += 1
    stale = [key for key, count in found.items() if count == 0]
    assert not stale, stale


def test_a_site_is_keyed_by_its_code_not_its_line_number() -> None:
    source = "def f(x):\n    if x:\n        return 1\n    return 0\n"
    sites, _ = mutate.sites_and_apply(source, "m.py")
    moved, _ = mutate.sites_and_apply("# a comment\n\n" + source, "m.py")
    assert [(s.text, s.context, s.change) for s in sites] == [(s.text, s.context, s.change) for s in moved]
    assert [s.line for s in sites] != [s.line for s in moved]
