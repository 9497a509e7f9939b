"""Write clarq_bench/data/checksums/task_sets.json: content-hash prefixes of the released and the sample tasks.

    python tools/task_sets.py --write [--data DIR]      # DIR: the released data (default: as `clarq data where`)

Without --write it prints whether the shipped file matches the data. Only hashes are written, never task text.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from clarq_bench.data.loader import load_tasks, resolve_data_dir
from clarq_bench.data.task_sets import FILE, PREFIX

REPO = Path(__file__).resolve().parents[1]


def table(data: Path) -> dict:
    sets = {}
    for kind, folder in (("benchmark", data), ("sample", REPO / "tasks")):
        tasks = load_tasks(folder, ("en", "zh"))
        sets[kind] = {task.id: task.content_hash()[:PREFIX] for task in sorted(tasks, key=lambda t: t.id)}
    return {
        "about": "Task.content_hash()[:16] of every released ClarQ-LLM task (benchmark) and every task of the "
        "project's tasks/ folder (sample); written by tools/task_sets.py",
        "sets": sets,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="the released data folder")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    fresh = table(resolve_data_dir(args.data))
    if args.write:
        FILE.write_text(json.dumps(fresh, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {FILE}: " + ", ".join(f"{k} {len(v)}" for k, v in fresh["sets"].items()))
        return 0
    same = FILE.is_file() and json.loads(FILE.read_text(encoding="utf-8")) == fresh
    print("task_sets.json matches the data" if same else "task_sets.json differs from the data: run with --write")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
