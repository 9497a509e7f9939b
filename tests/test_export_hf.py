"""`clarq export --format hf`: a run as a Hugging Face dataset (parquet + card), read back with `datasets`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clarq_bench.cli.main import main

from leaderboard_runs import make_run

datasets = pytest.importorskip("datasets", reason="`datasets` (the optional extra clarq-bench[hf]) is not installed")


def test_export_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path / "run", drop_every=2, extra={"api_key": "sk-secretsecretsecret"})
    out = tmp_path / "hf"
    assert main(["export", str(run), "--format", "hf", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    data = datasets.Dataset.from_parquet(str(out / "data" / "train-00000-of-00001.parquet"))
    assert data.num_rows == 16
    assert sum(data["success"]) == 8  # every second dialogue misses its last node
    row = data[0]
    assert row["task_id"] == "en/01/0" and row["turns"][0]["text"] == "what can help you?"
    assert json.loads(row["transcript_json"])["task_id"] == "en/01/0"
    card = (out / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\nlicense: mit\nlanguage:\n- en\n- zh\n") and "| dialogues | 16 |" in card
    assert "sk-secret" not in card
