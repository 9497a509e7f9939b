"""`clarq export --format hf`: a run's transcripts and verdicts as a Hugging Face dataset (parquet + dataset card).

One row per dialogue: identifiers, agents, the headline per-dialogue figures, the turns as a list of structs, and the
full transcript and verdict as JSON strings (lossless). The parquet file is written with pyarrow alone (the `[hf]`
extra, imported only here): going through `datasets.Dataset` added nothing to the file but its fingerprinting,
which pickles pyarrow types with dill and broke on some datasets / pyarrow pairs (PicklingError on MonthDayNano).
`datasets` reads the file back (tests/leaderboard/test_export_hf.py). The card names folders by their last part only: an
absolute path of the machine that ran it says nothing to a reader and tells where the files lived.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..core.errors import ClarqError
from ..core.redact import redact, redact_data
from ..core.transcript import Transcript
from ..scoring.judge import Verdict
from .rundir import read_run, verdicts_for

PARQUET = "data/train-00000-of-00001.parquet"


def ROW_SCHEMA(pa: Any) -> Any:  # noqa: N802 - a constant built on first use (pyarrow is optional)
    """The column types, fixed: inferred ones would make an all-empty `revealed` list a null column."""
    turn = pa.struct(
        [
            ("speaker", pa.string()),
            ("text", pa.string()),
            ("intent", pa.int64()),
            ("kind", pa.string()),
            ("revealed", pa.list_(pa.string())),
        ]
    )
    fields = [
        ("task_id", pa.string()),
        ("language", pa.string()),
        ("type_number", pa.int64()),
        ("split", pa.string()),
        ("trial", pa.int64()),
        ("seed", pa.int64()),
        ("task_hash", pa.string()),
        ("seeker", pa.string()),
        ("seeker_model", pa.string()),
        ("provider", pa.string()),
        ("provider_model", pa.string()),
        ("end_reason", pa.string()),
        ("success", pa.bool_()),
        ("obtained", pa.int64()),
        ("required", pa.int64()),
        ("aqd", pa.float64()),
        ("aql", pa.float64()),
        ("efficiency", pa.float64()),
        ("judge", pa.string()),
        ("cost_usd", pa.float64()),
        ("turns", pa.list_(turn)),
        ("transcript_json", pa.string()),
        ("verdict_json", pa.string()),
    ]
    return pa.schema(fields)


def dialogue_rows(transcripts: list[Transcript], verdicts: list[Verdict]) -> list[dict[str, Any]]:
    """One flat row per dialogue (same order as `transcripts`)."""
    by_key = {(v.task_id, v.trial): v for v in verdicts}
    rows = []
    for t in transcripts:
        v = by_key[t.key]
        rows.append(
            {
                "task_id": t.task_id,
                "language": t.language,
                "type_number": t.type_number,
                "split": t.split,
                "trial": t.trial,
                "seed": t.seed,
                "task_hash": t.task_hash,
                "seeker": t.seeker.name,
                "seeker_model": t.seeker.model or "",
                "provider": t.provider.name,
                "provider_model": t.provider.model or "",
                "end_reason": t.end_reason.value,
                "success": v.success,
                "obtained": v.obtained_count,
                "required": v.required_count,
                "aqd": v.aqd,
                "aql": v.aql,
                "efficiency": v.efficiency,
                "judge": v.judge,
                "cost_usd": sum(u.cost_usd for u in t.usage.values()),
                "turns": [
                    {
                        "speaker": turn.speaker.value,
                        "text": turn.text,
                        "intent": int(turn.intent) if turn.intent is not None else -1,
                        "kind": turn.kind.value if turn.kind else "",
                        "revealed": list(turn.revealed),
                    }
                    for turn in t.turns
                ],
                "transcript_json": t.model_dump_json(),
                "verdict_json": v.model_dump_json(),
            }
        )
    return rows


def dataset_card(run_id: str, config: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """README.md with the YAML header the Hub reads, what a row holds and the run's headline figures."""
    n = len(rows)
    success = sum(r["success"] for r in rows) / n if n else 0.0
    aqd = sum(r["aqd"] for r in rows) / n if n else 0.0
    efficiency = sum(r["efficiency"] for r in rows) / n if n else 0.0
    languages = sorted({r["language"] for r in rows})
    seekers = sorted({r["seeker"] for r in rows})
    providers = sorted({r["provider"] for r in rows})
    yaml_languages = "\n".join(f"- {lang}" for lang in languages)
    return f"""---
license: mit
language:
{yaml_languages}
pretty_name: clarq run {run_id}
tags:
- clarification-questions
- dialogue
- benchmark
configs:
- config_name: default
  data_files:
  - split: train
    path: {PARQUET}
---

# clarq run `{run_id}`

Dialogues of a clarq run: a seeker agent asks a simulated provider for the information it
needs to complete a task (ClarQ-LLM tasks). One row per dialogue.

| | |
|---|---|
| dialogues | {n} |
| languages | {", ".join(languages)} |
| seeker | {", ".join(seekers)} |
| provider | {", ".join(providers)} |
| success (deterministic judge) | {success:.4f} |
| mean AQD | {aqd:+.4f} |
| efficiency | {efficiency:.4f} |

Columns: `task_id`, `language`, `type_number`, `split`, `trial`, `seed`, `task_hash` (clarq Task.content_hash),
`seeker`/`provider` and their models, `end_reason`, `success`, `obtained`/`required` nodes, `aqd`, `aql`,
`efficiency` (success weighted by what the seeker said against the human path), `judge`, `cost_usd`, `turns` (speaker, text, intent 1-6 or -1, reply kind, revealed node ids), and the full
`transcript_json` / `verdict_json` as clarq writes them (lossless).

## Run configuration

```json
{json.dumps(config, ensure_ascii=False, indent=2)}
```

The task texts come from ClarQ-LLM (MIT licence); the dialogues were generated by the models named above.
"""


def portable(value: Any) -> Any:
    """`value` with every absolute path (a string starting with / or a drive letter) cut to its last part."""
    if isinstance(value, dict):
        return {key: portable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [portable(item) for item in value]
    if isinstance(value, str) and (value.startswith(("/", "~")) or re.match(r"^[A-Za-z]:[\\/]", value)):
        return re.split(r"[\\/]", value.rstrip("/\\"))[-1] or value
    return value


def export_hf(run_dir: str | Path, out_dir: str | Path, *, data: str | None = None) -> Path:
    """Write `out_dir/data/*.parquet` and `out_dir/README.md`; returns the parquet path."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ClarqError(
            "exporting to Hugging Face format needs pyarrow", 'pip install -e ".[hf]" (or pip install pyarrow)'
        ) from None
    files = read_run(run_dir, data)
    verdicts = verdicts_for(files)
    rows = redact_data(dialogue_rows(files.transcripts, verdicts))
    out = Path(out_dir)
    (out / "data").mkdir(parents=True, exist_ok=True)
    target = out / PARQUET
    pyarrow.parquet.write_table(pyarrow.Table.from_pylist(rows, schema=ROW_SCHEMA(pyarrow)), str(target))
    config = portable(redact_data(files.config))
    run_id = str(config.get("run_id") or Path(run_dir).name)
    (out / "README.md").write_text(redact(dataset_card(run_id, config, rows)), encoding="utf-8")
    return target
