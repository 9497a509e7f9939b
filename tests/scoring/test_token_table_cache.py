"""The tokenizer table kept in clarq's cache folder gives the very counts tiktoken's own reading gives, and a kept
copy that is damaged is never used."""

from __future__ import annotations

from pathlib import Path

import pytest

from clarq_bench.scoring import lengths

TEXTS = ["", "Where is the cave?", "你好，我需要一把钥匙。", "Don't ask twice: 12345 ok\n\n  x", "émigré naïve 😀"]


def _fresh_counter() -> lengths.TokenCounter:
    import tiktoken.registry

    lengths._machine_counter.cache_clear()
    tiktoken.registry.ENCODINGS.pop(lengths.TOKEN_UNIT, None)
    return lengths._machine_counter()


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    if lengths._bundled_table_dir() is None:
        pytest.skip("no bundled o200k_base table on this machine")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    yield tmp_path
    lengths._machine_counter.cache_clear()


def test_kept_table_counts_as_tiktoken_and_skips_its_parse(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tiktoken_ext.openai_public as public

    parsed = []
    original = public.load_tiktoken_bpe
    monkeypatch.setattr(public, "load_tiktoken_bpe", lambda *a, **k: parsed.append(1) or original(*a, **k))
    first = _fresh_counter()
    assert first.unit == lengths.TOKEN_UNIT and parsed == [1]
    (kept,) = (cache_home / "clarq" / "tokenizers").glob("*.marshal")
    expected = [first.count(text) for text in TEXTS]
    second = _fresh_counter()
    assert parsed == [1]  # read from the kept copy
    assert [second.count(text) for text in TEXTS] == expected
    assert public.load_tiktoken_bpe is not original and public.load_tiktoken_bpe.__name__ == "<lambda>"  # put back

    blob = bytearray(kept.read_bytes())
    blob[100] ^= 0xFF  # one byte of the table changed: its digest no longer matches
    kept.write_bytes(bytes(blob))
    third = _fresh_counter()
    assert parsed == [1, 1]  # tiktoken read its own table again
    assert [third.count(text) for text in TEXTS] == expected
    assert lengths._read_kept(kept) is not None  # and the kept copy was written anew


def test_kept_table_is_refused_when_not_a_token_list(cache_home: Path) -> None:
    import hashlib
    import marshal

    path = cache_home / "t.marshal"
    for value in ({b"a": 0}, [b"a", "b"], 7):
        body = marshal.dumps(value)
        path.write_bytes(hashlib.sha256(body).hexdigest().encode() + body)
        assert lengths._read_kept(path) is None
    path.write_bytes(b"0" * 64 + b"garbage")
    assert lengths._read_kept(path) is None
    assert lengths._kept_path(None) is None and lengths._kept_path("../../etc") is None
