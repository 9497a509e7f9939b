"""One dialogue with a person on one side, at the terminal (`clarq play`): as the provider ("Jax", the task's tree
on screen) answering a seeker (L2H), or as the seeker asking a provider without the tree (H2L).

The machine side is resolved by the same rules as a run's sides (seekers.registry, provider.registry) and its key
checked by the same door (prepare.open_client). The dialogue plays on an event loop of its own with input read on
this thread, so Ctrl-C stops it at once (asyncio.run would wait for Enter): KeyboardInterrupt reaches the caller,
and nothing is saved. Writes nothing itself.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, NamedTuple, cast

from ..core.defaults import DEFAULT_MAX_TURNS, DEFAULT_SEED
from ..core.errors import ClarqError
from ..core.tasks import Language, Task
from ..core.transcript import Transcript
from ..llm.options import ModelCallOptions
from .batch import build_provider, quick_success
from .dialogue import play_dialogue
from .prepare import import_seeker_modules, models_by_role, open_client

#: The provider's seed and trial in a dialogue played by hand (the run's defaults for trial 0).
SEED, TRIAL = DEFAULT_SEED, 0


class Played(NamedTuple):
    """The dialogue a person played, and whether every required node was obtained (the deterministic stage)."""

    task: Task
    transcript: Transcript
    success: bool


def play_by_hand(
    task_id: str,
    role: str,
    *,
    seeker: str = "heuristic",
    provider: str = "offline",
    source: str | Path | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    seeker_module: list[str] | str | None = None,
    options: ModelCallOptions | None = None,
    provider_reading: str | None = None,
) -> Played:
    """Load the task, resolve the machine side, check its key, play. `source` is a task folder (else $CLARQ_DATA,
    then the cache); `options` the model-call options when the machine side is a model; `provider_reading` an LLM
    provider's reading (model, the default, or strict)."""
    from ..core.run_config import AgentSettings
    from ..data.loader import load_tasks, resolve_data_dir
    from ..data.selection import find_task
    from ..provider.registry import resolve_provider
    from ..seekers.registry import SeekerTask, resolve_seeker

    if role not in ("provider", "seeker"):
        raise ClarqError(f"bad role {role!r}", "play as the provider or as the seeker")
    import_seeker_modules(seeker_module)
    language = task_id.split("/")[0]
    if language not in ("en", "zh"):
        raise ClarqError(f"bad task id {task_id!r}", "task ids look like en/01/0")
    task = find_task(load_tasks(resolve_data_dir(source), [cast("Language", language)]), task_id)
    if role == "provider":
        seeker_spec = resolve_seeker(seeker)
        client = open_client(models_by_role(seeker_spec), options or ModelCallOptions())
        from ..provider.human import HumanProvider

        sides: tuple[Any, Any] = (seeker_spec.with_client(client).build(task), HumanProvider(task, in_thread=False))
    else:
        provider_spec = resolve_provider(provider)
        reading = provider_spec.reading({"reading": provider_reading} if provider_reading else None)
        client = open_client(models_by_role(None, provider_spec), options or ModelCallOptions())
        from ..seekers.human import HumanSeeker

        sides = (
            HumanSeeker(SeekerTask.of(task), in_thread=False),
            build_provider(
                provider_spec,
                AgentSettings(name=provider, options={"reading": reading} if reading else {}),
                task,
                client,
                seed=SEED,
                trial=TRIAL,
            ),
        )
    loop = asyncio.new_event_loop()  # no asyncio.run: its Ctrl-C handler only cancels, and input() goes on waiting
    try:
        transcript = loop.run_until_complete(
            play_dialogue(task, *sides, max_turns=max_turns, turn_timeout=None)
        )  # a person may think for long
    finally:
        _close(loop, client)
    return Played(task, transcript, quick_success(task, transcript))


def _close(loop: asyncio.AbstractEventLoop, client: Any) -> None:
    """End what is left on the loop (a model call cut by Ctrl-C, the client's HTTP sessions), then the loop."""
    try:
        for task in asyncio.all_tasks(loop):
            task.cancel()
        close = getattr(client, "aclose", None)
        if close is not None:
            loop.run_until_complete(close())
        loop.run_until_complete(asyncio.sleep(0))
    finally:
        loop.close()
