"""`clarq play --web`: people play tasks as the seeker in the browser; each person's dialogues are a run folder.

Driven over HTTP (a restart resumes the same turn; a resent form is refused; a run folder that scores, submits and
gets a table of its own on the leaderboard) and in a real headless Chromium (name, questions, goodbye, reload,
hostile text shown as text). The browser test skips without Chromium, as the leaderboard's does.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from upstream_paths import SAMPLE_TASKS

from clarq_bench.api import play_server
from clarq_bench.cli.main import main
from clarq_bench.seekers.web_human import DESKS, LINES_FILE

OPTIONS = {"tasks": str(SAMPLE_TASKS), "lang": "en", "types": "1", "provider": "offline"}  # two tasks
HOSTILE = '<script>document.title="pwned"</script><img src=x onerror="document.body.dataset.pwned=1">'


@contextmanager
def serving(runs: Path):
    """A PlayServer on its own event loop in a thread; yields its URL."""
    loop = asyncio.new_event_loop()
    server = play_server(runs, port=0, **OPTIONS)
    url = loop.run_until_complete(server.serve())
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield url
    finally:
        asyncio.run_coroutine_threadsafe(server.close(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
        DESKS.clear()


def post(url: str, path: str, **form: str) -> tuple[int, str]:
    body = urllib.parse.urlencode(form).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url.rstrip("/") + path, data=body), timeout=30) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def page(url: str, name: str) -> str:
    """The person's page once it asks for a line (the waiting page refreshes itself meanwhile)."""
    for _ in range(200):
        with urllib.request.urlopen(f"{url}play?name={urllib.parse.quote(name)}", timeout=30) as reply:
            text = reply.read().decode()
        if 'id="waiting"' not in text:
            return text
        threading.Event().wait(0.05)
    raise AssertionError("the page kept waiting")


def turn_of(text: str) -> str:
    return re.search(r'name="turn" value="(\d+)"', text).group(1)


