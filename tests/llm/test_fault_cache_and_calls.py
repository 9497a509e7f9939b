"""Issue 28, outside the run folder: the key never reaches the response cache; a cache that is locked by another
process, corrupt or on a full disk costs one warning, never a dialogue or a paid reply; blank replies are neither
cached nor played; the turn timeout does not count clarq's own queue; a host that cannot be reached stops the run
like a refused connection; credentials in --api-base and literal secrets in a router file are refused at once."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clarq_bench.cli.main import main
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.core.transcript import EndReason, Speaker
from clarq_bench.llm.endpoint import chat_url
from clarq_bench.llm.errors import LLMConnectionRefusedError
from clarq_bench.llm.retry import is_connection_refused, surface
from clarq_bench.testing.fake_agents import both_agents
from clarq_bench.testing.fake_openai import Behaviour, FakeOpenAIServer, reply

REPO = Path(__file__).resolve().parents[2]
SEEKER, PROVIDER = "openai/fake-seeker", "openai/fake-provider"
SECRET = "sk-clarq-cache-secret-91c2e7"


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)


def run_argv(tmp_path: Path, server: FakeOpenAIServer, *extra: str, provider: str = PROVIDER) -> list[str]:
    return [
        "run",
        "--seeker",
        SEEKER,
        "--provider",
        provider,
        "--api-base",
        server.base_url,
        "--tasks",
        str(REPO / "tasks"),
        "--runs-dir",
        str(tmp_path / "runs"),
        "--no-progress",
        *extra,
    ]


def records(tmp_path: Path) -> list:
    (run_dir,) = (tmp_path / "runs").iterdir()
    return read_transcripts(run_dir / "transcripts.jsonl")


def calls_recorded(transcripts: list) -> int:
    return sum(usage.calls for t in transcripts for usage in t.usage.values())


# ---- (4) the key never reaches the cache --------------------------------------------------------------------------


def test_an_endpoint_echoing_the_authorization_header_leaves_no_key_in_the_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    with FakeOpenAIServer(responder=both_agents(SEEKER, None), echo_header="Authorization") as server:
        main(run_argv(tmp_path, server, "--cache", str(cache), provider="offline"))
        assert server.hits > 0
    rows = sqlite3.connect(cache).execute("SELECT value FROM responses").fetchall()
    assert rows and all("[Authorization: " in value for (value,) in rows)  # the echo was stored, redacted
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path


# ---- (5) cache faults ---------------------------------------------------------------------------------------------


HOLD_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT NOT NULL, value TEXT NOT NULL, created REAL NOT NULL)")
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()
"""


def test_a_cache_locked_by_another_process_costs_one_warning_not_the_run(tmp_path: Path, capsys) -> None:
    cache = tmp_path / "cache.sqlite"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(cache)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        with FakeOpenAIServer(responder=both_agents(SEEKER, PROVIDER)) as server:
            started = time.perf_counter()
            code = main(run_argv(tmp_path, server, "--cache", str(cache)))
            elapsed = time.perf_counter() - started
            paid = server.served
    finally:
        holder.stdin.close()
        holder.wait(10)
    err = capsys.readouterr().err
    assert code == 0, err
    assert elapsed < 20  # was: SQLite's 30 s busy timeout on the event loop, per call
    assert err.count("response cache") == 1 and "going on without it" in err
    transcripts = records(tmp_path)
    assert len(transcripts) == 8 and all(t.end_reason == EndReason.goodbye for t in transcripts)
    assert calls_recorded(transcripts) == paid  # every paid reply kept and counted


def test_a_corrupt_cache_file_costs_one_warning_and_retry_errors_does_not_repeat_it(tmp_path: Path, capsys) -> None:
    cache = tmp_path / "cache.sqlite"
    cache.write_bytes(b"this is not a database" * 100)
    with FakeOpenAIServer(responder=both_agents(SEEKER, None)) as server:
        assert main(run_argv(tmp_path, server, "--cache", str(cache), provider="offline")) == 0
        paid = server.served
    err = capsys.readouterr().err
    assert err.count("response cache") == 1
    transcripts = records(tmp_path)
    assert len(transcripts) == 8 and not any(t.end_reason == EndReason.error for t in transcripts)
    assert calls_recorded(transcripts) == paid


