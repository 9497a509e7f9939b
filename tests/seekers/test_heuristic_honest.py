"""The heuristic is an honest baseline: questions from the brief, never the provider's sentences quoted back; it
stops when told it has enough and says goodbye.

"Quoting back" is measured as in issue 13: a seeker question repeats a provider sentence when it shares a run of
more than five consecutive words with an earlier provider turn (English: word 6-grams, lower-cased), or, in
Chinese, a run of 10 or more CJK characters (about five words). Naming the brief's things is not quoting: the brief's names
(task, items, skills, scenes and their notes) are cut out of both sides first, runs of the brief's background and of
any one name (a list that says what its names share once cuts them) are allowed, and English articles are ignored ("the Lantian brand ..." is the brief's "A Lantian brand ...").
"""

from __future__ import annotations

import re

import pytest
from runner_helpers import TreeWalkingProvider, make_task
from upstream_paths import UPSTREAM_DATA, needs_upstream

from clarq_bench.core.goodbye import is_goodbye
from clarq_bench.core.transcript import ReplyKind, Speaker
from clarq_bench.fidelity.audit import play_all
from clarq_bench.provider.base import ProviderTurn
from clarq_bench.provider.factory import make_provider
from clarq_bench.runner.dialogue import play_dialogue
from clarq_bench.seekers.baselines import EN_LEAD, PARENTHESES, told_enough
from clarq_bench.seekers.registry import build_seeker

EN_RUN = 6  # words: "more than five consecutive words"
ZH_RUN = 10  # CJK characters
ARTICLES = frozenset({"a", "an", "the"})  # "the X" for the brief's "A X" is the brief's name, not a quote


def runs(text: str, language: str, names: tuple[str, ...] = ()) -> set[str]:
    """Every run of EN_RUN words (en) or ZH_RUN CJK characters (zh) of `text`; runs never cross one of `names`
    (the brief's names are cut out first, so naming the brief's things is never counted as quoting)."""
    flat = lambda value: re.sub(r"[\s-]+", " ", value)  # noqa: E731  ("Blue Sky-brand" = "Blue Sky brand")
    pattern = "|".join(re.escape(flat(name)) for name in sorted(names, key=len, reverse=True) if name)
    segments = re.split(pattern, flat(text), flags=re.IGNORECASE) if pattern else [text]
    found: set[str] = set()
    for segment in segments:
        if language == "en":
            words = [word for word in re.findall(r"[a-z0-9']+", segment.lower()) if word not in ARTICLES]
            found |= {" ".join(words[i : i + EN_RUN]) for i in range(len(words) - EN_RUN + 1)}
        else:
            for stretch in re.findall(r"[\u4e00-\u9fff]+", segment):
                found |= {stretch[i : i + ZH_RUN] for i in range(len(stretch) - ZH_RUN + 1)}
    return found


def brief_names(task) -> tuple[str, ...]:
    brief = task.brief
    names = [brief.task_name]
    for entry in (*brief.items, *brief.skills, *brief.scenes):
        names += [PARENTHESES.sub(" ", entry).strip(), *PARENTHESES.findall(entry)]
    return tuple(
        EN_LEAD.sub("", name.strip()) for name in names if name.strip()
    )  # "A Blue Sky-brand ..." -> "Blue ..."


def quotes(transcript, task) -> list[str]:
    """Runs a seeker turn shares with an earlier provider turn (and not with the brief)."""
    names = brief_names(task)
    allowed = runs(task.brief.background, task.language, names)
    allowed |= {run for name in names for run in runs(name, task.language)}  # a name said in parts ("A还是B软件")
    told: set[str] = set()
    found = []
    for turn in transcript.turns:
        if turn.speaker == Speaker.provider:
            told |= runs(turn.text, task.language, names)
        else:
            found += sorted((runs(turn.text, task.language, names) & told) - allowed)
    return found


def test_the_quote_check_catches_the_old_echo():
    assert runs("How exactly should I handle this: you need to go to the Mystic Tavern?", "en") & runs(
        "You need to go to the Mystic Tavern.", "en"
    )
    assert not runs("Which one should I choose: West Mine or North Mine?", "en") & runs(
        "Only the North Mine has rubies, not the West Mine.", "en"
    )
    assert runs("这一点具体该怎么做：你需要从亨利手上拿到火晶石？", "zh") & runs("你需要从亨利手上拿到火晶石。", "zh")


