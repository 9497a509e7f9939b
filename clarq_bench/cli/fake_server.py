"""`clarq fake-server`: the test suite's fake OpenAI-compatible server, to try model paths with no key and no cost.

Why: `--api-base`, `--judges`, an LLM seeker or provider can be tried end to end (HTTP, retries, cache, costs) before
paying for a model. It answers every chat request on 127.0.0.1 with `--reply TEXT`, or by default plays scripted
roles (testing/fake_roles.py): a valid provider or judge decision where a JSON object is asked for, an echo of the
last message otherwise. Plumbing, not a model.
"""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "fake-server",
        help="serve a fake OpenAI-compatible model on 127.0.0.1 (no key, no cost) until Ctrl-C",
        description="Answers POST /v1/chat/completions on 127.0.0.1. By default it plays scripted roles: a request "
        "that asks for JSON (the LLM provider's decisions, a model judge) gets a valid decision, any other an echo of "
        "the last message; --reply TEXT answers everything with TEXT. Point clarq at it with --api-base "
        "http://127.0.0.1:PORT/v1 and a model name such as openai/fake (--provider openai/fake, --seeker-model "
        "openai/fake, --judge openai/fake). The dialogues mean nothing; the calls, cache and costs are real.",
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0 = any free one)")
    parser.add_argument("--reply", metavar="TEXT", help="the content of every reply (e.g. a judge's JSON answer)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds to wait before each reply")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    import threading

    from ..api.support import FakeOpenAIServer, role_responder
    from ..core.errors import ClarqError

    if not 0 <= args.port <= 65535 or args.latency < 0:
        raise ClarqError(f"bad --port {args.port} or --latency {args.latency}", "a port is 0-65535, latency >= 0 s")
    import socket

    with socket.socket() as probe:  # a port in use is one line here, not a traceback in the server's thread
        try:
            probe.bind(("127.0.0.1", args.port))
        except OSError as exc:
            raise ClarqError(
                f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}", "pass another --port"
            ) from None
    fixed = args.reply
    server = FakeOpenAIServer(
        port=args.port, latency_s=args.latency, responder=(lambda body: fixed) if fixed is not None else role_responder
    )
    server.start()
    print(
        f"fake OpenAI-compatible server on http://127.0.0.1:{server.port}/v1 (Ctrl-C to stop); e.g. "
        f"--provider openai/fake --api-base http://127.0.0.1:{server.port}/v1",
        flush=True,
    )
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        print("stopped", flush=True)
    finally:
        server.stop()
    return 0
