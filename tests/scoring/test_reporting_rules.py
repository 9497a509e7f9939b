"""Issue 16: released AQL exactly as published, replay marked as scripted, figures that cannot mislead.

One test per reporting rule: the length rule strips turns, a replay records where it diverged and its report says so,
released AQL units never mix across languages, one interval per figure and slice, every n says what it counts,
what cannot be measured says n/a, `--split all` reports each split, `--limit` spreads over the selected types.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from scoring_helpers import make_task, make_transcript, perfect_turns
from upstream_paths import UPSTREAM_DATA, UPSTREAM_RESULTS, needs_results, needs_upstream

from clarq_bench.core.transcript import Transcript
from clarq_bench.scoring.judge import judge_deterministic
from clarq_bench.scoring.lengths import released_length
from clarq_bench.scoring.metrics import summarize
from clarq_bench.scoring.report import headline_rows, markdown, print_table
from clarq_bench.scoring.score_import import import_released

needs_data = needs_upstream
COMP_EN = "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json"
COMP_CH = "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.Ch.json"


def test_released_length_strips_the_turn_first():
    assert released_length("  Where is the cave?\n\n", "en") == 3
    assert released_length("\n 洞穴在哪里？ \n\n", "zh") == 6


@needs_results
def test_blank_lines_after_seeker_turns_leave_released_aql_unchanged(tmp_path):
    records = json.loads((UPSTREAM_RESULTS / COMP_EN).read_text(encoding="utf-8"))
    for record in (r for per_type in records for r in per_type):
        dialogue = record.get("l2l") or []
        if dialogue and isinstance(dialogue[0], list):
            dialogue[0] = [line + "\n\n " if i % 2 else line for i, line in enumerate(dialogue[0])]
    padded = tmp_path / COMP_EN
    padded.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    verdicts = [judge_deterministic(t, task) for t, task in import_released(padded)]
    tests = [v for v in verdicts if v.split == "test"]
    assert round(sum(v.aql for v in tests) / len(tests), 4) == 70.4906


@pytest.fixture(scope="module")
def en_zh():
    pairs = import_released(UPSTREAM_RESULTS / COMP_EN) + import_released(UPSTREAM_RESULTS / COMP_CH)
    verdicts = [judge_deterministic(t, task) for t, task in pairs]
    return summarize([v for v in verdicts if v.split == "test"], source="en+zh", split="test", resamples=200)


@needs_results
def test_released_aql_is_never_averaged_across_languages(en_zh):
    assert en_zh.aql.value is None and "per-language" in (en_zh.aql.note or "")
    assert en_zh.aql_tokens.value is not None  # the cross-language headline is the token unit
    by_lang = {g.key: g for g in en_zh.by_language}
    assert round(by_lang["lang=en"].aql.value, 4) == 70.4906
    assert round(by_lang["lang=zh"].aql.value, 4) == 129.8562
    rows = {label: value for label, value, _ in headline_rows(en_zh)}
    assert rows["AQL (released units)"].startswith("n/a")


@needs_results
def test_terminal_tables_of_an_en_zh_run_show_each_figure_once(en_zh):
    out = io.StringIO()
    from rich.console import Console

    print_table(en_zh, Console(file=out, width=80))
    text = out.getvalue()
    assert "per language" in text and "n/a" in text
    assert "520 dialogues" in text and "questions" in text  # every n says what it counts


@needs_results
def test_one_interval_per_figure_and_slice():
    verdicts = [judge_deterministic(t, task) for t, task in import_released(UPSTREAM_RESULTS / COMP_EN)]
    summary = summarize([v for v in verdicts if v.split == "test"], resamples=200)
    (english,) = summary.by_language
    for name in ("success", "aqd", "aql", "aql_tokens"):
        assert getattr(summary, name) == getattr(english, name), name
    out = io.StringIO()
    from rich.console import Console

    print_table(summary, Console(file=out, width=120))
    assert "per language" not in out.getvalue()  # one language: the slice is the headline, not shown twice


@needs_results
def test_unclassified_turns_make_redundancy_not_measured():
    verdicts = [judge_deterministic(t, task) for t, task in import_released(UPSTREAM_RESULTS / COMP_EN)]
    summary = summarize(verdicts, resamples=50)
    assert summary.redundancy_rate.value is None
    rows = {label: (value, n) for label, value, n in headline_rows(summary)}
    assert rows["Redundancy rate"][0].startswith("n/a") and rows["Redundancy rate"][1] == "–"
    assert rows["Elicitation precision"][1].endswith("questions")


def test_every_n_names_what_it_counts():
    task = make_task()
    summary = summarize([judge_deterministic(make_transcript(task, perfect_turns()), task)], resamples=20)
    counted = [n for _, _, n in headline_rows(summary)]
    assert all(n == "–" or n.split()[1] in {"dialogues", "questions", "tasks"} for n in counted), counted
    assert "| slice | dialogues |" in markdown(summary)


def test_split_all_reports_each_split():
    test_task, dev_task = make_task(type_number=1), make_task(type_number=27)
    verdicts = [judge_deterministic(make_transcript(t, perfect_turns()), t) for t in (test_task, dev_task)]
    summary = summarize(verdicts, split="all", resamples=20)
    assert [g.key for g in summary.by_split] == ["split=dev", "split=test"]
    text = markdown(summary)
    assert "## By split" in text and "dev 1, test 1" in text


def test_transcripts_without_the_replay_record_still_load():
    task = make_task()
    old = make_transcript(task, perfect_turns()).model_dump(mode="json")
    assert "scripted" not in old  # a non-replay transcript dumps exactly as before the field existed
    assert Transcript.model_validate(old).scripted is None


@needs_results
@needs_data
def test_replay_run_records_divergence_and_reports_it(tmp_path, capsys):
    """All 260 English replays (~8 s of CPU): the README's "N of 260 English replays ... diverge" is pinned exactly."""
    import re

    from doc_text import DOCS as readme  # README.md and docs/

    from clarq_bench.cli.main import main

    promised = re.search(r"(\d+) of (\d+) English replays of the released Comp\.En file diverge", readme)
    assert promised is not None, "README no longer states how many English replays diverge"
    code = main(
        [
            "run",
            "--seeker",
            "replay",
            "--replay",
            str(UPSTREAM_RESULTS / COMP_EN),
            "--provider",
            "offline",
            "--data",
            str(UPSTREAM_DATA),
            "--lang",
            "en",
            "--runs-dir",
            str(tmp_path),
            "--no-progress",
        ]
    )
    assert code == 0
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    lines = (run_dir / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()
    records = [Transcript.model_validate_json(line) for line in lines]
    assert all(r.scripted is not None and r.scripted.compared >= 1 for r in records)
    diverged = [r for r in records if r.scripted.diverged_at is not None]
    assert (len(diverged), len(records)) == (int(promised.group(1)), int(promised.group(2)))
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    assert "(scripted replay)" in report and "in sync" in report and "diverged at seeker turn" in report
    summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    assert sum(summary["scripted"]["diverged_at"].values()) == len(diverged)
    assert "scripted replay" in capsys.readouterr().out
    assert (run_dir / "success_by_type.png").is_file()  # `clarq run` writes the plots the README promises


def test_limit_spreads_over_the_selected_types():
    from clarq_bench.data.selection import compact_ranges, spread_limit

    tasks = [make_task(type_number=t, index=i) for t in range(1, 27) for i in range(10)]
    chosen = spread_limit(tasks, 40, 8848)
    assert len(chosen) == 40 and len({t.type_number for t in chosen}) == 26
    assert chosen == spread_limit(tasks, 40, 8848) and chosen != spread_limit(tasks, 40, 1)
    assert {t.type_number for t in spread_limit(tasks, 5, 8848)} != {1, 2, 3, 4, 5}
    narrowed = spread_limit([t for t in tasks if t.type_number in (3, 5)], 4, 8848)
    assert sorted(t.type_number for t in narrowed) == [3, 3, 5, 5]
    assert compact_ranges([1, 2, 3, 7, 9, 10]) == "1-3,7,9-10"


@needs_data
def test_oracle_questions_never_carry_node_text_and_are_distinct():
    from clarq_bench.data.loader import load_tasks
    from clarq_bench.data.textmatch import carries_node
    from clarq_bench.seekers.oracle import oracle_path, oracle_script

    for language in ("en", "zh"):
        for task in load_tasks(UPSTREAM_DATA, (language,)):
            questions = oracle_script(task)
            assert len(set(questions)) == len(questions), task.id
            for node_id, question in zip(oracle_path(task), questions, strict=True):
                assert not carries_node(question, task.tree[node_id].text, language), (task.id, node_id)


def test_usage_per_role_in_summary_and_report():
    from clarq_bench.core.transcript import AgentInfo, Usage
    from clarq_bench.scoring.metrics import run_usage

    task = make_task()
    transcript = make_transcript(task, perfect_turns())
    transcript.seeker = AgentInfo(name="llm", model="openai/no-price-model")
    transcript.usage = {
        "seeker": Usage(prompt_tokens=100, completion_tokens=20, calls=3, cached_calls=2),
        "provider": Usage(prompt_tokens=50, completion_tokens=5, cost_usd=0.25, calls=4),
    }
    usage = run_usage([transcript, transcript])
    assert usage.by_role["seeker"].calls == 6 and usage.by_role["seeker"].cached_calls == 4
    assert usage.total.cost_usd == 0.5 and usage.unpriced == {"seeker": "openai/no-price-model"}
    summary = summarize([judge_deterministic(transcript, task)], resamples=20, usage=usage)
    text = markdown(summary)
    assert "## Usage" in text and "served from cache" in text and "openai/no-price-model" in text
    assert "| seeker | 6 | 4 | 200 | 40 | unknown |" in text
    assert summary.model_dump(mode="json")["usage"]["by_role"]["provider"]["cost_usd"] == 0.5


def test_max_cost_refuses_a_model_without_a_price(tmp_path, monkeypatch, capsys):
    from clarq_bench.cli.main import main
    from clarq_bench.runner.prepare import unpriced_models

    assert unpriced_models([("seeker", "openai/no-such-model-anywhere"), ("provider", "gpt-4o")]) == [
        ("seeker", "openai/no-such-model-anywhere")
    ]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    tasks = Path(__file__).resolve().parents[2] / "tasks"
    argv = [
        "run",
        "--tasks",
        str(tasks),
        "--seeker",
        "openai/no-such-model-anywhere",
        "--provider",
        "offline",
        "--max-cost",
        "1",
        "--runs-dir",
        str(tmp_path),
        "--no-progress",
        "--limit",
        "1",
    ]
    assert main(argv) == 2
    *notes, error = capsys.readouterr().err.strip().splitlines()
    assert error.startswith("clarq: error: --max-cost cannot work") and "--allow-unpriced" in error
    assert notes and "--limit 1: 1 tasks of types" in notes[0]  # --limit says which types it took


@needs_results
def test_provider_eval_table_fits_80_columns_without_collapsing(capsys, monkeypatch):
    from clarq_bench.cli.main import main

    monkeypatch.setenv("COLUMNS", "80")
    assert main(["provider-eval", "--provider", "offline", "--dialogues", str(UPSTREAM_RESULTS / COMP_EN)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert not any("…" in line for line in lines)
    assert any(line.count("%") == 6 for line in lines)  # every figure column shown in full


@needs_data
def test_run_of_split_all_reports_dev_and_test_apart(tmp_path, capsys):
    from clarq_bench.cli.main import main

    code = main(
        [
            "run",
            "--data",
            str(UPSTREAM_DATA),
            "--split",
            "all",
            "--types",
            "26-27",
            "--seeker",
            "heuristic",
            "--provider",
            "offline",
            "--runs-dir",
            str(tmp_path),
            "--no-progress",
        ]
    )
    assert code == 0
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    assert summary["split"] == "all" and summary["dialogues"] == 20
    assert [(g["key"], g["dialogues"]) for g in summary["by_split"]] == [("split=dev", 10), ("split=test", 10)]
    assert "## By split" in (run_dir / "report.md").read_text(encoding="utf-8")
    assert "per split" in capsys.readouterr().out
