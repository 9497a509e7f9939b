"""`clarq play --web`: people play tasks as the seeker in the browser, each in an ordinary run folder (H2L).

Why: the paper's human seekers played one at a time at a terminal; a group collecting a human baseline needs a page.
One aiohttp server on 127.0.0.1 (never another interface) and, per person, one `clarq run` with the `human-web`
seeker (seekers/web_human.py, option person=NAME) at concurrency 1 and no turn timeout, so the dialogues, the run
folder, the resume rule and the scoring are `clarq run`'s own (the API's run_async, handed in by
clarq_bench.play_server: this layer sits below the API). GET / asks for a name; POST /start starts (or resumes)
that person's run; GET /play?name=N shows the task brief, the dialogue so far and a form; POST /say hands the line
to the seeker, which saves it at once. A form names the turn it was written for, so a resent form or a double click
is refused, never sent twice. Every text on the pages is escaped, the pages carry no script, and a CSP says so.
"""

from __future__ import annotations

import asyncio
import html
import json
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..core.errors import ClarqError
from ..core.transcript import Speaker
from ..seekers.web_human import DESKS, MAX_LINE, Desk, goodbye

HOST = "127.0.0.1"
MAX_NAME, MAX_BODY = 60, 16 * 1024
#: Most people playing at once: each is a run with its own event-loop task, files and provider; a stream of new
#: names would otherwise start runs without end.
MAX_PLAYERS = 32
PEOPLE_FILE = "people.json"  # person -> run folder, beside the runs, so a person resumes their own run
CSP = "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"


def esc(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def clean_name(value: str) -> str | None:
    name = " ".join(value.split())
    return name if 0 < len(name) <= MAX_NAME and name.isprintable() else None


def document(title: str, body: str, refresh: bool = False) -> str:
    again = '<meta http-equiv="refresh" content="1">' if refresh else ""
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">{again}'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{esc(title)}</title><link rel="stylesheet" href="/assets/style.css"></head><body>'
        '<header class="site"><a href="/">clarq play</a><span class="tag">you ask, Jax answers</span></header>'
        f"<main>{body}</main></body></html>"
    )


def name_page(problem: str = "") -> str:
    note = f'<p class="warn" id="problem">{esc(problem)}</p>' if problem else ""
    return document(
        "clarq play",
        f"""<h1>Play the seeker</h1><p class="lead">You get a task whose first answer leaves
things open. Ask Jax, who knows the answer, clarification questions until you know exactly what to do, then say
goodbye. Your lines are saved as you send them; come back with the same name to continue.</p>{note}
<form method="post" action="/start"><label>your name <input name="name" id="name" maxlength="{MAX_NAME}"
required></label> <button type="submit" id="start">start</button></form>""",
    )


def play_page(desk: Desk, total: int, problem: str = "") -> str:
    task, view = desk.task, desk.view
    assert task is not None and view is not None
    turns = "".join(
        f'<div class="turn {t.speaker.value}"><span class="who">'
        f"{'You' if t.speaker == Speaker.seeker else 'Jax'}</span>{esc(t.text)}</div>"
        for t in view.turns
    )
    note = f'<p class="warn" id="problem">{esc(problem)}</p>' if problem else ""
    return document(
        "clarq play",
        f"""<h1>Task {desk.done + 1} of {total}: {esc(task.brief.task_name)}</h1>
<p class="muted">playing as <b id="who">{esc(desk.name)}</b> · task {esc(view.task_id)} · turn {desk.turn + 1}</p>
<details open><summary>the task</summary><p class="brief">{esc(task.brief.background)}</p></details>
<div class="dialogue-body" id="dialogue">{turns}</div>{note}
<form method="post" action="/say"><input type="hidden" name="name" value="{esc(desk.name)}">
<input type="hidden" name="turn" value="{desk.turn}">
<textarea name="text" id="text" rows="3" cols="80" maxlength="{MAX_LINE}"></textarea><br>
<button type="submit" name="action" value="say" id="say">send</button>
<button type="submit" name="action" value="goodbye" id="goodbye">I know what to do: goodbye</button></form>""",
    )


def wait_page(desk: Desk) -> str:
    return document(
        "clarq play", f'<h1>One moment</h1><p id="waiting">Jax is answering, {esc(desk.name)}...</p>', refresh=True
    )


def done_page(desk: Desk) -> str:
    summary = desk.summary
    rate = f"{summary.success.value:.0%}" if summary is not None and summary.success.value is not None else "-"
    return document(
        "clarq play",
        f"""<h1 id="done">Thank you, {esc(desk.name)}</h1><p>You played {desk.done}
dialogue(s); you obtained everything needed in {esc(rate)} of them. Your run folder: <code>{esc(desk.folder)}</code>
</p>""",
    )


