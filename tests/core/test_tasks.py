"""The response tree's gating rule: frontier, reveal, numeric order."""

import pytest

from clarq_bench.core.tasks import ResponseTree, node_sort_key, parent_id, split_of_type


def tree(*ids: str) -> ResponseTree:
    return ResponseTree.build(
        (node_id, f"text {node_id}", None if node_id == "0" else f"why {node_id}") for node_id in ids
    )


def test_parent_and_depth():
    assert parent_id("0") is None
    assert parent_id("2") == "0"
    assert parent_id("1.1.2") == "1.1"
    t = tree("0", "1", "1.1", "1.1.1", "1.1.2", "2")
    assert [t[i].depth for i in t.required_ids] == [1, 2, 3, 3, 1]
    assert t.depth == 3
    assert t["1.1"].children == ("1.1.1", "1.1.2")


def test_numeric_order_not_string_order():
    t = tree("0", "10", "2", "1", "1.10", "1.9")
    assert t.required_ids == ["1", "1.9", "1.10", "2", "10"]
    assert node_sort_key("1.10") > node_sort_key("1.9")


def test_frontier_follows_reveals():
    t = tree("0", "1", "1.1", "1.1.1", "1.1.2", "2")
    frontier = t.initial_frontier()
    assert frontier == ["1", "2"]
    frontier = t.reveal(frontier, "1")
    assert frontier == ["1.1", "2"]
    frontier = t.reveal(frontier, "1.1")
    assert frontier == ["1.1.1", "1.1.2", "2"]
    assert t.frontier(["1", "1.1"]) == frontier


def test_child_never_before_parent():
    t = tree("0", "1", "1.1", "2")
    with pytest.raises(ValueError):
        t.reveal(t.initial_frontier(), "1.1")
    assert "1.1" not in t.frontier(["2"])


@pytest.mark.parametrize(
    "ids, message",
    [
        (("1", "2"), "no root"),
        (("0", "1", "1"), "duplicate"),
        (("0", "1.1"), "no parent"),
        (("0", "a"), "malformed"),
        (("0", "1."), "malformed"),
    ],
)
def test_build_rejects_bad_trees(ids, message):
    with pytest.raises(ValueError, match=message):
        tree(*ids)


def test_split_boundary():
    assert split_of_type(26).value == "test"
    assert split_of_type(27).value == "dev"
