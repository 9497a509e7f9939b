"""`clarq provider-audit`: the red-team suite, floor, heuristic and ceiling against a provider, offline and LLM."""

from __future__ import annotations

import json

import pytest
from upstream_paths import UPSTREAM_DATA, needs_upstream

from clarq_bench.cli.main import main
from clarq_bench.fidelity.audit import audit, default_strategies, tabulate
from clarq_bench.seekers.registry import REDTEAM
from clarq_bench.testing.fake_openai import FakeOpenAIServer


def test_default_strategies_are_floor_red_team_enumeration_heuristic_ceiling():
    from clarq_bench.fidelity.audit import role_of, target_of
    from clarq_bench.seekers.registry import ENUMERATION

    names = default_strategies()
    assert names[0] == "no-question" and names[-2:] == ["heuristic", "oracle"]
    assert names[1:-2] == list(REDTEAM) + list(ENUMERATION)
    assert {role_of(name) for name in ENUMERATION} == {"enumeration"}
    assert all(target_of(name) is None for name in ENUMERATION) and target_of("red-echo") == 0.20


def test_the_audit_of_the_sample_tasks_has_floor_below_ceiling():
    from runner_helpers import make_task

    tasks = [make_task(i) for i in range(3)]
    report = audit(tasks, provider="offline", strategies=["no-question", "red-content-free", "oracle"], workers=1)
    floor, ceiling = report.row("no-question", "en"), report.row("oracle", "en")
    assert floor.success.value == 0 and floor.questions == 0
    assert ceiling.success.value > 0.5 and ceiling.nodes_per_question.value > 0.5
    assert report.row("red-content-free", "en").questions == 3 * 10  # 12 turns: opening, 10 answered, 1 unanswered
    assert report.tasks == {"en": 3} and report.skipped == 0


