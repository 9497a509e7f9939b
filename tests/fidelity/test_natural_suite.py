"""The natural-question suite: its files fit their tasks, and the evaluator's pass/fail rule is the one stated."""

from __future__ import annotations

import asyncio
import json

import pytest
from upstream_paths import SAMPLE_TASKS, UPSTREAM_DATA, needs_upstream

from clarq_bench.core.errors import ClarqError
from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import ReplyKind, Speaker, Turn
from clarq_bench.fidelity.natural_suite import (
    FAMILIES,
    MIN_WORDINGS,
    Wording,
    ancestors,
    load_suite,
    passes,
    play,
    report,
    suite_tasks,
    validate,
)
from clarq_bench.provider.base import ProviderTurn


@needs_upstream
@pytest.mark.parametrize("language", ["en", "zh"])
def test_suite_fits_its_tasks(language):
    suite = load_suite([language])
    tasks = suite_tasks([language], UPSTREAM_DATA, SAMPLE_TASKS)
    assert validate(suite, tasks) == []
    assert {source for source, _ in tasks} == {"sample", "released"}
    assert sum(source == "released" for source, _ in tasks) == 20
    assert sum(source == "sample" for source, _ in tasks) == 8
    for (source, task_id), task in tasks.items():  # what validate promises, checked without it
        for node in task.tree.required_ids:
            assert sum(w.key == (source, task_id) and w.node == node for w in suite) >= MIN_WORDINGS
    assert len({w.text for w in suite}) == len(suite), "a wording is repeated"


@needs_upstream
@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_held_out_family_fits_its_tasks_and_shares_none_with_the_tuned_suite(language):
    held_out = load_suite([language], FAMILIES["held-out"])
    tasks = suite_tasks([language], UPSTREAM_DATA, named={w.task for w in held_out})
    assert validate(held_out, tasks) == []
    assert {source for source, _ in tasks} == {"released"} and len(tasks) == 10
    tuned = suite_tasks([language], UPSTREAM_DATA, SAMPLE_TASKS)
    assert not set(tasks) & set(tuned), "a held-out task is also a task of the tuned suite"
    assert len({w.text for w in held_out}) == len(held_out), "a wording is repeated"


def tiny_task() -> Task:
    tree = ResponseTree.build(
        [
            ("0", "Go to the market and buy fruit.", None),
            ("1", "The West Market.", "which"),
            ("1.1", "The stall by the well.", "where"),
            ("2", "Buy apples.", "what"),
        ]
    )
    brief = TaskBrief(
        role="cook",
        task_name="buy fruit",
        items=("Coins",),
        scenes=("East Market", "West Market"),
        background="You play a cook.",
    )
    return Task(
        id="en/01/0", language="en", type_number=1, type_name="T", index=0, split=Split.test, brief=brief, tree=tree
    )


def w(node: str, text: str) -> Wording:
    return Wording(task="en/01/0", source="sample", node=node, path=ancestors(node), style="which", text=text)


class ScriptedProvider:
    """Reveals the ids written after `->` in the seeker's latest turn (`Which market? ->1`), and records prefixes."""

    def __init__(self, task, mode):
        self.mode, self.seen = mode, []

    def greeting(self) -> ProviderTurn:
        return ProviderTurn(text="Hello.", kind=ReplyKind.greeting)

    async def respond(self, turns: list[Turn]) -> ProviderTurn:
        self.seen.append(turns)
        ids = turns[-1].text.partition("->")[2].split(",")
        revealed = [i.strip() for i in ids if i.strip()]
        return ProviderTurn(
            text="...", kind=ReplyKind.response_i if revealed else ReplyKind.response_ii, revealed=revealed
        )


def test_pass_rule_single_and_multi():
    task = tiny_task()
    assert passes(task, "1", ["1"], "single")
    assert not passes(task, "1", [], "single")
    assert not passes(task, "1", ["2"], "single")
    assert not passes(task, "1", ["1", "2"], "single")  # more than the asked node is not what a person gives
    assert passes(task, "1", ["1", "2"], "multi-info") is False  # an unrelated node
    assert passes(task, "1", ["1", "1.1"], "multi-info")  # a detail the answer opens
    assert not passes(task, "1", ["1.1"], "multi-info")
    assert not passes(task, "1", ["10"], "multi-info")  # `10` is not under `1`


