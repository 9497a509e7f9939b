"""Efficiency, success weighted by what the seeker said: per dialogue S x H / max(H, C), C = max(Q, A + 1, W / B).

Expected values are written from the formula on hand-made dialogues: the task of scoring_helpers has 3 required
nodes, so H = 3 + 1 (root) = 4; Q counts the seeker's turns after the one the root answered, goodbye included; A the
things those turns ask (counted by hand below), W their tokens, B a human seeker's turn in tokens. The short
questions of these dialogues hold fewer tokens than a human turn, so W / B stays under Q unless a test says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_helpers import (
    CAVE,
    GREETING,
    ROOT,
    SILK,
    TORCH,
    make_task,
    make_transcript,
    perfect_turns,
    provider,
    seeker,
)
from test_score import RELEASED, needs_results, write_task_data
from test_score import write_run as write_score_run
from upstream_paths import UPSTREAM_RESULTS

from clarq_bench.cli.main import main
from clarq_bench.core.transcript import EndReason, Intent, ReplyKind, Speaker
from clarq_bench.scoring.charge import HUMAN_TURN_TOKENS, asks, charge, human_turn_tokens, success_weighted
from clarq_bench.scoring.comparison import compare
from clarq_bench.scoring.judge import judge_deterministic
from clarq_bench.scoring.lengths import released_length, token_counter
from clarq_bench.scoring.metrics import Group, Summary, summarize
from clarq_bench.scoring.report import markdown
from clarq_bench.scoring.score_import import import_released

EN = make_task()
ZH = make_task("zh", texts={"0": "神器在山洞里。", "1": "山洞是清风洞。", "1.1": "需要钥匙。", "2": "穿耐磨鞋。"})
VAGUE = [
    seeker("What else should I know?"),
    provider("Jax: could you be more specific?", ReplyKind.response_ii, Intent.vague),
]
OPENING = [
    provider(GREETING, ReplyKind.greeting),
    seeker("Hi Jax, I need to collect the gem."),
    provider(f"Jax: {ROOT}", ReplyKind.root),
]


def padded() -> list:
    """The perfect dialogue with two vague questions after the root: Q = 4 + 2 = 6, A = 3 + 2."""
    turns = perfect_turns()
    return turns[:3] + VAGUE + VAGUE + turns[3:]


def failed() -> list:
    """One node obtained, then goodbye: Q = 2 (under H), but a failure."""
    return perfect_turns()[:5] + [seeker("Goodbye")]


def two_at_once() -> list:
    """A multi-info reply carries two nodes: Q = 3 < H = 4 (AQD -1), but the turn asks two things: A = 2 + 1."""
    return [
        *OPENING,
        seeker("Where is the cave, and is it dark?"),
        provider(f"{CAVE} {TORCH}", ReplyKind.response_i, Intent.answerable, ["1", "1.1"]),
        seeker("How do I carry the gem?"),
        provider(SILK, ReplyKind.response_i, Intent.answerable, ["2"]),
        seeker("Goodbye"),
    ]


def packed(question: str) -> list:
    """Everything asked in one turn, and a provider that lets it through with all three nodes: Q = 2."""
    return [
        *OPENING,
        seeker(question),
        provider(f"{CAVE} {TORCH} {SILK}", ReplyKind.response_i, Intent.answerable, ["1", "1.1", "2"]),
        seeker("Goodbye"),
    ]


#: Six question words, nothing listed after them: A = 6.
PACK_SIX = "Where is the cave, how dark is it, how do I carry the gem, which map, which rope and which boots do I need?"
#: The shape of a spray: "which X and which Y ... where and how do I get A, B, C and D?": 2 + (2 + 3 listed) = 7.
PACK_SPRAY = "Which cave and which gem? Where and how do I get a torch, silk, a map and a rope?"


def zh_turns() -> list:
    """Chinese: three questions that obtain a node, one vague one, goodbye: Q = 5, A = 4."""
    answer = lambda text, node: provider(f"Jax: {text}", ReplyKind.response_i, Intent.answerable, [node])  # noqa: E731
    return [
        provider("Jax: 有什么可以帮助你？", ReplyKind.greeting),
        seeker("你好，我要找神器"),
        provider("Jax: 神器在山洞里。", ReplyKind.root),
        seeker("哪个山洞？"),
        answer("山洞是清风洞。", "1"),
        seeker("要带什么？"),
        answer("需要钥匙。", "1.1"),
        seeker("还有什么？"),
        provider("Jax: 请问得具体一点。", ReplyKind.response_ii, Intent.vague),
        seeker("穿什么鞋？"),
        answer("穿耐磨鞋。", "2"),
        seeker("再见"),
    ]


def zh_packed() -> list:
    """一轮问完: 哪里, 怎么, 哪 x 3 and the A-not-A 黑不黑 listed after the first: A = 6, Q = 2."""
    return [
        provider("Jax: 有什么可以帮助你？", ReplyKind.greeting),
        seeker("你好，我要找神器"),
        provider("Jax: 神器在山洞里。", ReplyKind.root),
        seeker("山洞在哪里、黑不黑、宝石怎么带、要哪张地图、哪根绳子和哪双鞋？"),
        provider("Jax: 山洞是清风洞。需要钥匙。穿耐磨鞋。", ReplyKind.response_i, Intent.answerable, ["1", "1.1", "2"]),
        seeker("再见"),
    ]


def judged(task, turns, **kw):
    return judge_deterministic(make_transcript(task, turns, **kw), task)


ROOT_ONLY = make_task(index=7, texts={"0": ROOT})  # no required node: H = 0 + 1

#: name -> (task, turns, end, S, H, Q, A, efficiency), the last by hand: S x H / max(H, Q, A + 1, W / B)
CASES = {
    "perfect": (EN, perfect_turns(), EndReason.goodbye, True, 4, 4, 3, 1.0),
    "padded": (EN, padded(), EndReason.goodbye, True, 4, 6, 5, 4 / 6),
    "failed under H": (EN, failed(), EndReason.goodbye, False, 4, 2, 1, 0.0),
    "two things in one turn": (EN, two_at_once(), EndReason.goodbye, True, 4, 3, 3, 1.0),
    "six things in one turn": (EN, packed(PACK_SIX), EndReason.goodbye, True, 4, 2, 6, 4 / 7),
    "a spray in one turn": (EN, packed(PACK_SPRAY), EndReason.goodbye, True, 4, 2, 7, 4 / 8),
    "zh with one vague question": (ZH, zh_turns(), EndReason.goodbye, True, 4, 5, 4, 4 / 5),
    "zh, six things in one turn": (ZH, zh_packed(), EndReason.goodbye, True, 4, 2, 6, 4 / 7),
    "Q = 0 with success": (ROOT_ONLY, perfect_turns()[:3], EndReason.turn_cap, True, 1, 0, 0, 1.0),
}


def asked(verdict) -> int:  # type: ignore[no-untyped-def]
    return sum(t.asks for t in verdict.seeker_turns if verdict.root_turn is not None and t.index > verdict.root_turn)


@pytest.mark.parametrize("name", sorted(CASES))
def test_per_dialogue_value_and_agreement_with_aqd(name: str) -> None:
    task, turns, end, success, h, q, a, expected = CASES[name]
    v = judged(task, turns, end=end)
    assert (v.success, v.human_queries, v.queries_after_root, asked(v)) == (success, h, q, a)
    assert v.aqd == q - h  # the same H and Q as the released AQD
    assert v.efficiency == pytest.approx(expected)
    assert 0.0 <= v.efficiency <= 1.0


def test_a_packing_seeker_scores_below_an_honest_one_with_the_same_success() -> None:
    """Both succeed; one thing a turn costs the human path (1.0), asking about everything in one turn does not pay,
    in English and in Chinese, whatever the turn count says (the packer's Q = 2 is under H)."""
    for task, honest, packers in (
        (EN, perfect_turns(), [packed(PACK_SIX), packed(PACK_SPRAY)]),
        (ZH, zh_turns()[:7] + zh_turns()[9:], [zh_packed()]),
    ):
        fair = judged(task, honest)
        assert fair.success and fair.efficiency == 1.0
        for turns in packers:
            packer = judged(task, turns)
            assert packer.success and packer.queries_after_root < packer.human_queries
            assert packer.efficiency < fair.efficiency


@pytest.mark.parametrize(
    ("text", "things"),
    [
        ("Which tavern is Henry at?", 1),
        ("Okay, which cave?", 1),  # a comma before the question word is a pause
        ("Should I use the lamp kerosene or the whale oil?", 1),  # the options of one choice
        ("Jax, do I need a torch?", 1),
        ("Do I need a torch, a rope, a map and boots?", 4),  # a list: two commas or more, and its conjunction
        ("Какая пещера, какой факел, какой шёлк?", 3),  # no question word known here: the list by its commas
        ("Where and how do I get the gem?", 2),
        ("Which cave is it, and do I need a torch?", 2),
        ("I have noticed there are many taverns, so which one should I go to?", 1),
        ("I am unsure which tavern, so what should I do?", 2),  # two question words
        ("which:cave,torch,silk,map", 4),  # no spaces: the same list
        ("Where do I get the cave — torch | silk • map / rope?", 5),  # other separators: the same list
        ("Which fuel: the lamp kerosene or the whale oil?", 1),
        ("Which tavern should I choose: Mystic Tavern, Forest Tavern or Riverside Tavern?", 1),  # one choice
        ("你说的酒馆是哪一个：神秘酒馆、森林酒馆还是河边酒馆？", 1),
        ("Which tavern: Mystic, Forest and Riverside?", 3),  # "and" lists three things
        ("Which tavern, where is the gem or the map?", 2),  # a second question word still counts
        ("Which cave，which torch？", 2),  # full-width marks read as their ASCII forms
        ("I need to collect the gem.", 0),
        ("哪个山洞？", 1),
        ("去哪里、找谁、带什么？", 3),
        ("我需要带火把、绳子和地图吗？", 3),
        ("你好，我要找神器", 0),
    ],
)
def test_things_asked(text: str, things: int) -> None:
    assert asks(text) == things


def test_a_goodbye_asks_nothing_and_only_turns_after_the_root_are_charged() -> None:
    turns = perfect_turns()
    turns[1] = seeker("Hi Jax, where is the cave, which torch, which silk and which map do I need?")  # the opening
    turns[-1] = seeker("Thanks, I know what to do now and where to go. Goodbye!")
    v = judged(EN, turns)
    assert v.seeker_turns[0].asks > 0 and v.seeker_turns[-1].asks == 0
    assert asked(v) == 3 and v.efficiency == 1.0


def test_words_are_charged_at_a_human_turn_each() -> None:
    """Padding one question to 3 human turns' worth of tokens (and no more asks): C = W / B > Q, A + 1."""
    budget = human_turn_tokens(token_counter().unit, "en")
    turns = perfect_turns()
    filler = " ".join(["please"] * int(3 * budget))
    turns[3] = seeker(f"Where is the cave? {filler}")
    v = judged(EN, turns)
    count = token_counter().count
    words = sum(count(t.text) for t in turns[3::2])
    assert words / budget > 4 and asked(v) == 3
    assert v.efficiency == pytest.approx(4 / (words / budget))


PADDING = st.lists(st.sampled_from(["please", "kindly", "!!!", "，", "谢谢", "really", "\u200b", "ok"]), max_size=40)


@settings(max_examples=40, deadline=None)
@given(PADDING, st.integers(0, 2))
def test_more_words_for_the_same_success_never_raise_it(padding: list[str], where: int) -> None:
    turns = perfect_turns()
    index = 3 + 2 * where
    before = judged(EN, turns).efficiency
    turns[index] = seeker(turns[index].text + " " + " ".join(padding))
    assert judged(EN, turns).efficiency <= before


QUESTIONS = [
    "Where is the cave?",
    "Is it dark inside?",
    "How do I carry the gem?",
    "Which rope?",
    "What about the map?",
    "Do I need boots?",
]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(QUESTIONS), min_size=2, max_size=6), st.sampled_from([" ", " Also, ", "\n", "; "]))
def test_fewer_but_longer_turns_never_raise_it(questions: list[str], joint: str) -> None:
    """The same questions one a turn, or all in one turn joined any way: the one turn never scores higher."""
    nodes = ["1", "1.1", "2"]
    texts = {"1": CAVE, "1.1": TORCH, "2": SILK}
    one_each = list(OPENING)
    for i, question in enumerate(questions):
        got = nodes[i : i + 1] if i < len(questions) - 1 else nodes[i:]
        one_each += [
            seeker(question),
            provider(
                " ".join(texts[n] for n in got) or "Jax: not the focus.",
                ReplyKind.response_i if got else ReplyKind.response_ii,
                Intent.answerable if got else Intent.vague,
                got,
            ),
        ]
    together = [
        *OPENING,
        seeker(joint.join(questions)),
        provider(" ".join(texts.values()), ReplyKind.response_i, Intent.answerable, nodes),
    ]
    split, joined = judged(EN, one_each + [seeker("Goodbye")]), judged(EN, together + [seeker("Goodbye")])
    assert split.success and joined.success
    assert joined.efficiency <= split.efficiency + 1e-12


