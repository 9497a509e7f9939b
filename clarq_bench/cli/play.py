"""`clarq play`: a person takes one side of one dialogue at the terminal.

--role provider: you are Jax, answering a seeker (default heuristic) with the task's tree on screen (L2H).
--role seeker: you ask, against a provider (default offline) without seeing the tree (H2L).
The machine side may be a model, also one behind --api-base. The dialogue plays on an event loop of its own with
input read on this thread, so Ctrl-C stops it at once (asyncio.run would wait for Enter); nothing is saved then.
"""

from __future__ import annotations

import argparse

import sys

from .common import positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("play", help="play one dialogue yourself, as the provider or as the seeker; --web: "
                                   "people play tasks as the seeker in the browser")
    parser.add_argument("task_id", nargs="?", help="e.g. en/01/0 (see `clarq tasks list`); not with --web")
    parser.add_argument("--role", choices=["provider", "seeker"], help="the side you play (required without --web)")
    web = parser.add_argument_group("people in the browser (--web)")
    web.add_argument("--web", action="store_true", help="serve a page on 127.0.0.1 where each person, by name, plays "
                     "the selected tasks as the seeker; each person's dialogues are a run folder of their own")
    web.add_argument("--port", type=int, default=8766, help="--web port (default: 8766; 0 = any free one)")
    web.add_argument("--runs-dir", metavar="DIR", default="runs", help="where the people's run folders go")
    web.add_argument("--lang", choices=["en", "zh", "all"], default="en", help="--web: language (default: en)")
    web.add_argument("--split", choices=["test", "dev", "all"], default="test", help="--web: split (default: test)")
    web.add_argument("--types", metavar="N[,N-M]", help="--web: task types, e.g. 1-3")
    web.add_argument("--limit", type=positive_int, metavar="N", help="--web: N tasks spread over the types")
    parser.add_argument("--seeker", default="heuristic", help="the seeker you answer (--role provider)")
    parser.add_argument("--seeker-module", action="append", metavar="FILE.py",
                        help="import this file first, so the seekers it registers work by name")
    parser.add_argument("--provider", default="offline", help="the provider you ask (--role seeker)")
    parser.add_argument("--max-turns", type=positive_int, default=12, help="seeker turns before the cut-off (default: 12)")
    parser.add_argument("--save", metavar="FILE", help="append the transcript to this .jsonl file")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--data", metavar="DIR", help="task data folder (default: $CLARQ_DATA, then the cache)")
    source.add_argument("--tasks", metavar="DIR", help="a folder of tasks in the upstream layout, e.g. tasks/")
    model = parser.add_argument_group("model calls (when the other side is a model)")
    model.add_argument("--api-base", metavar="URL", help="an OpenAI-compatible endpoint, e.g. http://localhost:8000/v1")
    model.add_argument("--no-cache", action="store_true", help="do not read or write the response cache")
    parser.set_defaults(handler=_play)


