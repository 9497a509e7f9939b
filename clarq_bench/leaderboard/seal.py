"""The content seal of a submission: one hash over everything a leaderboard row stands on.

Why: the figures are recomputed and offline dialogues replayed, but much of a row is a record nothing can recompute
(who played, on which model and endpoint, with which clarq, on which config). Packing seals it: per dialogue, a digest
of its record (task, trial, seed, identities, end reason, usage, verdict) and one digest per turn (text, order,
annotations); then a SHA-256 over the whole manifest, those digests included. An edit after packing is named down
to the dialogue and turn. A seal is not a signature: whoever edits and re-seals defeats it, which is why verify also
replays and cross-checks everything it can.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from ..core.transcript import Transcript
from ..scoring.judge import Verdict
from .schema import Manifest, Submission, dialogue_key

DIGEST_CHARS = 16  # per dialogue / turn: enough to tell an edit; the manifest hash is a full SHA-256
MAX_LINES = 12


def _digest(value: Any, chars: int | None = DIGEST_CHARS) -> str:
    blob = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:chars]


def dialogue_digests(transcript: Transcript, verdict: Verdict | None) -> list[str]:
    """[record digest, turn 0 digest, turn 1 digest, ...] of one dialogue."""
    record = transcript.model_dump(mode="json", exclude={"turns"})
    head = _digest({"record": record, "verdict": verdict.model_dump(mode="json") if verdict else None})
    return [head, *(_digest(turn.model_dump(mode="json")) for turn in transcript.turns)]


def content_hash(manifest: Manifest) -> str:
    return _digest(manifest.model_dump(mode="json", exclude={"content_hash"}), None)


def seal(sub: Submission) -> Submission:
    """The submission with its dialogue digests and content hash filled in."""
    verdicts = {(v.task_id, v.trial): v for v in sub.verdicts}
    hashes = {dialogue_key(t.task_id, t.trial): dialogue_digests(t, verdicts.get(t.key)) for t in sub.transcripts}
    manifest = sub.manifest.model_copy(update={"dialogue_hashes": hashes, "content_hash": ""})
    manifest = manifest.model_copy(update={"content_hash": content_hash(manifest)})
    return sub.model_copy(update={"manifest": manifest})


def _dialogue_problems(key: str, found: list[str], sealed: list[str]) -> Iterator[str]:
    if found[0] != sealed[0]:
        yield f"dialogue {key}: edited after packing (its record or verdict differs from the sealed one)"
    for index, (mine, theirs) in enumerate(zip(found[1:], sealed[1:])):
        if mine != theirs:
            yield f"dialogue {key} turn {index}: edited after packing (differs from the sealed turn)"
            return
    if len(found) != len(sealed):
        first = min(len(found), len(sealed)) - 1
        yield (f"dialogue {key} turn {first}: edited after packing ({len(found) - 1} turns, {len(sealed) - 1} sealed)")


def check_seal(sub: Submission) -> list[str]:
    """One line per edit found: the dialogue and turn where it can be located, else the manifest."""
    manifest = sub.manifest
    if not manifest.content_hash:
        return ["the submission is not sealed (no content_hash): rebuild it with `clarq submit`"]
    problems: list[str] = []
    verdicts = {(v.task_id, v.trial): v for v in sub.verdicts}
    seen: set[str] = set()
    for transcript in sub.transcripts:
        key = dialogue_key(transcript.task_id, transcript.trial)
        sealed = manifest.dialogue_hashes.get(key)
        if sealed is None or key in seen:
            problems.append(f"dialogue {key}: not in the seal (added after packing)")
        else:
            problems.extend(_dialogue_problems(key, dialogue_digests(transcript, verdicts.get(transcript.key)), sealed))
        seen.add(key)
    for key in sorted(set(manifest.dialogue_hashes) - seen):
        problems.append(f"dialogue {key}: sealed but absent (removed after packing)")
    if content_hash(manifest) != manifest.content_hash:
        problems.append("the manifest was edited after packing (content_hash differs)")
    if len(problems) > MAX_LINES:
        problems = problems[:MAX_LINES] + [f"... and {len(problems) - MAX_LINES} more edits after packing"]
    return problems