def test_the_human_path_costs_exactly_its_success() -> None:
    """A dialogue along the human path (one short question a turn, a human turn's length or less, then goodbye)
    scores its success: 1 when it obtained everything, 0 when it did not, in both languages."""
    for task, turns in ((EN, perfect_turns()), (ZH, zh_turns()[:7] + zh_turns()[9:])):
        v = judged(task, turns)
        assert v.charge == v.human_queries and v.efficiency == float(v.success) == 1.0
    assert judged(EN, failed()).efficiency == 0.0


def test_charge_and_weighting_are_bounded_and_refuse_bad_counts() -> None:
    assert charge(0, 0, 0, 10.0) == 0.0 and charge(3, 5, 20, 10.0) == 6.0 and charge(3, 1, 45, 10.0) == 4.5
    assert success_weighted(True, 0, 0) == 1.0 and success_weighted(True, 0, 1) == 0.0
    assert success_weighted(False, 4, 4) == 0.0
    for bad in ((-1, 0, 0, 10.0), (1, -1, 0, 10.0), (1, 0, -1, 10.0), (1, 0, 0, 0.0)):
        with pytest.raises(ValueError):
            charge(*bad)
    with pytest.raises(ValueError):
        success_weighted(True, -1, 3)
    with pytest.raises(ValueError, match="no human turn length"):
        human_turn_tokens("bytes", "en")
    assert human_turn_tokens("o200k_base", "fr") == HUMAN_TURN_TOKENS[("o200k_base", "en")]


