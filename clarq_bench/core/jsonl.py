"""JSON and JSON Lines from outside, read and written one way everywhere (runs, results files, submissions).

Why one module: JSONL split with `str.splitlines()` breaks a record whose text holds U+2028, U+2029 or U+0085 (JSON
leaves them unescaped), a file nested 200,000 levels deep ended in a RecursionError traceback, and each reader
treated an unfinished last line differently. Here:

- Writing: `dumps_line` is `json.dumps(..., ensure_ascii=False)` plus "\\n"; records are one line because JSON escapes
  "\\n" inside strings. Text that is not valid Unicode (a lone surrogate) is refused with a DataError, never written.
- Reading: lines are split on "\\n" only. Every line and file has a size limit, every record a nesting limit (checked
  without recursion after parsing; the parser's own RecursionError becomes the same one-line DataError), and strings
  with lone surrogates are refused. Errors name the file and the line.
- A last line without "\\n" is a record whose write never finished: `read_jsonl` returns it apart (`unfinished`), and
  each caller says what it does with it (score warns and leaves it out; resume cuts it and plays it again).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import DataError

#: Longest accepted line (one dialogue is a few kilobytes; a 12-turn dialogue with long turns well under 1 MB).
MAX_LINE_CHARS = 16 * 1024 * 1024
#: Largest accepted file (a run of 310 tasks x 2 languages x several trials stays far below).
MAX_FILE_BYTES = 1024 * 1024 * 1024
#: Most JSON objects and arrays in one JSON file (counted as `{` and `[` before parsing): a task file holds ~100, a
#: results file of every dialogue ~10^6; 3 million empty objects already take ~300 MB.
MAX_CONTAINERS = 3_000_000
#: Most JSON objects and arrays in one JSONL record (a dialogue holds ~120-300).
MAX_RECORD_CONTAINERS = 100_000
#: Deepest accepted nesting of arrays and objects (a transcript is about 6 levels deep).
MAX_DEPTH = 64

_SURROGATE = re.compile("[\ud800-\udfff]")
M = TypeVar("M", bound=BaseModel)


def dumps_line(payload: Any) -> str:
    """One JSONL record: compact JSON, non-ASCII kept as is, ending in "\\n". Pydantic models are dumped first.

    What the readers here would refuse (a lone surrogate, nesting past MAX_DEPTH, a line past MAX_LINE_CHARS) is
    refused here too, as a DataError: clarq never writes a file it cannot read back (checked once, on the line and
    value as built here)."""
    if isinstance(payload, BaseModel):
        payload = payload.model_dump(mode="json")
    try:
        line = json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n"
    except RecursionError:
        raise DataError("record", f"nested deeper than {MAX_DEPTH} levels") from None
    if len(line) > MAX_LINE_CHARS:
        raise DataError("record", f"{len(line)} characters is more than the limit of {MAX_LINE_CHARS}")
    problem = text_problem(line, payload)
    if problem:
        raise DataError("record", problem)
    return line


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def text_problem(text: str, value: Any, limit: int = MAX_DEPTH) -> str | None:
    """check_depth(value, limit), for a value and the JSON text it was parsed from or dumped to, at a third of the cost.

    Surrogates are looked for in the text at C speed (ASCII text holds none raw; UTF-8 encoding refuses one; an
    escaped one starts with \\uD8-\\uDF); a text that may hold one is walked by check_depth, so the message is its
    own. Nesting is counted a level at a time, containers only."""
    if (not text.isascii() and not _encodes(text)) or ("\\u" in text and _ESCAPED_SURROGATE.search(text)):
        return check_depth(value, limit)
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return f"nested deeper than {limit} levels"
        level = [
            inner
            for item in level
            for inner in (item.values() if isinstance(item, dict) else item)
            if isinstance(inner, (dict, list))
        ]
    return None


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_depth(value: Any, limit: int = MAX_DEPTH) -> str | None:
    """Why a parsed JSON value is unacceptable (nested deeper than `limit`, a lone surrogate), or None. No recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth > limit:
                return f"nested deeper than {limit} levels"
            for key, inner in item.items():
                if _SURROGATE.search(key):
                    return "a key holds a lone surrogate (not valid Unicode)"
                stack.append((inner, depth + 1))
        elif isinstance(item, list):
            if depth > limit:
                return f"nested deeper than {limit} levels"
            stack.extend((inner, depth + 1) for inner in item)
        elif isinstance(item, str) and _SURROGATE.search(item):
            return "a string holds a lone surrogate (not valid Unicode)"
    return None


