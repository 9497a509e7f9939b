"""The people page server: stdlib http.server on 127.0.0.1 (never another interface), one thread per request.

GET / asks for a name; GET /judge?name=N shows that person's first unanswered item (so a reload, or coming back
another day, resumes where they stopped); POST /answer appends their choices to people.jsonl at once, as given,
and redirects to the next item. Several people judge the same items under their own names (judge "person:N").
"""

from __future__ import annotations

import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

from ..core.errors import ClarqError
from .answers import PairAnswer, append_answers, now, parse_choice, read_answers
from .items import ItemSet
from .people_page import CSP, done_page, item_page, name_page
from .session import PEOPLE_ANSWERS

HOST = "127.0.0.1"
MAX_NAME = 60
MAX_BODY = 64 * 1024
PERSON = "person:"


def _assets() -> dict[str, bytes]:
    """The leaderboard's stylesheet (read from its package, unchanged) and the people page's own."""
    return {
        "/assets/style.css": (resources.files("clarq_bench.leaderboard") / "assets" / "style.css").read_bytes(),
        "/assets/people.css": (resources.files("clarq_bench.pairwise") / "assets" / "people.css").read_bytes(),
    }


def clean_name(value: str) -> str | None:
    name = " ".join(value.split())
    return name if 0 < len(name) <= MAX_NAME and name.isprintable() else None


class PeopleServer:
    """Serves `items` and records answers in `folder`/people.jsonl; `port` 0 picks a free port."""

    def __init__(self, folder: Path, items: ItemSet, port: int = 0) -> None:
        self.folder, self.items = Path(folder), items
        self.path = self.folder / PEOPLE_ANSWERS
        self.lock = threading.Lock()
        self.assets = _assets()
        try:
            self.httpd = ThreadingHTTPServer((HOST, port), self._handler())
        except OSError as exc:
            raise ClarqError(f"cannot listen on {HOST}:{port} ({exc.strerror})", "pass another --port") from None
        self.httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.httpd.server_address[1]}/"

    def next_item(self, name: str) -> tuple[int, object | None]:
        """(1-based number, item) of the person's first item without an answer for every criterion."""
        with self.lock:
            answers = read_answers(self.path)
        done: dict[str, set[str]] = {}
        for a in answers:
            if a.judge == PERSON + name and not a.swapped:
                done.setdefault(a.item, set()).add(a.criterion)
        for number, item in enumerate(self.items.items, start=1):
            if not set(self.items.criteria) <= done.get(item.id, set()):
                return number, item
        return len(self.items.items), None

    def record(self, name: str, item_id: str, form: dict[str, list[str]]) -> str | None:
        """Append the person's answers on one item; a problem sentence when the form is not complete."""
        item = self.items.item(item_id)
        if item is None:
            return f"unknown item {item_id!r}"
        given = {c: (form.get(c) or [""])[0] for c in self.items.criteria}
        missing = [c for c, v in given.items() if parse_choice(v, self.items.design) is None]
        if missing:
            return f"choose one option for every question (missing: {', '.join(missing)})"
        stamp = now()
        answers = [
            PairAnswer(
                judge=PERSON + name,
                item=item.id,
                criterion=c,
                shown_a=item.shown_a,
                choice=parse_choice(v, self.items.design),
                raw=v,
                at=stamp,
            )
            for c, v in given.items()
        ]
        with self.lock:
            append_answers(self.path, answers)
        return None

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:  # quiet: the terminal shows the summary
                return

            def _send(
                self, status: int, body: bytes, kind: str = "text/html; charset=utf-8", location: str | None = None
            ) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Content-Security-Policy", CSP)
                self.send_header("Cache-Control", "no-store")
                if location:
                    self.send_header("Location", location)
                self.end_headers()
                self.wfile.write(body)

            def _page(self, html: str, status: int = HTTPStatus.OK) -> None:
                self._send(status, html.encode("utf-8"))

            def _show(self, name: str, problem: str = "", status: int = HTTPStatus.OK) -> None:
                number, item = server.next_item(name)
                if item is None:
                    self._page(done_page(name, len(server.items.items)), status)
                else:
                    self._page(item_page(server.items, item, name, number, problem), status)  # type: ignore[arg-type]

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                url = urlsplit(self.path)
                if url.path in server.assets:
                    self._send(HTTPStatus.OK, server.assets[url.path], "text/css; charset=utf-8")
                elif url.path == "/":
                    self._page(name_page())
                elif url.path == "/judge":
                    name = clean_name((parse_qs(url.query).get("name") or [""])[0])
                    if name is None:
                        self._page(
                            name_page(f"a name of 1 to {MAX_NAME} printable characters, please"), HTTPStatus.BAD_REQUEST
                        )
                    else:
                        self._show(name)
                else:
                    self._page(name_page("no such page"), HTTPStatus.NOT_FOUND)

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                if urlsplit(self.path).path != "/answer" or not 0 < length <= MAX_BODY:
                    self._page(name_page("not an answer"), HTTPStatus.BAD_REQUEST)
                    return
                form = parse_qs(self.rfile.read(length).decode("utf-8", "replace"))
                name = clean_name((form.get("name") or [""])[0])
                if name is None:
                    self._page(name_page("a name, please"), HTTPStatus.BAD_REQUEST)
                    return
                problem = server.record(name, (form.get("item") or [""])[0], form)
                if problem:
                    self._show(name, problem, HTTPStatus.BAD_REQUEST)
                else:
                    self._send(HTTPStatus.SEE_OTHER, b"", location=f"/judge?name={quote(name)}")

        return Handler

    def start(self) -> PeopleServer:
        """Serve in a background thread (tests, notebooks); `stop()` ends it."""
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="clarq-people", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve until KeyboardInterrupt (Ctrl-C, or SIGTERM, which the command line turns into one), then close.
        The server runs on a thread of its own and this one only waits, so the interrupt is raised here, never inside
        the server's locks or a thread start, where it could leave one held and the process unable to exit."""
        self.start()
        try:
            while self._thread is not None and self._thread.is_alive():
                self._thread.join(0.2)
        finally:
            self.stop()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
