"""The LLM provider's reading: by default its model decides (the paper's provider), within the tree's constraints only;
`strict` lays the offline provider's reading over it and still refuses what it refused. The reading is a recorded
setting: refused for other providers, split on compare and on the leaderboard."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import test_provider_screen as screen_cases
from test_llm_provider import Recorder, decision, dialogue, make_task

from clarq_bench.core.errors import ClarqError
from clarq_bench.core.transcript import AgentInfo, Intent, ReplyKind
from clarq_bench.leaderboard.boards import Setting, reading_of
from clarq_bench.llm import LLMClient, LLMSettings
from clarq_bench.provider.llm_provider import LLMProvider
from clarq_bench.provider.registry import resolve_provider
from clarq_bench.scoring.settings_diff import provider_reading, setting_conflicts
from clarq_bench.testing import ScriptedModel

MODEL = "scripted/jax"


def provider(recorder: Recorder, reading: str | None = None, mode: str = "single") -> LLMProvider:
    client = LLMClient(LLMSettings(use_cache=False), scripted={MODEL: ScriptedModel(recorder)})
    options = {} if reading is None else {"reading": reading}
    return LLMProvider(make_task("en"), client, model=MODEL, mode=mode, **options)


def screen_provider(
    language: str, recorder: screen_cases.Recorder, reading: str | None, mode: str = "single"
) -> LLMProvider:
    client = LLMClient(LLMSettings(use_cache=False), scripted={MODEL: ScriptedModel(recorder)})
    options = {} if reading is None else {"reading": reading}
    return LLMProvider(screen_cases.make_task(language), client, model=MODEL, mode=mode, **options)


@pytest.mark.asyncio
@pytest.mark.parametrize("language", ["en", "zh"])
async def test_a_spray_the_strict_screen_answers_unasked_is_the_models_to_decide_by_default(language: str) -> None:
    task = screen_cases.make_task(language)
    turns = screen_cases.after_root(task, last=screen_cases.SPRAYS[language][0])
    strict = screen_cases.Recorder()  # any call would fail: the strict screen answers without the model
    turn = await screen_provider(language, strict, "strict").respond(turns)
    assert strict.calls == 0 and turn.revealed == [] and turn.notes["screen"] == "spray"
    chosen = screen_cases.Recorder({"intent": 2, "node_ids": ["1"], "summary_confirmation": False, "rationale": "x"})
    turn = await screen_provider(language, chosen, None).respond(turns)
    assert chosen.calls == 1 and turn.revealed == ["1"] and "screen" not in turn.notes
    assert turn.notes["reading"] == "model"


@pytest.mark.asyncio
@pytest.mark.parametrize("language", ["en", "zh"])
async def test_a_repeat_the_strict_reading_refuses_is_revealed_when_the_model_chooses_it(language: str) -> None:
    chosen = {"intent": 2, "node_ids": ["1.1"], "summary_confirmation": False, "rationale": "asked again"}
    task = screen_cases.make_task(language)
    question = screen_cases.REAL[language][0]
    turns = screen_cases.after_root(task, (question, "1"), last=question)
    strict = await screen_provider(language, screen_cases.Recorder(chosen, "As I said."), "strict").respond(turns)
    assert strict.revealed == [] and strict.notes["screened_ids"] == ["1.1"] and strict.intent == Intent.repeat
    default = await screen_provider(language, screen_cases.Recorder(chosen), None).respond(turns)
    assert default.revealed == ["1.1"] and default.kind == ReplyKind.response_i


@pytest.mark.asyncio
async def test_multi_info_reveals_every_frontier_node_the_model_chose_unless_strict() -> None:
    both = {"intent": 2, "node_ids": ["1", "2"], "summary_confirmation": False, "rationale": "both"}
    turns = screen_cases.after_root(screen_cases.make_task("en"), last="Which gem does Henry need?")
    strict = await screen_provider("en", screen_cases.Recorder(both), "strict", "multi-info").respond(turns)
    default = await screen_provider("en", screen_cases.Recorder(both), None, "multi-info").respond(turns)
    assert strict.revealed == ["1"] and default.revealed == ["1", "2"]


@pytest.mark.asyncio
async def test_the_tree_still_binds_the_default_reading() -> None:
    """Frontier order and one node a turn in single-info; a child before its parent and unknown ids are refused."""
    turn = await provider(Recorder(decision(2, "2", "1"))).respond(dialogue("Which mine, and how past the guards?"))
    assert turn.revealed == ["1"] and turn.notes["dropped_ids"] == ["2"]  # the first in the frontier's order
    turn = await provider(Recorder(decision(2, "1.1", "9"), "Just focus on the mine.")).respond(
        dialogue("Where is the fog?")
    )
    assert turn.revealed == [] and turn.notes["refused_ids"] == ["1.1", "9"]
    turn = await provider(Recorder(decision(6, "2"), "Just focus on the mine.")).respond(dialogue("Anything else?"))
    assert turn.revealed == [] and turn.intent == Intent.vague  # only intents 2 and 3 release a node


def test_a_reading_is_an_llm_providers_setting_only() -> None:
    assert resolve_provider("gpt-4o").reading(None) == "model"
    assert resolve_provider("gpt-4o").reading({"reading": "strict"}) == "strict"
    assert resolve_provider("offline").reading(None) is None
    with pytest.raises(ClarqError, match="applies to an LLM provider"):
        resolve_provider("offline").reading({"reading": "strict"})
    with pytest.raises(ClarqError, match="unknown provider reading"):
        resolve_provider("gpt-4o").reading({"reading": "lenient"})
    with pytest.raises(ValueError):
        provider(Recorder(), "lenient")


def _side(settings: dict, name: str = "gpt-4o") -> SimpleNamespace:
    """A scored side without a run folder: its settings are the first transcript's agents."""
    agent = AgentInfo(name=name, settings=settings)
    first = SimpleNamespace(seeker=AgentInfo(name="heuristic"), provider=agent)
    return SimpleNamespace(run_dir=None, pairs=[(first, None)], name=name)


