"""How long a seeker turn is: the released units (AQL as published) and one unit comparable across languages.

Released unit (REFERENCE.md): the language is read from the dialogue's first seeker turn (CJK ideographs >= Latin
letters -> Chinese); an English turn's length is its number of space characters, a Chinese turn's its number of
characters. That makes English and Chinese AQL incomparable, so every turn is also measured in subword tokens of
one multilingual tokenizer: OpenAI's `o200k_base` (the GPT-4o tokenizer), whose table ships inside the pinned
litellm package, so it loads offline through tiktoken. Where it cannot be loaded the documented fallback unit
`cjk+words` is used instead (each CJK character counts 1, each run of Latin letters or digits counts 1).
The unit used is recorded in every Verdict, so figures in different units are never mixed silently.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

#: CJK unified ideographs (basic block and extension A) and compatibility ideographs.
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN = re.compile(r"[A-Za-z]")
WORDISH = re.compile(r"[A-Za-z0-9]+")

TOKEN_UNIT = "o200k_base"
FALLBACK_UNIT = "cjk+words"
_LOCK = threading.Lock()


def detect_language(first_seeker_turn: str, default: str = "en") -> str:
    """The released rule: CJK count >= Latin letter count -> "zh", else "en".

    A turn with neither (empty, digits only) falls back to `default` instead of the rule's accidental "zh".
    """
    cjk = len(CJK.findall(first_seeker_turn))
    latin = len(LATIN.findall(first_seeker_turn))
    if cjk == 0 and latin == 0:
        return default
    return "zh" if cjk >= latin else "en"


def released_length(text: str, language: str) -> int:
    """A turn's length in the released unit: spaces for English, characters for Chinese.

    The one place of the published rule: the released evaluation calls strip() on every seeker turn before measuring
    it, so surrounding whitespace (a turn ending in blank lines) never counts.
    """
    text = text.strip()
    return len(text) if language == "zh" else text.count(" ")


def fallback_length(text: str) -> int:
    """The fallback cross-language unit: CJK characters plus Latin/digit words."""
    return len(CJK.findall(text)) + len(WORDISH.findall(text))


def _bundled_table_dir() -> Path | None:
    """litellm's folder of tiktoken tables, found without importing litellm (which is slow)."""
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils" / "tokenizers"
    # tiktoken names a cached table by the sha1 of its download address.
    key = hashlib.sha1(
        f"https://openaipublic.blob.core.windows.net/encodings/{TOKEN_UNIT}.tiktoken".encode()
    ).hexdigest()
    return folder if (folder / key).is_file() else None


class TokenCounter(NamedTuple):
    unit: str
    count: Callable[[str], int]


_UNIT: ContextVar[TokenCounter | None] = ContextVar("clarq_token_unit", default=None)


def token_counter() -> TokenCounter:
    """The cross-language length function and its unit name (o200k_base offline, else the fallback), unless
    `counting_in` chose another unit for the code inside it."""
    chosen = _UNIT.get()
    return chosen if chosen is not None else _machine_counter()


def counter_for(unit: str) -> TokenCounter | None:
    """The counter of a named unit, or None when this machine cannot count in it."""
    if unit == FALLBACK_UNIT:
        return TokenCounter(FALLBACK_UNIT, fallback_length)
    machine = _machine_counter()
    return machine if machine.unit == unit else None


@contextmanager
def counting_in(counter: TokenCounter) -> Iterator[None]:
    """Count tokens in `counter`'s unit inside (verification recomputes a submission in the unit it claims)."""
    token = _UNIT.set(counter)
    try:
        yield
    finally:
        _UNIT.reset(token)


@lru_cache(maxsize=1)
def _machine_counter() -> TokenCounter:
    folder = _bundled_table_dir()
    try:
        import tiktoken
    except ImportError:
        return TokenCounter(FALLBACK_UNIT, fallback_length)
    if folder is None:
        return TokenCounter(FALLBACK_UNIT, fallback_length)
    # tiktoken finds cached tables through TIKTOKEN_CACHE_DIR (and checks their sha256); point it at the bundled
    # folder for this one load only, then put the environment back as it was.
    with _LOCK:
        before = os.environ.get("TIKTOKEN_CACHE_DIR")
        os.environ["TIKTOKEN_CACHE_DIR"] = str(folder)
        public = _tiktoken_tables()
        original = getattr(public, "load_tiktoken_bpe", None)
        if original is not None:
            public.load_tiktoken_bpe = _kept_tables(original)
        try:
            encoding = tiktoken.get_encoding(TOKEN_UNIT)
        except Exception:  # missing or corrupt table: tiktoken would try the network; we never do
            return TokenCounter(FALLBACK_UNIT, fallback_length)
        finally:
            if original is not None:
                public.load_tiktoken_bpe = original
            if before is None:
                os.environ.pop("TIKTOKEN_CACHE_DIR", None)
            else:
                os.environ["TIKTOKEN_CACHE_DIR"] = before
    return TokenCounter(TOKEN_UNIT, lambda text: len(encoding.encode(text, disallowed_special=())))


def _tiktoken_tables() -> Any:
    """tiktoken's module of OpenAI's encodings (it reads the table through its own `load_tiktoken_bpe`), or None."""
    try:
        import tiktoken_ext.openai_public as public
    except ImportError:  # pragma: no cover - tiktoken without its bundled encodings
        return None
    return public


def _kept_tables(load: Callable[..., dict[bytes, int]]) -> Callable[..., dict[bytes, int]]:
    """tiktoken's table reader, with the parsed table kept in clarq's cache folder by the table's SHA-256.

    Why: parsing the 200,000 base64 lines of o200k_base costs ~0.5 s of every process that counts tokens; the kept
    copy (the tokens in rank order, marshalled, behind its own SHA-256) loads in a fifth of that. The table itself is
    still read and checked by tiktoken whenever the kept copy is missing, unreadable or does not match its digest."""

    def cached(path: str, expected_hash: str | None = None) -> dict[bytes, int]:
        kept = _kept_path(expected_hash)
        ranks = _read_kept(kept) if kept is not None else None
        if ranks is None:
            ranks = load(path, expected_hash=expected_hash)
            if kept is not None:
                _write_kept(kept, ranks)
        return ranks

    return cached


def _kept_path(expected_hash: str | None) -> Path | None:
    if not expected_hash or not re.fullmatch(r"[0-9a-f]{64}", expected_hash):
        return None
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("clarq", appauthor=False)) / "tokenizers" / f"{expected_hash}.marshal"


def _read_kept(path: Path) -> dict[bytes, int] | None:
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    digest, body = blob[:64], blob[64:]
    if hashlib.sha256(body).hexdigest().encode() != digest:
        return None
    try:
        tokens = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(tokens, list) or not all(type(token) is bytes for token in tokens):
        return None
    return dict(zip(tokens, range(len(tokens)), strict=True))


def _write_kept(path: Path, ranks: dict[bytes, int]) -> None:
    """Keep the table when its ranks are 0..n-1 in order (o200k_base's are); a failed write only costs the speed."""
    if list(ranks.values()) != list(range(len(ranks))):
        return
    body = marshal.dumps(list(ranks))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        partial.write_bytes(hashlib.sha256(body).hexdigest().encode() + body)
        os.replace(partial, path)
    except OSError:
        return


token_counter.cache_clear = lambda: _machine_counter.cache_clear()  # type: ignore[attr-defined]  # tests
