"""The offline provider decides the same in every process: `clarq leaderboard verify` replays a submission in
another process than the one that played it, and Python randomises string hashing (so set order) per process.
Two interpreters with different hash seeds replay released dialogues and must give identical replies and scores."""

from __future__ import annotations

import os
import subprocess
import sys

from upstream_paths import REPO, UPSTREAM_RESULTS, needs_upstream

SCRIPT = """
import json, sys
from clarq_bench.provider.offline.provider import OfflineProvider
from clarq_bench.fidelity.provider_eval import replay_steps
from clarq_bench.data.upstream import load_released_dialogues
out = []
for name in sys.argv[1:]:
    for dialogue in load_released_dialogues(name):
        if dialogue.task.type_number not in (14, 19, 24):
            continue
        provider = OfflineProvider(dialogue.task, multi_info="multi_info" in name)
        for step in replay_steps(dialogue):
            reply = provider.decide(step.prefix)
            out.append([reply.text, reply.revealed, reply.intent, reply.notes])
print(json.dumps(out, sort_keys=True, default=str))
"""


@needs_upstream
def test_offline_decisions_do_not_depend_on_the_hash_seed() -> None:
    files = [
        str(UPSTREAM_RESULTS / name)
        for name in (
            "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json",
            "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.Ch.json",
            "l2l_GPT-4o_seeker_vs_GPT-4o_multi_info_provider.Comp.En.json",
        )
    ]
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO)}
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, *files], capture_output=True, text=True, env=env, cwd=REPO, timeout=110
        )
        assert done.returncode == 0, done.stderr[-2000:]
        outputs.append(done.stdout)
    assert len(outputs[0]) > 1000 and outputs[0] == outputs[1]