@given(st.booleans(), st.integers(1, 30), st.integers(0, 30), st.integers(0, 60), st.integers(0, 2000))
def test_bounds_and_monotone_in_every_count(success: bool, h: int, q: int, a: int, w: int) -> None:
    value = success_weighted(success, h, charge(q, a, w, 10.1))
    assert 0.0 <= value <= 1.0 and (success or value == 0.0)
    for more in (charge(q + 1, a, w, 10.1), charge(q, a + 1, w, 10.1), charge(q, a, w + 1, 10.1)):
        assert success_weighted(success, h, more) <= value


def test_multi_trial_mean_and_task_clustered_interval() -> None:
    """Task A: trial 0 perfect (1), trial 1 padded (4/6); task B (its own task): failed (0).
    Mean over dialogues = (1 + 4/6 + 0) / 3 = 5/9. Clusters are tasks: A sums 5/3 over 2 dialogues, B 0 over 1;
    a resample holds AA (10/3 / 4 = 5/6), AB (5/3 / 3 = 5/9) or BB (0), a quarter of the time each extreme, so
    the 95% interval is [0, 5/6]; resampling dialogues would give other values (1/3, 2/3, ...)."""
    other = make_task(index=1)
    verdicts = [judged(EN, perfect_turns(), trial=0), judged(EN, padded(), trial=1), judged(other, failed())]
    summary = summarize(verdicts, resamples=2000)
    for fig in (summary.efficiency, summary.by_language[0].efficiency, summary.by_type[0].efficiency):
        assert fig.value == pytest.approx(5 / 9)
        assert (fig.low, fig.high) == (pytest.approx(0.0), pytest.approx(5 / 6))
        assert fig.n == 3 and fig.of == "dialogues"
    assert summary.success.value == pytest.approx(2 / 3)  # the released figure beside it is untouched


