"""The endpoint identity of a model call: `--api-base` normalized, never with credentials.

Why: the same model name at two endpoints is two different models (a local server can answer to `gpt-4o`), so the
endpoint is part of the run's config hash, the response-cache key and the recorded model identity. Normalizing
(scheme and host lower-cased, default port and trailing slash dropped, user:password@ and secret-looking query
parameters removed) makes spellings of one endpoint agree and keeps credentials out of everything written.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..core.errors import ClarqError

#: Query parameters that carry credentials, dropped from the recorded endpoint.
SECRET_PARAM = re.compile(r"key|token|secret|password|passwd|sig|signature|auth|credential", re.I)
DEFAULT_PORTS = {"http": 80, "https": 443}


def check_api_base(api_base: str | None) -> str | None:
    """`api_base` unchanged, or a ClarqError when it carries credentials (user:password@, ?key=...): a key in a URL
    would be sent as a malformed header or spliced into the path, and ends up in shell history and process lists."""
    if api_base is None or not api_base.strip():
        return api_base
    parts = urlsplit(api_base.strip())
    if parts.username is not None or parts.password is not None:
        raise ClarqError(
            "--api-base carries credentials (user:password@)",
            "remove them; clarq reads keys from the environment (e.g. OPENAI_API_KEY)",
        )
    secret = [k for k, _ in parse_qsl(parts.query, keep_blank_values=True) if SECRET_PARAM.search(k)]
    if secret:
        raise ClarqError(
            f"--api-base carries a credential in its query (?{secret[0]}=...)",
            "remove it; clarq reads keys from the environment (e.g. OPENAI_API_KEY)",
        )
    normalize_endpoint(api_base)
    return api_base


def chat_url(api_base: str) -> str:
    """{api_base}/chat/completions, with any query string (Azure's ?api-version=) kept after the path."""
    parts = urlsplit(api_base.strip())
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + "/chat/completions", parts.query, ""))


def normalize_endpoint(api_base: str | None) -> str | None:
    """`HTTP://user:pw@Host:80/v1/?key=x` -> `http://host/v1`; None for no endpoint (the provider's default)."""
    if api_base is None or not api_base.strip():
        return None
    parts = urlsplit(api_base.strip())
    if not parts.scheme or not parts.hostname:
        raise ClarqError(
            f"--api-base is not a URL: {parts.scheme or 'no scheme'}", "pass e.g. http://localhost:8000/v1"
        )
    scheme = parts.scheme.lower()
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        raise ClarqError("--api-base has an invalid port", "pass e.g. http://localhost:8000/v1") from None
    netloc = host if port is None or DEFAULT_PORTS.get(scheme) == port else f"{host}:{port}"
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not SECRET_PARAM.search(k)])
    return urlunsplit((scheme, netloc, parts.path.rstrip("/"), query, ""))
