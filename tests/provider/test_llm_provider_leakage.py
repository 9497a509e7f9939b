"""The leakage guard's n-gram rule: what counts as giving an unrevealed node away, in English and Chinese."""

from __future__ import annotations

from upstream_paths import UPSTREAM_RESULTS, needs_upstream

from clarq_bench.core.tasks import ResponseTree
from clarq_bench.data.textmatch import carries_node
from clarq_bench.data.upstream import load_released_dialogues
from clarq_bench.provider.leakage import find_leaks, leak_score, ngrams, units

TREE_EN = ResponseTree.build(
    [
        ("0", "Please bring me rubies from the mine.", None),
        ("1", "Dig in the Copper Mine, since the Salt Mine holds no rubies.", None),
        ("2", "Your emissary token is the white jade token.", None),
    ]
)
TREE_ZH = ResponseTree.build(
    [
        ("0", "请帮我从矿井里取回红宝石。", None),
        ("1", "去铜矿挖，盐矿里没有红宝石。", None),
    ]
)


def test_units_and_ngrams():
    assert units("Don't dig, Jax!", "en") == ["don't", "dig", "jax"]
    assert units("去A3号矿井", "zh") == ["去", "a3", "号", "矿", "井"]
    assert ngrams("dig in the mine", "en") == {"dig in the", "in the mine"}
    assert ngrams("去铜矿", "zh") == {"去铜矿"}
    assert ngrams("铜矿", "zh") == {"铜矿"}  # shorter than n: the whole sequence


def test_score_is_share_of_distinctive_ngrams():
    score, shared = leak_score("the copper mine is it", "Dig in the Copper Mine", set(), "en")
    assert shared == ["the copper mine"] and score == 1 / 3
    score, _ = leak_score("the copper mine is it", "Dig in the Copper Mine", {"the copper mine"}, "en")
    assert score == 0.0


def test_english_paraphrase_of_unrevealed_node_is_a_leak():
    hits = find_leaks("Show him the white jade token and he will help.", TREE_EN, ["1"], "en")
    assert [hit.node_id for hit in hits] == ["2"] and hits[0].score >= 0.33


def test_revealed_nodes_and_root_are_not_leaks():
    reply = "Just dig in the Copper Mine, since the Salt Mine holds no rubies, and bring me rubies from the mine."
    assert find_leaks(reply, TREE_EN, ["1"], "en") == []
    assert [hit.node_id for hit in find_leaks(reply, TREE_EN, [], "en")] == ["1"]


def test_already_said_text_is_known():
    reply = "Remember the white jade token."
    assert find_leaks(reply, TREE_EN, [], "en", said=["You have the white jade token with you."]) == []


def test_chinese_character_trigrams():
    assert [hit.node_id for hit in find_leaks("你去铜矿挖吧，盐矿里没有的。", TREE_ZH, [], "zh")] == ["1"]
    assert find_leaks("你想多了，任务没那么复杂。", TREE_ZH, [], "zh") == []


@needs_upstream
def test_released_chinese_generated_replies_are_clean():
    """Calibration guard: none of the released Chinese Response II turns is flagged (they do not leak)."""
    path = UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.Ch.json"
    flagged = checked = 0
    for released in load_released_dialogues(path)[:120]:
        tree, revealed, said = released.task.tree, [], []
        for line in released.provider_lines[2:]:
            frontier = tree.frontier(revealed)
            hit = [node for node in frontier if carries_node(line, tree[node].text, "zh")]
            if hit:
                revealed += hit
            else:
                checked += 1
                flagged += bool(find_leaks(line, tree, revealed, "zh", said=[tree.root.text, *said]))
            said.append(line)
    assert checked > 50 and flagged == 0
