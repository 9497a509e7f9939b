"""The one redactor for everything clarq writes: run files, reports, submissions, the site, printed errors.

Why one: a key reaches the disk by many roads (an endpoint echoing the Authorization header in a 401 or 500 body,
a key pasted into a URL or a seeker option, an exception message); fixing each road misses the next one, so every
write boundary passes its text through `redact`. It removes
- every value clarq read as a credential (`register_secret`: the variables a router file names, whatever they are
  called, an explicit key, the key variables clarq reads itself),
- the values of credential environment variables that are set (OPENAI_API_KEY, ANTHROPIC_API_KEY,
  AWS_SECRET_ACCESS_KEY, and any *_API_KEY, *_TOKEN, *_SECRET, *_PASSWORD, *_ACCESS_KEY), which litellm may read
  on its own,
- `Bearer <token>`, `sk-...`-shaped keys, and the values of `api_key=...`, `"api-key": "..."`, `token: ...`
  and alike, and user:password@ in URLs.
Text is redacted in place, so JSON stays valid (values are cut at quotes and backslashes).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

MARK = "[redacted]"
#: Environment variables whose values are credentials.
SECRET_ENV = re.compile(r"(^|_)(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|ACCESS_KEY|SECRET_ACCESS_KEY|AUTH)$", re.I)
#: Keys of JSON objects (configs, options) whose values are credentials whatever they look like.
SECRET_KEY = re.compile(r"api[_-]?key|secret|passw(or)?d|authori[sz]ation|bearer|credential|(^|_)token$|cookie", re.I)
#: Shorter values are not redacted (too likely to match ordinary text).
MIN_SECRET = 8
_VALUE = r"[A-Za-z0-9._~+/=\-]"
_DIGIT = r"(?=[^\s\"'\\]*\d)"  # a credential value holds a digit: keeps ordinary words out
PATTERNS = (
    (re.compile(rf"(?i)\b(bearer)(\s+){_DIGIT}{_VALUE}{{8,}}"), rf"\1\2{MARK}"),
    (re.compile(r"\b(sk|rk|pk)-[A-Za-z0-9_\-]{8,}|\b(xox[abpr]|ghp|gho|ghs|hf|glpat)[-_][A-Za-z0-9_\-]{8,}"), MARK),
    (re.compile(r"\bAKIA[0-9A-Z]{16}\b"), MARK),
    (
        re.compile(
            r"(?i)(?<![A-Za-z0-9_])((?:x-)?api[_-]?key|apikey|access[_-]?token|auth[_-]?token|client[_-]?secret"
            r"|secret[_-]?key|authorization)(\\?[\"']?\s*[:=]\s*\\?[\"']?)(?!Bearer\b)"
            rf"{_DIGIT}([^\s\"'\\&,;}}<>]{{6,}})"
        ),
        rf"\1\2{MARK}",
    ),
    (re.compile(rf"(?i)([?&](?:key|token|secret|password|sig)=){_DIGIT}[^\s\"'\\&#]{{6,}}"), rf"\1{MARK}"),
    (re.compile(r"(?i)(\b[a-z][a-z0-9+.\-]*://)[^/@\s\"'\\]+@"), rf"\1{MARK}@"),
)


def secret_values(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Values of the credential variables set in the environment, and every registered secret, longest first."""
    variables = os.environ if environ is None else environ
    found = {
        value.strip()
        for name, value in variables.items()
        if SECRET_ENV.search(name) and len(value.strip()) >= MIN_SECRET
    }
    return tuple(sorted(found | _registered, key=len, reverse=True))


_registered: set[str] = set()
#: (environment fingerprint, compiled pattern of every secret value); rebuilt only when a secret is registered or
#: the environment changed, so redacting a value costs the fingerprint comparison, not a walk of the environment.
_compiled: tuple[Any, re.Pattern[str] | None] = (None, None)


def register_secret(value: str | None) -> None:
    """Redact `value` from everything written from now on, whatever variable or file it came from. Called wherever
    clarq reads a credential (a router file's variables, an explicit key, the key variables it reads itself)."""
    global _compiled
    if not isinstance(value, str):
        return
    for candidate in {value, value.strip(), value.removeprefix("Bearer ").strip()}:
        if len(candidate) >= MIN_SECRET and candidate not in _registered:
            _registered.add(candidate)
            _compiled = (None, None)


