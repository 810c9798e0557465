"""Every touch target on the pages players use at the table is at least 44 px square on a phone:
the rules, checklists, glossaries and print sheets, search results (the page's and those shown as
you type), and every calculator's answer, its form, its list of errors and plans side by side.

A touch target is a link, button, summary, or form control (a control inside a label is measured
as its label, the whole row a player taps). Inline links inside running text are left out: their
size is set by the line of prose they sit in.
"""
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from webapp.calculators import CALCULATORS
from webapp.content import GAME_IDS

pytestmark = pytest.mark.browser

SMALLEST = 44  # px, both ways

PAGES = ["/", "/meq/sauron-turn", "/wotr/glossary?view=zzz"] + [
    path for game_id in GAME_IDS
    for path in (f"/{game_id}/", f"/{game_id}/turn", f"/{game_id}/glossary", f"/{game_id}/print")
] + ["/meccg/glossary?view=topics", "/search?q=combat&game=meq", "/search?q=strike"]


def calculator_pages():
    """Each calculator's answer (its form below it) and its form with an error, plans side by side, each
    game's list of calculators."""
    for calc in CALCULATORS.values():
        path, query = f"/{calc.game}/calc/{calc.slug}", calc.form_query()
        yield pytest.param(f"{path}?{urlencode(query)}", id=f"{calc.id}:answer")
        bad = [(key, "x" if index == 0 else value) for index, (key, value) in enumerate(query)]
        yield pytest.param(f"{path}?{urlencode(bad)}", id=f"{calc.id}:error")
    roll = CALCULATORS["wotr-roll"].form_query()
    plans = [("plans", "2"), *roll, *(("b-" + key, value) for key, value in roll)]
    yield pytest.param(f"/wotr/calc/roll?{urlencode(plans)}", id="wotr-roll:plans")
    for game_id in dict.fromkeys(calc.game for calc in CALCULATORS.values()):
        yield pytest.param(f"/{game_id}/calc/", id=f"{game_id}:calculators")


PAGES += list(calculator_pages())

# Each visible touch target smaller than SMALLEST either way, with what it says and its size.
# Running text: a link laid out inline in a paragraph that has words of its own besides its links
# (a link styled as a block or a chip is measured, whatever words stand beside it).
TOO_SMALL = """(smallest) => {
    const blockOf = (e) => { let b = e.parentElement;
                             while (getComputedStyle(b).display.startsWith('inline')) b = b.parentElement;
                             return b; };
    const inRunningText = (e) => {
        if (e.tagName !== 'A' || getComputedStyle(e).display !== 'inline') return false;
        const prose = blockOf(e).cloneNode(true);
        prose.querySelectorAll('a').forEach((a) => a.remove());
        return /[A-Za-z]{2,}/.test(prose.textContent);
    };
    const found = [];
    const targets = document.querySelectorAll('a[href], button, summary, input:not([type=hidden]), select, textarea');
    for (const target of targets) {
        const measured = target.matches('input, select, textarea') && target.closest('label') || target;
        const box = measured.getBoundingClientRect();
        if (!box.width || !box.height || getComputedStyle(target).visibility === 'hidden') continue;  // not shown
        if (box.right <= 0) continue;  // the skip link waits off screen for the keyboard
        if (inRunningText(target)) continue;
        if (box.width < smallest || box.height < smallest) {
            const name = (target.textContent || target.getAttribute('aria-label') || target.name || '').trim();
            found.push(`${target.tagName.toLowerCase()} "${name.slice(0, 40)}": ${Math.round(box.width)}x${Math.round(box.height)}`);
        }
    }
    return found;
}"""


@pytest.fixture
def page(browser):
    """A fresh phone-size page without the service worker, whose precache of every page in the
    background would only load the server while the pages are measured."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, service_workers="block")
    yield context.new_page()
    context.close()


def open_every_fold(page):
    """Folded parts (a step's rule, "On this page") hold targets too: open them all."""
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")


@pytest.mark.parametrize("path", PAGES)
def test_touch_targets_are_at_least_44_px(page, live_server, path):
    response = page.goto(live_server + path)
    assert response.status in (200, 400)
    open_every_fold(page)
    small = page.evaluate(TOO_SMALL, SMALLEST)
    assert small == [], f"touch targets under {SMALLEST} px on {path}:\n  " + "\n  ".join(small)


def test_search_results_and_those_shown_as_you_type_are_tap_targets(page, live_server):
    page.goto(f"{live_server}/search?q=combat&game=meq")
    titles = page.locator(".results .hit-title")
    assert titles.count() >= 10
    # a result's title stands alone on its line, whatever words follow it: measured, not left out as prose
    short = [f"{t.inner_text()}: {t.bounding_box()['height']:.0f}" for t in titles.all() if t.bounding_box()["height"] < SMALLEST]
    assert short == [], short
    page.locator("#q").fill("")
    page.locator("#q").press_sequentially("combat", delay=20)
    live = page.locator("#live-results a")
    expect(live.first).to_be_visible()
    assert live.count() >= 5
    assert page.evaluate(TOO_SMALL, SMALLEST) == []


def test_the_measure_finds_a_small_target(page, live_server):
    # the check above must be able to fail: shrink a known target and it is reported
    page.goto(f"{live_server}/meq/turn")
    page.evaluate("""document.querySelectorAll('.phase-links a').forEach((a) => {
                         a.style.display = 'inline-block'; a.style.minHeight = '0'; })""")
    small = page.evaluate(TOO_SMALL, SMALLEST)
    assert any('"Rule page: Story"' in item for item in small), small
    page.goto(f"{live_server}/meq/glossary")
    page.evaluate("""document.querySelectorAll('.anchor').forEach((a) => {
                         a.style.width = 'auto'; a.style.height = 'auto'; })""")
    assert any(item.startswith('a "#"') for item in page.evaluate(TOO_SMALL, SMALLEST))
    # the "Change" link under a calculator's answer, at the size players found too small
    page.goto(f"{live_server}/wotr/calc/roll?{urlencode(CALCULATORS['wotr-roll'].form_query())}")
    page.evaluate("""document.querySelectorAll('.inputs-summary a').forEach((a) => {
                         a.style.display = 'inline-block'; a.style.minHeight = '0'; a.style.padding = '2px 0'; })""")
    assert any(item.startswith('a "Change"') for item in page.evaluate(TOO_SMALL, SMALLEST))


def test_links_in_running_text_are_left_out(page, live_server):
    page.goto(f"{live_server}/meq/turn")
    open_every_fold(page)
    prose_link = page.locator(".step-body p:not(.step-links) a").first
    assert prose_link.bounding_box()["height"] < SMALLEST, "no small prose link left to prove the exemption"
    assert page.evaluate(TOO_SMALL, SMALLEST) == []
