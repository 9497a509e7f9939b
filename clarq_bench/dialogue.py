"""Plays one task: provider greeting, then seeker and provider alternate until goodbye, the turn cap, an error or
the budget. Returns a Transcript with an end reason, always.

Knows no names, files or CLI (the runner builds the seeker and provider and passes them in). A failing seeker or
provider call ends only this dialogue, recorded as `error`; cancellation (Ctrl-C) propagates. The seeker is shown
speaker and text of each turn only: the provider's annotations (revealed ids, intents) stay out of its view.

Goodbye rule: clarq_bench.goodbye.is_goodbye (shared with the judge), checked on every seeker turn: English
"goodbye" in any case as a whole word, Chinese 再见, both whatever the task language.
The cap counts seeker turns (default 12, as released: the 12th seeker turn gets no reply).
"""

from __future__ import annotations

import time
from contextlib import nullcontext
from functools import lru_cache
from datetime import datetime, timezone
from typing import Any, Awaitable, Callable, TypeVar

from .goodbye import is_goodbye
from .provider.base import Provider
from .seekers.base import DialogueView, Seeker
from .tasks import Task
from .transcript import AgentInfo, EndReason, Speaker, Transcript, Turn, Usage

DEFAULT_MAX_TURNS = 12

R = TypeVar("R")
__all__ = ["DEFAULT_MAX_TURNS", "is_goodbye", "play_dialogue"]


@lru_cache(maxsize=1)
def _track_usage() -> Callable[[], Any] | None:
    """The LLM layer's per-role usage scope, looked up once (None when the layer is not installed)."""
    try:
        from .llm import track_usage
    except ImportError:
        return None
    return track_usage


def _meter() -> Any:
    """A usage scope around one agent call; measures nothing without the LLM layer."""
    track = _track_usage()
    return track() if track is not None else nullcontext(None)


def _measured(meter: Any) -> Usage:
    if meter is None:
        return Usage()
    total = Usage()
    for usage in getattr(meter, "by_role", {}).values():
        total = total + usage
    return total


async def _timed(call: Callable[[], Awaitable[R]]) -> tuple[R, Usage, float]:
    """Run one agent call; return its result, the model usage it caused and its wall time."""
    started = time.perf_counter()
    with _meter() as meter:
        result = await call()
    return result, _measured(meter), time.perf_counter() - started


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


async def play_dialogue(
    task: Task,
    seeker: Seeker,
    provider: Provider,
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    trial: int = 0,
    seed: int = 0,
    seeker_info: AgentInfo | None = None,
    provider_info: AgentInfo | None = None,
    budget_exhausted: Callable[[], bool] | None = None,
) -> Transcript:
    """Play `task` to the end. `budget_exhausted` is polled before each seeker turn and after a failed call."""
    if max_turns < 1:
        raise ValueError("max_turns must be at least 1")
    started_at = _now()
    turns: list[Turn] = [provider.greeting().to_turn()]
    seen: list[Turn] = [Turn(speaker=Speaker.provider, text=turns[0].text)]
    usage = {"seeker": Usage(), "provider": Usage()}
    end, error = EndReason.turn_cap, None
    out_of_budget = budget_exhausted or (lambda: False)
    for number in range(1, max_turns + 1):
        if out_of_budget():
            end = EndReason.budget
            break
        view = DialogueView(
            task_id=task.id, language=task.language, brief=task.brief, turns=tuple(seen), trial=trial, seed=seed
        )
        role = "seeker"
        try:
            text, spent, latency = await _timed(lambda: seeker.respond(view))
            if not isinstance(text, str):
                raise TypeError(f"seeker returned {type(text).__name__}, not str")
            usage["seeker"] = usage["seeker"] + spent
            turns.append(Turn(speaker=Speaker.seeker, text=text, usage=spent, latency_s=round(latency, 4)))
            seen.append(Turn(speaker=Speaker.seeker, text=text))
            if is_goodbye(text):
                end = EndReason.goodbye
                break
            if number == max_turns:
                break
            role = "provider"
            reply, spent, latency = await _timed(lambda: provider.respond(list(turns)))
        except Exception as exc:  # one bad call ends this dialogue, never the run
            end = EndReason.budget if out_of_budget() else EndReason.error
            error = f"{role}: {exc.__class__.__name__}: {exc}"
            break
        turn = reply.to_turn(latency_s=round(latency, 4))
        if spent.calls:  # measured by the LLM layer; otherwise keep what the provider reported
            turn.usage = spent
        usage["provider"] = usage["provider"] + turn.usage
        turns.append(turn)
        seen.append(Turn(speaker=Speaker.provider, text=turn.text))
    return Transcript.of_task(
        task,
        trial=trial,
        seed=seed,
        seeker=seeker_info or AgentInfo(name=type(seeker).__name__),
        provider=provider_info or AgentInfo(name=type(provider).__name__),
        turns=turns,
        end_reason=end,
        error=error,
        usage=usage,
        started_at=started_at,
        finished_at=_now(),
    )
