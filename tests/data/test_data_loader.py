"""The one loader: real upstream data, malformed records, and random input (it loads or raises DataError)."""

import json
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from upstream_paths import UPSTREAM_DATA, needs_upstream

from clarq_bench.core.errors import DataError
from clarq_bench.data.loader import load_task_file, load_tasks, parse_record, strip_speaker
from clarq_bench.data.task_stats import task_stats
from clarq_bench.data.validate import validate_folder

GOOD = {
    "all_response": "Jax: Go to the mill.\nJax: Take the red key.\nJax: The mill is north.\n0\n1\n2",
    "all_response_exaplain": ["which key", "where the mill is"],
    "background_splitted": ["miller", "grind grain", "red key\nblue key", "walk", "mill\nfarm"],
    "background": "You are a miller.",
    "h2h": [],
    "h2h_check": 1,
    "h2l": [],
    "h2l_check": 1,
    "l2l": [],
    "l2l_check": 1,
}


def parse(record, index=0):
    return parse_record(record, source="x.json", index=index, language="en", type_number=1, type_name="Milling")


def test_good_record():
    task = parse(GOOD)
    assert task.id == "en/01/0"
    assert task.tree.root.text == "Go to the mill."
    assert task.tree["1"].explanation == "which key"
    assert task.brief.items == ("red key", "blue key")


def test_placeholder_skipped():
    assert parse({**GOOD, "background": "", "all_response": ""}) is None


def test_dev_record_without_explanations():
    record = {k: v for k, v in GOOD.items() if k != "all_response_exaplain"}
    task = parse_record(record, source="x", index=0, language="en", type_number=28, type_name="Dig")
    assert task.split.value == "dev" and task.tree["1"].explanation is None


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"all_response": "Jax: a\nJax: b\n0"}, "two equal halves"),
        ({"all_response": "Jax: a\nJax: b\n1\n2"}, "no root"),
        ({"all_response": "Jax: a\nJax: b\n0\n1.1", "all_response_exaplain": ["e"]}, "no parent"),
        ({"all_response_exaplain": ["only one"]}, "1 explanations for 2"),
        ({"background_splitted": ["a", "b"]}, "background_splitted"),
        ({"all_response": 7}, "must be a string"),
    ],
)
def test_malformed_records_name_file_and_record(change, problem):
    with pytest.raises(DataError) as info:
        parse({**GOOD, **change}, index=4)
    message = str(info.value)
    assert message.startswith("x.json record 4: ") and problem in message
    assert "\n" not in message


def test_strip_speaker():
    assert strip_speaker("JAX：  hello") == "hello"
    assert strip_speaker("Jax: Jax: twice") == "Jax: twice"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
lines = st.lists(st.sampled_from(["Jax: a", "b", "0", "1", "1.1", "2", "2.1.3", "x", "", "0.1"]), max_size=10)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    record=st.one_of(
        json_values,
        st.fixed_dictionaries(
            {
                "all_response": lines.map("\n".join),
                "background": st.sampled_from(["", "brief", " "]),
                "background_splitted": st.one_of(st.lists(st.text(max_size=5), max_size=6), json_values),
            },
            optional={"all_response_exaplain": st.one_of(st.lists(st.text(max_size=5), max_size=5), json_values)},
        ),
    )
)
def test_random_records_load_or_raise_data_error(record):
    try:
        task = parse(record)
    except DataError as exc:
        assert str(exc).startswith("x.json")
        return
    if task is not None:
        assert task.tree.root.id == "0"
        for node in task.tree.required:
            assert node.parent in task.tree


@settings(max_examples=100)
@given(blob=st.binary(max_size=200))
def test_random_files_load_or_raise_data_error(tmp_path_factory, blob):
    path = tmp_path_factory.mktemp("f") / "1._Random.json"
    path.write_bytes(blob)
    try:
        load_task_file(path, "en")
    except DataError:
        pass


@needs_upstream
def test_upstream_counts():
    stats = task_stats(load_tasks(UPSTREAM_DATA))
    for language in ("en", "zh"):
        row = stats[language]
        assert (row["tasks"], row["test"], row["dev"]) == (310, 260, 50)
        assert (row["required_nodes"], row["required_nodes_test"]) == (1347, 1149)
        assert row["depth"] == {1: 166, 2: 124, 3: 18, 4: 2}


@needs_upstream
def test_upstream_sibling_order_and_parallel_languages():
    tasks = {t.id: t for t in load_tasks(UPSTREAM_DATA)}
    assert tasks["en/03/3"].tree.required_ids == ["1", "1.1", "1.1.1", "1.1.2", "2"]
    for task_id, task in tasks.items():
        if task.language == "en":
            assert tasks["zh" + task_id[2:]].tree.required_ids == task.tree.required_ids


@needs_upstream
def test_validate_names_broken_file(tmp_path):
    shutil.copytree(UPSTREAM_DATA / "English", tmp_path / "English")
    assert validate_folder(tmp_path).problems == []
    broken = tmp_path / "English" / "5._Construction_Task.json"
    records = json.loads(broken.read_text())
    records[2]["all_response"] += "\n3"
    broken.write_text(json.dumps(records))
    report = validate_folder(tmp_path)
    assert len(report.problems) == 1
    assert "5._Construction_Task.json record 2" in report.problems[0]
