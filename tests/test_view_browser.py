"""`clarq view` in a real headless Chromium (from file://): the filters by outcome, type, language and end reason
show the right dialogues, and hostile transcript text stays inert. Skipped without chromium / selenium, as the
leaderboard's browser test is."""

from __future__ import annotations

from pathlib import Path


from clarq_bench.api import view

from test_leaderboard_browser import assert_inert, browser, pytestmark, screenshot  # noqa: F401 - the fixture, and its skip without chromium
from test_leaderboard_site import HOSTILE
from test_view import hostile_run

from leaderboard_runs import sample_tasks


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