def _fingerprint() -> Any:
    """A cheap token that changes when the environment does (its raw storage compared by identity, no decoding)."""
    data = getattr(os.environ, "_data", None)
    if data is None:  # pragma: no cover - an interpreter without the raw mapping
        return tuple(os.environ.items())
    return tuple(data.values()), len(data)


def _values_pattern() -> re.Pattern[str] | None:
    global _compiled
    stamp = _fingerprint()
    seen, pattern = _compiled
    if seen is None or seen != stamp:
        values = secret_values()
        pattern = re.compile("|".join(re.escape(v) for v in values)) if values else None
        _compiled = (stamp, pattern)
    return pattern


#: The two-word credential names of PATTERNS[3] (`api_key`, `access-token`, ...), lower case, without the joiner.
_KEYWORDS = (("api", "key"), ("access", "token"), ("auth", "token"), ("client", "secret"), ("secret", "key"))
#: For each of PATTERNS, strings one of which any match of it holds: (in the text as is, in the text case-folded).
#: A pattern none of whose strings occurs cannot match, so its scan (the costly part of redacting a record) is skipped.
_NEEDS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    ((), ("bearer",)),
    (("sk-", "rk-", "pk-", "xox", "ghp", "gho", "ghs", "hf-", "hf_", "glpat"), ()),
    (("AKIA",), ()),
    ((), tuple(f"{a}{j}{b}" for a, b in _KEYWORDS for j in ("", "_", "-")) + ("authorization",)),
    ((), ("key=", "token=", "secret=", "password=", "sig=")),
    (("://",), ()),
)
#: For each of PATTERNS, None or a quick regex that finds a match in any text the pattern matches (a literal start,
#: so it scans at C speed): the URL pattern tries a scheme at every word of a record, this only the `://` in it.
_GATES: tuple[re.Pattern[str] | None, ...] = (None, None, None, None, None, re.compile(r"://[^/@\s\"'\\]+@"))
#: The characters other than A-Z that a case-insensitive pattern matches to an ASCII letter (dotted and dotless i,
#: the Kelvin sign, the long s): folded to that letter so the case-folded needles above miss no match.
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u212a": "k", "\u017f": "s"})


def _folded(text: str) -> str:
    return text.lower() if text.isascii() else text.translate(_FOLD).lower()


#: Short texts redacted before (model names, labels: the same few, once per model call), with the secrets pattern
#: they were redacted under; an entry is used only while that pattern is still the current one.
_SHORT = 200
_seen: dict[str, tuple[re.Pattern[str] | None, str]] = {}


def redact(text: str) -> str:
    """`text` with every credential value and credential-shaped string replaced by `[redacted]`."""
    if not text:
        return text
    pattern = _values_pattern()
    if len(text) <= _SHORT:
        kept = _seen.get(text)
        if kept is not None and kept[0] is pattern:
            return kept[1]
        if len(_seen) >= 4096:
            _seen.clear()
        _seen[text] = (pattern, done := _redact(text, pattern))
        return done
    return _redact(text, pattern)


def _redact(text: str, pattern: re.Pattern[str] | None) -> str:
    if pattern is not None:
        text = pattern.sub(MARK, text)
    folded: str | None = None
    for (regex, replacement), (plain, caseless), gate in zip(PATTERNS, _NEEDS, _GATES, strict=True):
        if plain and not any(needle in text for needle in plain):
            continue
        if gate is not None and gate.search(text) is None:
            continue
        if caseless:
            if folded is None:
                folded = _folded(text)
            if not any(needle in folded for needle in caseless):
                continue
        replaced = regex.sub(replacement, text)
        if replaced != text:
            text, folded = replaced, None
    return text


def redact_data(value: Any) -> Any:
    """A copy of a JSON-like value with every string redacted and the values under secret-looking keys (api_key,
    password, authorization, *_token, ...) replaced whole."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: MARK if SECRET_KEY.search(str(k)) else redact_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_data(v) for v in value]
    return value
