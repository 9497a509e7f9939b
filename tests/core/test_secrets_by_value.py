"""A key is redacted by its value, whatever variable holds it: an endpoint that echoes the bare key (no `Bearer`,
no `sk-` shape) into its replies and as the model that answered reaches no file clarq writes, through the direct
and the litellm transport, in real processes (the run, then submit, export, view and the leaderboard site)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clarq_bench.core import redact as redactor
from clarq_bench.testing.fake_agents import both_agents
from clarq_bench.testing.fake_openai import FakeOpenAIServer

REPO = Path(__file__).resolve().parents[2]
KEY = "plainKeyNoShape20261126abc"  # ordinary text to every pattern: only its value gives it away


def clarq(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clarq_bench", *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=240
    )


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not redactor.SECRET_ENV.search(k)}
    env.update(PYTHONPATH=str(REPO), XDG_CACHE_HOME=str(tmp_path / "xdg"), NO_COLOR="1", **extra)
    return env


@pytest.mark.parametrize(
    ("source", "transport"),
    [
        ("router-key", "auto"),
        ("router-key", "litellm"),
        ("router-header", "litellm"),  # headers go through litellm
        ("environment", "auto"),
        ("environment", "litellm"),
    ],
)
def test_an_echoed_bare_key_reaches_no_file(tmp_path: Path, transport: str, source: str) -> None:
    agents = both_agents("openai/fake-seeker", "openai/fake-provider")
    header = "X-Api-Token" if source == "router-header" else "Authorization"
    with FakeOpenAIServer(responder=agents, echo_header=header, echo_bare=True) as server:
        if source == "environment":  # the variable clarq reads itself for an OpenAI-compatible endpoint
            env = _env(tmp_path, OPENAI_API_KEY=KEY)
            where = ["--api-base", server.base_url]
        else:  # names a router file gives its variables: nothing in them says "key"
            params = (
                {"api_key": "os.environ/OPENAI_KEY_A"}
                if source == "router-key"
                else {"api_key": "os.environ/OTHER_KEY_B", "extra_headers": {"X-Api-Token": "os.environ/AZURE_KEY"}}
            )
            deployments = [
                {"model_name": name, "litellm_params": {"model": name, "api_base": server.base_url, **params}}
                for name in ("openai/fake-seeker", "openai/fake-provider")
            ]
            router = tmp_path / "router.yaml"
            router.write_text(json.dumps({"model_list": deployments}), encoding="utf-8")
            env = _env(tmp_path, OPENAI_KEY_A=KEY, AZURE_KEY=KEY, OTHER_KEY_B="not-the-echoed-one")
            where = ["--router", str(router)]
        runs = tmp_path / "runs"
        done = clarq(
            "run",
            "--seeker",
            "openai/fake-seeker",
            "--provider",
            "openai/fake-provider",
            *where,
            "--transport",
            transport,
            "--tasks",
            str(REPO / "tasks"),
            "--limit",
            "3",
            "--runs-dir",
            str(runs),
            "--cache",
            str(tmp_path / "cache.sqlite3"),
            "--no-progress",
            env=env,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert server.served >= 6  # the key really was echoed, many times
    run = next(runs.iterdir())
    outputs = [
        clarq(
            "submit",
            str(run),
            "-o",
            str(tmp_path / "sub" / "s.zip"),
            "--partial",
            "--name",
            "Echo",
            env=env,
            cwd=tmp_path,
        ),
        clarq("submit", str(run), "-o", str(tmp_path / "sub2.json"), "--partial", env=env, cwd=tmp_path),
        clarq("export", str(run), str(tmp_path / "export"), env=env, cwd=tmp_path),
        clarq("view", str(run), "--no-open", env=env, cwd=tmp_path),
        clarq(
            "leaderboard",
            "build",
            str(tmp_path / "sub"),
            "-o",
            str(tmp_path / "site"),
            "--data",
            str(REPO / "tasks"),
            "--no-plots",
            env=env,
            cwd=tmp_path,
        ),
    ]
    assert [o.returncode for o in outputs] == [0] * len(outputs), [o.stderr[-500:] for o in outputs]
    written = [path for path in tmp_path.rglob("*") if path.is_file() and path.name != "router.yaml"]
    assert len(written) > 10 and (run / "view").is_dir() and (tmp_path / "site").is_dir()
    assert [str(p) for p in written if KEY.encode() in p.read_bytes()] == []
    assert "[redacted]" in (run / "transcripts.jsonl").read_text(encoding="utf-8")
    assert all(KEY not in o.stdout + o.stderr for o in [done, *outputs])


def test_registered_secrets_and_environment_changes_rebuild_the_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    value = "anOrdinaryLookingValue77"
    assert redactor.redact(f"x {value} y") == f"x {value} y"
    redactor.register_secret(f"Bearer {value}")
    assert redactor.redact(f"x {value} y") == "x [redacted] y"
    monkeypatch.setenv("SERVICE_TOKEN", "tokenValueChanged42")  # a variable set after the pattern was built
    assert redactor.redact("tokenValueChanged42") == "[redacted]"
    monkeypatch.setenv("SERVICE_TOKEN", "anotherValue4242")  # and changed again
    assert redactor.redact("anotherValue4242 tokenValueChanged42") == "[redacted] tokenValueChanged42"
    redactor.register_secret("short")  # too short to tell from ordinary words: not registered
    assert redactor.redact("a short note") == "a short note"


def test_redacting_walks_the_environment_only_when_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled once: a thousand values cost no walk of the environment and no new pattern."""
    redactor.redact("warm up")
    walks = []
    original = redactor.secret_values
    monkeypatch.setattr(redactor, "secret_values", lambda *a: walks.append(1) or original(*a))
    for i in range(1000):
        redactor.redact(f"turn {i}: the answer is yes")
    assert walks == []
    redactor.register_secret("newlyRegisteredSecret1")
    redactor.redact("once more")
    redactor.redact("and again")
    assert walks == [1]


