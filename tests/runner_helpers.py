"""Small tasks and scripted agents for the dialogue, seeker and runner tests.

Importable by name (`runner_helpers:SlowSeeker`) from a subprocess run with PYTHONPATH=tests, so the kill-and-resume
test can select them on the `clarq run` command line like any plug-in.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

from clarq_bench.core.tasks import ResponseTree, Split, Task, TaskBrief
from clarq_bench.core.transcript import Intent, ReplyKind, Speaker, Turn
from clarq_bench.provider.base import ProviderState, ProviderTurn

TREE = [
    ("0", "Go to the mine and dig for rubies.", None),
    ("1", "Stun the monsters first.", "Use this response only if the other party has noticed the monsters."),
    ("1.1", "Collect fog in the Fantasy Forest.", "Use this response only if the other party has noticed the fog."),
    ("2", "Only the North Mine has rubies.", "Use this response only if the other party has noticed two mines."),
]


def make_task(index: int = 0, language: str = "en", type_number: int = 1) -> Task:
    """A small en task: root + nodes 1, 1.1, 2; scenes list two mines and two forests."""
    brief = TaskBrief(
        role="adventurer",
        task_name="collect rubies",
        items=("An air sucker",),
        skills=("Summon the excavator to dig", "Summon the small shovel to dig"),
        scenes=("West Mine (monsters guard it)", "North Mine (monsters guard it)", "Mist Forest", "Fantasy Forest"),
        background="You are an adventurer. Ask Jax how to collect rubies. Say goodbye when done.",
    )
    return Task(
        id=f"{language}/{type_number:02d}/{index}",
        language=language,  # type: ignore[arg-type]
        type_number=type_number,
        type_name="Gather Resources",
        index=index,
        split=Split.test,
        brief=brief,
        tree=ResponseTree.build(TREE),
    )


def write_task_folder(root: Path, count: int) -> Path:
    """A data folder in the upstream layout with `count` copies of the small task (type 1, English)."""
    folder = root / "English"
    folder.mkdir(parents=True, exist_ok=True)
    record = {
        "all_response": "\n".join([f"Jax: {text}" for _, text, _ in TREE] + [node_id for node_id, _, _ in TREE]),
        "all_response_exaplain": [explanation for _, _, explanation in TREE[1:]],
        "background_splitted": [
            "adventurer",
            "collect rubies",
            "An air sucker",
            "Summon the excavator to dig\nSummon the small shovel to dig",
            "West Mine\nNorth Mine\nMist Forest\nFantasy Forest",
        ],
        "background": "You are an adventurer. Ask Jax how to collect rubies.",
    }
    (folder / "1._Gather_Resources.json").write_text(json.dumps([record] * count), encoding="utf-8")
    return root


class TreeWalkingProvider:
    """Scripted provider: the root first, then the first frontier node for every turn until none is left."""

    def __init__(self, task: Task, settings: Any = None) -> None:
        self.task = task
        options = getattr(settings, "options", {}) or {}
        self.delay = float(options.get("provider_delay", 0.0))
        self.fail_on = int(options.get("fail_on", 0))  # 1-based provider turn that raises (0: never)
        # outside the run's config (so a resume sees no change): task indexes whose first provider turn raises
        failing = os.environ.get("RUNNER_HELPERS_FAIL_TASKS", "")
        if str(task.index) in failing.split(","):
            self.fail_on = 1
        self.calls = 0

    def greeting(self) -> ProviderTurn:
        return ProviderTurn(text="what can help you?", kind=ReplyKind.greeting)

    async def respond(self, turns: list[Turn]) -> ProviderTurn:
        self.calls += 1
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.calls == self.fail_on:
            raise RuntimeError("provider model failed")
        state = ProviderState.from_turns(self.task.tree, turns)
        if not state.root_given:
            return ProviderTurn(text=self.task.tree.root.text, kind=ReplyKind.root, revealed=["0"])
        if not state.frontier:
            return ProviderTurn(text="You have enough.", kind=ReplyKind.enough)
        node = self.task.tree[state.frontier[0]]
        return ProviderTurn(text=node.text, kind=ReplyKind.response_i, intent=Intent.answerable, revealed=[node.id])


class ScriptedSeeker:
    """Says the lines of `config.options["lines"]` (a `|`-separated string) in order, then goodbye."""

    def __init__(self, task: Any, config: Any) -> None:
        raw = (config.options or {}).get("lines", "hello|what else?")
        self.lines = raw.split("|") if isinstance(raw, str) else list(raw)
        self.delay = float((config.options or {}).get("delay", 0.0))

    async def respond(self, view: Any) -> str:
        if self.delay:
            await asyncio.sleep(self.delay)
        asked = sum(1 for turn in view.turns if turn.speaker == Speaker.seeker)
        return self.lines[asked] if asked < len(self.lines) else "Thanks. Goodbye!"


class SlowSeeker(ScriptedSeeker):
    """A ScriptedSeeker that waits `delay` seconds (default 0.05) before each line: for kill-and-resume tests."""

    def __init__(self, task: Any, config: Any) -> None:
        super().__init__(task, config)
        self.delay = self.delay or 0.05


# --- hostile seekers: each misbehaves in one way; the run must record it on the dialogue and go on -------------


class HangingSeeker:
    """Never answers (awaits forever): costs one turn timeout, not the run."""

    def __init__(self, task: Any, config: Any) -> None:
        pass

    async def respond(self, view: Any) -> str:
        await asyncio.Event().wait()
        return "never"


class SurrogateSeeker:
    """Returns a lone surrogate, which cannot be written as UTF-8."""

    def __init__(self, task: Any, config: Any) -> None:
        pass

    async def respond(self, view: Any) -> str:
        return "hello \ud800 there"


class _Raising:
    error: BaseException = RuntimeError("boom")

    def __init__(self, task: Any, config: Any) -> None:
        pass

    async def respond(self, view: Any) -> str:
        raise self.error


class CancellingSeeker(_Raising):
    """Raises CancelledError of its own accord (nobody cancelled it)."""

    error = asyncio.CancelledError()


class ExitingSeeker(_Raising):
    """Calls sys.exit: SystemExit must not end the run."""

    error = SystemExit(3)


class GeneratorExitSeeker(_Raising):
    error = GeneratorExit()


class UnprintableError(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message for you")


class UnprintableSeeker(_Raising):
    """Raises an exception whose str() itself raises."""

    error = UnprintableError()


class SurrogateErrorSeeker(_Raising):
    """Raises an exception whose message holds a lone surrogate and a newline."""

    error = ValueError("bad \udcff\nnews")


class BytesSeeker:
    def __init__(self, task: Any, config: Any) -> None:
        pass

    async def respond(self, view: Any) -> Any:
        return b"goodbye"


class HugeSeeker:
    def __init__(self, task: Any, config: Any) -> None:
        pass

    async def respond(self, view: Any) -> str:
        return "x" * 5_000_000


class SyncSeeker:
    """`respond` is not async: returns a str instead of an awaitable."""

    def __init__(self, task: Any, config: Any) -> None:
        pass

    def respond(self, view: Any) -> str:
        return "goodbye"


def make_sync_seeker(task: Any, config: Any) -> SyncSeeker:
    """A factory function, so the class is not checked when the name is resolved: the dialogue's own guard is."""
    return SyncSeeker(task, config)