def test_both_languages_per_language_and_per_type() -> None:
    """en perfect (1) and zh with one vague question (4/5): headline 0.9, lang=en 1, lang=zh 0.8; both type 1."""
    summary = summarize([judged(EN, perfect_turns()), judged(ZH, zh_turns())], resamples=200)
    assert summary.efficiency.value == pytest.approx(0.9)
    by_language = {g.key: g.efficiency for g in summary.by_language}
    assert by_language["lang=en"].value == pytest.approx(1.0) and by_language["lang=zh"].value == pytest.approx(0.8)
    assert (by_language["lang=zh"].low, by_language["lang=zh"].high) == (pytest.approx(0.8), pytest.approx(0.8))
    (type_one,) = summary.by_type
    assert type_one.key == "type=1" and type_one.efficiency.value == pytest.approx(0.9)
    report = markdown(summary)
    assert "| Efficiency | 0.9000 [" in report
    assert "| lang=zh | 1 | 1.0000 [1.0000, 1.0000] |" in report and report.count("| efficiency |") >= 3
    assert "0.8000 [0.8000, 0.8000] |\n" in report  # the zh row ends with its efficiency
    assert "SwE" not in report and "success_eff" not in report
    dumped = summary.model_dump(mode="json")
    assert "efficiency" in dumped and "success_eff" not in json.dumps(dumped)


