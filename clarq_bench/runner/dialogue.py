"""Plays one task: provider greeting, then seeker and provider alternate until goodbye, the turn cap, an error or
the budget. Returns a Transcript with an end reason, always.

Knows no names, files or CLI (the runner builds the seeker and provider and passes them in). A seeker or provider
is code from outside: whatever one call raises (any BaseException short of KeyboardInterrupt: SystemExit, its own
CancelledError, ...) or returns (not a string, a lone surrogate, megabytes of text), and a call that outlives
`turn_timeout`, ends only this dialogue, recorded as `error` with the role and the reason; the run goes on.
Ctrl-C and a cancellation of the dialogue itself propagate. `on_error(role, exc)` lets the runner see the exception
(its circuit breaker stops a run on errors no retry can fix). A call that blocks the event loop without awaiting
(time.sleep in async code) cannot be interrupted from inside the loop; the timeout covers calls that await.
The seeker is shown speaker and text of each turn only: the provider's annotations (revealed ids, intents) stay out
of its view.

Goodbye rule: clarq_bench.core.goodbye.is_goodbye (shared with the judge), checked on every seeker turn: English
"goodbye" in any case as a whole word, Chinese 再见, both whatever the task language, not when conditional ("If
not, goodbye").
The cap counts seeker turns (default 12, as released: the 12th seeker turn gets no reply).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from typing import Any, TypeVar

from ..core.defaults import DEFAULT_MAX_TURNS, DEFAULT_TURN_TIMEOUT
from ..core.goodbye import is_goodbye
from ..core.tasks import Task
from ..core.transcript import AgentInfo, EndReason, Speaker, Transcript, Turn, Usage
from ..provider.base import Provider
from ..seekers.base import DialogueView, Seeker

#: Longest turn text accepted from an agent; no model reply comes near it, a runaway plug-in can.
MAX_TURN_CHARS = 100_000

R = TypeVar("R")
__all__ = ["DEFAULT_MAX_TURNS", "DEFAULT_TURN_TIMEOUT", "TurnTimeout", "is_goodbye", "play_dialogue"]


class TurnTimeout(Exception):
    """An agent call took longer than the dialogue's turn timeout."""


class BadReply(Exception):
    """An agent returned something that cannot be a turn (not a string, not valid Unicode, far too long)."""


_LLM: list[Any] = []  # (track_usage, queue_clock), imported on the first agent call (not when this module loads)


def _llm() -> Any:
    if not _LLM:
        from ..llm.accounting import track_usage
        from ..llm.limits import queue_clock

        _LLM.extend((track_usage, queue_clock))
    return _LLM


def _meter() -> Any:
    """A usage scope around one agent call (the LLM layer's per-role meter)."""
    return _llm()[0]()


def _measured(meter: Any) -> Usage:
    total = getattr(meter, "total", None)
    return total if isinstance(total, Usage) else Usage()


async def _bounded(call: Callable[[], Awaitable[R]], timeout: float | None) -> R:
    """Await `call()` in its own task for at most `timeout` seconds (TurnTimeout after that; the task is cancelled).
    Time its model calls spend queued in clarq's own limiter (llm/limits.py QueueClock) is not counted.

    Its own task, not asyncio.wait_for: a CancelledError the agent raises itself is then its failure, told apart
    from a cancellation of this dialogue, and a timed-out call is abandoned even if it ignores the cancellation
    (it then runs on in the background until it ends, or until asyncio.run cancels it again at exit).
    """
    with _llm()[1]() as clock:  # the task copies the context: its model calls report their queue waits
        task = asyncio.ensure_future(_guarded(call))
    started = time.monotonic()
    try:
        # One bare pass of the loop first: the task's first step was scheduled before this one resumes, so a call
        # that never waits on anything (an offline agent) is already done here, without the waiter future and
        # timer handle of asyncio.wait, a few hundred microseconds a turn at hundreds of dialogues in flight.
        await asyncio.sleep(0)
        while not task.done():
            left = None if timeout is None else timeout - (time.monotonic() - started - clock.queued())
            if left is not None and left <= 0 and not clock.waiting:
                break
            wait = None if left is None else max(left, 0.05)  # while queued, look again shortly
            if await _ended(task, wait):
                break
    except BaseException:  # this dialogue is being cancelled: take the agent's call down with it
        task.cancel()
        raise
    if not task.done():
        task.cancel()
        raise TurnTimeout(f"no reply within the turn timeout of {timeout:g} s")
    result = task.result()
    if isinstance(result, _Raised):
        raise result.exc
    return result


async def _ended(task: asyncio.Future[Any], timeout: float | None) -> bool:
    """Whether `task` ended within `timeout` seconds: asyncio.wait for one task, without the sets, the copies and
    the loop over them that asyncio.wait makes on every agent call (a cancellation of the caller is raised here)."""
    loop = asyncio.get_running_loop()
    waiter: asyncio.Future[None] = loop.create_future()

    def wake(_: object = None) -> None:
        if not waiter.done():
            waiter.set_result(None)

    task.add_done_callback(wake)
    timer = None if timeout is None else loop.call_later(timeout, wake)
    try:
        await waiter
    finally:
        if timer is not None:
            timer.cancel()
        task.remove_done_callback(wake)
    return task.done()


