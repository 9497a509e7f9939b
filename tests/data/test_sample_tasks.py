"""The project's own bilingual sample tasks (tasks/English, tasks/Chinese): they load with the upstream loader,
the two languages are parallel, they cover the tree shapes the benchmark code must handle (depths 1-3, siblings
1.1.1/1.1.2, 2-6 required nodes), dev files carry no explanations, and placeholder records are skipped."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from upstream_paths import SAMPLE_TASKS

from clarq_bench.core.tasks import FIRST_DEV_TYPE, Split
from clarq_bench.data.loader import LANGUAGE_FOLDERS, load_task_file, load_tasks, parse_file_name, strip_speaker
from clarq_bench.data.textmatch import carries_node
from clarq_bench.data.validate import validate_folder

#: The keys every upstream record has; `all_response_exaplain` (sic) only in test-split files.
RECORD_KEYS = {
    "all_response",
    "background_splitted",
    "background",
    "h2h",
    "h2h_check",
    "h2l",
    "h2l_check",
    "l2l",
    "l2l_check",
}
EXPLAIN_KEY = "all_response_exaplain"


@pytest.fixture(scope="module")
def by_language() -> dict[str, list]:
    return {language: load_tasks(SAMPLE_TASKS, (language,)) for language in ("en", "zh")}


@pytest.fixture(scope="module")
def pairs(by_language) -> list[tuple]:
    english = {(t.type_number, t.index): t for t in by_language["en"]}
    chinese = {(t.type_number, t.index): t for t in by_language["zh"]}
    assert english.keys() == chinese.keys(), "English and Chinese files must hold the same tasks in the same slots"
    return [(english[key], chinese[key]) for key in sorted(english)]


def _files(language: str) -> list:
    return sorted((SAMPLE_TASKS / LANGUAGE_FOLDERS[language]).glob("*.json"), key=lambda p: parse_file_name(p)[0])


def test_both_languages_load_and_validate(by_language):
    assert len(by_language["en"]) >= 10
    assert len(by_language["en"]) == len(by_language["zh"])
    report = validate_folder(SAMPLE_TASKS)
    assert report.problems == []
    assert report.tasks == len(by_language["en"]) * 2


def test_same_file_names_in_both_folders():
    assert [p.name for p in _files("en")] == [p.name for p in _files("zh")]


def test_same_node_ids_and_briefs_shape_per_task(pairs):
    for english, chinese in pairs:
        assert [n.id for n in english.tree.nodes] == [n.id for n in chinese.tree.nodes], english.id
        assert english.split == chinese.split and english.type_name == chinese.type_name
        for field in ("items", "skills", "scenes"):
            assert len(getattr(english.brief, field)) == len(getattr(chinese.brief, field)), (english.id, field)


def test_tree_shapes_are_covered(by_language):
    for tasks in by_language.values():
        depths = Counter(t.tree.depth for t in tasks)
        assert all(depths[d] >= 2 for d in (1, 2, 3)), depths
        assert all(2 <= t.required_count <= 6 for t in tasks)
        assert {2, 6} <= {t.required_count for t in tasks}
        assert any({"1.1.1", "1.1.2"} <= set(t.tree.required_ids) for t in tasks)
        sibling_task = next(t for t in tasks if "1.1.2" in t.tree)
        assert sibling_task.tree["1.1"].children == ("1.1.1", "1.1.2")


def test_both_splits_present(by_language):
    for tasks in by_language.values():
        splits = Counter(t.split for t in tasks)
        assert splits[Split.test] >= 1 and splits[Split.dev] >= 1
        assert all((t.split == Split.dev) == (t.type_number >= FIRST_DEV_TYPE) for t in tasks)
    dev_only = load_tasks(SAMPLE_TASKS, ("en",), split="dev")
    assert dev_only and all(t.type_number >= FIRST_DEV_TYPE for t in dev_only)


def test_dev_tasks_have_no_explanations(by_language):
    dev = [t for tasks in by_language.values() for t in tasks if t.split == Split.dev]
    assert dev
    assert all(node.explanation is None for t in dev for node in t.tree.nodes)


def test_test_tasks_explain_every_required_node(by_language):
    marker = {"en": "Use this response only if", "zh": "仅当"}
    test = [t for tasks in by_language.values() for t in tasks if t.split == Split.test]
    assert test
    for task in test:
        assert task.tree.root.explanation is None
        for node in task.tree.required:
            assert node.explanation and marker[task.language] in node.explanation, (task.id, node.id)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_raw_records_follow_the_upstream_format(language):
    for path in _files(language):
        type_number, _ = parse_file_name(path)
        records = json.loads(path.read_text(encoding="utf-8"))
        real = [r for r in records if r["background"] != ""]
        for record in records:
            expected = RECORD_KEYS | ({EXPLAIN_KEY} if record["background"] and type_number < FIRST_DEV_TYPE else set())
            assert set(record) == expected, (path.name, sorted(set(record) ^ expected))
            assert record["h2h"] == record["h2l"] == record["l2l"] == []
            assert record["h2h_check"] == record["h2l_check"] == record["l2l_check"] == 1
        for record in real:
            lines = record["all_response"].split("\n")
            half = len(lines) // 2
            assert len(lines) == 2 * half
            assert all(line.startswith("Jax: ") for line in lines[:half])
            assert lines[half] == "0" and all(re.fullmatch(r"\d+(\.\d+)*", i) for i in lines[half:])
            if EXPLAIN_KEY in record:
                assert len(record[EXPLAIN_KEY]) == half - 1
            assert len(record["background_splitted"]) == 5
            for part in record["background_splitted"]:
                assert part in record["background"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_placeholders_are_skipped(language):
    for path in _files(language):
        records = json.loads(path.read_text(encoding="utf-8"))
        placeholders = [i for i, r in enumerate(records) if r["background"] == ""]
        assert placeholders, f"{path.name} has no placeholder record"
        tasks = load_task_file(path, language)
        assert len(tasks) == len(records) - len(placeholders)
        assert {t.index for t in tasks}.isdisjoint(placeholders)
        assert [t.brief.background for t in tasks] == [records[t.index]["background"] for t in tasks]


def _option_names(task) -> list[str]:
    """Listed items/skills/scenes without articles, counters or bracketed restrictions."""
    names = []
    for option in task.brief.items + task.brief.skills + task.brief.scenes:
        option = re.sub(r"\s*[（(].*$", "", option)
        if task.language == "en":
            option = re.sub(r"^(a|an|the|some) ", "", option.lower())
        else:
            option = re.sub(r"^一[个根块支卷匹袋封台箱盘张架本顶把捆罐盒]", "", option)
        names.append(option)
    return names


def test_uncertainties_point_at_listed_options(by_language):
    """Each tree names at least one of the brief's options, so a choice among listed options is really resolved."""
    for tasks in by_language.values():
        for task in tasks:
            names = _option_names(task)
            texts = [n.text.lower() if task.language == "en" else n.text for n in task.tree.required]
            assert any(name in text for name in names for text in texts), task.id


def test_root_is_incomplete_and_nodes_are_distinct(by_language):
    """No line carries another node by the judge's text rule: the root never gives a node away."""
    for tasks in by_language.values():
        for task in tasks:
            for node in task.tree.nodes:
                assert strip_speaker(node.text) == node.text
                for other in task.tree.required:
                    if other.id != node.id:
                        assert not carries_node(node.text, other.text, task.language), (task.id, node.id, other.id)
