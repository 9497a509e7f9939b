"""`clarq export --format hf`: a run as a Hugging Face dataset (parquet + card), read back with `datasets`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from leaderboard_runs import make_run

from clarq_bench.cli.main import main

datasets = pytest.importorskip("datasets", reason="`datasets` (the optional extra clarq-bench[hf]) is not installed")


def test_export_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path / "run", drop_every=2, extra={"api_key": "sk-secretsecretsecret"})
    out = tmp_path / "hf"
    assert main(["export", str(run), "--format", "hf", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    data = datasets.Dataset.from_parquet(str(out / "data" / "train-00000-of-00001.parquet"))
    assert data.num_rows == 16
    assert sum(data["success"]) == 8  # every second dialogue misses its last node
    assert all(e == 0.0 for e, ok in zip(data["efficiency"], data["success"]) if not ok)  # the figure, one name
    assert all(0.0 < e <= 1.0 for e, ok in zip(data["efficiency"], data["success"]) if ok)
    row = data[0]
    assert row["task_id"] == "en/01/0" and row["turns"][0]["text"] == "what can help you?"
    assert json.loads(row["transcript_json"])["task_id"] == "en/01/0"
    card = (out / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\nlicense: mit\nlanguage:\n- en\n- zh\n") and "| dialogues | 16 |" in card
    assert "sk-secret" not in card


def test_export_needs_no_datasets_and_the_card_has_no_local_paths(tmp_path: Path, monkeypatch, capsys) -> None:
    """The file is written by pyarrow alone (`datasets` made unimportable here), typed even where every list is
    empty, and the card names the run's data folder by its last part only."""
    import sys

    import pyarrow.parquet

    run = make_run(tmp_path / "run", extra={"replay": str(tmp_path / "some" / "file.jsonl")})
    config = json.loads((run / "config.json").read_text(encoding="utf-8"))
    out = tmp_path / "hf"
    monkeypatch.setitem(sys.modules, "datasets", None)  # `import datasets` now fails
    assert main(["export", str(run), str(out)]) == 0
    monkeypatch.undo()
    card = (out / "README.md").read_text(encoding="utf-8")
    assert str(tmp_path) not in card and "/tmp" not in card
    assert '"replay": "file.jsonl"' in card
    if config.get("data_dir"):
        assert f'"data_dir": "{Path(config["data_dir"]).name}"' in card
    table = pyarrow.parquet.read_table(out / "data" / "train-00000-of-00001.parquet")
    assert str(table.schema.field("turns").type) == (
        "list<element: struct<speaker: string, text: string, intent: "
        "int64, kind: string, revealed: list<element: string>>>"
    )
    data = datasets.Dataset.from_parquet(str(out / "data" / "train-00000-of-00001.parquet"))
    assert data.num_rows == 16 and data[0]["turns"][0]["revealed"] == []


def test_portable_cuts_absolute_paths_only() -> None:
    from clarq_bench.leaderboard.hf import portable

    assert portable(
        {"a": "/home/me/data/ClarQ", "b": ["C:\\\\runs\\\\x", "tasks", "~/x/y/"], "c": 3, "d": "en/01/0"}
    ) == {"a": "ClarQ", "b": ["x", "tasks", "y"], "c": 3, "d": "en/01/0"}
