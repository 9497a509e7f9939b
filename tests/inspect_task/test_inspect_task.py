"""clarq as an inspect task: `inspect eval clarq_bench/clarq` plays clarq's dialogues (mockllm or the fake server,
no network), scores them with clarq's judge, and `clarq import-inspect` turns its log into a run folder that scores,
and verifies by replay, exactly like the same seeker played by `clarq run`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (pip install 'clarq-bench[inspect]')")

from inspect_helpers import PROVIDER, SEEKER, TASKS, inspect_model, run_inspect
from upstream_paths import UPSTREAM_DATA, needs_upstream

import clarq_bench as clarq
from clarq_bench.cli.main import main
from clarq_bench.core.errors import ClarqError
from clarq_bench.core.run_folder import read_transcripts
from clarq_bench.inspect_task.task import clarq_task
from clarq_bench.leaderboard import build_submission, verify_file, write_submission
from clarq_bench.leaderboard.verify import REPLAYED
from clarq_bench.testing.fake_agents import both_agents
from clarq_bench.testing.fake_openai import FakeOpenAIServer

pytestmark = pytest.mark.timeout(600)
FIGURES = ("success", "aqd", "aql", "aql_tokens", "efficiency")


@pytest.fixture(scope="module")
def fake_server() -> Any:
    """One fake server for the module: inspect memoizes a model with the base URL it first saw, so a second server
    on another port would leave later tests calling a closed one."""
    with FakeOpenAIServer(responder=both_agents(SEEKER, PROVIDER)) as server:
        yield server


@pytest.fixture
def fake_env(fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> FakeOpenAIServer:
    """The fake server both harnesses call: `clarq run` through --api-base, inspect as service FAKE."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake-test")
    monkeypatch.setenv("FAKE_API_KEY", "sk-fake-test")
    monkeypatch.setenv("FAKE_BASE_URL", fake_server.base_url)
    return fake_server


def metrics_of(log: Any) -> dict[str, dict[str, float]]:
    return {score.name: {key: metric.value for key, metric in score.metrics.items()} for score in log.results.scores}


def test_mockllm_plays_every_sample_task_to_the_turn_cap(tmp_path: Path) -> None:
    log = run_inspect(tmp_path / "logs", lang="all", max_turns=3)
    assert log.status == "success" and len(log.samples) == 16
    for sample in log.samples:
        roles = [message.role for message in sample.messages]
        # the dialogue as inspect shows it: the brief, then provider (user) and seeker (assistant) turns alternating
        assert roles == ["system", "user", "assistant", "user", "assistant", "user", "assistant"]
        assert sample.messages[2].text == "Default output from mockllm/model"
        score = sample.scores["clarq_judge"]
        assert score.metadata["end_reason"] == "turn_cap" and score.value["success"] == 0.0
        assert sample.metadata["language"] in ("en", "zh") and sample.metadata["task_id"] in sample.id
    metrics = metrics_of(log)
    assert set(FIGURES) <= set(metrics)
    assert {
        "mean",
        "stderr",
        "clarq_bench/by_language_en",
        "clarq_bench/by_language_zh",
        "clarq_bench/by_type_1",
    } <= set(metrics["success"])


