"""The people page in a real headless Chromium: a name, the first item with the two dialogues side by side, choices
saved to people.jsonl as given, a reload that resumes at the next unanswered item, and the end of the batch.

Needs Debian's chromium + chromium-driver and `selenium` (skipped with the reason otherwise), as
test_leaderboard_browser.py. Set CLARQ_SCREENSHOT_DIR to keep the screenshots.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest
from pairwise_helpers import content_judge, make_runs
from test_leaderboard_browser import CHROMEDRIVER, CHROMIUM, browser  # noqa: F401 - browser is a fixture

import clarq_bench as clarq
from clarq_bench.llm import LLMClient, LLMSettings
from clarq_bench.pairwise.answers import read_answers
from clarq_bench.pairwise.items import load_items
from clarq_bench.testing.scripted import ScriptedModel

pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="chromium / chromedriver not installed (apt-get install chromium chromium-driver)",
)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pairwise-browser")
    runs = make_runs(root / "runs")
    client = LLMClient(LLMSettings(use_cache=False), scripted={"scripted/content": ScriptedModel(content_judge(0))})
    result = asyncio.run(
        clarq.judge_pairs_async(
            *runs,
            judges=["scripted/content"],
            out=root / "session",
            client=client,
            design=4,
            criteria="questions,naturalness",
        )
    )
    return result.folder


def screenshot(driver, name: str, tmp_path: Path) -> Path:
    target = Path(os.environ.get("CLARQ_SCREENSHOT_DIR") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    path = target / name
    assert driver.save_screenshot(str(path))
    return path


def choose(driver, criterion: str, value: str) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f'input[name="{criterion}"][value="{value}"]').click()


def save(driver) -> None:
    """Click "Save and next" and wait for the next page to replace this one."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    old = driver.find_element(By.ID, "item-id").text

    def moved_on(d) -> bool:  # the next item, or the page with no item (done)
        shown = d.find_elements(By.ID, "item-id")
        return not shown or shown[0].text != old

    driver.find_element(By.ID, "save").click()
    # While the page is replaced, chromedriver may answer with an error about a node of the old document: poll on.
    WebDriverWait(driver, 15, ignored_exceptions=(WebDriverException,)).until(moved_on)


def test_first_item_to_saved_answers_and_a_reload_resumes(session: Path, browser, tmp_path: Path) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    items = load_items(session)
    server = clarq.people_server(session).start()
    try:
        browser.get(server.url)
        browser.find_element(By.ID, "name").send_keys("Ada <b>")
        browser.find_element(By.ID, "start").click()
        WebDriverWait(browser, 15).until(expected_conditions.presence_of_element_located((By.ID, "item-id")))
        assert browser.find_element(By.TAG_NAME, "h1").text == f"Item 1 of {len(items.items)}"
        assert browser.find_element(By.ID, "who").text == "Ada <b>"  # shown as text
        first = items.items[0]
        assert browser.find_element(By.ID, "item-id").text == first.id
        sides = browser.find_elements(By.CSS_SELECTOR, ".pair .side")
        assert len(sides) == 2
        assert sides[0].location["y"] == sides[1].location["y"] and sides[0].location["x"] < sides[1].location["x"]
        shown_a = first.sides[first.shown_a - 1]
        assert sides[0].find_elements(By.CSS_SELECTOR, ".turn")[0].text.endswith(shown_a.turns[0][1].split("\n")[0])
        assert len(browser.find_elements(By.CSS_SELECTOR, 'input[type="radio"]')) == 2 * 4  # 4-choice, 2 criteria
        screenshot(browser, "people-item-1.png", tmp_path)
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(browser).scroll_to_element(browser.find_element(By.ID, "save")).perform()
        screenshot(browser, "people-item-1-choices.png", tmp_path)
        # the browser refuses to send a form with a question unanswered
        choose(browser, "questions", "B")
        browser.find_element(By.ID, "save").click()
        time.sleep(0.5)
        assert browser.find_element(By.TAG_NAME, "h1").text == f"Item 1 of {len(items.items)}"
        assert not (session / "people.jsonl").exists()
        choose(browser, "naturalness", "both_good")
        save(browser)
        assert browser.find_element(By.TAG_NAME, "h1").text == f"Item 2 of {len(items.items)}"
        saved = read_answers(session / "people.jsonl")
        assert [(a.judge, a.item, a.criterion, a.choice) for a in saved] == [
            ("person:Ada <b>", first.id, "questions", "B"),
            ("person:Ada <b>", first.id, "naturalness", "both_good"),
        ]
        # a reload (and a fresh visit under the same name) comes back to item 2, not item 1
        browser.refresh()
        assert browser.find_element(By.TAG_NAME, "h1").text == f"Item 2 of {len(items.items)}"
        browser.get(server.url)
        browser.find_element(By.ID, "name").send_keys("Ada <b>")
        browser.find_element(By.ID, "start").click()
        WebDriverWait(browser, 15).until(expected_conditions.presence_of_element_located((By.ID, "item-id")))
        assert browser.find_element(By.ID, "item-id").text == items.items[1].id
        for _ in items.items[1:]:
            choose(browser, "questions", "A")
            choose(browser, "naturalness", "both_bad")
            save(browser)
        assert browser.find_element(By.ID, "done").text == "All done"
        screenshot(browser, "people-done.png", tmp_path)
    finally:
        server.stop()
    assert len(read_answers(session / "people.jsonl")) == 2 * len(items.items)
    judges = {j.judge: j for j in clarq.pairwise_report(session, resamples=200).summary.judges}
    assert judges["person:Ada <b>"].answers == 2 * len(items.items) and judges["person:Ada <b>"].invalid == 0
