"""The model (or solver) inspect evaluates, as a clarq Seeker; and the solver that plays one sample's dialogue.

Why a Seeker and not a loop of its own: the dialogue is clarq's play_dialogue, so the goodbye rule, the turn cap, the
checks on each reply, the per-call timeout and the error handling are the ones `clarq run` uses, decided in one place.
The seeker's prompt is clarq's (prompts/seeker/, completion or chat layout: seekers/llm.py), and its reply is cleaned
the same way; a scripted model therefore says the same words under both harnesses.

With `-T solver=NAME` an inspect solver or agent speaks for the seeker instead: it keeps its own conversation
(system brief in the chat layout, each provider reply appended as a user message, its tool calls in between) and its
final completion of each turn is the seeker's line.
"""

from __future__ import annotations

from typing import Any

from ..core.run_config import RunConfig
from ..core.tasks import Task
from ..core.transcript import Speaker, Transcript
from ..provider.registry import resolve_provider
from ..runner.dialogue import play_dialogue
from ..runner.run_identity import agent_infos
from ..seekers.base import DialogueView
from ..seekers.llm import chat_messages, clean_reply, completion_messages, render_brief
from ..seekers.registry import SeekerTask
from .models import InspectModels, generate

#: Where a sample's finished dialogue is kept in inspect's sample store (the log carries it to import-inspect).
STORE_KEY = "clarq_transcript"


class InspectSeeker:
    """clarq's llm seeker on the model inspect evaluates (`get_model()`), calls logged as inspect model events."""

    def __init__(self, task: Task, mode: str) -> None:
        self.task = SeekerTask.of(task)
        self.mode = mode
        self.brief = render_brief(self.task)

    async def respond(self, view: DialogueView) -> str:
        from inspect_ai.model import get_model

        build = chat_messages if self.mode == "chat" else completion_messages
        text, _ = await generate(get_model(), build(self.task, view, self.brief), "seeker", seed=view.seed)
        return clean_reply(text)


class SolverSeeker:
    """An inspect solver or agent as the seeker: it answers each turn on its own TaskState."""

    def __init__(self, task: Task, inner: Any, state: Any, generate_fn: Any) -> None:
        self.task = SeekerTask.of(task)
        self.inner, self.state, self.generate = inner, state, generate_fn
        self.given = 0  # provider turns already appended to the solver's conversation

    async def respond(self, view: DialogueView) -> str:
        from inspect_ai.model import ChatMessageSystem, ChatMessageUser

        if not self.state.messages:
            system = chat_messages(self.task, view.model_copy(update={"turns": ()}))[0]["content"]
            self.state.messages.append(ChatMessageSystem(content=system))
        provider_turns = [turn for turn in view.turns if turn.speaker == Speaker.provider]
        for turn in provider_turns[self.given :]:
            self.state.messages.append(ChatMessageUser(content=turn.text))
        self.given = len(provider_turns)
        self.state = await self.inner(self.state, self.generate)
        return clean_reply(self.state.output.completion)


def dialogue_messages(transcript: Transcript, brief_system: str) -> list[Any]:
    """The dialogue in the chat layout (provider = user, seeker = assistant), which `inspect view` shows."""
    from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageUser

    messages: list[Any] = [ChatMessageSystem(content=brief_system)]
    for turn in transcript.turns:
        kind = ChatMessageUser if turn.speaker == Speaker.provider else ChatMessageAssistant
        messages.append(kind(content=turn.text))
    return messages


def trial_of(metadata: dict[str, Any], epoch: int, trials: int) -> int:
    """A sample's trial: its own index, then one block of `trials` per extra inspect epoch (so keys stay unique)."""
    return int(metadata["trial"]) + (max(epoch, 1) - 1) * trials


def clarq_dialogue(tasks: dict[str, Task], config: RunConfig, inner: Any = None) -> Any:
    """The solver: play the sample's task with the seeker, clarq's provider (offline, or an LLM on inspect's model
    role `provider`), the goodbye rule and the turn cap; keep the transcript and show the dialogue."""
    from inspect_ai.model import ModelOutput, get_model
    from inspect_ai.solver import solver

    @solver(name="clarq_dialogue")
    def build() -> Any:
        async def solve(state: Any, generate_fn: Any) -> Any:
            task = tasks[state.metadata["task_id"]]
            trial = trial_of(state.metadata, state.epoch, config.trials)
            seed = config.trial_seed(trial)
            model = str(get_model())
            update: dict[str, Any] = {"seeker": config.seeker.model_copy(update={"model": model})}
            if config.provider.name == "llm":  # the model bound to inspect's `provider` role
                provider_model = str(InspectModels.model_for("provider"))
                update["provider"] = config.provider.model_copy(update={"model": provider_model})
            settings = config.model_copy(update=update)
            spec = resolve_provider(settings.provider.name, settings.provider.model)
            seeker_info, provider_info = agent_infos(settings, settings.seeker.name, model, spec)
            provider = (
                spec.build(
                    task,
                    settings.provider.mode,
                    client=InspectModels(),
                    seed=seed,
                    trial=trial,
                    **settings.provider.options,
                )
                if settings.provider.name == "llm"
                else spec.build(task, settings.provider.mode)
            )
            if inner is None:
                seeker: Any = InspectSeeker(task, config.seeker.mode or "completion")
            else:
                state.messages = []
                seeker = SolverSeeker(task, inner, state, generate_fn)
            transcript = await play_dialogue(
                task,
                seeker,
                provider,
                max_turns=config.max_turns,
                trial=trial,
                seed=seed,
                seeker_info=seeker_info,
                provider_info=provider_info,
                turn_timeout=config.turn_timeout,
            )
            state = seeker.state if inner is not None else state
            state.store.set(STORE_KEY, transcript.model_dump(mode="json"))
            if inner is None:
                system = chat_messages(SeekerTask.of(task), _empty_view(task))[0]["content"]
                state.messages = dialogue_messages(transcript, system)
            last = transcript.seeker_turns[-1].text if transcript.seeker_turns else ""
            state.output = ModelOutput.from_content(model=model, content=last)
            return state

        return solve

    return build()


def _empty_view(task: Task) -> DialogueView:
    return DialogueView(task_id=task.id, language=task.language, brief=task.brief, turns=())