def test_compare_refuses_sides_played_in_different_readings() -> None:
    model, strict = (
        _side({"name": "gpt-4o", "options": {"reading": "model"}}),
        _side({"name": "gpt-4o", "options": {"reading": "strict"}}),
    )
    unrecorded = _side({"name": "gpt-4o"})
    released = _side({"source": "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json"}, "released-gpt-4o")
    assert setting_conflicts(model, strict) == ["provider reading: model -> strict"]
    assert setting_conflicts(unrecorded, model) == ["provider reading: unrecorded -> model"]
    assert not [c for c in setting_conflicts(released, model) if c.startswith("provider reading")]
    assert provider_reading({}, "offline") is None


def _entry(run_config: dict) -> SimpleNamespace:
    return SimpleNamespace(manifest=SimpleNamespace(run_config=run_config, provider=AgentInfo(name="gpt-4o")))


def test_the_leaderboard_gives_each_reading_its_own_board() -> None:
    readings = [
        reading_of(_entry({"provider": {"name": "gpt-4o", "options": {"reading": r}}})) for r in ("model", "strict")
    ] + [reading_of(_entry({"provider": {"name": "gpt-4o"}}))]
    assert readings == ["model", "strict", "unrecorded"]
    assert reading_of(_entry({"provider": {"name": "offline"}})) is None
    settings = [
        Setting(
            kind="benchmark",
            digest="d",
            tasks=130,
            split="test",
            provider="gpt-4o-2024-05-13",
            mode="single",
            max_turns=12,
            reading=r,
        )
        for r in readings
    ]
    assert [s.standard for s in settings] == [True, False, False]
    assert len(set(settings)) == 3  # three boards
    assert "strict reading" in settings[1].title() and "reading unrecorded" in settings[2].title()
    assert "reading" not in settings[0].title()


def _reading_run(tmp_path, name: str, config_reading: str, played: str):  # type: ignore[no-untyped-def]
    from leaderboard_runs import sample_tasks, scripted_transcript, write_run

    tasks = sample_tasks(("en",))
    transcripts = []
    for task in tasks:
        transcript = scripted_transcript(task, provider="gpt-4o")
        for turn in transcript.turns:
            if turn.speaker.value == "provider":
                turn.notes["reading"] = played
        transcripts.append(transcript)
    provider = {"name": "gpt-4o", "model": None, "mode": "single", "options": {"reading": config_reading}}
    return write_run(tmp_path / name, transcripts, tasks, provider=provider)


