"""Search in a real browser (headless Chromium): what search as you type shows, and the one
search box of the results page."""
import pytest

pytestmark = pytest.mark.browser


def test_search_as_you_type_shows_game_and_section_in_words_and_a_snippet(page, live_server):
    page.goto(live_server + "/")
    page.locator("#site-search").press_sequentially("influence roll chance", delay=20)
    first = page.locator("#live-results a").first
    first.wait_for()
    assert first.get_attribute("href") == "/meccg/calc/influence"
    assert first.locator("strong").inner_text() == "Influence attempt"
    assert first.locator(".trail").inner_text() == "Middle-earth CCG › Calculators"
    snippet = first.locator(".live-snippet")
    assert snippet.inner_text().startswith("Calculator for") and snippet.locator("mark").count() >= 1
    trails = page.locator("#live-results .trail").all_inner_texts()
    assert trails and all(" › " in trail and "·" not in trail and "meccg" not in trail for trail in trails)


def test_the_results_page_has_one_search_box_and_says_what_it_rewrote(page, live_server):
    page.goto(live_server + "/search?q=can+the+defender+run+away&game=wotr")
    assert page.locator("input[type=search]").count() == 1
    assert page.locator(".rewrites").inner_text() == "Showing rules for retreat, from “run away”."
    assert page.locator(".results li").first.locator(".hit-title").inner_text() in (
        "Retreating", "Defender may retreat", "Retreat")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
