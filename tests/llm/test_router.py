"""--router: pools of deployments behind one model name, against several fake servers on 127.0.0.1.

The load follows the weights, a failing deployment is cooled down and its calls are served by the others, fallbacks
take over a pool with nothing left, nothing is lost or paid twice, and each turn records the deployment that served
it. The file is checked with one-line errors, and keys stay in the environment.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.core.transcript import EndReason
from clarq_bench.llm import LLMClient, LLMSettings
from clarq_bench.llm.router_file import load_router_file
from clarq_bench.testing.fake_agents import both_agents
from clarq_bench.testing.fake_openai import FakeOpenAIServer

REPO = Path(__file__).resolve().parents[2]
HELLO = [{"role": "user", "content": "Say hello."}]
SECRET = "sk-router-pool-secret-51c0ffee"


def write_router(path: Path, deployments: list[dict], **settings: object) -> Path:
    """A router file (JSON is valid YAML)."""
    path.write_text(json.dumps({"model_list": deployments, "router_settings": settings}), encoding="utf-8")
    return path


def deployment(name: str, server: FakeOpenAIServer, ident: str, model: str = "openai/m", **params: object) -> dict:
    return {
        "model_name": name,
        "litellm_params": {"model": model, "api_base": server.base_url, **params},
        "model_info": {"id": ident},
    }


def servers(stack: ExitStack, count: int, **options: object) -> list[FakeOpenAIServer]:
    return [stack.enter_context(FakeOpenAIServer(**options)) for _ in range(count)]


def client_for(router: Path, tmp_path: Path, **settings: object) -> LLMClient:
    return LLMClient(LLMSettings(router_file=router, use_cache=False, cache_path=tmp_path / "c.sqlite3", **settings))


async def many(client: LLMClient, model: str, count: int, width: int = 24) -> list:
    gate = asyncio.Semaphore(width)

    async def one(i: int):
        async with gate:
            return await client.complete([{"role": "user", "content": f"call {i}"}], model=model)

    try:
        return await asyncio.gather(*(one(i) for i in range(count)))
    finally:
        await client.aclose()


# ---- the file ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content, expected",
    [
        ("model_list: [", "is not valid YAML"),
        ("- just a list", "expected a mapping with model_list"),
        ("model_list: []", "model_list: List should have at least 1 item"),
        (
            'model_list: [{model_name: a, litellm_params: {model: openai/m, api_key: "sk-literal-123"}}]',
            "model_list.0.litellm_params.api_key: Value error, must be os.environ/VARIABLE",
        ),
        (
            "model_list: [{model_name: a, litellm_params: {model: openai/m, api_base: 'not a url'}}]",
            "model_list.0.litellm_params.api_base: Value error, not a URL",
        ),
        (
            "model_list: [{model_name: a, litellm_params: {model: openai/m}}]\nrouter_settings: {routing_strategy: "
            "least-busy}",
            "router_settings.routing_strategy: Input should be 'simple-shuffle'",
        ),
        (
            "model_list: [{model_name: a, litellm_params: {model: openai/m}, model_info: {id: x}},"
            " {model_name: b, litellm_params: {model: openai/m}, model_info: {id: x}}]",
            "deployment id 'x' is used twice",
        ),
        (
            "model_list: [{model_name: a, litellm_params: {model: openai/m}}]\nrouter_settings: {fallbacks: [{a: [zz]}]}",
            "fallback names 'zz'",
        ),
        (
            "model_list: [{model_name: a, litellm_params: {model: openai/m}}]\nrouter_settings: {retries: 3}",
            "router_settings.retries: Extra inputs are not permitted",
        ),
    ],
)
def test_a_bad_router_file_is_one_line_naming_the_file_and_field(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "router.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ClarqError) as caught:
        load_router_file(path)
    message = str(caught.value)
    assert message.startswith(f"--router {path}") and expected in message and "\n" not in message


def test_a_missing_router_file_is_a_usage_error_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    code = main(
        [
            "run",
            "--seeker",
            "llm",
            "--seeker-model",
            "pool",
            "--provider",
            "offline",
            "--router",
            str(tmp_path / "nope.yaml"),
            "--tasks",
            str(REPO / "tasks"),
            "--runs-dir",
            str(tmp_path),
            "--no-progress",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "nope.yaml: cannot read it" in err and "Traceback" not in err


def test_identity_hashes_the_deployment_list_not_keys_or_spellings(tmp_path: Path) -> None:
    def identity(base: str, weight: float, key: str) -> str:
        path = write_router(
            tmp_path / "r.yaml",
            [
                {
                    "model_name": "pool",
                    "litellm_params": {
                        "model": "openai/m",
                        "api_base": base,
                        "weight": weight,
                        "api_key": f"os.environ/{key}",
                    },
                }
            ],
        )
        return load_router_file(path).identity("pool")

    same = identity("http://h:8000/v1", 1, "KEY_A")
    assert same.startswith("router:pool:") and len(same.rsplit(":", 1)[1]) == 16
    assert identity("HTTP://H:8000/v1/", 1, "KEY_B") == same  # another key variable, another spelling: same pool
    assert identity("http://h:8001/v1", 1, "KEY_A") != same
    assert identity("http://h:8000/v1", 2, "KEY_A") != same


# ---- routing -----------------------------------------------------------------------------------------------------


CALLS = 3000


async def test_load_follows_the_weights_within_ten_percent(tmp_path: Path) -> None:
    random.seed(7)  # litellm's weighted shuffle draws from `random`
    with ExitStack() as stack:
        pool = servers(stack, 3)
        router = write_router(
            tmp_path / "r.yaml",
            [deployment("pool", s, f"d{i}", weight=w) for i, (s, w) in enumerate(zip(pool, (1, 2, 3)))],
        )
        client = client_for(router, tmp_path)
        with_usage = client.meter
        done = await many(client, "pool", CALLS, width=64)
    assert len(done) == CALLS and all(c.text.startswith("echo: call") for c in done)
    counts = [s.served for s in pool]
    assert sum(counts) == CALLS and all(s.throttled == 0 for s in pool)
    for count, weight in zip(counts, (1, 2, 3)):  # 3000 draws: 10% of the smallest share is 2.5 standard deviations
        expected = CALLS * weight / 6
        assert abs(count - expected) <= 0.1 * expected, counts
    assert with_usage.total.calls == CALLS


async def test_a_failing_deployment_is_cooled_down_and_its_calls_served_elsewhere(tmp_path: Path) -> None:
    with ExitStack() as stack:
        good = servers(stack, 2)
        bad = stack.enter_context(FakeOpenAIServer(failure_rate=1.0))  # every call 429
        router = write_router(
            tmp_path / "r.yaml", [deployment("pool", s, f"d{i}") for i, s in enumerate([*good, bad])], cooldown_time=60
        )
        client = client_for(router, tmp_path)
        done = await many(client, "pool", 90, width=1)
        meter_calls = client.meter.total.calls
    assert len(done) == 90 and all(c.text.startswith("echo:") for c in done)
    assert sum(s.served for s in good) == 90 == meter_calls  # nothing lost, nothing paid twice
    assert bad.hits == 1  # one failure, then cooled down for the rest of the run
    assert min(s.served for s in good) > 20  # both others share the load


async def test_calls_retried_at_once_on_another_deployment_without_backoff(tmp_path: Path, retry_waits) -> None:
    with ExitStack() as stack:
        good = stack.enter_context(FakeOpenAIServer())
        flaky = stack.enter_context(FakeOpenAIServer(failure_rate=1.0))
        router = write_router(
            tmp_path / "r.yaml",
            [deployment("pool", flaky, "flaky", weight=1000), deployment("pool", good, "good", weight=1)],
            allowed_fails=1000,
        )  # never cooled down: every call meets it first
        client = client_for(router, tmp_path)
        with_usage = await many(client, "pool", 20, width=1)
    assert [c.text for c in with_usage] == [f"echo: call {i}" for i in range(20)]
    assert good.served == 20 and retry_waits == []  # the other deployment answered within the same attempt
    assert flaky.throttled == 20 and client.limits.current()["pool"] == 32  # absorbed by the pool: no cut


async def test_fallback_pool_serves_when_the_pool_has_nothing_left(tmp_path: Path) -> None:
    with ExitStack() as stack:
        dead = stack.enter_context(FakeOpenAIServer(failure_rate=1.0))
        backup = stack.enter_context(FakeOpenAIServer())
        router = write_router(
            tmp_path / "r.yaml",
            [deployment("main", dead, "dead"), deployment("backup", backup, "spare")],
            fallbacks=[{"main": ["backup"]}],
            cooldown_time=60,
        )
        client = client_for(router, tmp_path)
        seen = []
        from clarq_bench.llm import track_usage

        with track_usage() as meter:
            done = await many(client, "main", 10, width=1)
        seen = meter.served_by
    # litellm does not cool a pool's only deployment down on a 429 at low traffic: each call tries it, then falls back
    assert len(done) == 10 and backup.served == 10 and 1 <= dead.hits <= 10
    assert seen == ["spare"] * 10


async def test_a_bad_request_is_not_sent_to_other_deployments(tmp_path: Path) -> None:
    from clarq_bench.llm import LLMBadRequestError
    from clarq_bench.testing import error

    with ExitStack() as stack:
        first, second = servers(stack, 2)
        first.push(error(400, message="unknown parameter"))
        second.push(error(400, message="unknown parameter"))
        router = write_router(tmp_path / "r.yaml", [deployment("pool", first, "a"), deployment("pool", second, "b")])
        client = client_for(router, tmp_path)
        with pytest.raises(LLMBadRequestError):
            await client.complete(HELLO, model="pool")
        await client.aclose()
        assert first.hits + second.hits == 1


# ---- a run through the pools -------------------------------------------------------------------------------------


def test_run_records_deployments_per_turn_pools_per_role_and_keeps_keys_off_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOL_KEY", SECRET)
    agents = both_agents("openai/fake-seeker", "openai/fake-provider")
    with ExitStack() as stack:
        seeker_servers = [stack.enter_context(FakeOpenAIServer(responder=agents)) for _ in range(2)]
        provider_server = stack.enter_context(FakeOpenAIServer(responder=agents))
        deployments = [
            deployment("pool/seeker", s, f"seek{i}", model="openai/fake-seeker", api_key="os.environ/POOL_KEY")
            for i, s in enumerate(seeker_servers)
        ]
        deployments.append(deployment("pool/provider", provider_server, "prov", model="openai/fake-provider"))
        router = write_router(tmp_path / "router.yaml", deployments)
        runs, cache = tmp_path / "runs", tmp_path / "cache.sqlite3"
        argv = [
            "run",
            "--seeker",
            "pool/seeker",
            "--provider",
            "pool/provider",
            "--router",
            str(router),
            "--tasks",
            str(REPO / "tasks"),
            "--runs-dir",
            str(runs),
            "--cache",
            str(cache),
            "--no-progress",
        ]
        assert main(argv) == 0
        paid = sum(s.hits for s in [*seeker_servers, provider_server])
        assert main(argv) == 0  # again: every reply from the cache, each still naming its deployment
        assert sum(s.hits for s in [*seeker_servers, provider_server]) == paid
        assert all(s.served > 0 for s in seeker_servers) and provider_server.served > 0
    first, second = sorted(runs.iterdir())
    config = json.loads((first / "config.json").read_text(encoding="utf-8"))
    pools = config["router"]
    assert set(pools) == {"pool/seeker", "pool/provider"}
    assert [d["id"] for d in pools["pool/seeker"]["deployments"]] == ["seek0", "seek1"]
    for run_dir in (first, second):
        for transcript in read_transcripts(run_dir / "transcripts.jsonl"):
            assert transcript.end_reason == EndReason.goodbye
            assert transcript.seeker.endpoint == pools["pool/seeker"]["identity"]
            assert transcript.provider.endpoint == pools["pool/provider"]["identity"]
            for turn in transcript.turns[1:]:
                served = turn.notes["served_by"]
                expected = {"seek0", "seek1"} if turn.speaker.value == "seeker" else {"prov"}
                assert served and set(served) <= expected
    bundle = tmp_path / "pooled.zip"  # a pooled run packs and verifies: its endpoints are the config's pools
    assert main(["submit", str(first), "--name", "Pooled", "--org", "Lab", "-o", str(bundle), "--partial"]) == 0
    assert main(["leaderboard", "verify", str(bundle), "--data", str(REPO / "tasks")]) == 0
    written = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert not any(SECRET.encode() in path.read_bytes() for path in written)


def test_a_pool_key_variable_that_is_not_set_stops_the_run_before_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.delenv("POOL_KEY_UNSET", raising=False)
    router = write_router(
        tmp_path / "router.yaml",
        [
            {
                "model_name": "pool/seeker",
                "litellm_params": {
                    "model": "openai/x",
                    "api_base": "http://127.0.0.1:9/v1",
                    "api_key": "os.environ/POOL_KEY_UNSET",
                },
            }
        ],
    )
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
    assert code == 2 and "POOL_KEY_UNSET" in err and "Traceback" not in err
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


async def test_cache_key_changes_with_the_deployment_list(tmp_path: Path) -> None:
    with FakeOpenAIServer() as server:

        def client(weight: float) -> LLMClient:
            router = write_router(tmp_path / f"r{weight}.yaml", [deployment("pool", server, "d", weight=weight)])
            return LLMClient(LLMSettings(router_file=router, cache_path=tmp_path / "c.sqlite3"))

        for weight, hits in ((1, 1), (1, 1), (2, 2)):
            first = client(weight)
            await first.complete(HELLO, model="pool")
            await first.aclose()
            assert server.hits == hits


#: The README's local servers, as clarq is told about them: (model string, what the server is asked for).
LOCAL_SHAPES = [
    ("hosted_vllm/meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"),  # vLLM, :8000/v1
    ("openai/meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"),  # SGLang, :30000/v1
    ("openai/llama3.1:8b", "llama3.1:8b"),  # Ollama's OpenAI-compatible /v1
    ("openai/local", "local"),  # llama.cpp's llama-server, :8080/v1
]


@pytest.mark.parametrize("model, asked", LOCAL_SHAPES)
async def test_local_servers_are_called_at_their_v1_shapes_directly_and_pooled(
    tmp_path: Path, model: str, asked: str
) -> None:
    with FakeOpenAIServer() as server:
        direct = LLMClient(LLMSettings(api_base=server.base_url, use_cache=False))
        direct.check_credentials([model])  # a local server needs no key
        await direct.complete(HELLO, model=model)
        await direct.aclose()
        router = write_router(tmp_path / "r.yaml", [deployment("gpu-pool", server, "gpu0", model=model)])
        pooled = client_for(router, tmp_path)
        assert pooled.router is not None and pooled.router.missing_keys("gpu-pool") == []
        await pooled.complete(HELLO, model="gpu-pool")
        await pooled.aclose()
        assert [body["model"] for body in server.requests] == [asked, asked]


def test_the_readme_router_example_is_a_valid_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    from doc_text import DOCS as readme  # README.md and docs/

    block = re.search(r"<!-- example:router -->\n```yaml\n(.*?)\n```", readme, re.S)
    assert block, "README has no router example"
    path = tmp_path / "pools.yaml"
    path.write_text(block.group(1), encoding="utf-8")
    spec = load_router_file(path)
    assert spec.names() == ["pool/seeker", "pool/provider", "pool/backup"]
    assert spec.ids()[2:4] == ["gpu1", "gpu2"] and spec.fallbacks_of("pool/provider") == ["pool/backup"]
    from clarq_bench.llm.router_pool import RouterPool

    for name in ("OPENAI_KEY_A", "AZURE_KEY"):
        monkeypatch.delenv(name, raising=False)
    pool = RouterPool(spec)
    assert pool.missing_keys("pool/seeker") == ["OPENAI_KEY_A", "AZURE_KEY"]
    monkeypatch.delenv("OPENAI_KEY_B", raising=False)
    assert pool.missing_keys("pool/provider") == ["OPENAI_KEY_B"]  # its fallback's key counts too


async def test_a_deployments_rpm_paces_its_calls(tmp_path: Path) -> None:
    with FakeOpenAIServer() as server:
        router = write_router(tmp_path / "r.yaml", [deployment("pool", server, "paced", rpm=1200)])  # 50 ms apart
        client = client_for(router, tmp_path)
        started = time.perf_counter()
        await asyncio.gather(*(client.complete([{"role": "user", "content": str(i)}], model="pool") for i in range(6)))
        elapsed = time.perf_counter() - started
        await client.aclose()
    assert server.served == 6 and elapsed >= 0.25  # the sixth start waits five intervals


async def test_json_mode_is_asked_of_a_pool_only_when_all_its_deployments_support_it(tmp_path: Path) -> None:
    from pydantic import BaseModel

    class Answer(BaseModel):
        ok: bool

    with FakeOpenAIServer() as server:
        router = write_router(
            tmp_path / "r.yaml",
            [
                deployment("json-pool", server, "a", model="openai/gpt-4o-2024-05-13"),
                deployment("mixed-pool", server, "b", model="openai/gpt-4o-2024-05-13"),
                deployment("mixed-pool", server, "c", model="openai/gpt-4-0613"),
            ],
        )  # older than JSON mode
        client = client_for(router, tmp_path)
        assert (await client.complete(HELLO, model="json-pool", schema=Answer)).parsed == Answer(ok=True)
        await client.complete(
            [{"role": "user", "content": '{"ok": true} please'}], model="mixed-pool", schema=Answer
        )  # the fake echoes: the reply still parses as JSON
        await client.aclose()
    formats = [body.get("response_format") for body in server.requests]
    assert formats == [{"type": "json_object"}, None]


async def test_a_refusal_of_the_whole_pool_halves_the_models_cap(tmp_path: Path, retry_waits) -> None:
    from clarq_bench.testing import error

    with ExitStack() as stack:
        first, second = servers(stack, 2)
        first.push(error(429))
        second.push(error(429))
        router = write_router(
            tmp_path / "r.yaml", [deployment("pool", first, "a"), deployment("pool", second, "b")], allowed_fails=100
        )
        client = client_for(router, tmp_path)
        completion = await client.complete(HELLO, model="pool")
        await client.aclose()
    assert completion.text == "echo: Say hello." and completion.attempts == 2 and len(retry_waits) == 1
    assert first.hits + second.hits == 3 and client.limits.current()["pool"] == 16