def test_old_names_load_and_the_new_one_is_written() -> None:
    """summary.json written when the figure was `success_eff` still loads; writing it again uses `efficiency`."""
    summary = summarize([judged(EN, perfect_turns()), judged(ZH, zh_turns())], resamples=50)
    old = json.loads(summary.model_dump_json())
    old["success_eff"] = old.pop("efficiency")
    for group in old["by_language"] + old["by_type"]:
        group["success_eff"] = group.pop("efficiency")
    again = Summary.model_validate(old)
    assert (
        again.efficiency == summary.efficiency and again.by_language[1].efficiency == summary.by_language[1].efficiency
    )
    assert again.model_dump(mode="json") == summary.model_dump(mode="json")
    assert Group.model_validate(old["by_type"][0]).efficiency.value == pytest.approx(0.9)


def test_compare_gives_efficiency_a_paired_bootstrap() -> None:
    """A: perfect on tasks 0 and 1 (1, 1); B: padded (4/6) and failed (0). Per-pair differences 1/3 and 1:
    mean 2/3, resampled means are 1/3, 2/3 or 1, all above zero."""
    tasks = [make_task(index=0), make_task(index=1)]
    a = [judged(tasks[0], perfect_turns()), judged(tasks[1], perfect_turns())]
    b = [judged(tasks[0], padded()), judged(tasks[1], failed())]
    result = compare(a, b, resamples=500)
    (eff,) = [d for d in result.differences if d.figure == "efficiency"]
    assert (eff.a, eff.b) == (pytest.approx(1.0), pytest.approx(1 / 3))
    assert eff.difference == pytest.approx(2 / 3) and eff.test == "paired bootstrap"
    assert (eff.low, eff.high) == (pytest.approx(1 / 3), pytest.approx(1.0)) and eff.p_value == 0.0
    assert [d.figure for d in result.differences][:4] == ["success", "aqd", "aql", "aql_tokens"]


