"""The `llm` baseline seeker: any litellm model, in the paper's two prompt layouts.

completion (default): one user message holding the brief, the dialogue so far and "say your next line".
chat: the brief as the system message, provider turns as `user`, seeker turns as `assistant`.
Wording lives in prompts/seeker/ (brief, completion, chat_system, line_*). Calls go through the LLM layer only.
"""

from __future__ import annotations

import re

from ..core import prompts
from ..core.errors import ClarqError
from ..core.transcript import Speaker
from .base import DialogueView
from .registry import SeekerConfig, SeekerTask

#: A model sometimes prefixes its line with a speaker label ("You:", "Adventurer:", "你："); we drop one.
LABEL = re.compile(r"^\s*\w{1,15}\s*[:：]\s*(?=\S)")


def render_brief(task: SeekerTask) -> str:
    """The seeker's instructions built from the brief's parts (role, task, items, skills, scenes)."""
    brief, language = task.brief, task.language
    none = prompts.load("seeker/none", language)
    listed = {
        key: "\n".join(values) or none
        for key, values in (("items", brief.items), ("skills", brief.skills), ("scenes", brief.scenes))
    }
    return prompts.render("seeker/brief", language, role=brief.role, task_name=brief.task_name, **listed)


def completion_messages(
    task: SeekerTask, view: DialogueView, brief: str | None = None, rendered: dict[tuple[str, str], str] | None = None
) -> list[dict[str, str]]:
    """`rendered` (speaker, text) -> line, kept by the caller across turns: each line is rendered once a dialogue."""
    rendered = {} if rendered is None else rendered
    lines = []
    for turn in view.turns:
        key = (turn.speaker.value, turn.text)
        line = rendered.get(key)
        if line is None:
            line = rendered[key] = prompts.render(f"seeker/line_{key[0]}", view.language, text=turn.text.strip())
        lines.append(line)
    brief = render_brief(task) if brief is None else brief
    text = prompts.render("seeker/completion", view.language, brief=brief, transcript="\n".join(lines))
    return [{"role": "user", "content": text}]


def chat_messages(task: SeekerTask, view: DialogueView, brief: str | None = None) -> list[dict[str, str]]:
    brief = render_brief(task) if brief is None else brief
    messages = [{"role": "system", "content": prompts.render("seeker/chat_system", view.language, brief=brief)}]
    for turn in view.turns:
        role = "user" if turn.speaker == Speaker.provider else "assistant"
        messages.append({"role": role, "content": turn.text})
    return messages


def clean_reply(text: str) -> str:
    """Strip blanks and one leading speaker label; keep the rest verbatim."""
    text = text.strip()
    if LABEL.match(text) and not text.lower().startswith(("jax", "note")):
        text = LABEL.sub("", text, count=1)
    return text.strip()


class LLMSeeker:
    """LLM baseline seeker (--seeker-mode completion|chat) on any litellm model; `--seeker gpt-4o` selects it."""

    def __init__(self, task: SeekerTask, config: SeekerConfig) -> None:
        if not config.model:
            raise ClarqError("the llm seeker needs a model", "pass --seeker-model MODEL or --seeker MODEL")
        if config.client is None:
            raise ClarqError("the llm seeker needs an LLM client", "build it through the runner or pass client=")
        self.task = task
        self.config = config
        self.brief = render_brief(task)  # the same for every turn: rendered once
        self._lines: dict[tuple[str, str], str] = {}  # and each turn's line once

    def messages(self, view: DialogueView) -> list[dict[str, str]]:
        if self.config.mode == "chat":
            return chat_messages(self.task, view, self.brief)
        return completion_messages(self.task, view, self.brief, self._lines)

    async def respond(self, view: DialogueView) -> str:
        completion = await self.config.client.complete(
            self.messages(view),
            model=self.config.model,
            role="seeker",
            temperature=self.config.temperature,
            seed=view.seed,
            trial=view.trial,
            max_tokens=self.config.max_tokens,
        )
        return clean_reply(completion.text)
