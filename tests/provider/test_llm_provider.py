"""The LLM provider on a scripted model: every intent path, tree gating, the leakage guard, calls per turn."""

from __future__ import annotations

import json

import pytest

from clarq_bench.core.defaults import DEFAULT_SEED
from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import Intent, ReplyKind, Speaker, Turn
from clarq_bench.llm import LLMClient, LLMSettings
from clarq_bench.provider.factory import ProviderMode, make_provider
from clarq_bench.provider.llm_provider import LLMProvider
from clarq_bench.testing import ScriptedModel

MODEL = "scripted/jax"

NODES_EN = [
    ("0", "Please bring me rubies from the mine.", None),
    (
        "1",
        "Stun the guards with sleeping fog, then you can get into the mine.",
        "Use only if the other party noticed the guards block the mine entrance.",
    ),
    (
        "1.1",
        "The sleeping fog drifts over the Lantern Marsh at dawn.",
        "Use only if the other party asked where the fog can be collected.",
    ),
    (
        "2",
        "Dig in the Copper Mine, since the Salt Mine holds no rubies.",
        "Use only if the other party noticed there are two mines.",
    ),
]
NODES_ZH = [
    ("0", "请帮我从矿井里取回红宝石。", None),
    ("1", "先用安眠雾迷晕守卫，你就能进入矿井。", "仅当对方注意到守卫挡住矿井入口时使用。"),
    ("1.1", "安眠雾在黎明时飘在灯笼沼泽上空。", "仅当对方问到去哪里收集雾时使用。"),
    ("2", "去铜矿挖，盐矿里没有红宝石。", "仅当对方注意到有两个矿井时使用。"),
]


def make_task(language: str = "en") -> Task:
    nodes = NODES_EN if language == "en" else NODES_ZH
    brief = TaskBrief(
        role="adventurer" if language == "en" else "冒险者",
        task_name="Fetch rubies",
        items=("air sucker",),
        background="Rubies are in one of the mines.",
    )
    return Task(
        id=f"{language}/01/0",
        language=language,
        type_number=1,
        type_name="Gather Resources",
        index=0,
        split=Split.test,
        brief=brief,
        tree=ResponseTree.build(nodes),
    )


class Recorder:
    """A scripted model that answers from a list and keeps every prompt it was sent."""

    def __init__(self, *replies: object) -> None:
        self.replies = [r if isinstance(r, str) else json.dumps(r) for r in replies]
        self.prompts: list[str] = []

    def __call__(self, messages: list[dict]) -> str:
        self.prompts.append("\n".join(str(m.get("content", "")) for m in messages))
        return self.replies.pop(0)


def provider_with(recorder: Recorder, language: str = "en", mode: str = "single") -> LLMProvider:
    client = LLMClient(LLMSettings(use_cache=False), scripted={MODEL: ScriptedModel(recorder)})
    return LLMProvider(make_task(language), client, model=MODEL, mode=mode)


def dialogue(*seeker: str, revealed: tuple[str, ...] = (), root: bool = True, language: str = "en") -> list[Turn]:
    """Greeting, the opening request and the root (when `root`), earlier reveals, then the seeker lines."""
    tree = make_task(language).tree
    turns = [Turn(speaker=Speaker.provider, text="Hi", kind=ReplyKind.greeting)]
    if root:
        turns += [
            Turn(speaker=Speaker.seeker, text="I can help. What is the job?"),
            Turn(speaker=Speaker.provider, text=tree.root.text, kind=ReplyKind.root, revealed=["0"]),
        ]
    for node_id in revealed:
        turns += [
            Turn(speaker=Speaker.seeker, text="question"),
            Turn(speaker=Speaker.provider, text=tree[node_id].text, kind=ReplyKind.response_i, revealed=[node_id]),
        ]
    for i, text in enumerate(seeker):
        turns.append(Turn(speaker=Speaker.seeker, text=text))
        if i < len(seeker) - 1:
            turns.append(Turn(speaker=Speaker.provider, text="ok", kind=ReplyKind.response_ii))
    return turns


def decision(intent: int, *ids: str, summary: bool = False) -> dict[str, object]:
    return {"intent": intent, "node_ids": list(ids), "summary_confirmation": summary, "rationale": "because"}


def assert_recorded(turn, calls: int) -> None:
    assert turn.notes["seed"] == DEFAULT_SEED
    assert turn.notes["temperature"] == 0.0
    assert turn.notes["model"]
    assert turn.notes["calls"] == calls