def test_score_and_compare_commands_show_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clarq_bench.data.loader import load_tasks

    write_task_data(tmp_path / "data")
    task = load_tasks(tmp_path / "data", ("en",))[0]  # the task of scoring_helpers, as data: H = 4
    run = tmp_path / "run"
    write_score_run(
        run, tmp_path / "data", [make_transcript(task, padded(), trial=0), make_transcript(task, failed(), trial=1)]
    )
    assert main(["score", str(run), "--json", "--resamples", "50", "--no-plots"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["efficiency"]["value"] == pytest.approx((4 / 6 + 0) / 2) and "success_eff" not in summary
    assert json.loads((run / "summary.json").read_text())["efficiency"] == summary["efficiency"]
    assert "| Efficiency | 0.3333" in (run / "report.md").read_text()
    assert main(["score", str(run), "--no-write"]) == 0
    assert "Efficiency" in capsys.readouterr().out
    assert main(["compare", str(run), str(run), "--json", "--resamples", "50"]) == 0
    differences = {d["figure"]: d for d in json.loads(capsys.readouterr().out)["differences"]}
    assert differences["efficiency"]["a"] == pytest.approx(1 / 3) and differences["efficiency"]["difference"] == 0
    assert main(["compare", str(run), str(run)]) == 0
    out = capsys.readouterr().out
    assert "efficiency" in out and "success_eff" not in out and "SwE" not in out


@needs_results
@pytest.mark.parametrize("name", sorted(RELEASED))
def test_released_dialogues_efficiency_follows_from_what_was_said(name: str) -> None:
    """On the released GPT-4o files: each dialogue's efficiency follows from its success, turns, asks and tokens,
    the mean is at most the success rate, and the released figures beside it stay as published."""
    verdicts = [judge_deterministic(t, task) for t, task in import_released(UPSTREAM_RESULTS / name)]
    budget = human_turn_tokens(verdicts[0].token_unit, verdicts[0].language)
    for v in verdicts[:60]:
        h = len(v.nodes) + 1
        after = [t for t in v.seeker_turns if v.root_turn is not None and t.index > v.root_turn]
        cost = max(h + v.aqd, sum(t.asks for t in after) + 1, sum(t.tokens for t in after) / budget)
        assert v.efficiency == pytest.approx(h / max(h, cost) if v.success else 0.0)
    summary = summarize(verdicts, resamples=100)
    success, aqd, _ = RELEASED[name]
    assert round(summary.success.value, 4) == round(success, 4) and round(summary.aqd.value, 4) == aqd
    assert summary.efficiency.value <= summary.success.value
    assert summary.efficiency.value == pytest.approx(sum(v.efficiency for v in verdicts) / 260)


#: The paper's human seekers' AQL (released units), from which B is derived.
HUMAN_AQL = {"en": 8.1, "zh": 17.0}


@needs_results
def test_the_human_turn_budget_is_the_papers_human_aql_in_the_token_unit() -> None:
    """B = human AQL x tokens per released unit over the released GPT-4o seeker turns (Comp files, both units)."""
    from clarq_bench.scoring.lengths import counter_for

    files = {
        "en": "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json",
        "zh": "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.Ch.json",
    }
    for language, name in files.items():
        texts = [
            turn.text
            for t, _ in import_released(UPSTREAM_RESULTS / name)
            for turn in t.turns
            if turn.speaker == Speaker.seeker
        ]
        released = sum(released_length(text, language) for text in texts)
        for unit in ("o200k_base", "cjk+words"):
            counter = counter_for(unit)
            if counter is None:
                continue
            ratio = sum(counter.count(text) for text in texts) / released
            assert HUMAN_TURN_TOKENS[(unit, language)] == round(HUMAN_AQL[language] * ratio, 1), (unit, language)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_human_path_of_every_sample_task_scores_its_success(language: str) -> None:
    """Every sample task walked as a person would: one short question a node, the node as the reply, goodbye. The
    charge is H whatever the tree's size, so the figure is the success: 1, and 0 when the last node is missing."""
    from upstream_paths import SAMPLE_TASKS

    from clarq_bench.data.loader import load_tasks

    question = {"en": "What about step {}?", "zh": "第{}步呢？"}[language]
    goodbye = {"en": "Goodbye", "zh": "再见"}[language]
    tasks = load_tasks(SAMPLE_TASKS, (language,))
    assert tasks and len({len(t.tree.required) for t in tasks}) > 1  # trees of several sizes
    for task in tasks:
        turns = [
            provider(GREETING, ReplyKind.greeting),
            seeker(task.brief.task_name),
            provider(task.tree.root.text, ReplyKind.root),
        ]
        for node in task.tree.required:
            turns += [
                seeker(question.format(node.id)),
                provider(node.text, ReplyKind.response_i, Intent.answerable, [node.id]),
            ]
        whole = judged(task, turns + [seeker(goodbye)])
        assert whole.success and whole.charge == whole.human_queries and whole.efficiency == 1.0
        short = judged(task, turns[:-2] + [seeker(goodbye)])
        assert not short.success and short.efficiency == 0.0
