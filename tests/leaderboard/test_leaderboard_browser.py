"""The leaderboard site in a real headless Chromium (from file://): sort, navigate, filter, and stay inert.

Needs Debian's chromium + chromium-driver and the `selenium` package; skipped with the reason otherwise.
Set CLARQ_SCREENSHOT_DIR to keep the screenshots it takes.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from test_leaderboard_site import HOSTILE, hostile_submissions
from upstream_paths import SAMPLE_TASKS, UPSTREAM_RESULTS

from clarq_bench.leaderboard.site import build_site, load_entries, reference_entries

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="chromium / chromedriver not installed (apt-get install chromium chromium-driver)",
)
REFERENCE = UPSTREAM_RESULTS / "l2l_GPT-4o_seeker_vs_GPT-4o_provider.Comp.En.json"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1300,1000",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("browser")
    folder = hostile_submissions(root / "subs", root / "runs")
    entries, rejected = load_entries(folder, data=str(SAMPLE_TASKS))
    assert not rejected
    if REFERENCE.is_file():
        entries += reference_entries(REFERENCE)
    return build_site(entries, root / "site", plots=True)


NO_BROWSER = "chromium / chromedriver not installed (apt-get install chromium chromium-driver)"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):
    """A headless Chromium; skips (with the reason) wherever it is used when Chromium is absent, not only here."""
    from selenium.webdriver.chrome.service import Service

    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip(NO_BROWSER)

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def assert_inert(driver) -> None:
    """No alert open, the title untouched, the body not marked by an onerror handler."""
    from selenium.common.exceptions import NoAlertPresentException

    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text  # noqa: B018
    assert driver.title != "pwned"  # the hostile name may appear in the title, as text
    assert driver.execute_script("return document.body.dataset.pwned === undefined")
    assert driver.execute_script("return document.querySelectorAll('main script, main img[src=x]').length") == 0


def screenshot(driver, name: str, tmp_path: Path) -> Path:
    target = Path(os.environ.get("CLARQ_SCREENSHOT_DIR") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    path = target / name
    assert driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000
    return path


def column(driver, table_id: str, index: int) -> list[str]:
    from selenium.webdriver.common.by import By

    return [
        row.find_elements(By.TAG_NAME, "td")[index].get_attribute("data-value")
        for row in driver.find_elements(By.CSS_SELECTOR, f"#{table_id} tbody tr")
    ]


def test_sort_navigate_filter_and_stay_inert(site: Path, browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site.as_uri())
    assert browser.title == "clarq leaderboard"
    assert_inert(browser)
    # the submissions were played on the sample tasks: their own board, never the reference rows' (benchmark) board
    board = browser.find_element(By.CSS_SELECTOR, 'div[data-kind="sample"] table.leaderboard').get_attribute("id")
    rows = browser.find_elements(By.CSS_SELECTOR, f"#{board} tbody tr")
    assert len(rows) == 2
    if REFERENCE.is_file():
        assert board != "board-en" and len(browser.find_elements(By.CSS_SELECTOR, "#board-en tbody tr")) == 1
    headers = browser.find_elements(By.CSS_SELECTOR, f"#{board} thead th")
    names = [h.text.strip(" ↕↑↓") for h in headers]
    success, aqd = names.index("Success"), names.index("AQD")
    headers[aqd].click()  # AQD sorts ascending first (fewer wasted questions is better)
    values = [float(v) for v in column(browser, board, aqd)]
    assert values == sorted(values) and headers[aqd].get_attribute("aria-sort") == "ascending"
    headers[success].click()
    values = [float(v) for v in column(browser, board, success)]
    assert values == sorted(values, reverse=True) and headers[success].get_attribute("aria-sort") == "descending"
    ranks = [
        r.find_element(By.CSS_SELECTOR, "td.rank").text
        for r in browser.find_elements(By.CSS_SELECTOR, f"#{board} tbody tr")
    ]
    assert ranks == [str(i) for i in range(1, len(ranks) + 1)]
    screenshot(browser, "leaderboard-index.png", tmp_path)
    browser.set_window_size(420, 900)  # a phone: the success column stays on screen, the extra columns step aside
    try:
        success_header = browser.find_elements(By.CSS_SELECTOR, f"#{board} thead th")[success]
        assert success_header.is_displayed()
        right = browser.execute_script("return arguments[0].getBoundingClientRect().right", success_header)
        assert right <= browser.execute_script("return document.documentElement.clientWidth")
        assert not browser.find_elements(By.CSS_SELECTOR, f"#{board} thead th")[names.index("Cost")].is_displayed()
        screenshot(browser, "leaderboard-index-420px.png", tmp_path)
    finally:
        browser.set_window_size(1300, 1000)

    browser.find_element(By.PARTIAL_LINK_TEXT, "Hostile").click()
    assert_inert(browser)
    assert HOSTILE in browser.find_element(By.TAG_NAME, "h1").text  # shown as text, not run
    assert browser.execute_script("return document.querySelector('.plots img').naturalWidth") > 100
    browser.find_element(By.PARTIAL_LINK_TEXT, "failures only").click()
    assert_inert(browser)
    dialogues = browser.find_elements(By.CSS_SELECTOR, "details.dialogue")
    visible = [d for d in dialogues if d.is_displayed()]
    assert len(dialogues) == 16 and len(visible) == 8  # every second hostile dialogue misses a node
    assert browser.find_element(By.ID, "shown-count").text == "8"
    assert all(d.get_attribute("data-success") == "0" for d in visible)
    first = visible[0]
    first.find_element(By.TAG_NAME, "summary").click()
    assert first.get_attribute("open") is not None
    turns = first.find_elements(By.CSS_SELECTOR, ".turn")
    assert turns[1].text.startswith("Seeker" + HOSTILE[:8]) or HOSTILE in turns[1].text
    marks = first.find_elements(By.CSS_SELECTOR, ".turn.provider mark.node")
    assert marks and marks[0].is_displayed()
    assert "intent 2 · answerable" in first.text and "failure" in first.text
    assert_inert(browser)
    screenshot(browser, "leaderboard-dialogue.png", tmp_path)
    browser.find_element(By.ID, "only-failures").click()  # filter off: all 16 back
    assert sum(d.is_displayed() for d in browser.find_elements(By.CSS_SELECTOR, "details.dialogue")) == 16


def test_offline_track_table_renders_sorts_and_stays_inert(browser, tmp_path: Path) -> None:
    """The clarify-offline table beside the dialogue tables: its own heading, a hostile system name shown as text,
    MRR sorted descending then ascending, the system name alphabetically."""
    from selenium.webdriver.common.by import By
    from track_helpers import HOSTILE_NAME, track_summary, write_json

    from clarq_bench.leaderboard.track_rows import load_track_rows

    tracks = tmp_path / "tracks"
    for name, language, mrr in (
        ("bm25", "en", 0.55),
        (HOSTILE_NAME, "en", 0.9),
        ("random", "en", 0.16),
        ("bm25", "zh", 0.45),
    ):
        write_json(tracks / f"{len(list(tracks.glob('*')))}" / "summary.json", track_summary(name, language, mrr=mrr))
    rows, problems = load_track_rows(tracks)
    assert problems == [] and len(rows) == 4
    index = build_site([], tmp_path / "site", plots=False, tracks=rows)
    browser.get(index.as_uri())
    assert_inert(browser)
    assert (
        "Offline clarification track (clarify-offline): not a dialogue result"
        in browser.find_element(By.TAG_NAME, "h2").text
    )
    table = "track-clarify-offline"
    assert column(browser, table, 5) == ["0.9", "0.55", "0.16", "0.45"]  # by language, then MRR
    headers = browser.find_elements(By.CSS_SELECTOR, f"#{table} thead th")
    names = [h.text.strip(" ↕↑↓") for h in headers]
    assert names == ["System", "Language", "States", "Tasks", "Need F1", "Question MRR", "nDCG@3", "OLAR", "LAR"]
    headers[5].click()
    assert column(browser, table, 5) == ["0.9", "0.55", "0.45", "0.16"]
    assert headers[5].get_attribute("aria-sort") == "descending"
    headers[5].click()
    assert column(browser, table, 5) == ["0.16", "0.45", "0.55", "0.9"]
    headers[0].click()
    assert column(browser, table, 0) == [HOSTILE_NAME, "bm25", "bm25", "random"]  # "<" sorts before letters
    first = browser.find_element(By.CSS_SELECTOR, f"#{table} tbody tr td")
    assert HOSTILE_NAME in first.text and "clarify-offline" in first.text
    assert_inert(browser)
    screenshot(browser, "leaderboard-track.png", tmp_path)
