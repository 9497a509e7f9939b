"""`clarq view` in a real headless Chromium (from file://): the filters by outcome, type, language and end reason
show the right dialogues, and hostile transcript text stays inert. Skipped without chromium / selenium, as the
leaderboard's browser test is."""

from __future__ import annotations

from pathlib import Path

from leaderboard_runs import sample_tasks
from test_leaderboard_browser import assert_inert, browser, pytestmark, screenshot  # noqa: F401 - the fixture, and its skip without chromium
from test_leaderboard_site import HOSTILE
from test_view import hostile_run

from clarq_bench.api import view


def shown(driver) -> list:
    from selenium.webdriver.common.by import By

    return [d for d in driver.find_elements(By.CSS_SELECTOR, "details.dialogue") if d.is_displayed()]


def choose(driver, select_id: str, value: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(By.ID, select_id)).select_by_value(value)


def test_view_filters_and_stays_inert(tmp_path: Path, browser) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    run = hostile_run(tmp_path / "run")
    index = view(run)
    browser.get(index.resolve().as_uri())
    assert_inert(browser)
    assert len(shown(browser)) == 16
    screenshot(browser, "view-all.png", tmp_path)

    choose(browser, "outcome-filter", "0")
    failures = shown(browser)
    assert len(failures) == 8 and all(d.get_attribute("data-success") == "0" for d in failures)
    assert browser.find_element(By.ID, "shown-count").text == "8"

    tasks = sample_tasks()
    first_type = str(tasks[0].type_number)
    expected = sum(1 for i, t in enumerate(tasks) if str(t.type_number) == first_type and i % 2 == 1)
    choose(browser, "type-filter", first_type)  # failures of one type: the two filters combine
    assert len(shown(browser)) == expected
    choose(browser, "outcome-filter", "")
    choose(browser, "type-filter", "")
    choose(browser, "language-filter", "zh")
    assert len(shown(browser)) == sum(t.language == "zh" for t in tasks)
    choose(browser, "language-filter", "")
    choose(browser, "end-filter", "goodbye")
    assert len(shown(browser)) == 16
    choose(browser, "end-filter", "")

    dialogue = shown(browser)[1]
    dialogue.find_element(By.TAG_NAME, "summary").click()
    turns = dialogue.find_elements(By.CSS_SELECTOR, ".turn")
    assert HOSTILE in turns[1].text  # shown as text, not run
    assert_inert(browser)
    screenshot(browser, "view-dialogue.png", tmp_path)


def test_view_searches_by_id_and_text_sorts_and_shows_missed_nodes(tmp_path: Path, browser) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    run = hostile_run(tmp_path / "run")
    browser.get(view(run).resolve().as_uri())
    search = browser.find_element(By.ID, "dialogue-search")
    tasks = sample_tasks()
    search.send_keys(tasks[2].id)  # by task id
    ids = {d.get_attribute("data-id") for d in shown(browser)}
    assert ids == {tasks[2].id} and browser.find_element(By.ID, "shown-count").text == "1"
    search.clear()
    search.send_keys("  ")
    assert len(shown(browser)) == 16  # blank: everything
    search.send_keys("<script>")  # by text, hostile text included, matched as text
    matched = shown(browser)
    assert matched and all("<script>" in d.get_attribute("textContent") for d in matched)
    search.clear()
    search.send_keys("no such words anywhere")
    assert shown(browser) == [] and browser.find_element(By.ID, "shown-count").text == "0"
    search.clear()
    search.send_keys(" ")
    search.clear()
    browser.execute_script("document.getElementById('dialogue-search').dispatchEvent(new Event('input'))")
    assert len(shown(browser)) == 16

    choose(browser, "dialogue-sort", "outcome")  # failures first, the played order kept within each
    outcomes = [d.get_attribute("data-success") for d in shown(browser)]
    assert outcomes == sorted(outcomes) and outcomes[0] == "0"
    choose(browser, "dialogue-sort", "turns")
    turns = [int(d.get_attribute("data-turns")) for d in shown(browser)]
    assert turns == sorted(turns, reverse=True)
    choose(browser, "dialogue-sort", "type")
    types = [int(d.get_attribute("data-type")) for d in shown(browser)]
    assert types == sorted(types)
    choose(browser, "dialogue-sort", "")
    assert [d.get_attribute("data-id") for d in shown(browser)][:2] == [tasks[0].id, tasks[1].id]

    failed = next(d for d in shown(browser) if d.get_attribute("data-success") == "0")
    failed.find_element(By.TAG_NAME, "summary").click()
    missed = failed.find_elements(By.CSS_SELECTOR, "ul.missed li")
    assert missed and missed[0].text == "never obtained:" and len(missed) >= 2  # each missed node with its text
    assert_inert(browser)
