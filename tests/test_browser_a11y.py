"""axe-core finds no accessibility violations on the main pages, in the light and the dark theme."""
import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from webapp.calculators import CALCULATORS

pytestmark = pytest.mark.browser

PAGES = {
    "home": "/",
    "game overview": "/wotr/",
    "search results": "/search?q=leader+re-roll",
    "rule page": "/wotr/combat-dice",
    "checklist, one section": "/meccg/turn",
    "checklist, several sections": "/wotr-cards/turn",
    "glossary, A-Z": "/meccg/glossary",
    "glossary, by topic": "/meccg/glossary?view=topics",
}
# Body background of each theme (the --bg colour in static/style.css), to prove the theme took effect.
BACKGROUND = {"light": "rgb(253, 251, 247)", "dark": "rgb(21, 19, 15)"}
THEMES = tuple(BACKGROUND)


@pytest.fixture(scope="module")
def axe():
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


@pytest.fixture
def desktop_page(browser):
    """A fresh desktop-size context; no service worker, so no precache traffic."""
    context = browser.new_context(viewport={"width": 1024, "height": 800}, service_workers="block")
    page = context.new_page()
    yield page
    context.close()


def assert_no_violations_in_either_theme(axe, page):
    """Runs axe on the loaded page in the light, then the dark system colour scheme."""
    page.evaluate(axe.axe_script)
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == BACKGROUND[theme], f"{theme} theme not applied on {page.url}: body is {background}"
        violations = page.evaluate("axe.run({resultTypes: ['violations']}).then((r) => r.violations)")
        report = "\n".join(
            f"  {v['id']} ({v['impact']}): {v['help']}\n" + "\n".join(f"      {node['target']}" for node in v["nodes"])
            for v in violations
        )
        assert violations == [], f"axe violations on {page.url} ({theme} theme):\n{report}"


@pytest.mark.parametrize("path", PAGES.values(), ids=PAGES.keys())
def test_page_has_no_violations(desktop_page, live_server, axe, path):
    page = desktop_page
    response = page.goto(live_server + path)
    assert response.status == 200
    assert_no_violations_in_either_theme(axe, page)


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_calculator_with_a_result_has_no_violations(desktop_page, live_server, axe, fill_examples, calc_id):
    page = desktop_page
    calc = CALCULATORS[calc_id]
    page.goto(f"{live_server}/{calc.game}/calc/{calc.slug}")
    fill_examples(page, calc_id)
    with page.expect_navigation():
        page.click(".calc-form button[type=submit]")
    assert page.locator("section.result").is_visible(), f"{calc_id}: the examples gave no result"
    assert_no_violations_in_either_theme(axe, page)


def test_calculator_error_state_has_no_violations(desktop_page, live_server, axe):
    page = desktop_page
    response = page.goto(f"{live_server}/wotr/calc/roll?strength=11&hit=5&modifier=0&leadership=0&reroll_modifier=0")
    assert response.status == 400
    assert page.locator("#e-strength").is_visible()
    assert_no_violations_in_either_theme(axe, page)


def test_plans_side_by_side_on_a_phone_have_no_violations(desktop_page, live_server, axe):
    page = desktop_page
    page.set_viewport_size({"width": 390, "height": 844})
    calc = CALCULATORS["wotr-cards-combat"]
    query = [("plans", "2"), *calc.form_query(), *[("b-" + key, "battleground" if key == "combat" else value)
                                                    for key, value in calc.form_query()]]
    response = page.goto(f"{live_server}/wotr-cards/calc/combat?{urlencode(query)}")
    assert response.status == 200
    assert page.locator(".headline.comparison").is_visible()
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert_no_violations_in_either_theme(axe, page)


def test_the_details_of_a_battle_have_no_violations(desktop_page, live_server, axe):
    page = desktop_page
    page.goto(f"{live_server}/wotr/calc/battle?{urlencode(CALCULATORS['wotr-battle'].form_query())}")
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert page.locator(".line-chart").is_visible()
    assert_no_violations_in_either_theme(axe, page)


@pytest.mark.parametrize("calc_id, changes", [
    ("wotr-battle", {"attacker_modifier": 1, "attacker_modifier_rounds": "2", "defender_choice": "compare"}),
    ("fotf-battle", {"rerolls": 1, "reroll_results": ("nazgul", "overrun")}),
], ids=["stand-or-withdraw", "results-to-reroll"])
def test_the_battle_options_have_no_violations(desktop_page, live_server, axe, calculators, calc_id, changes):
    page = desktop_page
    calc = calculators[calc_id]  # bound to the content, so the face counts are prefilled
    page.goto(f"{live_server}/{calc.game}/calc/{calc.slug}?{urlencode(calc.form_query({**calc.prefill(), **changes}))}")
    assert page.locator("section.result").is_visible()
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert_no_violations_in_either_theme(axe, page)


def test_open_live_results_have_no_violations(desktop_page, live_server, axe):
    page = desktop_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server + "/")
    page.locator("#site-search").press_sequentially("leader re", delay=20)
    page.locator("#live-results a").first.wait_for()
    assert_no_violations_in_either_theme(axe, page)


def test_checklist_in_progress_has_no_violations(desktop_page, live_server, axe):
    page = desktop_page
    page.goto(live_server + "/wotr-cards/turn")
    first_phase = page.locator("[data-phase]").first
    for i in range(first_phase.locator(".step-row").count()):
        first_phase.locator(".step-row").nth(i).click()
    page.locator("#step-resolve-path .step-row").click()  # a done step in an open phase, earlier ones missed
    page.locator("#step-resolve-path summary").click()  # and its rule opened
    expect(first_phase).to_have_class(re.compile(r"\bphase-done\b"))
    expect(page.locator("#step-resolve-path.done")).to_be_visible()
    expect(page.locator(".step.missed").first).to_be_visible()
    expect(page.locator("[data-undo-bar]")).to_be_visible()
    assert_no_violations_in_either_theme(axe, page)


def test_print_sheet_has_no_violations(desktop_page, live_server, axe):
    page = desktop_page
    page.goto(live_server + "/meccg/print?paper=letter")
    page.evaluate(axe.axe_script)
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)
        violations = page.evaluate("axe.run({resultTypes: ['violations']}).then((r) => r.violations)")
        assert violations == [], f"axe violations on the print sheet ({theme} theme): {[v['id'] for v in violations]}"