@pytest.mark.parametrize(
    "text",
    [
        "You have already collected enough information to complete the task.",
        "You already have enough information to finish the task.",
        "You have enough.",
        "You've got enough details now.",
        "That's everything you need: go ahead.",
        "你已经收集到足够完成任务的信息了。",
        "你已经掌握了完成任务所需的足够信息。",
        "信息已经足够了。",
        "你已经知道了全部。",
    ],
)
def test_enough_is_recognised(text):
    assert told_enough(text)


@pytest.mark.parametrize(
    "text",
    [
        "You have enough funding to buy the painting bag.",
        "Go to the North Mine.",
        "Do you have enough money?",
        "你需要画一幅油画。",
        "你有足够的资金购买材料。",
    ],
)
def test_ordinary_replies_are_not_enough(text):
    assert not told_enough(text)


class EnoughAfterTwo(TreeWalkingProvider):
    """The tree walker, but it says "enough" (in another wording) from its third answer on."""

    async def respond(self, turns):
        if sum(t.speaker == Speaker.provider for t in turns) >= 3:
            return ProviderTurn(text="You already know everything you need.", kind=ReplyKind.enough)
        return await super().respond(turns)


async def test_heuristic_stops_when_told_enough_and_says_goodbye():
    task = make_task()
    transcript = await play_dialogue(task, build_seeker("heuristic", task), EnoughAfterTwo(task))
    lines = [turn.text for turn in transcript.seeker_turns]
    assert transcript.end_reason.value == "goodbye" and len(lines) == 4 and is_goodbye(lines[-1])


async def test_heuristic_questions_come_from_the_brief():
    task = make_task()
    planned = [question.text for question in build_seeker("heuristic", task).pending]  # type: ignore[attr-defined]
    assert "Which mine should I choose: West or North?" in planned  # the kind named, the options in short
    assert any("Summon the excavator or small shovel to dig" in line for line in planned)
    assert any("monsters guard it" in line for line in planned)  # the restriction
    assert "What is the air sucker for?" in planned  # how to use an item (its article dropped)
    transcript = await play_dialogue(task, build_seeker("heuristic", task), TreeWalkingProvider(task))
    lines = [turn.text for turn in transcript.seeker_turns]
    assert len(set(lines)) == len(lines) and is_goodbye(lines[-1])
    assert transcript.turns[-2].text == "You have enough."  # it stopped when told so
    assert not quotes(transcript, task)
    zh = build_seeker(
        "heuristic",
        make_task(language="zh").model_copy(
            update={
                "brief": task.brief.model_copy(
                    update={
                        "items": ("吸气器",),
                        "skills": ("释放火魔法（需要火晶石）",),
                        "scenes": ("西矿山", "北矿山", "码头"),
                    }
                )
            }
        ),
    )
    planned = [question.text for question in zh.pending]  # type: ignore[attr-defined]
    assert (
        planned[0].startswith("西矿山还是北矿山")
        and "吸气器要用在什么地方？" in planned
        and "在码头需要做什么？" in planned
    )
    assert any("需要火晶石" in line for line in planned)
    # skills that share a note are named together, what their names share said once
    tracking = ("使用心灵定位法追踪目标（需要魔晶石）", "使用风迹寻踪术追踪目标（需要魔晶石）")
    zh_task = make_task(language="zh")
    zh_task = zh_task.model_copy(update={"brief": zh_task.brief.model_copy(update={"skills": tracking})})
    planned = [question.text for question in build_seeker("heuristic", zh_task).pending]  # type: ignore[attr-defined]
    assert "使用心灵定位法、风迹寻踪术追踪目标的说明写着“需要魔晶石”，这个我该怎么解决？" in planned


@needs_upstream
@pytest.mark.parametrize("mode", ["single"])
async def test_a_full_heuristic_run_never_quotes_the_provider(mode, monkeypatch):
    from clarq_bench.data.loader import load_tasks
    from clarq_bench.fidelity import audit

    tasks = load_tasks(UPSTREAM_DATA, ("en", "zh"), types=list(range(14, 27)))
    assert len(tasks) == 260
    by_id = {task.id: task for task in tasks}
    transcripts = []
    real = audit.judge_deterministic

    def keep(transcript, task):
        transcripts.append(transcript)
        return real(transcript, task)

    monkeypatch.setattr(audit, "judge_deterministic", keep)
    verdicts = await play_all(
        tasks,
        ["heuristic"],
        lambda task: make_provider("offline", task, mode),
        provider_name="offline",
        max_turns=12,
        concurrency=8,
    )
    assert len(verdicts) == 260 and all(v.end_reason.value == "goodbye" for v in verdicts)
    found = {t.task_id: quotes(t, by_id[t.task_id]) for t in transcripts}
    assert not {task_id: runs for task_id, runs in found.items() if runs}
