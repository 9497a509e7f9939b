"""The question bank: candidate clarification questions per task, each with its origin, built from released files.

Origins: `released` (a seeker turn of a released dialogue that the reference provider answered with a node, inferred
as data/reference_steps.py infers it; the turn's node ids are kept), `explanation` (the oracle's question for each
node, phrased from its explanation) and `content_free` (prompts/clarify/content_free, asked of no node). A question
is relevant to a state when it belongs to the state's task and elicited a frontier node; every other candidate of
the state's pool is a negative (see pool.py).

The released questions are upstream data, so the repository ships no bank text: it ships the builder and
bank_manifest.json (SHA-256 and counts per language). The bank is built on first use from the released files clarq
already fetches (`clarq data download --results`, or a folder beside $CLARQ_DATA), checked against the manifest,
and cached in the user cache folder. No network is needed once the released files are there.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..core import prompts
from ..core.errors import ClarqError
from ..core.tasks import Language, Task, node_sort_key
from ..data.download import cache_root, upstream_dir
from ..data.reference_steps import replay_steps
from ..data.upstream import language_of_results_file, load_released_dialogues, released_files
from ..seekers.oracle import oracle_path, oracle_script

Origin = Literal["released", "explanation", "content_free"]
ORIGINS: tuple[Origin, ...] = ("released", "explanation", "content_free")
MANIFEST = Path(__file__).with_name("bank_manifest.json")
BANK_VERSION = 2  # 2: entries carry their task's content hash


class BankEntry(BaseModel):
    """One candidate question and where it came from."""

    model_config = ConfigDict(frozen=True)

    id: str
    language: Language
    task_id: str = ""  # empty for content-free questions, which belong to every pool of the language
    task_hash: str = ""  # content hash of the task it was built from: a task of the same id but other content is not it
    type_number: int = 0
    text: str
    origin: Origin
    nodes: tuple[str, ...] = ()  # node ids it elicited (released) or was written for (explanation)
    sources: tuple[str, ...] = ()  # released file names it appears in


class Bank(BaseModel):
    """Every entry of one language, with the lookups pools need."""

    language: Language
    entries: tuple[BankEntry, ...]

    @cached_property
    def by_type(self) -> dict[int, list[BankEntry]]:
        grouped: dict[int, list[BankEntry]] = {}
        for entry in self.entries:
            grouped.setdefault(entry.type_number, []).append(entry)
        return grouped

    @cached_property
    def task_ids(self) -> set[str]:
        return {entry.task_id for entry in self.entries if entry.task_id}

    @cached_property
    def task_hashes(self) -> dict[str, str]:
        return {entry.task_id: entry.task_hash for entry in self.entries if entry.task_id}

    def counts(self) -> dict[str, int]:
        """Entries per origin, and released entries per source file (`released:<file>`)."""
        counts = Counter(entry.origin for entry in self.entries)
        out: dict[str, int] = {origin: counts.get(origin, 0) for origin in ORIGINS}
        for entry in self.entries:
            for source in entry.sources:
                out[f"released:{source}"] = out.get(f"released:{source}", 0) + 1
        return dict(sorted(out.items(), key=lambda kv: (kv[0].startswith("released:"), kv[0])))


def _task_key(task_id: str) -> tuple[int, ...]:
    _, type_number, index = task_id.split("/")
    return int(type_number), int(index)


def build_bank(results: str | Path, language: Language) -> Bank:
    """The bank of one language from a folder of released results files (deterministic: same files, same bank)."""
    files = [f for f in released_files(results) if language_of_results_file(f) == language]
    if not files:
        raise ClarqError(
            f"no released {language} results files in {results}",
            "run `clarq data download --results` or pass --results DIR",
        )
    tasks: dict[str, Task] = {}
    found: dict[tuple[str, str], tuple[set[str], set[str]]] = {}  # (task, text) -> (nodes, sources)
    for path in files:
        for dialogue in load_released_dialogues(path):
            tasks.setdefault(dialogue.task.id, dialogue.task)
            for step in replay_steps(dialogue):
                text = step.prefix[-1].text.strip()
                if step.reference and text:
                    nodes, sources = found.setdefault((dialogue.task.id, text), (set(), set()))
                    nodes.update(step.reference)
                    sources.add(path.name)
    rows: list[tuple[tuple[int, ...], int, str, dict]] = []
    for (task_id, text), (nodes, sources) in found.items():
        rows.append(
            (
                _task_key(task_id),
                0,
                text,
                {"task_id": task_id, "origin": "released", "nodes": nodes, "sources": sorted(sources)},
            )
        )
    for task_id, task in tasks.items():
        for node, text in zip(oracle_path(task), oracle_script(task)):
            if (task_id, text) in found:  # the same words were asked in a released dialogue: one entry
                continue
            rows.append((_task_key(task_id), 1, text, {"task_id": task_id, "origin": "explanation", "nodes": {node}}))
    for text in prompts.load("clarify/content_free", language).splitlines():
        if text.strip():
            rows.append(((0, 0), 2, text.strip(), {"origin": "content_free", "nodes": set()}))
    rows.sort(key=lambda row: (row[0], row[1], row[2]))
    entries = []
    for number, (key, _, text, fields) in enumerate(rows, start=1):
        entries.append(
            BankEntry(
                id=f"{language}-{number:05d}",
                language=language,
                type_number=key[0],
                text=text,
                task_id=fields.get("task_id", ""),
                origin=fields["origin"],
                task_hash=tasks[fields["task_id"]].content_hash() if "task_id" in fields else "",
                nodes=tuple(sorted(fields["nodes"], key=node_sort_key)),
                sources=tuple(fields.get("sources", ())),
            )
        )
    return Bank(language=language, entries=tuple(entries))


def serialize(bank: Bank) -> bytes:
    """Canonical JSON lines (sorted keys, UTF-8): what the checksum is taken over."""
    lines = [json.dumps(entry.model_dump(mode="json"), ensure_ascii=False, sort_keys=True) for entry in bank.entries]
    return ("\n".join(lines) + "\n").encode("utf-8")


def checksum(bank: Bank) -> str:
    return hashlib.sha256(serialize(bank)).hexdigest()


def manifest_record(bank: Bank) -> dict:
    """What bank_manifest.json holds for one language."""
    return {
        "sha256": checksum(bank),
        "entries": len(bank.entries),
        "tasks": len(bank.task_ids),
        "counts": bank.counts(),
    }


def read_manifest() -> dict:
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


def resolve_results_dir(explicit: str | Path | None = None) -> Path:
    """`--results DIR`, else `results/` beside $CLARQ_DATA, else the download cache's copy."""
    if explicit:
        return Path(explicit).expanduser()
    candidates = []
    if os.environ.get("CLARQ_DATA"):
        candidates.append(Path(os.environ["CLARQ_DATA"]).expanduser().parent / "results")
    candidates.append(upstream_dir() / "results")
    for candidate in candidates:
        if candidate.is_dir() and released_files(candidate):
            return candidate
    raise ClarqError(
        "the released ClarQ-LLM dialogues are not available to build the question bank",
        "run `clarq data download --results`, or pass --results DIR",
    )


