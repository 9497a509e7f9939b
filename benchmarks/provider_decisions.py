"""Dump every replayed step's offline-provider decision (revealed ids, intent, kind, reply text), one line a step.

Usage: python benchmarks/provider_decisions.py [RESULTS_FILE_OR_DIR] [--multi-info] > decisions.txt
Two dumps compare with `cmp`: a speed change to the provider must leave every line identical.
"""

from __future__ import annotations

import sys
from pathlib import Path

from clarq_bench.data.reference_steps import replay_steps
from clarq_bench.fidelity.provider_eval import load_dialogues
from clarq_bench.provider.offline.provider import OfflineProvider

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "clarq-llm-upstream" / "results"


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    multi = "--multi-info" in sys.argv
    out = sys.stdout
    for dialogue in load_dialogues(args[0] if args else DEFAULT):
        provider = OfflineProvider(dialogue.task, multi_info=multi)
        for step in replay_steps(dialogue):
            reply = provider.decide(step.prefix)
            intent = int(reply.intent) if reply.intent is not None else None
            out.write(f"{step.source}\t{step.task_id}\t{step.turn_index}\t{reply.kind.value}\t{intent}\t")
            out.write(f"{','.join(reply.revealed)}\t{reply.text!r}\t{sorted(reply.notes.items())!r}\n")


if __name__ == "__main__":
    main()