def test_play_reports_and_builds_the_prefix():
    task = tiny_task()
    suite = [
        w("1", "Which market? ->1"),
        w("1", "Where is he? ->2"),
        w("1", "Which one? ->"),
        w("1.1", "Where at the market? ->1.1"),
        w("1.1", "Where at the West Market? ->1.1,2"),
        w("2", "What fruit? ->2"),
    ]
    built: list[ScriptedProvider] = []

    def factory(t, mode):
        built.append(ScriptedProvider(t, mode))
        return built[-1]

    outcomes = asyncio.run(play(suite, {("sample", "en/01/0"): task}, factory))
    by = {(o.mode, o.wording.text): o.passed for o in outcomes}
    assert by["single", "Which market? ->1"] and by["multi-info", "Which market? ->1"]
    assert not by["single", "Where is he? ->2"] and not by["single", "Which one? ->"]
    assert by["single", "Where at the market? ->1.1"]
    assert not by["single", "Where at the West Market? ->1.1,2"]
    assert not by["multi-info", "Where at the West Market? ->1.1,2"]
    rep = report(outcomes, "scripted")
    row = rep.row("en", "single", "sample")
    assert (row.wordings, row.passed) == (6, 3)
    assert rep.row("en", "multi-info", "all").passed == 3
    assert len(rep.failures) == 6
    # one provider per task and mode; the prefix of a child: root, the ancestor asked with its first wording and
    # answered by its node text (revealed), then the question
    assert sorted(p.mode for p in built) == ["multi-info", "single"]
    prefix = next(turns for p in built for turns in p.seen if turns[-1].text.startswith("Where at the market"))
    assert [t.speaker for t in prefix] == [
        Speaker.provider,
        Speaker.seeker,
        Speaker.provider,
        Speaker.seeker,
        Speaker.provider,
        Speaker.seeker,
    ]
    assert prefix[2].kind == ReplyKind.root and prefix[2].revealed == ["0"]
    assert prefix[3].text == "Which market? ->1"
    assert prefix[4].text == "The West Market." and prefix[4].revealed == ["1"]


def test_validate_names_each_problem():
    task = tiny_task()
    tasks = {("sample", "en/01/0"): task}
    good = [w(node, f"q{i} {node}") for node in ("1", "1.1", "2") for i in range(3)]
    assert validate(good, tasks) == []
    thin = good[1:]  # node 1 keeps two wordings
    assert any("node 1: 2 wordings" in p for p in validate(thin, tasks))
    ghost = [*good, w("3", "Which?")]
    assert any("node 3: no such" in p for p in validate(ghost, tasks))
    wrong_path = [*good, Wording(task="en/01/0", source="sample", node="1.1", path=(), style="x", text="Where?")]
    assert any("path [] should be ['1']" in p for p in validate(wrong_path, tasks))
    other = [*good, Wording(task="en/02/0", source="released", node="1", path=(), style="x", text="Which?")]
    assert any("not a task of the suite" in p for p in validate(other, tasks))
    assert any("node 0" in p for p in validate([*good, w("0", "Hi?")], tasks))


def test_load_suite_rejects_a_bad_line(tmp_path):
    row = {"task": "en/01/0", "source": "sample", "node": "1", "path": [], "style": "which", "text": "Which?"}
    (tmp_path / "en.jsonl").write_text(json.dumps(row) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(ClarqError, match=r"en\.jsonl:2"):
        load_suite(["en"], tmp_path)
    (tmp_path / "en.jsonl").write_text(json.dumps({**row, "source": "mine"}) + "\n", encoding="utf-8")
    with pytest.raises(ClarqError, match=r"en\.jsonl:1"):
        load_suite(["en"], tmp_path)
    (tmp_path / "en.jsonl").write_text(json.dumps({**row, "task": "zh/01/0"}) + "\n", encoding="utf-8")
    with pytest.raises(ClarqError, match="not a en task"):
        load_suite(["en"], tmp_path)
    with pytest.raises(ClarqError, match="no natural-question suite"):
        load_suite(["zh"], tmp_path)


class SilentProvider:
    """Answers nothing: every wording fails, in every row."""

    def __init__(self, task, settings=None):
        pass

    def greeting(self) -> ProviderTurn:
        return ProviderTurn(text="Hello.", kind=ReplyKind.greeting)

    async def respond(self, turns):
        return ProviderTurn(text="Hm.", kind=ReplyKind.response_ii)


@needs_upstream
def test_cli_json_and_errors(capsys):
    from clarq_bench.cli.main import main

    code = main(
        [
            "natural-eval",
            "--provider",
            "test_natural_suite:SilentProvider",
            "--lang",
            "en",
            "--provider-mode",
            "single",
            "--data",
            str(UPSTREAM_DATA),
            "--json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [(r["mode"], r["source"], r["passed"]) for r in out["rows"]] == [
        ("single", "sample", 0),
        ("single", "released", 0),
        ("single", "all", 0),
    ]
    assert len(out["failures"]) == out["rows"][-1]["wordings"] == len(load_suite(["en"]))
    assert main(["natural-eval", "--data", str(SAMPLE_TASKS / "English")]) == 2  # not a data folder: one line


@needs_upstream
def test_the_documented_natural_figures_are_the_offline_providers():
    from pathlib import Path

    from clarq_bench.fidelity.checks import natural_eval

    doc = (Path(__file__).resolve().parents[2] / "docs" / "providers.md").read_text(encoding="utf-8")
    for column, family in ((1, "tuned"), (2, "held-out")):
        result = natural_eval(lang="all", data=UPSTREAM_DATA, family=family).report
        for language, name in (("en", "English"), ("zh", "Chinese")):
            single, multi = (result.row(language, mode) for mode in ("single", "multi-info"))
            assert single is not None and multi is not None
            line = next(line for line in doc.splitlines() if line.startswith(f"| {name} |"))
            stated = line.strip(" |").split("|")[column].strip()
            assert stated == f"{100 * single.share:.1f}% / {100 * multi.share:.1f}%", (family, language, stated)
