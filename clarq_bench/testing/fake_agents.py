"""A fake-server responder that plays both LLM agents, so whole runs go through the real HTTP stack without a model.

The provider model answers its relatedness gate with "related" and its decision call with the first answer the
prompt offers; the seeker model asks until the provider says it has enough, then says goodbye. Its questions ask
what the next node of the tree resolves (the "noticed ..." clause of the node's explanation), so that the providers'
focus rule (a node is revealed only to a question about its uncertainty) lets every dialogue walk its whole tree:
the fake knows the tree of the bundled sample tasks (and of any tasks handed to it), recognised by the brief's task
name in the prompt; for any other task it asks a question about nothing in particular. Reads our own prompt files for the phrases it keys on, so it follows prompt edits. `both_agents_one_model` plays
both behind one model name (a pool serving both roles), telling them apart by the provider prompts' JSON keys.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from ..core import prompts
from ..core.tasks import Task

#: A frontier line of the provider's decision prompt (prompts/provider/llm_node_line.*.md).
OFFERED = re.compile(r'^- (?:id|编号) "([^"]+)"', re.MULTILINE)
CJK = re.compile(r"[\u4e00-\u9fff]")
#: What only the provider's gate and decision prompts ask for (prompts/provider/llm_gate.*, llm_decide.*).
PROVIDER_KEYS = re.compile(r'"(?:related|intent)"')


def both_agents_one_model() -> Callable[[dict[str, Any]], str]:
    """Both agents behind one model name: the provider's requests are told apart by their prompts."""
    return both_agents(None, None)


#: "Note: ... only if the other party has noticed X." / "注：只有在对方注意到X才使用": what a node's question is about.
NOTICED = {
    "en": re.compile(r"noticed (?:that )?(.+?)\s*\.?\s*$", re.IGNORECASE),
    "zh": re.compile(r"注意到了?(.+?)(?:才|时|$)"),
}
#: "... only if the other party asks where to build the stage" / "仅当对方询问地图集在哪里时".
ASKS = {
    "en": re.compile(r"\basks (?:about )?(.+?)(?:\.|$)", re.IGNORECASE),
    "zh": re.compile(r"(?:询问|问到)(.+?)(?:时|，|。|$)"),
}
GAP = {
    "en": re.compile(r"did not (?:specify|explain|mention|clarify|say|provide) (.+?)\.", re.IGNORECASE),
    "zh": re.compile(r"没有(?:明确)?(?:指出|给出|说明|提到|介绍|解释)(.+?)[。，]"),
}


@lru_cache(maxsize=1)
def _sample_tasks() -> tuple[Task, ...]:
    from ..data.loader import SAMPLE_TASKS, load_tasks

    return tuple(load_tasks(SAMPLE_TASKS))


def _task_of(prompt: str, tasks: Iterable[Task]) -> Task | None:
    """The task whose brief the prompt carries (its task name), the longest name first."""
    named = [task for task in tasks if task.brief.task_name and task.brief.task_name in prompt]
    return max(named, key=lambda task: len(task.brief.task_name), default=None)


def _units(text: str, language: str) -> set[str]:
    lowered = text.lower()
    if language == "zh":
        return {lowered[i : i + 2] for i in range(len(lowered) - 1)}
    return set(re.findall(r"[a-z]{3,}", lowered)) - {"the", "and", "for", "with"}


def _choice_in(task: Task, text: str) -> tuple[str, str] | None:
    """A brief entry the text names (most of its words or character pairs) and another entry of the same list
    that shares a word with it: the two sides of the choice the text settles."""
    language, said = task.language, _units(text, task.language)
    brief = task.brief
    for listed in (brief.items, brief.skills, brief.scenes):
        names = [re.sub(r"\s*[(（][^)）]*[)）]", "", entry).strip() for entry in listed]
        for name in names:
            units = _units(name, language)
            if units and len(units & said) * 3 >= 2 * len(units):
                for other in names:
                    if other != name and _units(other, language) & units:
                        return name, other
    return None


def question_for(task: Task, prompt: str) -> str | None:
    """A question about what the next node of the tree resolves, given the nodes the prompt already carries."""
    tree, language = task.tree, task.language
    revealed = [node.id for node in tree.required if node.text in prompt]
    frontier = tree.frontier(revealed)
    if not frontier:
        return None
    node = tree[frontier[0]]
    explanation = node.explanation or ""
    match = NOTICED[language].search(explanation)
    if match:
        concern = match.group(1).strip().rstrip("。.")
        return (
            f"我注意到{concern}，这该怎么办？"
            if language == "zh"
            else f"I have noticed {concern}, so what should I do?"
        )
    for pattern in (ASKS[language], GAP[language]):
        match = pattern.search(explanation)
        if match:
            asked = match.group(1).strip().rstrip("。.")
            return f"请问{asked}？" if language == "zh" else f"Could you tell me {asked}?"
    if not explanation:  # an unannotated node: offer the brief's options it names with one of their kind
        choice = _choice_in(task, node.text)
        if choice:
            first, second = choice
            return (
                f"应该选{first}还是{second}？"
                if language == "zh"
                else f"Which one is right: the {first} or the {second}?"
            )
        return (
            f"关于这一点：{node.text.rstrip('。')}，能详细说说吗？"
            if language == "zh"
            else f"Could you tell me more about this: {node.text.rstrip('.')}?"
        )
    return None


def both_agents(
    seeker_model: str | None, provider_model: str | None, tasks: Iterable[Task] | None = None
) -> Callable[[dict[str, Any]], str]:
    """A responder for FakeOpenAIServer: requests for `seeker_model` get seeker turns, the rest provider JSON (with
    None for both: requests whose prompt asks for the provider's JSON keys are the provider's). `tasks`: trees the
    seeker may know besides the sample tasks."""
    seeker_name = seeker_model.split("/", 1)[-1] if seeker_model else ""
    enough = [prompts.load("provider/llm_enough", language).strip() for language in ("en", "zh")]
    extra = tuple(tasks or ())

    def respond(body: dict[str, Any]) -> str:
        prompt = str(body["messages"][-1]["content"])
        is_seeker = body.get("model") == seeker_name if seeker_name else not PROVIDER_KEYS.search(prompt)
        if is_seeker:
            done = any(phrase in prompt for phrase in enough)
            step = prompt.count("\n")  # grows every turn: the same question twice would be a repeat (intent 4)
            task = None if done else _task_of(prompt, (*extra, *_sample_tasks()))
            question = question_for(task, prompt) if task is not None else None
            if question is not None:
                return question
            if CJK.search(prompt):
                return "谢谢，再见！" if done else f"第{step}步我应该选哪一个？具体怎么做？"
            return "Thank you, goodbye!" if done else f"For step {step}, which one should I choose, and how?"
        if '"related"' in prompt:
            return json.dumps({"related": True, "rationale": "asks about the task"})
        offered = OFFERED.findall(prompt)[:1]
        return json.dumps({"intent": 2, "node_ids": offered, "summary_confirmation": False, "rationale": "clear"})

    return respond