def _every_pattern(text: str) -> str:
    """Every credential pattern applied in turn, none skipped: what `redact` must return for a text with no secret
    value in it."""
    for regex, replacement in redactor.PATTERNS:
        text = regex.sub(replacement, text)
    return text


CREDENTIAL_SHAPES = [
    "Authorization: Bearer abcdefgh12345678",
    "BEARER\tZZZZ9999yyyy",
    "bearer abc",  # too short
    "key sk-abcdEFGH1234_x and rk-12345678 pk-AAAAAAAA9",
    "xoxb-123456789012 ghp_abcdefgh1234 hf_AbCdEfGh1234 glpat-abcdefgh12",
    "AKIAABCDEFGHIJKLMNOP",
    '{"api_key": "abc123def456"}',
    '\\"X-Api-Key\\": \\"zz99zz99zz\\"',
    "ACCESS_TOKEN=tok3n_value_1",
    "client-secret: s3cr3tvalue",
    "https://h.example/p?token=abc12345&sig=ffff0000",
    "postgres://user:pa55@db.example/x",
    # a case-insensitive keyword spelled with the letters other than A-Z that match it: dotted and dotless i,
    # the Kelvin sign and the long s
    "AP\u0130_KEY: xyz987654321",
    "ap\u0131key=qq11qq11qq",
    "\u017fecret_key: value12345678",
    "api\u212aey=abcdef123456",
    "BEAR\u212aR abcdefgh12345678",
    "plain words, no credential here: access to the auth desk is by the secret door",
]


@pytest.mark.parametrize("text", CREDENTIAL_SHAPES)
def test_skipping_patterns_that_cannot_match_changes_nothing(text: str) -> None:
    """`redact` skips a pattern when none of the strings every match of it holds occurs; on each credential shape,
    alone, inside a JSON record, and several together, it gives what applying every pattern gives."""
    record = json.dumps({"turns": [{"text": "hello"}, {"text": text}], "note": "\u00e9t\u00e9"}, ensure_ascii=False)
    for sample in (text, record, " | ".join(CREDENTIAL_SHAPES)):
        assert redactor.redact(sample) == _every_pattern(sample)