@pytest.fixture
def tiny_tmpfs(tmp_path: Path):
    """A 256 kB tmpfs (a disk that fills up), where the platform lets us mount one."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_cache_disk_costs_one_warning_and_no_paid_reply(tmp_path: Path, tiny_tmpfs: Path, capsys) -> None:
    (tiny_tmpfs / "filler").write_bytes(b"\0" * (256 * 1024 - 12 * 1024))  # leave ~3 pages
    cache = tiny_tmpfs / "cache.sqlite"
    big = "x" * 3000  # every reply is longer than the room left

    def responder(body):
        return both_agents(SEEKER, None)(body) + " " + big

    with FakeOpenAIServer(responder=responder) as server:
        code = main(run_argv(tmp_path, server, "--cache", str(cache), provider="offline"))
        paid = server.served
    err = capsys.readouterr().err
    transcripts = records(tmp_path)
    assert err.count("response cache") == 1, err
    assert len(transcripts) == 8 and not any(t.end_reason == EndReason.error for t in transcripts), code
    assert calls_recorded(transcripts) == paid


@pytest.mark.parametrize("blank", ["", None, "   "])
def test_blank_replies_are_neither_cached_nor_played(blank, tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    with FakeOpenAIServer(responder=both_agents(SEEKER, None)) as server:
        server.push(Behaviour("null") if blank is None else reply(blank))
        code = main(run_argv(tmp_path, server, "--cache", str(cache), "--concurrency", "1", provider="offline"))
        paid = server.hits
    transcripts = records(tmp_path)
    assert code == 1
    errored = [t for t in transcripts if t.end_reason == EndReason.error]
    assert len(errored) == 1 and "empty reply" in (errored[0].error or "")
    assert not any(turn.speaker == Speaker.seeker and not turn.text.strip() for t in transcripts for turn in t.turns)
    values = [json.loads(v) for (v,) in sqlite3.connect(cache).execute("SELECT value FROM responses")]
    assert values and all(value["text"].strip() for value in values)
    assert calls_recorded(transcripts) == paid  # the blank reply was paid for: it is counted in its dialogue


# ---- (8) the turn timeout and unreachable hosts --------------------------------------------------------------------


def test_the_turn_timeout_does_not_count_time_queued_in_clarqs_own_limiter(tmp_path: Path) -> None:
    # 8 dialogues share one slot: a turn waits up to 7 x 0.2 s for it, more than the 1 s the call may take (the
    # 0.8 s to spare keep a loaded machine from timing the call itself out)
    with FakeOpenAIServer(responder=both_agents(SEEKER, None), latency_s=0.2) as server:
        code = main(
            run_argv(
                tmp_path,
                server,
                "--no-cache",
                "--model-concurrency",
                "1",
                "--max-turns",
                "4",
                "--turn-timeout",
                "1",
                provider="offline",
            )
        )
    transcripts = records(tmp_path)
    assert code == 0, [t.error for t in transcripts if t.error]
    assert len(transcripts) == 8 and not any(t.end_reason == EndReason.error for t in transcripts)


def test_a_call_that_is_really_slow_still_times_out(tmp_path: Path) -> None:
    with FakeOpenAIServer(responder=both_agents(SEEKER, None), latency_s=2.0) as server:
        started = time.perf_counter()
        main(run_argv(tmp_path, server, "--no-cache", "--turn-timeout", "0.3", provider="offline"))
        assert time.perf_counter() - started < 10
    assert all("TurnTimeout" in (t.error or "") for t in records(tmp_path))


@pytest.mark.parametrize("transport", ["auto", "litellm"])
def test_a_host_that_does_not_resolve_stops_the_run_after_one_call(transport, tmp_path, monkeypatch, capsys):
    real = socket.getaddrinfo

    def no_dns(host, *args, **kwargs):
        if str(host).endswith(".invalid"):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    started = time.perf_counter()
    code = main(
        [
            "run",
            "--seeker",
            SEEKER,
            "--provider",
            "offline",
            "--api-base",
            "http://no-such-host.invalid/v1",
            "--transport",
            transport,
            "--tasks",
            str(REPO / "tasks"),
            "--runs-dir",
            str(tmp_path / "runs"),
            "--no-progress",
            "--no-cache",
        ]
    )
    err = capsys.readouterr().err
    assert code == 1 and "run stopped" in err and "cannot reach the host" in err
    assert time.perf_counter() - started < 15


@pytest.mark.parametrize("number", [101, 113])  # ENETUNREACH, EHOSTUNREACH
def test_no_route_to_the_host_is_not_retried(number: int) -> None:
    try:
        try:
            raise OSError(number, "No route to host")
        except OSError as inner:
            raise RuntimeError("Connection error.") from inner
    except RuntimeError as exc:
        assert is_connection_refused(exc)
        assert isinstance(surface(exc, "m", 1), LLMConnectionRefusedError)


# ---- (10) credentials where they do not belong ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://bob:hunter22@127.0.0.1:9/v1",
        "http://127.0.0.1:9/v1?key=abc123456",
        "http://127.0.0.1:9/v1?api_key=abc123456&x=1",
    ],
)
def test_credentials_in_the_api_base_are_refused_before_anything_runs(url, tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(
            [
                "run",
                "--seeker",
                SEEKER,
                "--provider",
                "offline",
                "--api-base",
                url,
                "--tasks",
                str(REPO / "tasks"),
                "--runs-dir",
                str(tmp_path / "runs"),
            ]
        )
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and len(err.strip().splitlines()) == 1 and "credential" in err
    assert "hunter22" not in err and "abc123456" not in err and not (tmp_path / "runs").exists()


def test_a_query_string_stays_after_the_path() -> None:
    assert (
        chat_url("https://h.example/v1/?api-version=2024-02")
        == "https://h.example/v1/chat/completions?api-version=2024-02"
    )


@pytest.mark.parametrize("value", ["nan", "inf", "-nan"])
@pytest.mark.parametrize("flag", ["--turn-timeout", "--max-cost"])
def test_non_finite_numbers_are_usage_errors(flag, value, tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(
            [
                "run",
                "--seeker",
                "heuristic",
                "--provider",
                "offline",
                "--tasks",
                str(REPO / "tasks"),
                "--runs-dir",
                str(tmp_path / "runs"),
                flag,
                value,
            ]
        )
    assert stopped.value.code == 2 and "Traceback" not in capsys.readouterr().err


ROUTER = """
model_list:
  - model_name: pool/seeker
    litellm_params:
      model: openai/fake-seeker
      api_base: http://127.0.0.1:9/v1
      api_key: os.environ/OPENAI_API_KEY
{extra}
"""


@pytest.mark.parametrize(
    "extra",
    [
        "      aws_secret_access_key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY1",
        "      extra_headers:\n        Authorization: Bearer abcdef123456789",
        "      extra_headers:\n        X-Custom: sk-abcdefghijk123456",
    ],
)
def test_literal_secrets_in_a_router_file_are_refused(extra, tmp_path, capsys) -> None:
    router = tmp_path / "router.yaml"
    router.write_text(ROUTER.format(extra=extra), encoding="utf-8")
    code = main(
        [
            "run",
            "--seeker",
            "pool/seeker",
            "--provider",
            "offline",
            "--router",
            str(router),
            "--tasks",
            str(REPO / "tasks"),
            "--runs-dir",
            str(tmp_path / "runs"),
            "--no-progress",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "literal secret" in err and "os.environ/" in err
    assert "abcdef123456789" not in err and "EXAMPLEKEY1" not in err


def test_a_router_header_naming_a_variable_is_read_from_the_environment(tmp_path, monkeypatch) -> None:
    from clarq_bench.llm.router_file import load_router_file

    monkeypatch.setenv("MY_HEADER_TOKEN", "Bearer from-the-environment-123")
    router = tmp_path / "router.yaml"
    router.write_text(
        ROUTER.format(extra="      extra_headers:\n        Authorization: os.environ/MY_HEADER_TOKEN"), encoding="utf-8"
    )
    params = load_router_file(router).model_list[0].litellm_params
    assert params.extra_params()["extra_headers"] == {"Authorization": "Bearer from-the-environment-123"}