def loads(text: str | bytes, source: str, line: int | None = None, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse one JSON document from outside; a DataError naming `source` (and line) when it is not acceptable."""
    where = source if line is None else f"{source} line {line}"
    if isinstance(text, bytes) and json.detect_encoding(text) == "utf-8":
        try:  # what json.loads does with UTF-8 bytes; as text the checks below take the quicker way (text_problem)
            text = text.decode("utf-8")
        except UnicodeDecodeError:  # left to json.loads and check_depth, as any other bytes
            pass
    try:
        value = json.loads(text)
    except RecursionError:
        raise DataError(where, f"nested deeper than {max_depth} levels") from None
    except UnicodeDecodeError:
        raise DataError(where, "not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        at = f"column {exc.colno}" if line is not None else f"line {exc.lineno} column {exc.colno}"
        raise DataError(where, f"not JSON ({at}: {exc.msg})") from None
    problem = text_problem(text, value, max_depth) if isinstance(text, str) else check_depth(value, max_depth)
    if problem:
        raise DataError(where, problem)
    return value


def validate(model: type[M], value: Any, source: str, line: int | None = None, what: str | None = None) -> M:
    """`model.model_validate(value)`, a ValidationError turned into one DataError line naming where and what."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(part) for part in first["loc"]) or "(top level)"
        where = source if line is None else f"{source} line {line}"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise DataError(f"{where} is not a {what or model.__name__}", f"{loc}: {first['msg']}{more}") from None


def read_text(path: Path, *, max_bytes: int = MAX_FILE_BYTES, within: Path | None = None) -> str:
    """A whole regular file from outside as UTF-8 text, read no further than `max_bytes` (core/safe_read.py);
    `within`: a link must not lead outside that folder."""
    from .safe_read import read_bytes

    try:
        return read_bytes(path, max_bytes, within=within).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(str(path), f"not UTF-8 text (byte {exc.start})") from None


def load_file(
    path: Path,
    *,
    max_bytes: int = MAX_FILE_BYTES,
    max_depth: int = MAX_DEPTH,
    max_containers: int = MAX_CONTAINERS,
    within: Path | None = None,
) -> Any:
    """One JSON file from outside (config.json, a results file, a submission), with the size and depth limits and
    a budget of objects and arrays counted before any is built."""
    return parse_text(
        read_text(path, max_bytes=max_bytes, within=within),
        str(path),
        max_depth=max_depth,
        max_containers=max_containers,
    )


def parse_text(text: str, source: str, *, max_depth: int = MAX_DEPTH, max_containers: int = MAX_CONTAINERS) -> Any:
    """load_file's parse of a text already read: the budget of objects and arrays first, then `loads`."""
    count = text.count("{") + text.count("[")
    if count > max_containers:
        raise DataError(source, f"holds {count:,} JSON objects or more (limit {max_containers:,})")
    return loads(text, source, max_depth=max_depth)


@dataclass
class JSONLRead:
    """What a JSONL text held: parsed records with their line numbers, and an unfinished last line if any."""

    records: list[tuple[int, Any]] = field(default_factory=list)
    unfinished: int | None = None  # line number of a last line without "\n" (never parsed)


def parse_jsonl(
    text: str, source: str, *, max_line_chars: int = MAX_LINE_CHARS, live: bool = True, convert: Any = None
) -> JSONLRead:
    """Split on "\\n" only (never splitlines), skip blank lines, parse each with the limits of `loads`.

    `live`: the file is appended to line by line (a run's transcripts), so a last line without "\\n" is unfinished
    and is reported apart, unparsed. Otherwise (a finished file such as a submission member) it is a record like any.
    `convert(value, number)`: applied to each record as it is parsed (validation), so a file of a million bad or
    empty records fails at its first instead of building all of them.
    """
    result = JSONLRead()
    start, number, end_of_text = 0, 0, len(text)
    while start < end_of_text:
        end = text.find("\n", start)
        number += 1
        if end < 0:  # a last line without "\n"
            line = text[start:]
            start = end_of_text
            if not line.strip():
                break
            if live:
                result.unfinished = number
                break
        else:
            line = text[start:end]
            start = end + 1
        if not line.strip():
            continue
        if len(line) > max_line_chars:
            raise DataError(f"{source} line {number}", f"longer than the limit of {max_line_chars} characters")
        if line.count("{") + line.count("[") > MAX_RECORD_CONTAINERS:
            raise DataError(f"{source} line {number}", f"holds more than {MAX_RECORD_CONTAINERS:,} JSON objects")
        value = loads(line, source, number)
        result.records.append((number, value if convert is None else convert(value, number)))
    return result


def read_jsonl(
    path: Path, model: type[M], what: str | None = None, *, within: Path | None = None
) -> tuple[list[M], int | None]:
    """(records, line number of an unfinished last line or None) of a JSONL file of `model` records."""
    read = parse_jsonl(
        read_text(path, within=within),
        str(path),
        convert=lambda value, number: validate(model, value, str(path), number, what),
    )
    return [value for _, value in read.records], read.unfinished


def parse_models(text: str, source: str, model: type[M], what: str | None = None) -> list[M]:
    """Records of `model` in a finished JSONL text (a submission member): every line is a record."""
    read = parse_jsonl(
        text, source, live=False, convert=lambda value, number: validate(model, value, source, number, what)
    )
    return [value for _, value in read.records]


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """A nested JSON object as dotted keys: {"seeker": {"name": "x"}} -> {"seeker.name": "x"}."""
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, inner in value.items():
            flat.update(flatten(inner, f"{prefix}{key}."))
        return flat or {prefix.rstrip("."): {}}
    return {prefix.rstrip("."): value}
