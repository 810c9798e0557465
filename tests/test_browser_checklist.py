"""The turn checklist and print sheets in a real browser (headless Chromium)."""
import io
import re

import pytest

from webapp.checklist.model import phases
from webapp.content import GAME_IDS

pytestmark = pytest.mark.browser


def test_tick_survives_reload_and_reset_clears(page, live_server):
    page.goto(f"{live_server}/meccg/turn")
    steps = page.locator("[data-step]")
    first, second = steps.nth(0), steps.nth(1)
    assert "current" in first.get_attribute("class")
    first.locator(".tick").check()
    assert "done" in first.get_attribute("class")
    assert "current" in second.get_attribute("class")
    page.reload()
    assert page.locator("[data-step]").nth(0).locator(".tick").is_checked()
    assert "current" in page.locator("[data-step]").nth(1).get_attribute("class")
    assert page.locator("[data-progress]").inner_text().startswith("1 of ")
    page.click("[data-reset]")
    assert not page.locator("[data-step]").nth(0).locator(".tick").is_checked()
    page.reload()
    assert not page.locator("[data-step]").nth(0).locator(".tick").is_checked()


def test_next_turn_moves_the_seat_and_clears_ticks(page, live_server):
    page.goto(f"{live_server}/wotr-cards/turn")
    assert page.inner_text("[data-whose-turn]") == "Frodo"
    page.locator("[data-step] .tick").first.check()
    page.click("[data-next-turn]")
    assert page.inner_text("[data-whose-turn]") == "Witch-king"
    assert page.locator("[data-step] .tick:checked").count() == 0
    for _ in range(3):
        page.click("[data-next-turn]")
    assert page.inner_text("[data-whose-turn]") == "Frodo"
    assert page.inner_text("[data-turn-number]") == "2"
    page.reload()
    assert page.inner_text("[data-turn-number]") == "2"


def test_step_expands_to_its_rule_and_links(page, live_server):
    page.goto(f"{live_server}/meq/turn")
    step = page.locator("[data-step]").first
    step.locator("summary").click()
    assert step.locator(".step-links a").first.is_visible()


def test_checklist_without_javascript_is_a_plain_list(browser, live_server, library):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/fotf/turn")
    assert page.locator("ol.steps > li").count() == len([s for p in phases(library.games["fotf"]) for s in p.steps])
    assert not page.locator("[data-turn-bar]").is_visible()
    context.close()


def pdf_pages(pdf_bytes):
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf_bytes))
    return [p.extract_text() for p in reader.pages]


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_printed_sheet_fits_two_pages_with_every_phase(browser, live_server, game_id, paper, library):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{live_server}/{game_id}/print")
    pages = pdf_pages(page.pdf(format=paper, print_background=False))
    context.close()
    assert 1 <= len(pages) <= 2, f"{game_id} on {paper}: {len(pages)} pages"
    text = re.sub(r"\s+", " ", " ".join(pages))
    for phase in phases(library.games[game_id]):
        title = re.sub(r"\s+", " ", phase.entry.title)
        assert title in text, (game_id, title)