class LineBreakSeeker(ScriptedSeeker):
    """Speaks Unicode line separators (U+2028, U+2029, U+0085) that str.splitlines() would split on."""

    def __init__(self, task: Any, config: Any) -> None:
        super().__init__(task, config)
        self.lines = ["mines\u2028or\u2029forests\u0085?", "monsters?"]


HOSTILE_SEEKERS = (
    "SurrogateSeeker",
    "CancellingSeeker",
    "ExitingSeeker",
    "GeneratorExitSeeker",
    "UnprintableSeeker",
    "SurrogateErrorSeeker",
    "BytesSeeker",
    "HugeSeeker",
    "make_sync_seeker",
)


class NoteBombProvider(TreeWalkingProvider):
    """Answers like TreeWalkingProvider but attaches notes the transcript file cannot hold: nested 100 levels deep
    for task index 0, an object JSON cannot express for the others."""

    async def respond(self, turns: list[Turn]) -> ProviderTurn:
        reply = await super().respond(turns)
        deep: Any = "bottom"
        for _ in range(100):
            deep = [deep]
        reply.notes = {"deep": deep} if self.task.index == 0 else {"thing": object()}
        return reply


def proposing_provider(body: dict) -> str:
    """A fake-server provider model that proposes node 1 to every turn (what the strict reading holds back)."""
    prompt = str(body["messages"][-1]["content"])
    if (body.get("response_format") or {}).get("type") in ("json_object", "json_schema") or '"intent"' in prompt:
        return json.dumps(
            {"related": True, "intent": 2, "node_ids": ["1"], "summary_confirmation": False, "rationale": "any"}
        )
    return "Just go on as you are."