class _Raised:
    """What an agent call raised, carried out of its task as a value (see `_guarded`)."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


async def _guarded(call: Callable[[], Awaitable[R]]) -> R | _Raised:
    """`await call()`, with SystemExit & co. returned as a value: raised inside a task, asyncio would re-raise them
    out of the event loop and end the run. Ctrl-C and cancellation keep their meaning."""
    try:
        return await call()
    except (KeyboardInterrupt, asyncio.CancelledError):
        raise
    except BaseException as exc:
        return _Raised(exc)


async def _timed(
    call: Callable[[], Awaitable[R]], timeout: float | None = None, spent_if_failed: list[Usage] | None = None
) -> tuple[R, Usage, float, list[str]]:
    """Run one agent call; return its result, the model usage it caused, its wall time and the router deployments
    that served its model calls (empty when no model is pooled). When it fails, what it spent so far goes into
    `spent_if_failed`: a paid reply stays counted in its dialogue even when the turn could not be played."""
    started = time.perf_counter()
    with _meter() as meter:
        try:
            result = await _bounded(call, timeout)
        except BaseException:
            if spent_if_failed is not None:
                spent_if_failed.append(_measured(meter))
            raise
    return result, _measured(meter), time.perf_counter() - started, list(getattr(meter, "served_by", []))


def checked_text(text: object, role: str) -> str:
    """`text` if it can be a turn: a str (or subclass, kept as a plain str), valid Unicode, not absurdly long."""
    if not isinstance(text, str):
        raise BadReply(f"{role} returned {type(text).__name__}, not str")
    text = str.__str__(text)
    if len(text) > MAX_TURN_CHARS:
        raise BadReply(f"{role} returned {len(text):,} characters (limit {MAX_TURN_CHARS:,})")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BadReply(
            f"{role} returned text that is not valid Unicode (a lone surrogate at position {exc.start})"
        ) from None
    return text


def safe_message(exc: BaseException) -> str:
    """`Type: message` of any exception, one line, valid Unicode, bounded: it is written into the transcript."""
    try:
        message = str(exc)
    except BaseException:  # a hostile __str__
        message = "(unprintable)"
    message = " ".join(message.encode("utf-8", "backslashreplace").decode("utf-8").split())
    if len(message) > 500:
        message = message[:497] + "..."
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _cancelled_from_outside(exc: BaseException) -> bool:
    """A CancelledError aimed at this dialogue (the run stopping), not one the agent raised on its own."""
    if not isinstance(exc, asyncio.CancelledError):
        return False
    task = asyncio.current_task()
    cancelling = getattr(
        task, "cancelling", None
    )  # Python 3.11+; on 3.10 no cancellation is known to come from outside
    return cancelling is not None and cancelling() > 0


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
    turn_timeout: float | None = DEFAULT_TURN_TIMEOUT,
    on_error: Callable[[str, BaseException], None] | None = None,
    on_exchange: Callable[[], None] | None = None,
) -> Transcript:
    """Play `task` to the end. `budget_exhausted` is polled before each seeker turn and after a failed call;
    `turn_timeout` (seconds, None = no limit) bounds each agent call; `on_exchange` is called after each provider
    reply (the runner's breaker waits for the first one before it starts the other dialogues)."""
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
        lost: list[Usage] = []  # what a failed call spent
        try:
            text, spent, latency, served = await _timed(lambda: seeker.respond(view), turn_timeout, lost)  # noqa: B023 - awaited within the turn
            usage["seeker"] = usage["seeker"] + spent  # paid, even if the text cannot be a turn
            text = checked_text(text, "seeker")
            turns.append(
                Turn(
                    speaker=Speaker.seeker,
                    text=text,
                    usage=spent,
                    latency_s=round(latency, 4),
                    notes={"served_by": served} if served else {},
                )
            )
            seen.append(Turn(speaker=Speaker.seeker, text=text))
            if is_goodbye(text):
                end = EndReason.goodbye
                break
            if number == max_turns:
                break
            role = "provider"
            reply, spent, latency, served = await _timed(lambda: provider.respond(list(turns)), turn_timeout, lost)
            lost.append(spent)  # paid, even if the reply cannot be a turn (taken back once it is one)
            turn = reply.to_turn(latency_s=round(latency, 4))
            if served:  # which router deployments answered this turn's model calls
                turn.notes["served_by"] = served
            turn.text = checked_text(turn.text, "provider")
            lost.clear()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # one bad call ends this dialogue, never the run
            if _cancelled_from_outside(exc):
                raise
            for spent in lost:
                usage[role] = usage[role] + spent
            end = EndReason.budget if out_of_budget() else EndReason.error
            error = f"{role}: {safe_message(exc)}"
            if on_error is not None and end == EndReason.error:
                on_error(role, exc)
            break
        if spent.calls or spent.cached_calls:  # measured by the LLM layer; otherwise keep what the provider reported
            turn.usage = spent
        usage["provider"] = usage["provider"] + turn.usage
        turns.append(turn)
        if on_exchange is not None:
            on_exchange()
        seen.append(Turn(speaker=Speaker.provider, text=turn.text))
    scripted = getattr(seeker, "scripted_replay", None)  # a replay seeker says where it went open-loop
    return Transcript.of_task(
        task,
        scripted=scripted(turns, trial) if callable(scripted) else None,
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
