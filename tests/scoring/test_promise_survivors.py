"""Tests for mutants that survived the issue-32 mutation sample (tools/mutate.py --seed 32): each pins a promise
the suite only touched in passing.

- the one provider rule refuses an LLM provider with no model (a one-line error) when a run is made ready, as well
  as via the CLI;
- replay skips dialogues other checks already failed, and dialogues whose task is not in the data, without a line;
- the judge's own calls are named with their model when unpriced (their dollars are unknown, not zero);
- the printed score table has its value [95% CI] column;
- scoring a run whose dialogue's task is not in the data is a one-line error naming the task;
- the dialogue loop takes a turn of exactly 100,000 characters (README) and refuses 100,001.
The rest of that sample (ranks 3-4, run on later code) added: a dialogue the budget cuts after the seeker spoke is
recorded; turn_cap means exactly the cap of seeker turns; a data folder recorded relative to the run; compare names
a released file's provider mode and takes a one-dialogue file; agent options in another order are the same config;
the seal counts the edits it does not list; a JSON submission over 512 MiB is refused unread; plots run from 0 to 1.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from leaderboard_runs import make_run, sample_tasks, scripted_transcript
from runner_helpers import make_task

from clarq_bench.core.errors import ClarqError
from clarq_bench.core.run_config import AgentSettings
from clarq_bench.core.transcript import Usage


def test_an_llm_provider_without_a_model_is_refused_when_the_run_is_made_ready(tmp_path: Path) -> None:
    from clarq_bench.core.run_config import RunConfig
    from clarq_bench.runner.prepared import ready

    config = RunConfig(seeker=AgentSettings(name="heuristic"), provider=AgentSettings(name="llm"))
    with pytest.raises(ClarqError, match="the llm provider needs a model"):
        ready(config, [make_task()], None, tmp_path / "run")


def test_replay_leaves_out_dialogues_already_failed_and_tasks_not_in_the_data(tmp_path: Path) -> None:
    from clarq_bench.leaderboard import build_submission
    from clarq_bench.leaderboard.replay import replay_all
    from clarq_bench.leaderboard.schema import dialogue_key

    sub = build_submission(make_run(tmp_path / "run"))
    manifest = sub.manifest.model_copy(
        update={"provider": sub.manifest.provider.model_copy(update={"name": "offline"})}
    )
    tasks = {task.id: task for task in sample_tasks()}
    first = sub.transcripts[0]
    transcripts = [first]  # a scripted provider's dialogue: the offline provider replies otherwise
    key = dialogue_key(first.task_id, first.trial)
    found = replay_all(transcripts, tasks, manifest, skip=set())
    assert len(found) == 1 and found[0].startswith(f"dialogue {key} turn ")
    assert replay_all(transcripts, tasks, manifest, skip={key}) == []
    assert replay_all(transcripts, {k: v for k, v in tasks.items() if k != first.task_id}, manifest, skip=set()) == []


def test_the_judges_unpriced_calls_are_named_with_the_judges_model() -> None:
    from clarq_bench.scoring.metrics import run_usage

    transcript = scripted_transcript(sample_tasks()[0])
    judged = run_usage([transcript], judge=Usage(prompt_tokens=50, completion_tokens=5, calls=2), judge_model="judge-m")
    assert judged.unpriced == {"judge": "judge-m"} and judged.by_role["judge"].calls == 2
    unnamed = run_usage([transcript], judge=Usage(prompt_tokens=50, calls=1))
    assert unnamed.unpriced == {"judge": "?"}


def test_the_printed_score_table_has_its_interval_column() -> None:
    from rich.console import Console

    from clarq_bench.scoring.judge import judge_deterministic
    from clarq_bench.scoring.metrics import summarize
    from clarq_bench.scoring.report import print_table

    task = sample_tasks()[0]
    summary = summarize([judge_deterministic(scripted_transcript(task), task)], resamples=20)
    out = io.StringIO()
    print_table(summary, Console(file=out, width=120))
    header = next(line for line in out.getvalue().splitlines() if "figure" in line)
    assert "value [95% CI]" in header and header.index("figure") < header.index("value [95% CI]")


def test_scoring_a_run_whose_task_is_not_in_the_data_names_the_task(tmp_path: Path) -> None:
    from leaderboard_runs import write_run

    from clarq_bench.scoring.sources import load_run

    stray = make_task(index=99)  # en/01/99: no such task in the sample data the run's config names
    assert stray.id not in {task.id for task in sample_tasks()}
    run = write_run(tmp_path / "run", [scripted_transcript(stray)], [stray])
    with pytest.raises(ClarqError, match=r"task en/01/99 of .* is not in "):
        load_run(run)


README_MAX_TURN = 100_000  # README: a reply "more than 100,000 characters" is a bad reply


def test_a_turn_of_exactly_the_readme_limit_is_taken_and_one_more_character_is_not() -> None:
    from clarq_bench.runner.dialogue import BadReply, checked_text

    assert checked_text("a" * README_MAX_TURN, "seeker") == "a" * README_MAX_TURN
    with pytest.raises(BadReply, match="100,001 characters"):
        checked_text("a" * (README_MAX_TURN + 1), "seeker")


def test_a_run_config_records_the_cache_setting_the_llm_client_uses_by_default() -> None:
    """RunConfig.use_cache is only recorded (config.json); the client decides. The two defaults must agree, or an
    API-built run would record "no cache" for calls the client answered from its cache."""
    from clarq_bench.core.run_config import RunConfig
    from clarq_bench.llm import LLMSettings

    config = RunConfig(seeker=AgentSettings(name="heuristic"), provider=AgentSettings(name="offline"))
    assert config.use_cache is LLMSettings().use_cache is True


def test_an_unsealed_submission_gets_the_one_line_that_says_so(tmp_path: Path) -> None:
    """Not a flood of "edited after packing" lines for every dialogue: one line naming the cause and the fix."""
    from clarq_bench.leaderboard import build_submission
    from clarq_bench.leaderboard.seal import check_seal

    sub = build_submission(make_run(tmp_path / "run"))
    assert check_seal(sub) == []
    unsealed = sub.model_copy(update={"manifest": sub.manifest.model_copy(update={"content_hash": ""})})
    assert check_seal(unsealed) == ["the submission is not sealed (no content_hash): rebuild it with `clarq submit`"]


def test_without_litellm_there_is_no_bundled_table(monkeypatch) -> None:
    import importlib.util

    from clarq_bench.scoring import lengths

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "litellm" else real(name, *a))
    assert lengths._bundled_table_dir() is None


def rules_problem(root_text: str, root_revealed: list[str]) -> str | None:
    from test_mutation_kills_guards import dialogue

    from clarq_bench.leaderboard.rules import check_rules

    transcript = dialogue("1")
    turns = list(transcript.turns)
    turns[2] = turns[2].model_copy(update={"text": root_text, "revealed": root_revealed})
    return check_rules(transcript.model_copy(update={"turns": turns}), make_task(), single=True, max_turns=None)


def test_a_root_reply_must_carry_the_root_text_and_reveal_only_the_root() -> None:
    root = make_task().tree.root.text
    assert rules_problem(root, ["0"]) is None
    wrong_text = rules_problem(root + " Also stun the monsters.", ["0"])
    wrong_ids = rules_problem(root, ["0", "1"])
    assert wrong_text is not None and wrong_text.startswith("dialogue en/01/0#0 turn 2:")
    assert wrong_ids is not None and wrong_ids.startswith("dialogue en/01/0#0 turn 2:")


def test_released_aql_over_english_and_chinese_dialogues_together_is_not_measured() -> None:
    from clarq_bench.scoring.judge import judge_deterministic
    from clarq_bench.scoring.metrics import aql_figure

    by_language = {task.language: task for task in sample_tasks()}
    openings = {"en": "Hello, how do I do this?", "zh": "你好，我该怎么完成这个任务？"}
    verdicts = [
        judge_deterministic(scripted_transcript(task, opening=openings[task.language]), task)
        for task in by_language.values()
    ]
    assert sorted(v.aql_language for v in verdicts) == ["en", "zh"]
    mixed = aql_figure(verdicts, resamples=20)
    assert mixed.value is None and "released units differ" in (mixed.note or "")
    assert aql_figure(verdicts[:1], resamples=20).value is not None


def test_the_llm_judge_asks_with_the_benchmarks_one_default_seed() -> None:
    """Every seeded figure defaults to 8848 (README: --seed default 8848); the judge's node check too, so a
    rescoring asks the same requests (and hits the same cache entries) as the first scoring."""
    import asyncio

    from clarq_bench.scoring.judge_llm import NodeCheckReply, llm_node_check
    from clarq_bench.scoring.stats import DEFAULT_SEED

    asked: list[dict] = []

    class Completion:
        parsed = NodeCheckReply(carried=True)

    class Client:
        async def complete(self, messages, **kwargs):
            asked.append(kwargs)
            return Completion()

    check = llm_node_check(Client(), "judge-m")  # type: ignore[arg-type]
    assert asyncio.run(check("Stun the monsters first.", ["You must stun them."], "en")) is True
    Completion.parsed = {"carried": False, "turn": None, "reason": "not said"}  # a client that hands back plain JSON
    assert asyncio.run(check("Stun the monsters first.", ["Hello."], "en")) is False
    assert DEFAULT_SEED == 8848 and asked[0]["seed"] == 8848 and asked[0]["temperature"] == 0.0
    assert asked[0]["role"] == "judge" and asked[0]["model"] == "judge-m"


def test_compare_refuses_one_task_id_naming_different_task_content() -> None:
    """Paired on task content: a side played on other data must be refused, not quietly paired by position."""
    from clarq_bench.scoring.comparison import pair_verdicts
    from clarq_bench.scoring.judge import judge_deterministic

    task = sample_tasks()[0]
    verdict = judge_deterministic(scripted_transcript(task), task)
    key = (verdict.task_id, verdict.trial)
    pairs, on, _, _ = pair_verdicts([verdict], [verdict], {key: "h1"}, {key: "h1"})
    assert len(pairs) == 1 and on == "task content and trial"
    with pytest.raises(ClarqError, match="played on different task content"):
        pair_verdicts([verdict], [verdict], {key: "h1"}, {key: "h2"})


def test_a_released_dialogue_becomes_one_turn_per_line_alternating_from_the_provider() -> None:
    """The released convention: lines alternate provider / seeker from Jax's greeting; the provider line after the
    greeting is the root; later provider lines reveal the nodes they carry. Nothing is added or doubled."""
    from clarq_bench.core.transcript import ReplyKind, Speaker
    from clarq_bench.data.upstream import ReleasedDialogue
    from clarq_bench.scoring.score_import import transcript_from_released

    task = make_task()
    lines = [
        "what can help you?",
        "How do I get rubies?",
        task.tree.root.text,
        "Any monsters?",
        task.tree["1"].text,
        "Thanks, goodbye!",
    ]
    transcript = transcript_from_released(ReleasedDialogue(task=task, lines=lines, source="x/Comp.En.json"))
    assert [turn.text for turn in transcript.turns] == lines
    assert [turn.speaker for turn in transcript.turns] == [Speaker.provider, Speaker.seeker] * 3
    assert [turn.kind for turn in transcript.turns[::2]] == [ReplyKind.greeting, ReplyKind.root, ReplyKind.response_i]
    assert transcript.turns[4].revealed == ["1"]


def test_success_weighted_by_efficiency_refuses_either_negative_count() -> None:
    from clarq_bench.scoring.judge import success_weighted

    assert success_weighted(True, 3, 3) == 1.0 and success_weighted(True, 3, 6) == 0.5
    for human, queries in ((-1, 3), (3, -1)):
        with pytest.raises(ValueError, match="cannot be negative"):
            success_weighted(True, human, queries)


# --- the rest of the seed-32 sample (ranks 3-4), run on the session-7 code: one test per survivor ------------------


async def test_a_dialogue_the_budget_cuts_after_the_seeker_spoke_is_recorded_and_replayed_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """README: dialogues cut by --max-cost are played again on resume; one the seeker already spoke in was played
    (its calls were made and paid), so it is recorded with end reason budget, not dropped as never started."""
    from test_runner import PollBudget, config, tasks

    from clarq_bench.core.run_folder import read_transcripts
    from clarq_bench.core.transcript import EndReason
    from clarq_bench.runner.batch import run_dialogues

    # poll 1: the runner starts dialogue 0; poll 2: its first seeker turn; the provider's reply fails (task 0's
    # first provider turn raises), and the poll after the failed call finds the budget spent
    monkeypatch.setenv("RUNNER_HELPERS_FAIL_TASKS", "0")
    stats = await run_dialogues(config(concurrency=1), tasks(2), tmp_path / "run", client=PollBudget(3))
    assert stats.stopped_for_budget
    [record] = read_transcripts(tmp_path / "run" / "transcripts.jsonl")
    assert record.end_reason == EndReason.budget and [t.speaker.value for t in record.turns] == ["provider", "seeker"]
    monkeypatch.delenv("RUNNER_HELPERS_FAIL_TASKS")
    resumed = await run_dialogues(config(concurrency=1), tasks(2), tmp_path / "run", resume=True)
    assert resumed.done == 2 and not resumed.stopped_for_budget


def test_a_dialogue_ended_by_the_turn_cap_has_exactly_the_cap_of_seeker_turns() -> None:
    """rules.py: the dialogue ends the way its end reason says: turn_cap after exactly max_turns seeker turns."""
    from clarq_bench.core.transcript import EndReason, Speaker, Turn
    from clarq_bench.leaderboard.rules import check_rules

    task = make_task()
    transcript = scripted_transcript(task)
    turns = [*transcript.turns[:-1], Turn(speaker=Speaker.seeker, text="And what comes after that?")]
    capped = transcript.model_copy(update={"turns": turns, "end_reason": EndReason.turn_cap})
    asked = sum(turn.speaker == Speaker.seeker for turn in turns)
    assert check_rules(capped, task, single=True, max_turns=asked) is None
    short = check_rules(capped, task, single=True, max_turns=asked + 1)
    assert short is not None and f"end reason turn_cap after {asked} seeker turns (cap {asked + 1})" in short


def test_a_run_whose_data_folder_is_recorded_relative_to_the_run_scores_from_anywhere(tmp_path: Path, monkeypatch):
    """A run folder moved together with its tasks: the recorded data folder is read beside the run, not only
    relative to wherever `clarq score` is started."""
    import json
    import os

    from upstream_paths import SAMPLE_TASKS

    from clarq_bench.scoring.sources import load_run

    run = make_run(tmp_path / "runs" / "a")
    config_path = run / "config.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config["data_dir"] = os.path.relpath(SAMPLE_TASKS, run)
    config_path.write_text(json.dumps(config), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere" / "two" / "levels" / "deeper"  # from here the recorded path leads nowhere
    elsewhere.mkdir(parents=True)
    assert not (elsewhere / config["data_dir"]).resolve().exists()
    monkeypatch.chdir(elsewhere)
    assert len(load_run(run).pairs) == len(sample_tasks())


def test_compare_names_the_provider_mode_of_released_files_and_takes_a_one_dialogue_file(tmp_path: Path, capsys):
    """README: sides of another provider mode are refused in one line naming what differs (a released file's mode
    is read from its name); a released file of one dialogue is compared like any other."""
    import json

    from upstream_paths import UPSTREAM_RESULTS, needs_upstream  # noqa: F401

    from clarq_bench.cli.main import main

    single = UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json"
    multi = UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_multi_info_provider.Comp.En.json"
    if not single.is_file() or not multi.is_file():
        pytest.skip("the released GPT-4o results are not installed")
    assert main(["compare", str(single), str(multi), "--resamples", "50"]) == 2
    assert "(provider mode: single -> multi)" in capsys.readouterr().err
    released = json.loads(single.read_text(encoding="utf-8"))
    one = tmp_path / single.name
    one.write_text(json.dumps([[released[0][0]]] + [[] for _ in released[1:]]), encoding="utf-8")
    assert main(["compare", str(one), str(one), "--json", "--resamples", "50"]) == 0
    assert json.loads(capsys.readouterr().out)["pairs"] == 1


def test_the_same_agent_options_in_another_order_are_the_same_configuration() -> None:
    """README: --resume refuses a changed configuration; options given in another order change nothing."""
    from clarq_bench.core.run_config import RunConfig, diff_configs

    def run(options: dict) -> RunConfig:
        return RunConfig(
            seeker=AgentSettings(name="heuristic", options=options), provider=AgentSettings(name="offline")
        )

    first, second = run({"lines": "How?", "style": "terse"}), run({"style": "terse", "lines": "How?"})
    assert diff_configs(first, second) == [] and first.config_hash() == second.config_hash()
    assert run({"lines": "Why?", "style": "terse"}).config_hash() != first.config_hash()


def test_the_seal_counts_the_edits_it_does_not_list(tmp_path: Path) -> None:
    """check_seal lists at most a dozen edits and says how many more there are: all of them, exactly."""
    from clarq_bench.leaderboard import build_submission
    from clarq_bench.leaderboard.seal import check_seal

    sub = build_submission(make_run(tmp_path / "run"))
    emptied = sub.model_copy(update={"transcripts": []})  # every sealed dialogue removed after packing
    found = check_seal(emptied)
    shown = [line for line in found if line.endswith("sealed but absent (removed after packing)")]
    assert found[-1] == f"... and {len(sample_tasks()) - len(shown)} more edits after packing"
    assert len(shown) + int(found[-1].split()[2]) == len(sample_tasks()) == 16


def test_a_single_json_submission_over_512_mib_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """safety.py: absurd sizes are refused before reading (a single-JSON submission over 512 MiB; honest ones are a
    few MB). The file is sparse: nothing is written or read."""
    from clarq_bench.leaderboard.safety import read_json_text

    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(512 * 1024 * 1024 + 1)
    with pytest.raises(ClarqError, match=r"unsafe submission: 536870913 bytes \(limit"):
        read_json_text(path)


def test_success_bars_are_drawn_on_a_zero_to_one_axis(tmp_path: Path, monkeypatch) -> None:
    """report.md's plots show success rates: the axis runs from 0 to 1, so a bar's height is the rate."""
    from clarq_bench.scoring import bar_chart
    from clarq_bench.scoring.judge import judge_deterministic
    from clarq_bench.scoring.metrics import summarize
    from clarq_bench.scoring.report import write_plots

    tasks = sample_tasks()[:4]
    transcripts = [scripted_transcript(task, drop=i % 2) for i, task in enumerate(tasks)]
    summary = summarize([judge_deterministic(t, task) for t, task in zip(transcripts, tasks)], resamples=20)
    limits = []
    real_save = bar_chart.Chart.save

    def save(chart, path):
        limits.append(chart.value_range)
        return real_save(chart, path)

    monkeypatch.setattr(bar_chart.Chart, "save", save)
    write_plots(summary, tmp_path)
    assert len(limits) == 2 and all(low == 0 and high == 1 for low, high in limits)


def test_a_bar_is_as_long_as_its_rate(tmp_path: Path) -> None:
    """On the drawn image, a bar of rate 0.5 reaches half as far as a bar of rate 1 (both charts' orientations)."""
    from clarq_bench.scoring.bar_chart import Bar, Chart

    for horizontal in (False, True):
        chart = Chart((5, 4), "t", "rate", "kind", horizontal=horizontal, span=(-0.6, 2.6))
        chart.bars = [Bar(0, 1.0), Bar(1, 0.5), Bar(2, 0.0)]
        image = chart.draw()
        blue = [[image.getpixel((x, y)) == (0x4C, 0x72, 0xB0) for x in range(image.width)] for y in range(image.height)]
        if horizontal:
            rows = [sum(row) for row in blue if any(row)]
            lengths = sorted(set(rows))
        else:
            lengths = sorted({sum(blue[y][x] for y in range(image.height)) for x in range(image.width)} - {0})
        assert len(lengths) == 2 and abs(lengths[0] / lengths[1] - 0.5) < 0.02, lengths