def _play(args: argparse.Namespace) -> int:
    import asyncio

    from ..data.loader import load_tasks, resolve_data_dir
    from ..core.errors import ClarqError
    from ..runner.batch import build_provider, quick_success
    from ..core.run_config import AgentSettings
    from ..seekers.registry import SeekerConfig, SeekerTask, build_seeker

    from ..runner.prepare import import_seeker_modules

    if args.web:
        return _play_web(args)
    if not args.task_id or not args.role:
        raise ClarqError("a task id and --role are needed to play at the terminal", "e.g. `clarq play en/01/0 --role "
                         "seeker --tasks tasks/`, or --web for people in the browser")
    import_seeker_modules(args.seeker_module)
    language = args.task_id.split("/")[0]
    if language not in ("en", "zh"):
        raise ClarqError(f"bad task id {args.task_id!r}", "task ids look like en/01/0")
    tasks = load_tasks(resolve_data_dir(args.tasks or args.data), [language])
    matches = [t for t in tasks if t.id == args.task_id]
    if not matches:
        from .common import task_hint

        raise ClarqError(f"no task {args.task_id!r}", task_hint(args.task_id, [t.id for t in tasks]))
    task = matches[0]
    client = _client_for(args)
    if args.role == "provider":
        from ..provider.human import HumanProvider

        config = SeekerConfig(name=args.seeker, client=client)
        seeker, provider = build_seeker(args.seeker, task, config), HumanProvider(task, in_thread=False)
    else:
        from ..seekers.human import HumanSeeker

        seeker = HumanSeeker(SeekerTask.of(task), in_thread=False)
        provider = build_provider(AgentSettings(name=args.provider), task, client, seed=8848, trial=0)
    from ..runner.dialogue import play_dialogue

    loop = asyncio.new_event_loop()  # no asyncio.run: its Ctrl-C handler only cancels, and input() goes on waiting
    try:
        transcript = loop.run_until_complete(play_dialogue(task, seeker, provider, max_turns=args.max_turns,
                                                           turn_timeout=None))  # a person may think for long
    except KeyboardInterrupt as exc:
        print(f"\nclarq: play stopped ({str(exc) or 'Ctrl-C'}); nothing saved", file=sys.stderr)
        return 130
    finally:
        _close(loop, client)
    if args.role == "provider":
        print(f"seeker: {transcript.seeker_turns[-1].text if transcript.seeker_turns else ''}")
    from ..core.redact import redact

    if transcript.error:
        print(f"error: {redact(transcript.error)}")
    print(f"ended: {transcript.end_reason.value}; all required nodes obtained: {quick_success(task, transcript)}")
    if args.save:
        from ..core.jsonl import dumps_line

        with open(args.save, "a", encoding="utf-8") as out:
            out.write(redact(dumps_line(transcript)))
    return 0


def _client_for(args: argparse.Namespace) -> object:
    """An LLMClient when the machine side is a model (its key checked first, one line if missing), else None."""
    from ..core.run_config import AgentSettings
    from ..runner.prepare import models_by_role

    if args.role == "provider":
        models = models_by_role(AgentSettings(name=args.seeker))
    else:
        models = models_by_role(AgentSettings(name="heuristic"), AgentSettings(name=args.provider))
    from ..llm.options import ModelCallOptions
    from ..runner.prepare import open_client

    return open_client(models, ModelCallOptions.of(args))


def _close(loop: object, client: object) -> None:
    """End what is left on the loop (a model call cut by Ctrl-C, the client's HTTP sessions), then the loop."""
    import asyncio

    try:
        for task in asyncio.all_tasks(loop):  # type: ignore[arg-type]
            task.cancel()
        close = getattr(client, "aclose", None)
        if close is not None:
            loop.run_until_complete(close())  # type: ignore[attr-defined]
        loop.run_until_complete(asyncio.sleep(0))  # type: ignore[attr-defined]
    finally:
        loop.close()  # type: ignore[attr-defined]


def _play_web(args: argparse.Namespace) -> int:
    """Serve the people page until Ctrl-C; each person's finished run is scored as it ends."""
    import asyncio

    from ..core.errors import ClarqError
    from ..runner.web_play import PlayServer

    if args.task_id or args.role == "provider":
        raise ClarqError("--web plays the selected tasks as the seeker", "drop the task id and --role; select tasks "
                         "with --tasks/--data, --lang, --split, --types, --limit")
    options = {"tasks": args.tasks, "data": args.data, "lang": args.lang, "split": args.split, "types": args.types,
               "limit": args.limit, "provider": args.provider, "max_turns": args.max_turns, "api_base": args.api_base,
               "no_cache": args.no_cache}  # fmt: skip

    async def main() -> None:
        server = PlayServer(args.runs_dir, options, port=args.port)
        url = await server.serve()
        print(f"people page: {url}  (each person's run goes under {args.runs_dir}/; Ctrl-C to stop)", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await server.close()
            for name, desk in sorted(_desks().items()):
                print(f"{name}: {desk.done} dialogue(s) in {desk.folder}", flush=True)

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        print("stopped; a person who comes back under the same name resumes their run", flush=True)
    return 0


def _desks() -> dict:
    from ..seekers.web_human import DESKS

    return DESKS