class PlayServer:
    """People by name, each with their own run; `options` are RunOptions fields shared by every person's run, `run`
    the API's run_async (clarq_bench.play_server passes it): each person's run is prepared, played and scored as
    `clarq run` does it."""

    def __init__(
        self, runs_dir: str | Path, options: dict[str, Any], *, run: Callable[..., Awaitable[Any]], port: int = 0
    ) -> None:
        self.runs_dir, self.options, self.port, self.run = Path(runs_dir), options, port, run
        self.runs: dict[str, asyncio.Task] = {}
        self.totals: dict[str, int] = {}
        self.people_file = self.runs_dir / PEOPLE_FILE
        self.style = (resources.files("clarq_bench.leaderboard") / "assets" / "style.css").read_bytes()
        self.runner: Any = None
        self.errors: dict[str, str] = {}

    # ---- people and their runs -----------------------------------------------------------------------------------

    def _folders(self) -> dict[str, str]:
        try:
            data = json.loads(self.people_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def _remember(self, name: str, folder: Path) -> None:
        folders = self._folders()
        folders[name] = str(folder)
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        self.people_file.write_text(json.dumps(folders, ensure_ascii=False, indent=1), encoding="utf-8")

    async def _play(self, name: str) -> None:
        """The person's run: a new one, or their earlier one resumed (its saved lines replayed first)."""
        from .prepare import RunOptions

        desk = DESKS[name]
        earlier = self._folders().get(name)
        resume = earlier if earlier and Path(earlier, "config.json").is_file() else None
        options = RunOptions.of(
            None,
            **self.options,
            seeker="human-web",
            seeker_option={"person": name},
            concurrency=1,
            turn_timeout=None,
            runs_dir=self.runs_dir,
            resume=resume,
            no_progress=True,
        )

        def at_folder(run_dir: Path, identical: Any) -> None:
            desk.attach(Path(run_dir))
            self._remember(name, Path(run_dir))

        def started(config: Any, tasks: list) -> None:
            self.totals[name] = len(tasks) * config.trials

        def progress(stats: Any) -> None:
            desk.done = stats.done + stats.skipped

        result = await self.run(options, on_run_dir=at_folder, on_start=started, on_update=progress)
        desk.done = result.stats.done + result.stats.skipped
        desk.summary = result.summary
        desk.finished = True

    def start(self, name: str) -> bool:
        """Start (or resume) `name`'s run; False when MAX_PLAYERS others are playing (someone already playing is
        always let back in)."""
        if name in self.runs and not self.runs[name].done():
            return True
        if sum(not task.done() for task in self.runs.values()) >= MAX_PLAYERS:
            return False
        DESKS[name] = Desk(name)
        task = asyncio.get_running_loop().create_task(self._play(name))
        task.add_done_callback(lambda t: self._failed(name, t))
        self.runs[name] = task
        return True

    def _failed(self, name: str, task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            self.errors[name] = str(exc) if isinstance(exc, ClarqError) else f"{type(exc).__name__}: {exc}"

    # ---- HTTP -------------------------------------------------------------------------------------------------

    def app(self) -> Any:
        from aiohttp import web

        async def page(text: str, status: int = 200) -> web.Response:
            return web.Response(
                text=text,
                status=status,
                content_type="text/html",
                headers={"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff"},
            )

        def to_play(name: str) -> web.HTTPSeeOther:
            return web.HTTPSeeOther(f"/play?name={quote(name)}")

        async def index(request: web.Request) -> web.Response:
            return await page(name_page())

        async def style(request: web.Request) -> web.Response:
            return web.Response(body=self.style, content_type="text/css")

        async def start(request: web.Request) -> web.Response:
            name = clean_name(str((await request.post()).get("name", "")))
            if name is None:
                return await page(name_page(f"a name is 1 to {MAX_NAME} printable characters"), 400)
            if not self.start(name):
                return await page(name_page(f"{MAX_PLAYERS} people are playing now: please try again in a while"), 503)
            raise to_play(name)

        async def play(request: web.Request) -> web.Response:
            name = clean_name(request.query.get("name", ""))
            desk = DESKS.get(name or "")
            if desk is None or name not in self.runs:
                raise web.HTTPSeeOther("/")
            if name in self.errors:
                return await page(
                    document(
                        "clarq play", f'<p class="warn" id="problem">the run stopped: {esc(self.errors[name])}</p>'
                    ),
                    500,
                )
            if desk.finished:
                return await page(done_page(desk))
            if desk.view is None:
                return await page(wait_page(desk))
            return await page(play_page(desk, self.totals.get(name, 0), request.query.get("problem", "")))

        async def say(request: web.Request) -> web.Response:
            form = await request.post()
            name = clean_name(str(form.get("name", "")))
            desk = DESKS.get(name or "")
            if desk is None:
                raise web.HTTPSeeOther("/")
            text = " ".join(str(form.get("text", "")).split())
            problem = ""
            if str(form.get("turn", "")) != str(desk.turn) or desk.view is None:
                problem = "that form was for an earlier turn (sent twice?): nothing was sent"
            elif form.get("action") == "goodbye":
                text = goodbye(desk.view.language)
            elif not text:
                problem = "type a question first (or say goodbye)"
            elif len(text) > MAX_LINE:
                problem = f"at most {MAX_LINE} characters per turn"
            if problem:
                raise web.HTTPSeeOther(f"/play?name={quote(desk.name)}&problem={quote(problem)}")
            desk.view = None  # one line per turn: a second form for this turn is refused above
            desk.inbox.put_nowait(text)
            await asyncio.sleep(0.05)  # the offline provider answers in milliseconds: usually no waiting page
            raise to_play(desk.name)

        application = web.Application(client_max_size=MAX_BODY)
        application.add_routes(
            [
                web.get("/", index),
                web.get("/assets/style.css", style),
                web.post("/start", start),
                web.get("/play", play),
                web.post("/say", say),
            ]
        )
        return application

    async def serve(self) -> str:
        """Start listening; returns the URL."""
        from aiohttp import web

        self.runner = web.AppRunner(self.app(), access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, HOST, self.port)
        try:
            await site.start()
        except OSError as exc:
            await self.runner.cleanup()
            raise ClarqError(
                f"cannot listen on {HOST}:{self.port} ({exc.strerror or exc})", "pass another --port"
            ) from None
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return f"http://{HOST}:{self.port}/"

    async def close(self) -> None:
        for task in self.runs.values():
            task.cancel()
        await asyncio.gather(*self.runs.values(), return_exceptions=True)
        if self.runner is not None:
            await self.runner.cleanup()
