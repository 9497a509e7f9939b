"""Every metric on hand-made transcripts, expected values written as arithmetic."""

from __future__ import annotations

import pytest
from scoring_helpers import CAVE, GREETING, ROOT, make_task, make_transcript, perfect_turns, provider, seeker

from clarq_bench.core.transcript import EndReason, Intent, ReplyKind
from clarq_bench.scoring.judge import TurnLabel, judge_deterministic
from clarq_bench.scoring.lengths import detect_language, fallback_length, released_length, token_counter
from clarq_bench.scoring.metrics import mean_aqd, mean_aql, success_rate, summarize

TASK = make_task()  # 3 required nodes: 4 nodes with the root


def verdict_of(turns, task=TASK, **kw):
    return judge_deterministic(make_transcript(task, turns, **kw), task)


def test_perfect_dialogue_aqd_and_aql():
    v = verdict_of(perfect_turns())
    # seeker turns after the one the root answered: 4 (three questions + goodbye) -> 4 - 4 nodes
    assert v.queries_after_root == 4
    assert v.aqd == 4 - 4
    # spaces: "Hi Jax, I need to collect the gem." 7, "Where is the cave?" 3, "Is it dark inside?" 3,
    # "How do I carry the gem?" 5, "Thanks, Goodbye." 1
    assert v.aql == pytest.approx((7 + 3 + 3 + 5 + 1) / 5)
    assert v.aql_language == "en"


def test_empty_dialogue():
    v = verdict_of([provider(GREETING, ReplyKind.greeting)], end=EndReason.error)
    assert not v.success
    assert v.root_turn is None
    assert v.queries_after_root == 0
    assert v.aqd == 0 - (3 + 1)
    assert v.aql == 0.0 and v.aql_tokens == 0.0
    assert v.seeker_turns == []


def test_seeker_that_never_says_goodbye_hits_the_turn_cap():
    turns = [provider(GREETING, ReplyKind.greeting), seeker("I need the gem."), provider(ROOT, ReplyKind.root)]
    for _ in range(10):
        turns += [seeker("What next?"), provider("You are overthinking.", ReplyKind.response_ii, Intent.vague)]
    turns.append(seeker("And then what?"))  # 12th seeker turn: the cap stops the dialogue before a reply
    v = verdict_of(turns, end=EndReason.turn_cap)
    assert len(v.seeker_turns) == 12
    assert v.queries_after_root == 11
    assert v.aqd == 11 - 4
    assert v.aql == pytest.approx((3 + 10 * 1 + 2) / 12)
    assert v.count(TurnLabel.vague) == 10 and v.seeker_turns[-1].label == TurnLabel.no_reply
    assert not v.success


def test_turn_cap_landing_on_a_provider_reply_counts_seeker_turns():
    turns = perfect_turns()[:-1]  # ends on the provider's reply, no goodbye
    v = verdict_of(turns, end=EndReason.turn_cap)
    assert v.success
    assert v.queries_after_root == 3
    assert v.aqd == 3 - 4


def test_mixed_chinese_and_english_turns_use_the_first_turns_language():
    zh = make_task("zh", texts={"0": "神器在山洞里。", "1": "山洞是清风洞。", "1.1": "需要钥匙。", "2": "穿耐磨鞋。"})
    first = "你好，我要找神器 (artifact)"  # 7 CJK characters vs 8 Latin letters -> English
    turns = [
        provider("Jax: 有什么可以帮助你？", ReplyKind.greeting),
        seeker(first),
        provider("Jax: 神器在山洞里。", ReplyKind.root),
        seeker("哪个山洞? which cave?"),
        provider("Jax: 山洞是清风洞。", ReplyKind.response_i, Intent.answerable, ["1"]),
        seeker("再见"),
    ]
    v = verdict_of(turns, task=zh)
    assert detect_language(first) == "en"
    assert v.aql_language == "en"
    assert v.aql == pytest.approx((1 + 2 + 0) / 3)  # spaces in each turn
    # Chinese when the first turn leans Chinese: every turn then counts characters, English ones included
    turns[1] = seeker("你好，我要找神器")
    v = verdict_of(turns, task=zh)
    assert v.aql_language == "zh"
    assert v.aql == pytest.approx((8 + len("哪个山洞? which cave?") + 2) / 3)
    assert v.nodes[0].status.value == "exact" and v.obtained_count == 1