@pytest.mark.timeout(180)
def test_people_play_resume_after_a_restart_and_get_a_run_that_scores_and_submits(tmp_path: Path, capsys) -> None:
    runs = tmp_path / "runs"
    with serving(runs) as url:
        status, text = post(url, "/start", name="  Ada   Lovelace ")
        text = page(url, "Ada Lovelace")
        assert "Task 1 of 2" in text and turn_of(text) == "0"
        status, text = post(url, "/say", name="Ada Lovelace", turn="0", text="Hello Jax. How do I do this task?")
        text = page(url, "Ada Lovelace")
        assert turn_of(text) == "1" and "Hello Jax. How do I do this task?" in text
        status, text = post(url, "/say", name="Ada Lovelace", turn="0", text="sent twice")  # a resent form
        assert "earlier turn" in text and "sent twice" not in page(url, "Ada Lovelace")
        status, text = post(url, "/say", name="Ada Lovelace", turn="1", text="x" * 2001)
        assert "at most 2000 characters" in text
        status, text = post(url, "/start", name="\x00bad")
        assert status == 400 and "printable" in text
    (run,) = [p for p in runs.iterdir() if p.is_dir()]
    saved = [json.loads(line) for line in (run / LINES_FILE).read_text(encoding="utf-8").splitlines()]
    assert [s["text"] for s in saved] == ["Hello Jax. How do I do this task?"]  # written as it was sent
    with serving(runs) as url:  # the server restarts: the same name resumes the same turn of the same run
        post(url, "/start", name="Ada Lovelace")
        text = page(url, "Ada Lovelace")
        assert turn_of(text) == "1" and "Hello Jax. How do I do this task?" in text
        post(url, "/say", name="Ada Lovelace", turn="1", text=HOSTILE)
        text = page(url, "Ada Lovelace")
        assert HOSTILE not in text and "&lt;script&gt;" in text  # escaped
        post(url, "/say", name="Ada Lovelace", turn="2", action="goodbye")
        text = page(url, "Ada Lovelace")
        assert "Task 2 of 2" in text
        post(url, "/say", name="Ada Lovelace", turn="0", action="goodbye")
        text = page(url, "Ada Lovelace")
        assert 'id="done"' in text and "Thank you, Ada Lovelace" in text
    assert [p.name for p in runs.iterdir() if p.is_dir()] == [run.name]
    records = [json.loads(line) for line in (run / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(records) == 2 and records[0]["seeker"]["name"] == "human-web"
    config = json.loads((run / "config.json").read_text(encoding="utf-8"))
    assert config["seeker"]["options"] == {"person": "Ada Lovelace"}
    assert (run / "summary.json").is_file()
    assert main(["score", str(run)]) == 0
    out = tmp_path / "subs" / "ada.zip"
    assert main(["submit", str(run), "-o", str(out), "--name", "Ada", "--partial", "--data", str(SAMPLE_TASKS)]) == 0
    assert (
        main(
            [
                "leaderboard",
                "build",
                str(out.parent),
                "-o",
                str(tmp_path / "site"),
                "--tasks",
                str(SAMPLE_TASKS),
                "--no-plots",
            ]
        )
        == 0
    )
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "People as seekers" in index and 'data-kind="people"' in index


def test_play_web_refuses_a_task_id_and_a_port_in_use(capsys) -> None:
    assert main(["play", "en/01/0", "--web", "--tasks", str(SAMPLE_TASKS)]) == 2
    assert "--web plays the selected tasks as the seeker" in capsys.readouterr().err
    assert main(["play", "--tasks", str(SAMPLE_TASKS)]) == 2
    assert "a task id and --role are needed" in capsys.readouterr().err


@pytest.mark.timeout(180)
def test_people_play_in_chromium_with_reload_and_hostile_text(tmp_path: Path) -> None:
    from test_leaderboard_browser import CHROMEDRIVER, CHROMIUM, assert_inert

    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip("chromium / chromedriver not installed (apt-get install chromium chromium-driver)")
    request = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from test_leaderboard_browser import FLAGS

    options = request.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    driver = request.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        with serving(tmp_path / "runs") as url:
            driver.get(url)
            driver.find_element(By.ID, "name").send_keys(HOSTILE[:60])
            driver.find_element(By.ID, "start").click()

            from selenium.common.exceptions import StaleElementReferenceException
            from selenium.webdriver.support.ui import WebDriverWait

            def until(check):  # noqa: ANN001 - pages are replaced, and the waiting page reloads itself each second
                def safe(d):  # noqa: ANN001
                    try:
                        return check(d)
                    except (StaleElementReferenceException, IndexError):
                        return False

                return WebDriverWait(driver, 60, ignored_exceptions=(StaleElementReferenceException,)).until(safe)

            def find(ident: str):
                return until(lambda d: d.find_elements(By.ID, ident) and d.find_element(By.ID, ident))

            def turns() -> list:
                return driver.find_elements(By.CSS_SELECTOR, "#dialogue .turn")

            assert find("who").text == HOSTILE[:60]  # a hostile name is text
            assert_inert(driver)
            find("text").send_keys("Hello Jax. How can I get it done?")
            find("say").click()
            until(lambda d: len(turns()) == 3 and d.find_elements(By.ID, "text"))
            assert turns()[1].text.endswith("Hello Jax. How can I get it done?")
            driver.refresh()  # a reload shows the same dialogue, at the same turn
            until(lambda d: len(turns()) == 3 and d.find_elements(By.ID, "text"))
            find("text").send_keys(HOSTILE)
            find("say").click()
            until(lambda d: len(turns()) == 5 and d.find_elements(By.ID, "text"))
            assert_inert(driver)
            assert HOSTILE in driver.find_elements(By.CSS_SELECTOR, "#dialogue .seeker")[-1].text
            find("say").click()  # empty: refused with a reason, nothing sent
            assert "type a question first" in find("problem").text and len(turns()) == 5
            find("goodbye").click()
            until(lambda d: "Task 2 of 2" in d.find_element(By.TAG_NAME, "h1").text and d.find_elements(By.ID, "text"))
            find("goodbye").click()
            assert find("done").text.startswith("Thank you")
            assert_inert(driver)
    finally:
        driver.quit()
