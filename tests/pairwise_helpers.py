"""Shared by the pairwise tests: two real offline runs (heuristic vs oracle on the sample tasks) and scripted judges.

A "content" judge reads the two dialogues from the prompt and prefers the seeker with the shorter questions (an item-level
signal that varies from task to task, as a real preference does), flipping a fixed share of items by their id so
judges agree imperfectly; it never looks at the position. The random judge draws from a seeded generator; the
"always A" judge answers A whatever it sees.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

from upstream_paths import SAMPLE_TASKS, UPSTREAM_DATA

import clarq_bench as clarq

CRITERIA = ("questions", "economy", "naturalness")
_SPLIT = re.compile(r"(?:Dialogue [AB]:|对话 [AB]：|Criteria:|评判标准：)")


def make_runs(root: Path, *, released: bool = False, limit: int = 80) -> tuple[Path, Path]:
    """(heuristic run, oracle run), offline provider, both languages: on the sample tasks (16 tasks), or with
    `released` on `limit` released test tasks spread over the types (enough distinct items to measure a judge)."""
    where = {"data": str(UPSTREAM_DATA), "limit": limit} if released else {"tasks": str(SAMPLE_TASKS)}
    dirs = []
    for seeker in ("heuristic", "oracle"):
        result = clarq.run(
            seeker=seeker, provider="offline", lang="all", runs_dir=str(root), no_progress=True, no_cache=True, **where
        )
        dirs.append(result.run_dir)
    return dirs[0], dirs[1]


def dialogues(messages: list[dict]) -> tuple[str, str]:
    """The text of dialogue A and dialogue B in a judge prompt (English or Chinese)."""
    parts = _SPLIT.split(messages[1]["content"])
    return parts[1], parts[2]


def seeker_chars(dialogue: str) -> int:
    """Characters per seeker turn (rounded): a content judge prefers shorter questions. Per turn, not in total, so that
    the preference goes both ways across items (the oracle asks long questions, the heuristic asks more of them)."""
    lines = [line for line in dialogue.splitlines() if line.startswith(("Seeker:", "提问方："))]
    return round(sum(len(line) for line in lines) / max(1, len(lines)))


def content_judge(flip_percent: int, design: int = 2):  # type: ignore[no-untyped-def]
    def answer(messages: list[dict]) -> str:
        a, b = dialogues(messages)
        a_first = (seeker_chars(a), a) < (seeker_chars(b), b)  # ties broken by content, never by position
        better, worse = ("A", "B") if a_first else ("B", "A")
        # the flip depends on the pair's content only, never on which side is shown first
        key = hashlib.sha256(f"{flip_percent}|{min(a, b)}|{max(a, b)}".encode()).digest()[0] * 100 // 256
        pick = worse if key < flip_percent else better
        if design == 4 and abs(seeker_chars(a) - seeker_chars(b)) < 15:
            pick = "both_good"
        return json.dumps(dict.fromkeys(CRITERIA, pick))

    return answer


def random_judge(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    return lambda messages: json.dumps({c: rng.choice("AB") for c in CRITERIA})


def always_a(messages: list[dict]) -> str:
    return json.dumps(dict.fromkeys(CRITERIA, "A"))