def test_length_units():
    assert released_length("a b  c", "en") == 3
    assert released_length("你好 ab", "zh") == 5
    assert fallback_length("Hello 我需要 x2, ok") == 3 + 3
    assert detect_language("") == "en" and detect_language("", default="zh") == "zh"
    counter = token_counter()
    assert counter.count("") == 0
    assert counter.count("Where is the cave?") >= 4
    assert counter.unit in ("o200k_base", "cjk+words")


def test_aggregates_over_dialogues_with_all_dialogues_as_denominator():
    good = verdict_of(perfect_turns())
    empty = verdict_of([provider(GREETING, ReplyKind.greeting)], end=EndReason.error)
    assert success_rate([good, empty]) == 1 / 2
    assert mean_aqd([good, empty]) == (0 + -4) / 2
    assert mean_aql([good, empty]) == pytest.approx(((7 + 3 + 3 + 5 + 1) / 5 + 0) / 2)


def test_summary_figures_breakdowns_and_turn_rates():
    t2 = make_task(type_number=2, texts={"0": ROOT, "1": CAVE})  # 1 required node, depth 1
    good = verdict_of(perfect_turns())
    repeat = verdict_of(
        [
            provider(GREETING, ReplyKind.greeting),
            seeker("I need the gem."),
            provider(ROOT, ReplyKind.root),
            seeker("Where is the cave?"),
            provider(CAVE, ReplyKind.response_i, Intent.answerable, ["1"]),
            seeker("Where is it again?"),
            provider(CAVE, ReplyKind.response_ii, Intent.repeat),
            seeker("Goodbye"),
        ],
        task=t2,
    )
    empty = verdict_of([provider(GREETING, ReplyKind.greeting)], end=EndReason.error)
    s = summarize([good, repeat, empty], resamples=200)
    assert s.dialogues == 3 and s.tasks == 2  # good and empty share task en/01/0
    assert s.success.value == pytest.approx(2 / 3)
    assert s.aqd.value == pytest.approx((0 + (3 - 2) + -4) / 3)
    assert s.aqd_successful.value == pytest.approx((0 + 1) / 2) and s.aqd_successful.n == 2
    # questions = seeker turns minus opening, goodbye and unanswered last turns: 3 + 2 + 0
    assert s.elicitation_precision.value == pytest.approx((3 + 1) / (3 + 2))
    assert s.redundancy_rate.value == pytest.approx(1 / 5)
    assert [g.key for g in s.by_type] == ["type=1", "type=2"]
    assert s.by_type[0].success.value == 1 / 2 and s.by_type[1].success.value == 1.0
    assert [(g.key, g.dialogues) for g in s.by_required] == [("required=1", 1), ("required=3", 2)]
    assert [(g.key, g.dialogues) for g in s.by_depth] == [("depth=1", 1), ("depth=2", 2)]
    assert s.turn_labels["obtained"] == 4 and s.turn_labels["redundant"] == 1
    assert s.success.low <= s.success.value <= s.success.high
    # trials: en/01/0 has two (one success, one failure) -> pass^2 = mean(C(1,2)/C(2,2) = 0) over tasks with 2 trials
    assert s.trials == 2
    assert s.pass_k["1"].value == pytest.approx((1 / 2 + 1) / 2)
    assert s.pass_k["2"].value == 0.0 and s.pass_k["2"].n == 1


def test_summary_intervals_are_seeded_and_reproducible():
    vs = [verdict_of(perfect_turns()), verdict_of(perfect_turns()[:3] + [seeker("bye")])]
    vs = [v.model_copy(update={"task_id": f"en/01/{i}"}) for i, v in enumerate(vs * 5)]
    a = summarize(vs, seed=1, resamples=300)
    b = summarize(vs, seed=1, resamples=300)
    c = summarize(vs, seed=2, resamples=300)
    assert a.model_dump() == b.model_dump()
    assert (a.success.low, a.success.high) != (c.success.low, c.success.high) or a.aqd != c.aqd


def test_summary_of_nothing_is_an_error():
    with pytest.raises(ValueError):
        summarize([])