def test_a_strict_run_is_not_the_standard_setting_and_a_relabelled_one_is_caught(tmp_path) -> None:
    from clarq_bench.leaderboard import build_submission, verify_file, write_submission
    from clarq_bench.leaderboard.schema import Label

    model = build_submission(_reading_run(tmp_path, "model", "model", "model"))
    assert model.manifest.label == Label.standard
    strict = build_submission(_reading_run(tmp_path, "strict", "strict", "strict"))
    assert strict.manifest.label == Label.custom
    assert strict.manifest.label_reasons == ["provider reading strict (standard: model)"]
    forged = build_submission(_reading_run(tmp_path, "forged", "model", "strict"))  # played strict, labelled model
    from upstream_paths import SAMPLE_TASKS

    found = verify_file(write_submission(forged, tmp_path / "forged.json"), str(SAMPLE_TASKS))[1].problems
    assert any("the provider played in reading ['strict'], not the run config's 'model'" in line for line in found)


@pytest.mark.parametrize("flag, reading", [((), "model"), (("--provider-reading", "strict"), "strict")])
def test_clarq_run_shows_and_records_the_reading(tmp_path, monkeypatch, capsys, flag, reading) -> None:
    import json as jsonlib

    from upstream_paths import SAMPLE_TASKS

    from clarq_bench.cli.main import main
    from clarq_bench.testing.fake_openai import FakeOpenAIServer

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    def answer(body: dict) -> str:
        prompt = str(body["messages"][-1]["content"])
        if '"related"' in prompt:
            return jsonlib.dumps({"related": True, "rationale": "asks for help"})
        if '"intent"' in prompt:
            return jsonlib.dumps({"intent": 6, "node_ids": [], "rationale": "vague"})
        return "Just keep going."

    with FakeOpenAIServer(responder=answer) as server:
        code = main(
            [
                "run",
                "--provider",
                "openai/fake-jax",
                "--api-base",
                server.base_url,
                "--tasks",
                str(SAMPLE_TASKS),
                "--lang",
                "en",
                "--limit",
                "1",
                "--max-turns",
                "2",
                "--runs-dir",
                str(tmp_path / "runs"),
                "--no-progress",
                "--no-cache",
                *flag,
            ]
        )
    err = capsys.readouterr().err
    assert code == 0, err
    assert f"provider: openai/fake-jax, single-info, {reading} reading" in err
    (run_dir,) = (tmp_path / "runs").iterdir()
    config = jsonlib.loads((run_dir / "config.json").read_text(encoding="utf-8"))
    assert config["provider"]["options"]["reading"] == reading
    transcript = jsonlib.loads((run_dir / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()[0])
    played = {turn["notes"].get("reading") for turn in transcript["turns"][1:] if turn["speaker"] == "provider"}
    assert played == {reading}


def test_the_default_reading_loads_no_lexical_reader() -> None:
    """The default LLM provider reads nothing lexical, so it loads none of the reader's modules (their patterns cost a
    run's first dialogue a share of a second to compile); a strict provider loads them when it is built."""
    import subprocess
    import sys

    reader = ["clarq_bench.provider.answering", "clarq_bench.provider.focus", "clarq_bench.provider.screen"]
    script = (
        "import sys\n"
        "from clarq_bench.provider.llm_provider import LLMProvider\n"
        "from clarq_bench.provider.strict_reading import StrictReading\n"
        f"print([m for m in {reader!r} if m in sys.modules])\n"
        "from clarq_bench.provider.base import ProviderMode\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from test_llm_provider import make_task\n"
        "StrictReading(make_task('en'), ProviderMode.single)\n"
        f"print([m for m in {reader!r} if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    before, after = done.stdout.splitlines()
    assert before == "[]"
    assert "clarq_bench.provider.focus" in after and "clarq_bench.provider.screen" in after
