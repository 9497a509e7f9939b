"""litellm's facts about a model (rates, JSON mode) kept on disk give a later process the very same figures without
importing litellm; a damaged file or a process that imported litellm itself asks litellm again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MODELS = [
    "openai/gpt-4o-2024-05-13",
    "gpt-4o-mini",
    "openai/bench-unpriced-model",
    "anthropic/claude-3-5-sonnet-20240620",
]
PROBE = f"""
import json, sys
{{pre}}
from clarq_bench.llm.accounting import call_cost
from clarq_bench.llm.models import supports_json_mode
figures = [[call_cost(m, 1234, 567), call_cost(m, 7, 0), supports_json_mode(m)] for m in {MODELS!r}]
print(json.dumps({{"figures": figures, "imported": "litellm" in sys.modules}}))
"""


def _probe(tmp_path: Path, pre: str = "") -> dict:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), PYTHONPATH=str(REPO))
    env.pop("LITELLM_LOCAL_MODEL_COST_MAP", None)
    done = subprocess.run(
        [sys.executable, "-c", PROBE.replace("{pre}", pre)],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_kept_facts_give_litellms_figures_without_importing_it(tmp_path: Path) -> None:
    first = _probe(tmp_path)
    assert first["imported"]
    assert any(f[0] > 0 for f in first["figures"]) and any(f[0] == 0 for f in first["figures"])  # priced, unpriced
    (kept,) = (tmp_path / "clarq").glob("litellm-facts-*.json")
    second = _probe(tmp_path)
    assert second == {"figures": first["figures"], "imported": False}

    kept.write_text("{not json", encoding="utf-8")  # damaged: litellm is asked again, same figures
    assert _probe(tmp_path) == first
    assert set(json.loads(kept.read_text(encoding="utf-8"))) == {"rates", "json_mode"}  # and the file is whole again


def test_a_program_that_imported_litellm_itself_is_never_answered_from_the_file(tmp_path: Path) -> None:
    first = _probe(tmp_path)
    (kept,) = (tmp_path / "clarq").glob("litellm-facts-*.json")
    facts = json.loads(kept.read_text(encoding="utf-8"))
    facts["rates"] = {model: [1.0, 1.0] for model in MODELS}  # what a file out of step with litellm would say
    kept.write_text(json.dumps(facts), encoding="utf-8")
    mine = _probe(tmp_path, pre="import litellm")
    assert mine["figures"] == first["figures"]


@pytest.mark.parametrize("value", ["False", "false"])
def test_a_remote_price_table_is_never_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    from clarq_bench.llm import model_facts

    model_facts._path.cache_clear()
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", value)
    try:
        assert model_facts._path() is None
    finally:
        model_facts._path.cache_clear()