@pytest.mark.parametrize(
    "provider,mode,selection",
    [
        ("offline", "completion", {"lang": "all"}),
        ("llm", "chat", {"lang": "en", "limit": 3}),
    ],
)
def test_a_scripted_seeker_gives_the_same_dialogues_and_figures_both_ways(
    provider: str,
    mode: str,
    selection: dict[str, Any],
    fake_env: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The same scripted models on the same server: clarq run and inspect eval must say the same words."""
    clarq_provider = "offline" if provider == "offline" else PROVIDER
    ran = clarq.run(
        seeker=SEEKER,
        seeker_mode=mode,
        provider=clarq_provider,
        tasks=TASKS,
        **selection,
        api_base=fake_env.base_url,
        runs_dir=tmp_path / "runs",
        no_cache=True,
        no_progress=True,
    )
    roles = {"provider": inspect_model(PROVIDER)} if provider == "llm" else None
    log = run_inspect(
        tmp_path / "logs", model=inspect_model(SEEKER), model_roles=roles, provider=provider, mode=mode, **selection
    )
    assert log.status == "success"
    assert main(["import-inspect", str(log.location), "-o", str(tmp_path / "imported"), "--no-plots"]) == 0
    assert "dialogues written to" in capsys.readouterr().err

    played = {t.key: t for t in read_transcripts(ran.run_dir / "transcripts.jsonl")}
    imported = {t.key: t for t in read_transcripts(tmp_path / "imported" / "transcripts.jsonl")}
    assert played.keys() == imported.keys() and len(played) == (16 if selection["lang"] == "all" else 3)
    fields = {"speaker", "text", "kind", "intent", "revealed"}
    for key, transcript in played.items():
        other = imported[key]
        assert [t.model_dump(include=fields) for t in other.turns] == [
            t.model_dump(include=fields) for t in transcript.turns
        ]
        assert (other.end_reason, other.seed, other.task_hash) == (
            transcript.end_reason,
            transcript.seed,
            transcript.task_hash,
        )
    assert any(turn.revealed for t in played.values() for turn in t.turns)  # the dialogues reached the tree

    def figures(run_dir: Path) -> dict[str, Any]:
        summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
        return {
            key: summary[key]
            for key in (
                "success",
                "aqd",
                "aql",
                "aql_tokens",
                "efficiency",
                "by_language",
                "by_type",
                "turn_labels",
                "node_status",
                "end_reasons",
            )
        }

    assert figures(tmp_path / "imported") == figures(ran.run_dir)
    # inspect's own metrics are the same verdicts' means
    summary = json.loads((ran.run_dir / "summary.json").read_text(encoding="utf-8"))
    metrics = metrics_of(log)
    assert metrics["success"]["mean"] == pytest.approx(summary["success"]["value"])
    assert metrics["aqd"]["mean"] == pytest.approx(summary["aqd"]["value"])
    assert metrics["efficiency"]["mean"] == pytest.approx(summary["efficiency"]["value"])  # one figure, one name
    config = json.loads((tmp_path / "imported" / "config.json").read_text(encoding="utf-8"))
    assert config["seeker"]["model"] == inspect_model(SEEKER) and config["provider"]["name"] == provider


def test_the_imported_run_verifies_by_replay_and_an_edit_does_not(fake_env: FakeOpenAIServer, tmp_path: Path) -> None:
    log = run_inspect(tmp_path / "logs", model=inspect_model(SEEKER), lang="en", provider="offline")
    imported, scored = clarq.import_inspect(log.location, tmp_path / "run", plots=False)
    assert scored.summary.dialogues == 8 and imported.skipped == []
    path = write_submission(build_submission(imported.run_dir, partial=True), tmp_path / "sub.json")
    outcome = verify_file(path, TASKS)[1]
    assert outcome.problems == [] and outcome.provenance == REPLAYED

    lines = (imported.run_dir / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    reply = next(turn for turn in record["turns"][2:] if turn["speaker"] == "provider")
    reply["text"] = reply["text"] + " Also, bring a lantern."
    lines[0] = json.dumps(record, ensure_ascii=False)
    (imported.run_dir / "transcripts.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    tampered = write_submission(build_submission(imported.run_dir, partial=True), tmp_path / "bad.json")
    assert verify_file(tampered, TASKS)[1].problems


def test_an_inspect_solver_speaks_for_the_seeker(tmp_path: Path) -> None:
    """-T solver=NAME: the agent keeps its own conversation; its final completion of each turn is the seeker's."""
    from inspect_ai.model import ChatMessageAssistant, ModelOutput
    from inspect_ai.solver import solver

    seen: list[list[str]] = []

    @solver(name="notebook_agent")
    def notebook_agent() -> Any:
        async def solve(state: Any, generate: Any) -> Any:
            seen.append([message.role for message in state.messages])
            asked = sum(message.role == "assistant" for message in state.messages)
            state.messages.append(ChatMessageAssistant(content=f"(thinking {asked})"))  # a scaffold's own step
            text = "Thanks, goodbye!" if asked >= 4 else f"Question {asked}: where exactly should I go?"
            state.output = ModelOutput.from_content(model="agent", content=text)
            state.messages.append(ChatMessageAssistant(content=text))
            return state

        return solve

    log = run_inspect(tmp_path / "logs", lang="en", limit=1, solver="notebook_agent")
    assert log.status == "success" and len(log.samples) == 1
    sample = log.samples[0]
    transcript = sample.store["clarq_transcript"]
    seeker = [turn["text"] for turn in transcript["turns"] if turn["speaker"] == "seeker"]
    assert (
        seeker
        == ["Question 0: where exactly should I go?", "Question 2: where exactly should I go?", "Thanks, goodbye!"]
        and transcript["end_reason"] == "goodbye"
    )
    # the agent saw the brief as system message and each provider reply as a new user message
    assert seen[0] == ["system", "user"]
    assert seen[1] == ["system", "user", "assistant", "assistant", "user"]
    assert [m.role for m in sample.messages][-2:] == ["assistant", "assistant"]  # the agent's own history is kept
    assert transcript["seeker"]["settings"]["options"] == {"solver": "notebook_agent"}


def test_a_replaced_solver_is_explained_not_scored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.solver import generate

    log = inspect_eval(
        clarq_task(tasks=TASKS, types="1"),
        model="mockllm/model",
        solver=generate(),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    assert log.status == "error" or log.samples[0].error is not None
    text = log.error.message if log.error else log.samples[0].error.message
    assert "-T solver=" in text
    assert main(["import-inspect", str(log.location), "--runs-dir", str(tmp_path / "runs")]) == 2
    assert "no sample holds a played dialogue" in capsys.readouterr().err


@pytest.mark.parametrize(
    "options,problem",
    [
        ({"lang": "fr"}, "-T lang=fr is not one of en, zh, all"),
        ({"max_turns": 0}, "at least 1"),
        ({"max_turns": -2}, "at least 1"),
        ({"trials": "1.5"}, "whole number"),
        ({"limit": "many"}, "whole number"),
        ({"mode": "agent"}, "-T mode=agent"),
        ({"provider": "gpt-4o"}, "-T provider"),
        ({"judge": "gpt-4o"}, "-T judge"),
        ({"seed": "x"}, "-T seed=x"),
    ],
)
def test_bad_task_options_fail_with_one_line(options: dict[str, Any], problem: str) -> None:
    with pytest.raises(ClarqError, match=problem.replace("(", r"\(")):
        clarq_task(tasks=TASKS, **options)


def test_task_options_select_as_clarq_run_does() -> None:
    task = clarq_task(tasks=TASKS, lang="all", trials=2, max_turns=1)
    ids = [sample.id for sample in task.dataset]
    assert len(ids) == 32 and len(set(ids)) == 32 and "en/01/0#1" in ids
    spread = clarq_task(tasks=TASKS, lang="en", limit=3)
    assert len({sample.metadata["type"] for sample in spread.dataset}) == 3  # spread over types, not the first 3


def test_import_inspect_refuses_what_is_not_a_clarq_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample

    assert main(["import-inspect", str(tmp_path / "missing.eval")]) == 2
    assert "no such eval log" in capsys.readouterr().err
    junk = tmp_path / "junk.eval"
    junk.write_bytes(b"PK\x03\x04 not really a zip")
    assert main(["import-inspect", str(junk)]) == 2
    assert "not a readable inspect eval log" in capsys.readouterr().err
    other = inspect_eval(
        Task(dataset=[Sample(input="hi", target="x")]),
        model="mockllm/model",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    assert main(["import-inspect", str(other.location), "--runs-dir", str(tmp_path / "runs")]) == 2
    err = capsys.readouterr().err
    assert "not a log of the clarq_bench/clarq task" in err and err.count("\n") == 1


def test_import_inspect_never_overwrites_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = run_inspect(tmp_path / "logs", lang="en", types="1", max_turns=2)
    assert main(["import-inspect", str(log.location), "-o", str(tmp_path / "run"), "--no-plots"]) == 0
    before = (tmp_path / "run" / "transcripts.jsonl").read_bytes()
    assert main(["import-inspect", str(log.location), "-o", str(tmp_path / "run")]) == 2
    assert "already holds transcripts" in capsys.readouterr().err
    assert (tmp_path / "run" / "transcripts.jsonl").read_bytes() == before


@needs_upstream
def test_a_slice_of_the_released_tasks_plays_through_inspect(tmp_path: Path) -> None:
    log = run_inspect(tmp_path / "logs", tasks=str(UPSTREAM_DATA), lang="all", limit=12, max_turns=2)
    assert log.status == "success" and len(log.samples) == 12
    assert len({sample.metadata["type"] for sample in log.samples}) >= 6  # spread over the types
    assert all(sample.store["clarq_transcript"]["end_reason"] == "turn_cap" for sample in log.samples)
    _imported, scored = clarq.import_inspect(log.location, tmp_path / "run", plots=False)
    assert scored.summary.dialogues == 12 and sum(scored.summary.languages.values()) == 12


def test_the_entry_point_is_declared() -> None:
    """inspect finds `clarq_bench/clarq` through the `inspect_ai` entry point named after the package."""
    from importlib.metadata import entry_points

    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.entry-points.inspect_ai]\nclarq_bench = "clarq_bench.inspect_task.registry"\n' in text
    installed = [ep.value for ep in entry_points(group="inspect_ai") if ep.name == "clarq_bench"]
    assert installed in ([], ["clarq_bench.inspect_task.registry"])  # [] only in a venv installed before it existed