@needs_upstream
def test_cli_audit_end_to_end_offline_table_and_json(capsys):
    args = ["provider-audit", "--provider", "offline", "--data", str(UPSTREAM_DATA), "--types", "14"]
    played = ["no-question", "red-keyword-one", "red-option-spray", "heuristic", "oracle"]
    assert main([*args, "--json", "--strategies", ",".join(played)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["languages"] == ["en", "zh"] and report["tasks"] == {"en": 10, "zh": 10}
    assert report["types"] == [14] and report["provider_mode"] == "single"
    rows = {(row["strategy"], row["language"]): row for row in report["rows"]}
    assert list(rows) == [(name, lang) for lang in ("en", "zh") for name in played]
    assert rows[("red-option-spray", "en")]["role"] == "red-team" and rows[("heuristic", "zh")]["role"] == "reference"
    assert rows[("red-option-spray", "en")]["target"] == 0.10 and rows[("oracle", "en")]["target"] is None
    spray = rows[("red-option-spray", "en")]
    assert spray["over_target"] == (spray["success"]["value"] > 0.10) and not rows[("oracle", "en")]["over_target"]
    for lang in ("en", "zh"):
        assert rows[("no-question", lang)]["success"]["value"] == 0
        assert rows[("oracle", lang)]["success"]["value"] >= 0.8  # the ceiling (any provider worth auditing)
        assert all(row["dialogues"] == 10 and row["errors"] == 0 for row in rows.values())
        low, high = rows[("heuristic", lang)]["success"]["low"], rows[("heuristic", lang)]["success"]["high"]
        assert low <= rows[("heuristic", lang)]["success"]["value"] <= high
    assert (
        main(
            [
                *args,
                "--lang",
                "zh",
                "--provider-mode",
                "multi-info",
                "--strategies",
                "no-question,red-echo,oracle",
                "--workers",
                "1",
            ]
        )
        == 0
    )
    table = capsys.readouterr().out
    assert "provider audit: offline (multi-info), types 14 (zh 10 tasks)" in table
    assert all(name in table for name in ("no-question", "red-echo", "oracle", "floor", "ceiling"))
    assert " en " not in table


def test_unknown_strategy_is_one_line(capsys):
    assert main(["provider-audit", "--strategies", "red-nothing", "--tasks", "tasks"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown seeker 'red-nothing'" in err[0]


def test_an_attacker_of_your_own_is_played_by_import_path(tmp_path, monkeypatch, capsys):
    """`--strategies package.module:Class` plays your own attack seeker beside the shipped ones; a path that names
    nothing is one line before anything is played."""
    (tmp_path / "my_attacks.py").write_text(
        "from clarq_bench.seekers.baselines import opening, seeker_turn_count\n"
        "class AskWhere:\n"
        "    def __init__(self, task, config=None):\n"
        "        self.task = task\n"
        "    async def respond(self, view):\n"
        "        return opening(self.task) if seeker_turn_count(view) == 0 else 'Where do I go?'\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["provider-audit", "--tasks", "tasks", "--lang", "en", "--types", "1-5", "--workers", "1", "--json"]
    assert main([*args, "--strategies", "no-question,my_attacks:AskWhere"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {row["strategy"] for row in rows} == {"no-question", "my_attacks:AskWhere"}
    assert main([*args, "--strategies", "my_attacks:Nothing"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'my_attacks' has no attribute 'Nothing'" in err[0]


def responder(body: dict) -> str:
    """JSON requests get a gate/turn decision revealing node 1 when offered; plain ones a bland reply."""
    prompt = str(body["messages"][-1]["content"])
    if (body.get("response_format") or {}).get("type") in ("json_object", "json_schema") or '"intent"' in prompt:
        return json.dumps(
            {"related": True, "intent": 6, "node_ids": [], "summary_confirmation": False, "rationale": "vague"}
        )
    return "Just go on as you are."


@pytest.fixture
def keyed(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)


def test_cli_audit_against_the_llm_provider_on_the_fake_server(keyed, tmp_path, capsys):
    from runner_helpers import write_task_folder

    data = write_task_folder(tmp_path, 2)
    with FakeOpenAIServer(responder=responder) as server:
        code = main(
            [
                "provider-audit",
                "--provider",
                "openai/fake-jax",
                "--tasks",
                str(data),
                "--types",
                "1",
                "--lang",
                "en",
                "--strategies",
                "no-question,red-content-free,red-keyword-one",
                "--max-turns",
                "3",
                "--api-base",
                server.base_url,
                "--no-cache",
                "--json",
            ]
        )
        bodies = server.requests
    assert server.base_url.startswith("http://127.0.0.1:")
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["model"] == "openai/fake-jax" and report["usage"]["calls"] == len(bodies) > 0
    rows = {row["strategy"]: row for row in report["rows"]}
    assert set(rows) == {"no-question", "red-content-free", "red-keyword-one"}
    assert all(row["errors"] == 0 and row["dialogues"] == 2 for row in rows.values())
    assert rows["red-keyword-one"]["success"]["value"] == 0  # the model never revealed anything
    assert rows["red-content-free"]["questions"] == 2  # opening, one answered question, one cut by the cap
    assert all(body["temperature"] == 0 and body["seed"] == 8848 for body in bodies)


def test_cli_audit_of_a_hosted_model_without_key_fails_before_starting(monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["provider-audit", "--provider", "gpt-4o", "--tasks", "tasks"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "OPENAI_API_KEY" in err[0]


def test_tabulate_skips_missing_rows():
    assert tabulate([], ["oracle"], ["en"]) == []


def test_a_provider_that_reveals_to_anything_is_caught(tmp_path, capsys):
    """The tests' tree walker answers every turn with the next node: every red-team strategy wins on it."""
    from runner_helpers import write_task_folder

    data = write_task_folder(tmp_path, 2)
    assert (
        main(
            [
                "provider-audit",
                "--provider",
                "runner_helpers:TreeWalkingProvider",
                "--tasks",
                str(data),
                "--types",
                "1",
                "--strategies",
                "no-question,red-content-free,red-injection,oracle",
                "--json",
            ]
        )
        == 0
    )
    rows = {row["strategy"]: row for row in json.loads(capsys.readouterr().out)["rows"]}
    assert rows["no-question"]["success"]["value"] == 0
    assert rows["red-content-free"]["success"]["value"] == rows["red-injection"]["success"]["value"] == 1
    assert all(rows[name]["target"] == 0.10 for name in ("red-content-free", "red-injection"))


def test_cli_audit_plays_the_llm_provider_in_the_reading_asked(keyed, tmp_path, capsys):
    from runner_helpers import proposing_provider, write_task_folder

    data = write_task_folder(tmp_path, 2)
    reports = {}
    with FakeOpenAIServer(responder=proposing_provider) as server:
        for reading in ("model", "strict"):
            code = main(
                [
                    "provider-audit",
                    "--provider",
                    "openai/fake-jax",
                    "--provider-reading",
                    reading,
                    "--tasks",
                    str(data),
                    "--types",
                    "1",
                    "--lang",
                    "en",
                    "--strategies",
                    "red-content-free",
                    "--max-turns",
                    "3",
                    "--api-base",
                    server.base_url,
                    "--no-cache",
                    "--json",
                ]
            )
            assert code == 0
            reports[reading] = json.loads(capsys.readouterr().out)
    assert [reports[r]["provider_reading"] for r in ("model", "strict")] == ["model", "strict"]
    nodes = {r: reports[r]["rows"][0]["nodes_per_question"]["value"] for r in reports}
    assert nodes["model"] > 0 == nodes["strict"]  # the model's choice stands; the strict screen refuses it


def test_cli_audit_refuses_a_reading_for_the_offline_provider(capsys):
    code = main(["provider-audit", "--provider", "offline", "--provider-reading", "strict", "--tasks", "tasks"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--provider-reading" in err[0]
