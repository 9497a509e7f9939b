"""ClariQ's own files (Aliannejadi et al. 2021): the topics of a split and the question bank, parsed with one-line
errors for malformed files.

A split file (train.tsv, dev.tsv, test_with_labels.tsv) has one row per topic, facet and question: the topic's request
and clarification need (1-4) repeat on every row; the topic's relevant questions are the set of its rows' question
ids (ClariQ's question relevance). test.tsv has requests only. Topic ids are compared as integers where they are
digits (the official tool reads them as numbers), so "0101" and "101" are one topic. Files are read as the official
tool reads them (tab-separated, double-quoted fields, a header row).
"""

from __future__ import annotations

import csv
from pathlib import Path

from pydantic import BaseModel, Field

from ..core.errors import DataError

SPLIT_FILES = {"train": "train.tsv", "dev": "dev.tsv", "test": "test_with_labels.tsv"}
csv.field_size_limit(1 << 24)


class ClariqTopic(BaseModel):
    """One topic as the track sees it; `relevant`, `facets` and `need` are gold, for scoring only."""

    id: str
    request: str
    need: int | None = Field(default=None, ge=1, le=4)
    facets: list[str] = Field(default_factory=list)
    relevant: frozenset[str] = frozenset()


def topic_key(raw: str) -> str:
    """A topic id as the official tool compares it: digits as an integer, anything else as written."""
    text = raw.strip()
    return str(int(text)) if text.isdigit() else text


def _rows(path: Path, required: tuple[str, ...]) -> list[dict[str, str]]:
    try:
        with path.open(encoding="utf-8", newline="") as stream:
            reader = csv.DictReader(stream, delimiter="\t")
            missing = [c for c in required if c not in (reader.fieldnames or [])]
            if missing:
                raise DataError(str(path), f"no column {missing[0]!r} (columns: {', '.join(reader.fieldnames or [])})")
            return list(reader)
    except FileNotFoundError:
        raise DataError(str(path), "no such file") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise DataError(str(path), f"not a UTF-8 tab-separated file ({exc})") from None


def load_question_bank(folder: Path) -> dict[str, str]:
    """question id -> text, in file order (Q00001, "no question", has an empty text)."""
    path = Path(folder) / "question_bank.tsv"
    bank: dict[str, str] = {}
    for number, row in enumerate(_rows(path, ("question_id", "question")), start=2):
        qid = (row["question_id"] or "").strip()
        if not qid:
            raise DataError(str(path), "empty question_id", number)
        if qid in bank:
            raise DataError(str(path), f"question id {qid} appears twice", number)
        bank[qid] = row["question"] or ""
    return bank


def load_topics(folder: Path, split: str) -> list[ClariqTopic]:
    """The topics of a split in file order; `test` reads test_with_labels.tsv (the labels the tool scores with)."""
    if split not in SPLIT_FILES:
        raise DataError(split, f"unknown ClariQ split (choose {', '.join(SPLIT_FILES)})")
    path = Path(folder) / SPLIT_FILES[split]
    topics: dict[str, dict] = {}
    for number, row in enumerate(
        _rows(path, ("topic_id", "initial_request", "clarification_need", "facet_id", "question_id")), start=2
    ):
        key = topic_key(row["topic_id"] or "")
        qid = (row["question_id"] or "").strip()
        if not key or not qid:
            raise DataError(str(path), "empty topic_id or question_id", number)
        need_text = (row["clarification_need"] or "").strip()
        if need_text not in ("1", "2", "3", "4"):
            raise DataError(str(path), f"clarification_need {need_text!r} is not 1-4", number)
        topic = topics.setdefault(
            key,
            {
                "id": key,
                "request": row["initial_request"] or "",
                "need": int(need_text),
                "facets": [],
                "relevant": set(),
            },
        )  # first row wins, as the tool's
        facet = (row["facet_id"] or "").strip()
        if facet and facet not in topic["facets"]:
            topic["facets"].append(facet)
        topic["relevant"].add(qid)
    if not topics:
        raise DataError(str(path), "no topics")
    return [ClariqTopic(**t) for t in topics.values()]