def test_greeting_makes_no_call_and_records_settings():
    recorder = Recorder()
    turn = provider_with(recorder).greeting()
    assert turn.kind == ReplyKind.greeting and turn.text
    assert recorder.prompts == []
    assert_recorded(turn, 0)


async def test_gate_before_root_apology_then_root_verbatim():
    recorder = Recorder({"related": False, "rationale": "small talk"}, {"related": True, "rationale": "asks"})
    provider = provider_with(recorder)
    off = await provider.respond(dialogue("Nice weather today!", root=False))
    assert off.kind == ReplyKind.off_topic and off.revealed == []
    root = await provider.respond(dialogue("Nice weather today!", "What do you need me to do?", root=False))
    assert root.kind == ReplyKind.root and root.text == NODES_EN[0][1] and root.revealed == ["0"]
    assert_recorded(root, 1)
    assert "Nice weather today!" in recorder.prompts[0]


async def test_answerable_turn_is_response_i_verbatim_in_one_call():
    recorder = Recorder(decision(2, "2"))
    turn = await provider_with(recorder).respond(dialogue("There are two mines. Which one has rubies?"))
    assert turn.kind == ReplyKind.response_i and turn.intent == Intent.answerable
    assert turn.text == NODES_EN[3][1] and turn.revealed == ["2"]
    assert_recorded(turn, 1)
    # the decision prompt offers exactly the frontier, with the explanations, and not the gated child
    assert '"1"' in recorder.prompts[0] and '"2"' in recorder.prompts[0] and "Lantern Marsh" not in recorder.prompts[0]
    assert "noticed there are two mines" in recorder.prompts[0]


async def test_intent_three_with_a_frontier_node_still_reveals_it():
    recorder = Recorder(decision(3, "1"))
    turn = await provider_with(recorder).respond(dialogue("The guards block the mine, how do I get in?"))
    assert turn.revealed == ["1"] and turn.intent == Intent.answerable


async def test_child_before_parent_is_refused_and_recorded():
    recorder = Recorder(decision(2, "1.1"), "Don't worry about that, just focus on the mine.")
    turn = await provider_with(recorder).respond(dialogue("Where do I collect fog?"))
    assert turn.revealed == [] and turn.kind == ReplyKind.response_ii
    assert turn.notes["refused_ids"] == ["1.1"]
    assert turn.intent == Intent.unanswerable
    assert_recorded(turn, 2)
    assert "Lantern Marsh" not in turn.text


async def test_after_parent_the_child_is_allowed():
    recorder = Recorder(decision(2, "1.1"))
    turn = await provider_with(recorder).respond(dialogue("Where do I collect fog?", revealed=("1",)))
    assert turn.revealed == ["1.1"] and turn.text == NODES_EN[2][1]


async def test_unknown_and_repeated_ids_never_reveal():
    recorder = Recorder(decision(2, "1"), "As I said, stun the guards with sleeping fog first.")
    turn = await provider_with(recorder).respond(dialogue("How do I get in again?", revealed=("1",)))
    assert turn.revealed == [] and turn.intent == Intent.repeat
    assert "refused_ids" not in turn.notes
    recorder = Recorder(decision(2, "7"), "Hmm, that is not important.")
    turn = await provider_with(recorder).respond(dialogue("What about dragons?"))
    assert turn.notes["refused_ids"] == ["7"] and turn.revealed == []


async def test_single_mode_gives_one_node_multi_info_gives_all_joined_verbatim():
    question = "Which mine, and how do I get past the guards?"
    single = await provider_with(Recorder(decision(2, "2", "1"))).respond(dialogue(question))
    # both are asked; single-info gives the first in the tree's order, whatever order the model named them in
    assert single.revealed == ["1"] and single.notes["dropped_ids"] == ["2"]
    multi = await provider_with(Recorder(decision(2, "2", "1")), mode="multi-info").respond(dialogue(question))
    assert multi.revealed == ["1", "2"]
    assert multi.text == f"{NODES_EN[1][1]} {NODES_EN[3][1]}"
    assert_recorded(multi, 1)