def cache_path(language: Language) -> Path:
    return cache_root() / f"clarify-bank-v{BANK_VERSION}" / f"bank.{language}.jsonl"


def parse(blob: bytes, language: Language) -> Bank:
    entries = [BankEntry.model_validate_json(line) for line in blob.decode("utf-8").splitlines() if line.strip()]
    return Bank(language=language, entries=tuple(entries))


def load_bank(language: Language, results: str | Path | None = None, *, verify: bool = True) -> Bank:
    """The bank of `language`: from the cache when its checksum matches the manifest, else built and cached.

    With `verify`, a bank whose checksum differs from the shipped manifest is an error (other released files, or a
    changed builder: regenerate the manifest with tools/build_question_bank.py)."""
    if results is not None and not Path(results).expanduser().exists():
        raise ClarqError(f"{results}: no such folder", "pass the folder of released results files with --results")
    expected = read_manifest()["languages"].get(language, {}).get("sha256") if verify else None
    path = cache_path(language)
    if expected and path.is_file():
        blob = path.read_bytes()
        if hashlib.sha256(blob).hexdigest() == expected:
            return parse(blob, language)
    folder = resolve_results_dir(results)
    bank = build_bank(folder, language)
    blob = serialize(bank)
    if verify and hashlib.sha256(blob).hexdigest() != expected:
        raise ClarqError(
            f"the {language} question bank built from {folder} does not match bank_manifest.json",
            "use the pinned released files (`clarq data download --results`), or regenerate the "
            "manifest with `python tools/build_question_bank.py --write-manifest`",
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_bytes(blob)
    partial.replace(path)
    return bank
