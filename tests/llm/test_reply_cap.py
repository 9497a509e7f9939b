"""Both transports hold a call to one reply-size cap and one total deadline, against a hostile endpoint on
127.0.0.1, in a real process whose peak memory is measured: a 50 MB body and a never-ending body end at the cap, a
body of one byte a second ends at the deadline, a reply without choices is a malformed body (retried), never an
IndexError."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clarq_bench.testing.hostile_http import HostileServer

REPO = Path(__file__).resolve().parents[2]
LIMIT_MB = 500

CALL = """
import asyncio, json, sys, time
from clarq_bench.llm.transports import DirectOpenAI, litellm_call
from clarq_bench.llm.models import litellm_module

async def main(base, transport, timeout_s):
    if transport == "litellm":
        litellm_module()  # imported before the clock starts: its import is not the call's time
    started = time.monotonic()
    messages, params = [{"role": "user", "content": "hi"}], {"temperature": 0}
    try:
        if transport == "litellm":
            await litellm_call("openai/m", messages, params, api_base=base, api_key="k" * 12, timeout_s=timeout_s)
        else:
            direct = DirectOpenAI(base, "k" * 12)
            try:
                await direct.call("openai/m", messages, params, timeout_s=timeout_s)
            finally:
                await direct.aclose()
        outcome = "reply"
    except Exception as exc:
        outcome = type(exc).__name__ + ":" + str(getattr(exc, "status_code", ""))
    # VmHWM is this process's own peak: ru_maxrss would keep the peak of the (large) test process it was forked from
    peak_kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
    print(json.dumps({"outcome": outcome, "seconds": time.monotonic() - started, "peak_mb": peak_kb // 1024}))

asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
"""


def _call(server: HostileServer, transport: str, timeout_s: float) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CALL, server.base_url, transport, str(timeout_s)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("transport", ["direct", "litellm"])
@pytest.mark.parametrize("mode", ["big", "endless"])
def test_a_huge_or_endless_body_ends_at_the_cap_in_bounded_memory(mode: str, transport: str) -> None:
    with HostileServer(mode) as server:
        result = _call(server, transport, 60)
    print(mode, transport, result)
    assert result["outcome"].startswith("LLMReplyTooLargeError"), result
    assert result["peak_mb"] < LIMIT_MB and result["seconds"] < 30, result


@pytest.mark.parametrize("transport", ["direct", "litellm"])
def test_a_body_of_one_byte_a_second_ends_at_the_total_deadline(transport: str) -> None:
    with HostileServer("trickle") as server:
        result = _call(server, transport, 3)
    print("trickle", transport, result)
    assert "Timeout" in result["outcome"] and 2.5 < result["seconds"] < 8, result


@pytest.mark.parametrize("transport", ["direct", "litellm"])
def test_a_reply_without_choices_is_a_malformed_body_on_both_transports(transport: str) -> None:
    with HostileServer("no-choices") as server:
        result = _call(server, transport, 10)
    assert result["outcome"] == "HTTPStatusError:502", result