async def test_multi_info_zh_joins_without_spaces_and_gates_children():
    recorder = Recorder(decision(2, "2", "1", "1.1"))
    provider = provider_with(recorder, language="zh", mode="multi-info")
    # (each question names what it asks about, as the focus rule wants: "怎么绕过守卫？", not a bare "怎么进去？")
    turn = await provider.respond(dialogue("哪个矿井？怎么绕过守卫进去？雾在哪里？", language="zh"))
    assert turn.revealed == ["1", "2"] and turn.text == NODES_ZH[1][1] + NODES_ZH[3][1]
    assert turn.notes["refused_ids"] == ["1.1"]


@pytest.mark.parametrize(
    ("intent", "summary", "instruction"),
    [
        (1, False, "llm_reply_positive"),
        (1, True, "llm_reply_summary"),
        (3, False, "llm_reply_reassure"),
        (4, False, "llm_reply_repeat"),
        (6, False, "llm_reply_reassure"),
    ],
)
async def test_generated_response_ii_paths(intent, summary, instruction):
    reply = "Sounds good to me."
    recorder = Recorder(decision(intent, summary=summary), reply)
    turn = await provider_with(recorder).respond(dialogue("So I go to a mine and dig, right?"))
    assert turn.kind == ReplyKind.response_ii and turn.intent == Intent(intent)
    assert turn.text == reply and turn.revealed == []
    assert turn.notes["instruction"] == instruction
    assert_recorded(turn, 2)
    generation = recorder.prompts[1]
    # the generation prompt lists every unrevealed node as forbidden and carries the intent's instruction
    for _, text, _ in NODES_EN[1:]:
        assert text in generation
    from clarq_bench.core import prompts

    assert prompts.render("provider/" + instruction, "en") in generation


async def test_summary_confirmation_gets_plain_positive_even_if_model_names_a_node():
    recorder = Recorder(decision(1, "2", summary=True), "Yes, that plan sounds good.")
    turn = await provider_with(recorder).respond(dialogue("So I dig in the north or west mine, right?"))
    assert turn.revealed == [] and turn.notes["ignored_ids"] == ["2"]
    assert turn.notes["instruction"] == "llm_reply_summary"


async def test_unrelated_turn_gets_fixed_text_in_one_call():
    recorder = Recorder(decision(5))
    turn = await provider_with(recorder).respond(dialogue("Do you like music?"))
    assert turn.kind == ReplyKind.response_ii and turn.intent == Intent.unrelated
    assert_recorded(turn, 1)


async def test_empty_frontier_task_question_gets_enough_in_one_call():
    recorder = Recorder(decision(3))
    turn = await provider_with(recorder).respond(dialogue("Anything about the weather?", revealed=("1", "1.1", "2")))
    assert turn.kind == ReplyKind.enough and turn.revealed == []
    assert_recorded(turn, 1)
    assert "(none)" in recorder.prompts[0]  # nothing is offered any more


async def test_leaking_sentence_is_dropped_without_another_call():
    leaky = "Don't overthink it. Just dig in the Copper Mine, the Salt Mine holds no rubies."
    recorder = Recorder(decision(6), leaky)
    turn = await provider_with(recorder).respond(dialogue("Anything else?"))
    assert turn.text == "Don't overthink it."
    guard = turn.notes["leak_guard"]
    assert guard["action"] == "repaired" and guard["draft"] == leaky
    assert guard["hits"][0]["node_id"] == "2"
    assert guard["dropped"] == ["Just dig in the Copper Mine, the Salt Mine holds no rubies."]
    assert turn.notes["guard_hits"] == 1 and "leak_fallback" not in turn.notes
    assert_recorded(turn, 2)
    assert len(recorder.prompts) == 2 and turn.notes["sequential_calls"] == 2


async def test_leak_with_nothing_clean_left_falls_back_to_safe_template():
    leaky = "Get sleeping fog over the Lantern Marsh at dawn and dig in the Copper Mine."
    recorder = Recorder(decision(3), leaky)
    turn = await provider_with(recorder).respond(dialogue("How do I find rubies?"))
    from clarq_bench.core import prompts

    assert turn.text == prompts.render("provider/llm_safe", "en")
    assert turn.notes["leak_fallback"] is True and turn.notes["leak_guard"]["action"] == "safe_template"
    assert {hit["node_id"] for hit in turn.notes["leak_guard"]["hits"]} >= {"1.1", "2"}
    assert turn.notes["guard_hits"] == len(turn.notes["leak_guard"]["hits"])
    assert_recorded(turn, 2)


