"""`clarq view RUN_OR_FILE`: read a run's dialogues in the browser (a static page, or served on 127.0.0.1)."""

from __future__ import annotations

import argparse
import os
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "view",
        help="read the dialogues of a run folder or released results file in the browser",
        description="Writes the transcript viewer (filters: outcome, type, language, end reason) as static HTML and "
        "opens it; --serve serves it on 127.0.0.1 instead.",
    )
    parser.add_argument(
        "path",
        metavar="RUN_OR_FILE",
        nargs="?",
        default=None,
        help="run folder, transcripts.jsonl or released results file, or a folder of runs for its "
        "latest (default: the latest run under runs/)",
    )
    parser.add_argument(
        "-o", "--output", metavar="DIR", help="where the page goes (default: RUN/view/, or a temp folder)"
    )
    parser.add_argument("--data", metavar="DIR", help="task data of a run (default: the run's config.json)")
    parser.add_argument("--no-open", action="store_true", help="only write the page and print its path")
    parser.add_argument("--serve", action="store_true", help="serve the page on http://127.0.0.1 until Ctrl-C")
    parser.add_argument("--port", type=int, default=0, help="port for --serve (default: any free one)")
    parser.set_defaults(handler=handle_view)


def can_open_browser() -> bool:
    """False on a machine with no display (a server over ssh): opening would fail or start a text browser."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def latest_run(folder: str) -> str:
    """`folder` itself when it is a run or a file; else its most recently written run folder (one line if none)."""
    from pathlib import Path

    from ..core.errors import ClarqError

    root = Path(folder).expanduser()
    if folder == "runs" and not root.exists():
        raise ClarqError(
            "no run in runs/",
            "pass a run folder, transcripts.jsonl or results file, or make a run "
            "first: `clarq run --seeker heuristic --provider offline --tasks tasks/`",
        )
    if not root.is_dir() or (root / "transcripts.jsonl").exists() or (root / "config.json").exists():
        return folder
    runs = [run for run in root.iterdir() if run.is_dir() and (run / "transcripts.jsonl").is_file()]
    if not runs:
        raise ClarqError(
            f"no run in {root}/",
            "pass a run folder, transcripts.jsonl or results file, or make a "
            "run first: `clarq run --seeker heuristic --provider offline --tasks tasks/`",
        )
    latest = max(runs, key=lambda run: ((run / "transcripts.jsonl").stat().st_mtime, run.name))
    print(f"latest run: {latest}", flush=True)
    return str(latest)


def handle_view(args: argparse.Namespace) -> int:
    from ..api import view

    index = view(latest_run(args.path or "runs"), args.output, data=args.data)
    if args.serve:
        return serve(index.parent, args.port)
    print(f"wrote {index}", flush=True)
    if not args.no_open and can_open_browser():
        import webbrowser

        webbrowser.open(index.resolve().as_uri())
    return 0


#: Most connections served at once, and how long one may keep silent: the page is a handful of static files, and a
#: thread per connection without a cap let a flood of idle connections take the process's threads and memory.
MAX_CONNECTIONS = 16
IDLE_TIMEOUT_S = 10.0
#: How often the serving thread looks up from a wait (for a free slot, or on the listening socket) to see whether
#: it has been told to stop: the bound on how long Ctrl-C or SIGTERM takes to end `--serve`.
STOP_POLL_S = 0.2


def serve(folder: os.PathLike, port: int) -> int:
    """Serve `folder` on 127.0.0.1 only (never on every interface) until Ctrl-C or SIGTERM, at most MAX_CONNECTIONS
    at once (the next wait to be accepted), each dropped after IDLE_TIMEOUT_S of silence.

    The server runs on a thread of its own and the main thread only waits: the interrupt (Ctrl-C, or SIGTERM, which
    the command line turns into one) is raised where the main thread waits, never inside the server's own locks and
    thread starts, where it could leave one of them held and the process unable to exit."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        timeout = IDLE_TIMEOUT_S

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
            pass

    class Capped(ThreadingHTTPServer):
        def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
            super().__init__(*args, **kwargs)
            self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
            self.stopping = threading.Event()

        def process_request(self, request, client_address):  # type: ignore[no-untyped-def]
            # the serving thread waits for a slot: connections past the cap queue in the kernel
            while not self.slots.acquire(timeout=STOP_POLL_S):
                if self.stopping.is_set():
                    self.shutdown_request(request)
                    return
            try:
                super().process_request(request, client_address)
            except BaseException:
                self.slots.release()
                raise

        def process_request_thread(self, request, client_address):  # type: ignore[no-untyped-def]
            try:
                super().process_request_thread(request, client_address)
            finally:
                self.slots.release()

        def handle_error(self, request, client_address):  # type: ignore[no-untyped-def]
            if not isinstance(sys.exc_info()[1], ConnectionError):  # a browser that hung up is no error
                super().handle_error(request, client_address)

    handler = functools.partial(Quiet, directory=os.fspath(folder))
    with Capped(("127.0.0.1", port), handler) as server:
        serving = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": STOP_POLL_S}, name="clarq-view", daemon=True
        )
        serving.start()
        print(f"serving http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)", flush=True)
        try:
            while serving.is_alive():
                serving.join(STOP_POLL_S)
        except KeyboardInterrupt:
            server.stopping.set()
            server.shutdown()  # the serving thread ends within STOP_POLL_S or two
            print("stopped", flush=True)
    return 0
