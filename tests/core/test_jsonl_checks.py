"""The one-pass record checks of core/jsonl.py give exactly the node-by-node walk's answer, on hostile values."""

import json
import random

import pytest

from clarq_bench.core.errors import DataError
from clarq_bench.core.jsonl import check_depth, dumps_line, loads, text_problem

#: Strings that trip naive scans: brackets and quotes inside strings, raw and escaped surrogates, a real pair.
LEAVES = ["a", "\ud800x", 'q"\\]{', "é[", 1, None, "😀", "\\ud800", "x\\\\", "\udfff", "]]]]"]


def _value(rng: random.Random, depth: int, deepest: int):
    roll = rng.random()
    if depth >= deepest or roll < 0.2:
        return rng.choice(LEAVES)
    if roll < 0.6:
        return [_value(rng, depth + 1, deepest) for _ in range(rng.randint(0, 3))]
    return {
        rng.choice(["k", "\udc00", "[{", '}\\"']) + str(i): _value(rng, depth + 1, deepest)
        for i in range(rng.randint(0, 3))
    }


@pytest.mark.parametrize("seed", range(4))
def test_text_problem_agrees_with_the_walk(seed):
    rng = random.Random(seed)
    for _ in range(1500):
        value = _value(rng, 0, rng.randint(0, 12))
        raw, escaped = json.dumps(value, ensure_ascii=False), json.dumps(value)
        parsed = json.loads(escaped)  # an escaped pair becomes one character: its own walk is the reference
        for limit in (1, 3, 5, 64):
            assert text_problem(raw, value, limit) == check_depth(value, limit)
            assert text_problem(escaped, parsed, limit) == check_depth(parsed, limit)


def test_limits_hold_at_the_edge_and_far_past_it():
    assert loads("[" * 64 + "]" * 64, "f") is not None
    for depth in (65, 200_000):
        with pytest.raises(DataError, match="nested deeper than 64"):
            loads("[" * depth + "]" * depth, "f")
    deep: list = []
    inner = deep
    for _ in range(300_000):  # past the encoder's own recursion limit: still one DataError line
        inner.append([])
        inner = inner[0]
    with pytest.raises(DataError, match="nested deeper than 64"):
        dumps_line({"notes": deep})
    with pytest.raises(DataError, match="lone surrogate"):
        dumps_line({"text": "ok \ud83d"})
    with pytest.raises(DataError, match="lone surrogate"):
        loads('{"text": "\\ud83d"}', "f")
    assert loads('{"text": "\\ud83d\\ude00"}', "f") == {"text": "😀"}


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a":"\\ud800"}',  # an escaped lone surrogate
        b'{"a":"\\uDBFF\\uDFFF","b":"\\udfff"}',
        '{"a":"x","b":"\\ud800"}'.encode("utf-16"),  # UTF-16: json.loads reads it, the quicker path must not
        '{"a":"\\ud800"}'.encode("utf-32"),
        b'\xef\xbb\xbf{"a":1}',  # a UTF-8 byte order mark
        b'{"a":"\xed\xa0\x80"}',  # a raw encoded surrogate (json.loads passes it through)
        b"[" * 70 + b"]" * 70,
        b'{"a": "caf\xc3\xa9", "b": [[[["\\u00e9"]]]]}',
        b'{"a":"\xff"}',
    ],
)
def test_bytes_are_checked_as_json_loads_and_check_depth_check_them(raw: bytes) -> None:
    """UTF-8 bytes are decoded first (then checked the quicker way, text_problem); the outcome is what reading the
    bytes with json.loads and walking the value with check_depth gives, for every encoding json.loads accepts."""
    try:
        value = json.loads(raw)
        expected = check_depth(value) or value
    except UnicodeDecodeError:
        expected = "not UTF-8 text"
    try:
        got = loads(raw, "x")
    except DataError as exc:
        got = str(exc).split(": ", 1)[1]
    assert got == expected