async def test_zh_leak_is_repaired_sentence_by_sentence():
    recorder = Recorder(decision(6), "别想太多。去铜矿挖，盐矿里没有红宝石。")
    turn = await provider_with(recorder, language="zh").respond(dialogue("还有别的吗？", language="zh"))
    assert turn.text == "别想太多。" and turn.notes["leak_guard"]["hits"][0]["node_id"] == "2"
    assert_recorded(turn, 2)


async def test_empty_draft_gets_the_safe_template():
    recorder = Recorder(decision(6), "Jax: ")
    turn = await provider_with(recorder).respond(dialogue("Anything else?"))
    from clarq_bench.core import prompts

    assert turn.text == prompts.render("provider/llm_safe", "en") and turn.notes["empty_draft"] is True
    assert turn.notes["guard_hits"] == 0


LEAKY = "Get sleeping fog over the Lantern Marsh at dawn and dig in the Copper Mine."


@pytest.mark.parametrize(
    ("script", "seeker", "revealed", "root"),
    [
        ([{"related": False}], "Nice weather!", (), False),
        ([{"related": True}], "What do you need?", (), False),
        ([decision(2, "2")], "Which mine?", (), True),
        ([decision(2, "2", "1")], "Which mine and how?", (), True),
        ([decision(2, "1.1"), LEAKY], "Where is the fog?", (), True),
        ([decision(1, summary=True), "Yes."], "So I dig, right?", (), True),
        ([decision(1), LEAKY], "Is my plan ok?", (), True),
        ([decision(3), LEAKY], "How do I find rubies?", (), True),
        ([decision(4), "Don't overthink it. " + LEAKY], "Again?", (), True),
        ([decision(5)], "Music?", (), True),
        ([decision(6), LEAKY], "Anything else?", (), True),
        ([decision(3)], "More?", ("1", "1.1", "2"), True),
        (["not json", decision(6), LEAKY], "Anything else?", (), True),
    ],
)
@pytest.mark.parametrize("mode", ["single", "multi-info"])
async def test_never_more_than_two_sequential_calls(script, seeker, revealed, root, mode):
    """Every path, leak or not, makes at most MAX_SEQUENTIAL_CALLS model calls (JSON re-asks aside)."""
    from clarq_bench.provider.llm_provider import MAX_SEQUENTIAL_CALLS

    recorder = Recorder(*script)
    turn = await provider_with(recorder, mode=mode).respond(dialogue(seeker, revealed=revealed, root=root))
    reasks = sum(isinstance(item, str) and not item.startswith("{") for item in script[:1])
    assert MAX_SEQUENTIAL_CALLS == 2
    assert turn.notes["calls"] == turn.notes["sequential_calls"] <= MAX_SEQUENTIAL_CALLS
    assert len(recorder.prompts) == turn.notes["requests"] == turn.notes["calls"] + reasks
    assert recorder.replies == []  # the script was used up: no path stopped early
    assert_recorded(turn, turn.notes["calls"])


async def test_restating_revealed_content_is_not_a_leak():
    reply = "Just stun the guards with sleeping fog, then you can get into the mine."
    recorder = Recorder(decision(6), reply)
    turn = await provider_with(recorder).respond(dialogue("What next?", revealed=("1",)))
    assert turn.text == reply and "leak_guard" not in turn.notes and turn.notes["guard_hits"] == 0


async def test_malformed_decision_is_reasked_by_the_llm_layer():
    recorder = Recorder("I think it is intent 2", decision(2, "2"))
    turn = await provider_with(recorder).respond(dialogue("Which of the two mines?"))
    assert turn.revealed == ["2"]
    assert len(recorder.prompts) == 2


async def test_ids_written_as_numbers_are_accepted():
    recorder = Recorder({"intent": 2, "node_ids": [2], "rationale": "x"})
    turn = await provider_with(recorder).respond(dialogue("Which of the two mines?"))
    assert turn.revealed == ["2"]


async def test_zh_prompts_are_chinese_and_complete():
    recorder = Recorder(decision(6), "别想太多，按计划来就好。")
    turn = await provider_with(recorder, language="zh").respond(dialogue("还有别的吗？", language="zh"))
    assert turn.text == "别想太多，按计划来就好。"
    decide, generate = recorder.prompts
    assert "冒险者：还有别的吗？" in decide and "仅当对方注意到有两个矿井时使用" in decide
    assert "Give it only when" not in decide and "{" not in decide.replace('{"intent"', "")
    assert "安眠雾在黎明时飘在灯笼沼泽上空。" in generate


