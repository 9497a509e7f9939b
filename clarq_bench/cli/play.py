"""`clarq play`: a person takes one side of one dialogue at the terminal.

--role provider: you are Jax, answering a seeker (default heuristic) with the task's tree on screen (L2H).
--role seeker: you ask, against a provider (default offline) without seeing the tree (H2L).
The machine side may be a model, also one behind --api-base. Flags in, one API call (clarq_bench.play, or
play_server with --web), printing out; Ctrl-C stops the dialogue at once and nothing is saved then.
"""

from __future__ import annotations

import argparse
import sys

from ..core.defaults import DEFAULT_MAX_TURNS
from .common import positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play one dialogue yourself, as the provider or as the seeker; --web: "
        "people play tasks as the seeker in the browser",
    )
    parser.add_argument("task_id", nargs="?", help="e.g. en/01/0 (see `clarq tasks list`); not with --web")
    parser.add_argument("--role", choices=["provider", "seeker"], help="the side you play (required without --web)")
    web = parser.add_argument_group("people in the browser (--web)")
    web.add_argument(
        "--web",
        action="store_true",
        help="serve a page on 127.0.0.1 where each person, by name, plays "
        "the selected tasks as the seeker; each person's dialogues are a run folder of their own",
    )
    web.add_argument("--port", type=int, default=8766, help="--web port (default: 8766; 0 = any free one)")
    web.add_argument("--runs-dir", metavar="DIR", default="runs", help="where the people's run folders go")
    web.add_argument("--lang", choices=["en", "zh", "all"], default="en", help="--web: language (default: en)")
    web.add_argument("--split", choices=["test", "dev", "all"], default="test", help="--web: split (default: test)")
    web.add_argument("--types", metavar="N[,N-M]", help="--web: task types, e.g. 1-3")
    web.add_argument("--limit", type=positive_int, metavar="N", help="--web: N tasks spread over the types")
    parser.add_argument("--seeker", default="heuristic", help="the seeker you answer (--role provider)")
    parser.add_argument(
        "--seeker-module",
        action="append",
        metavar="FILE.py",
        help="import this file first, so the seekers it registers work by name",
    )
    parser.add_argument("--provider", default="offline", help="the provider you ask (--role seeker)")
    parser.add_argument(
        "--provider-reading",
        choices=["model", "strict"],
        help="an LLM provider's reading (--role seeker): model (default: its model decides) or strict",
    )
    parser.add_argument(
        "--max-turns",
        type=positive_int,
        default=DEFAULT_MAX_TURNS,
        help=f"seeker turns before the cut-off (default: {DEFAULT_MAX_TURNS})",
    )
    parser.add_argument("--save", metavar="FILE", help="append the transcript to this .jsonl file")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--data", metavar="DIR", help="task data folder (default: $CLARQ_DATA, then the cache)")
    source.add_argument("--tasks", metavar="DIR", help="a folder of tasks in the upstream layout, e.g. tasks/")
    model = parser.add_argument_group("model calls (when the other side is a model)")
    model.add_argument("--api-base", metavar="URL", help="an OpenAI-compatible endpoint, e.g. http://localhost:8000/v1")
    model.add_argument("--no-cache", action="store_true", help="do not read or write the response cache")
    parser.set_defaults(handler=_play)


def _play(args: argparse.Namespace) -> int:
    from .. import api
    from ..core.errors import ClarqError
    from ..core.redact import redact

    if args.web:
        return _play_web(args)
    if not args.task_id or not args.role:
        raise ClarqError(
            "a task id and --role are needed to play at the terminal",
            "e.g. `clarq play en/01/0 --role seeker --tasks tasks/`, or --web for people in the browser",
        )
    try:
        played = api.play(
            args.task_id,
            args.role,
            seeker=args.seeker,
            provider=args.provider,
            tasks=args.tasks or args.data,
            max_turns=args.max_turns,
            seeker_module=args.seeker_module,
            provider_reading=args.provider_reading,
            api_base=args.api_base,
            no_cache=args.no_cache,
        )
    except KeyboardInterrupt as exc:
        print(f"\nclarq: play stopped ({str(exc) or 'Ctrl-C'}); nothing saved", file=sys.stderr)
        return 130
    transcript = played.transcript
    if args.role == "provider":
        print(f"seeker: {transcript.seeker_turns[-1].text if transcript.seeker_turns else ''}")
    if transcript.error:
        print(f"error: {redact(transcript.error)}")
    print(f"ended: {transcript.end_reason.value}; all required nodes obtained: {played.success}")
    if args.save:
        from ..core.jsonl import dumps_line

        with open(args.save, "a", encoding="utf-8") as out:
            out.write(redact(dumps_line(transcript)))
    return 0


def _play_web(args: argparse.Namespace) -> int:
    """Serve the people page until Ctrl-C; each person's finished run is scored as it ends."""
    import asyncio

    from .. import api
    from ..core.errors import ClarqError

    if args.task_id or args.role == "provider":
        raise ClarqError(
            "--web plays the selected tasks as the seeker",
            "drop the task id and --role; select tasks with --tasks/--data, --lang, --split, --types, --limit",
        )
    options = {
        "tasks": args.tasks,
        "data": args.data,
        "lang": args.lang,
        "split": args.split,
        "types": args.types,
        "limit": args.limit,
        "provider": args.provider,
        "max_turns": args.max_turns,
        "api_base": args.api_base,
        "no_cache": args.no_cache,
    }

    async def main() -> None:
        server = api.play_server(args.runs_dir, port=args.port, **options)
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
    from ..api.support import DESKS

    return DESKS
