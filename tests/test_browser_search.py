"""Search in a real browser (headless Chromium): what search as you type shows, and the one
search box of the results page."""
import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_search_as_you_type_shows_game_and_section_in_words_and_a_snippet(page, live_server):
    page.goto(live_server + "/")
    page.locator("#site-search").press_sequentially("influence roll chance", delay=20)
    first = page.locator("#live-results a").first
    # the list changes as each word arrives: wait for the answer to the whole query
    expect(first).to_have_attribute("href", "/meccg/calc/influence")
    expect(first.locator("strong")).to_have_text("Influence attempt", use_inner_text=True)
    expect(first.locator(".trail")).to_have_text("Middle-earth CCG › Calculators", use_inner_text=True)
    snippet = first.locator(".live-snippet")
    expect(snippet).to_have_text(re.compile(r"^Calculator for"), use_inner_text=True)
    expect(snippet.locator("mark").first).to_be_visible()
    trails = page.locator("#live-results .trail").all_inner_texts()
    assert trails and all(" › " in trail and "·" not in trail and "meccg" not in trail for trail in trails)


def test_the_results_page_has_one_search_box_and_says_what_it_rewrote(page, live_server):
    page.goto(live_server + "/search?q=can+the+defender+run+away&game=wotr")
    expect(page.locator("input[type=search]")).to_have_count(1)
    expect(page.locator(".rewrites")).to_have_text("Also searched for the rules’ words retreat for “run away”.", use_inner_text=True)
    expect(page.locator(".results li").first.locator(".hit-title")).to_have_text(
        re.compile(r"^(Retreating|Defender may retreat|Retreat)$"), use_inner_text=True)
    page.keyboard.press("/")
    expect(page.locator("#q")).to_be_focused()


def test_search_as_you_type_answers_a_long_question_and_says_when_it_was_cut(page, live_server):
    from webapp.search import MAX_QUERY_CHARS

    page.goto(live_server + "/")
    page.locator("#site-search").fill("how does a siege battle end " * 40)  # pasted, over the limit
    note = page.locator("#live-results .live-note")
    expect(note).to_have_text(re.compile(rf"^Only the first {MAX_QUERY_CHARS:,} characters of the question were read "
                                         r"\(it has [\d,]+\)\.$"), use_inner_text=True)
    expect(page.locator("#live-results li").first).to_be_visible()


def test_the_same_words_typed_again_after_clearing_the_box_show_suggestions_again(page, live_server):
    page.goto(live_server + "/")
    box, shown = page.locator("#site-search"), page.locator("#live-results")
    box.press_sequentially("retreat", delay=20)
    expect(shown.locator("a").first).to_be_visible()
    box.fill("")
    box.press("Backspace")  # an input event with the box empty
    expect(shown).to_be_hidden()
    box.press_sequentially("retreat", delay=20)
    expect(shown.locator("a").first).to_be_visible()