def test_factory_builds_llm_provider_for_model_names():
    client = LLMClient(LLMSettings(use_cache=False), scripted={MODEL: ScriptedModel(["{}"])})
    provider = make_provider("gpt-4o", make_task(), "multi-info", client=client, seed=7)
    assert isinstance(provider, LLMProvider)
    assert provider.model == "gpt-4o" and provider.mode == ProviderMode.multi_info and provider.seed == 7


def placeholders(text: str) -> set[str]:
    import string

    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_every_llm_template_exists_in_both_languages_with_the_same_placeholders():
    from clarq_bench.core.prompts import PROMPT_ROOT

    names = sorted({path.name.split(".")[0] for path in (PROMPT_ROOT / "provider").glob("llm_*.md")})
    assert "llm_decide" in names and "llm_reply" in names
    for name in names:
        en = (PROMPT_ROOT / "provider" / f"{name}.en.md").read_text(encoding="utf-8")
        zh = (PROMPT_ROOT / "provider" / f"{name}.zh.md").read_text(encoding="utf-8")
        assert placeholders(en) == placeholders(zh), name
        assert zh != en, name  # written for Chinese, if only the punctuation (the speaker lines)
        assert len(zh) < 20 or any("\u4e00" <= ch <= "\u9fff" for ch in zh), name


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("mode", ["single", "multi-info"])
async def test_every_prompt_renders_completely_in_both_languages(language, mode):
    """Gate, decision and every generation instruction, rendered through the provider: no placeholder is left and
    a Chinese task gets Chinese wording throughout."""
    cjk = lambda text: sum("\u4e00" <= ch <= "\u9fff" for ch in text)  # noqa: E731
    seeker = "还有别的吗？" if language == "zh" else "Anything else?"
    cases = [
        ([{"related": True}], False),
        ([decision(1), "ok"], True),
        ([decision(1, summary=True), "ok"], True),
        ([decision(3), "ok"], True),
        ([decision(4), "ok"], True),
        ([decision(6), "ok"], True),
    ]
    for script, root in cases:
        recorder = Recorder(*script)
        turn = await provider_with(recorder, language=language, mode=mode).respond(
            dialogue(seeker, root=root, language=language)
        )
        assert recorder.replies == [] and turn.text
        for prompt in recorder.prompts:
            body = prompt.replace('{"intent"', "").replace('{"related"', "")
            assert not any(
                "{" + name + "}" in body
                for name in ("role", "task_name", "dialogue", "said", "frontier", "hidden", "instruction", "mode_rule")
            )
            if language == "zh":
                assert cjk(prompt) > 40 and "Use only if" not in prompt and "Conversation so far" not in prompt
            else:
                assert cjk(prompt) == 0
    provider = provider_with(Recorder(), language=language, mode=mode)
    for name in ("llm_greeting", "llm_safe", "llm_enough", "llm_unrelated", "llm_off_topic"):
        text = provider._text(name)
        assert text and (cjk(text) > 0) == (language == "zh"), name


def test_turns_record_the_dated_model_version():
    client = LLMClient(LLMSettings(use_cache=False))
    turn = LLMProvider(make_task(), client, model="gpt-4o").greeting()
    assert turn.notes["model"] == "gpt-4o-2024-05-13" and turn.notes["seed"] == 8848
    assert turn.notes["temperature"] == 0.0


def test_benchmark_replay_keeps_the_call_bounds(capsys):
    """benchmarks/provider_calls.py on a slice of the released dialogues: at most 2 sequential calls per turn and
    at most 1.3 calls per turn on the single-info files, read from the turns the real LLMClient produced."""
    import importlib.util
    from pathlib import Path

    from upstream_paths import UPSTREAM_RESULTS

    if not UPSTREAM_RESULTS.is_dir():
        pytest.skip("released dialogues not available")
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "provider_calls.py"
    spec = importlib.util.spec_from_file_location("provider_calls", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--results", str(UPSTREAM_RESULTS), "--limit", "20", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["all files"]["max_sequential"] <= 2 and table["all files"]["calls_p95"] <= 2
    assert table["single-info files"]["calls_mean"] <= 1.3
    assert table["all files"]["upper_mean"] > table["all files"]["lower_mean"] > 2
    assert table["all files"]["tokens_mean"] > 0
