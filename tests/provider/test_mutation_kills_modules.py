"""The shipped matcher weights load and reproduce the README's held-out agreement figures; figures are recomputed.

The README states the offline provider's agreement with the released GPT-4o provider on the held-out task types
14-26 (`clarq provider-eval --provider offline ... --types 14-26`, single-info files, and `--provider-mode
multi-info` on the multi-info file). These are measured figures: this test measures them again from the shipped
weights (provider/offline/weights.py) and the code, on the full held-out steps (a few seconds), and compares them with the
numbers the README prints, read from the README itself -- so a change to the weights, the matcher, the screen or
the replay that moves a figure by 0.05 points fails here until the README says the new figure.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from doc_text import DOCS as README  # README.md and docs/: the figure lives on the Providers page
from upstream_paths import UPSTREAM_RESULTS, needs_upstream

from clarq_bench.cli.main import main
from clarq_bench.provider.offline.embeddings import EMBEDDING_FEATURES
from clarq_bench.provider.offline.linear_model import FEATURES
from clarq_bench.provider.offline.weights import MODELS

FILES = {
    "Comp.En": "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json",
    "Chat.En": "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Chat.En.json",
    "Comp.Ch": "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.Ch.json",
    "multi-info": "l2l_GPT-4o_seeker_vs_GPT-4o_multi_info_provider.Comp.En.json",
}


def readme_figure(label: str) -> float:
    """The held-out agreement the README gives for `label`: the right-hand side of "on LABEL (a -> b%)"."""
    found = re.findall(rf"on\s+{re.escape(label)}\s+\((\d+\.\d) -> (\d+\.\d)%\)", README)
    assert len(found) == 1, f"README should state the offline provider's figure on {label} once: {found}"
    return float(found[0][1])


def test_every_model_the_matcher_loads_is_shipped_with_every_feature() -> None:
    assert set(MODELS) == {"single", "multi", "single-e5"}
    for key, model in MODELS.items():
        names = FEATURES + (EMBEDDING_FEATURES if key.endswith("-e5") else ())
        assert tuple(model["weights"]) == names, key
        assert 0 < model["threshold"] < 1 and isinstance(model["bias"], float)
    import clarq_bench.provider.offline.linear_model as matcher  # builds the three LinearModels at import

    assert matcher.SINGLE_INFO_E5 is not None


def held_out(capsys: pytest.CaptureFixture[str], path: Path, mode: str) -> dict:
    code = main(
        [
            "provider-eval",
            "--provider",
            "offline",
            "--provider-mode",
            mode,
            "--dialogues",
            str(path),
            "--types",
            "14-26",
            "--json",
        ]
    )
    assert code == 0
    return json.loads(capsys.readouterr().out)["groups"]


@needs_upstream
@pytest.mark.timeout(300)
def test_shipped_weights_reproduce_the_readme_held_out_agreement(capsys: pytest.CaptureFixture[str]) -> None:
    groups = held_out(capsys, UPSTREAM_RESULTS, "single")
    for label in ("Comp.En", "Chat.En", "Comp.Ch"):
        got = groups[f"file={FILES[label]} | types 14-26"]
        assert round(100 * got["agreement"], 1) == readme_figure(label), (label, got["agreement"], got["steps"])
    multi = held_out(capsys, UPSTREAM_RESULTS / FILES["multi-info"], "multi-info")
    got = multi[f"file={FILES['multi-info']} | types 14-26"]
    assert round(100 * got["agreement"], 1) == readme_figure("multi-info"), (got["agreement"], got["steps"])
