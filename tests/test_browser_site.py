"""The site in a real browser (headless Chromium): live search, deep links, keyboard, checklist
turn bar, calculator errors, offline use, the dark theme, screenshots and console errors."""
import re

import pytest
from flask import request, request_finished
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
ROLL_RESULT = "/wotr/calc/roll?strength=5&hit=5&modifier=0&leadership=2&reroll_modifier=0"


@pytest.fixture
def new_page(browser):
    """Makes pages in fresh contexts (closed at the end of the test) with the given options."""
    contexts = []

    def make(**options):
        options.setdefault("viewport", PHONE)
        context = browser.new_context(**options)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def luminance(css_colour):
    """Relative luminance (WCAG) of an rgb()/rgba() colour from getComputedStyle."""
    r, g, b = (int(n) / 255 for n in re.findall(r"\d+", css_colour)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def body_background(page):
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def placement(page, selector):
    """Where an element sits relative to the window and to the bottom of the sticky header."""
    return page.evaluate(
        """(selector) => {
            const box = document.querySelector(selector).getBoundingClientRect();
            const header = document.querySelector(".site-header").getBoundingClientRect();
            return {top: box.top, bottom: box.bottom, headerBottom: header.bottom, height: window.innerHeight};
        }""",
        selector,
    )


def assert_shown_below_header(page, selector):
    where = placement(page, selector)
    assert where["headerBottom"] - 1 <= where["top"] < where["height"], f"{selector} not in view below the header: {where}"


# --- Search as you type -------------------------------------------------------------------------

def test_search_as_you_type_lists_hits_and_opens_the_rule(new_page, live_server):
    page = new_page(service_workers="block")
    page.goto(live_server + "/")
    results = page.locator("#live-results")
    expect(results).to_be_hidden()
    page.locator("#site-search").press_sequentially("leader re", delay=30)
    expect(results).to_be_visible()
    hit = results.locator('a[href="/wotr/combat-dice#leader-reroll"]')
    expect(hit).to_contain_text(re.compile("leader re-roll", re.I), use_inner_text=True)
    hit.click()
    page.wait_for_url(f"{live_server}/wotr/combat-dice#leader-reroll")
    expect(page.locator("#leader-reroll:target")).to_have_count(1)
    assert_shown_below_header(page, "#leader-reroll")


def test_live_results_close_with_escape_and_open_with_the_arrow_key(new_page, live_server):
    page = new_page(viewport=DESKTOP, service_workers="block")
    page.goto(live_server + "/")
    box = page.locator("#site-search")
    box.press_sequentially("corruption", delay=20)
    first = page.locator("#live-results a").first
    first.wait_for()
    box.press("ArrowDown")
    expect(first).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#live-results")).to_be_hidden()
    expect(box).to_be_focused()


# --- Deep links ---------------------------------------------------------------------------------

@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_deep_link_scrolls_to_the_rule_and_highlights_it(new_page, live_server, viewport):
    page = new_page(viewport=viewport, service_workers="block")
    page.goto(f"{live_server}/wotr/combat-dice#leader-reroll")
    assert page.evaluate("window.scrollY") > 0, "the page did not scroll to the rule"
    assert_shown_below_header(page, "#leader-reroll")
    target = page.evaluate("getComputedStyle(document.querySelector('#leader-reroll')).backgroundColor")
    normal = page.evaluate("getComputedStyle(document.querySelector('#combat-roll')).backgroundColor")
    assert target != normal, "the linked rule is not highlighted"


# --- Keyboard -----------------------------------------------------------------------------------

def test_slash_key_focuses_the_search_box(new_page, live_server):
    page = new_page(viewport=DESKTOP, service_workers="block")
    page.goto(f"{live_server}/wotr/combat-dice")
    page.keyboard.press("/")
    expect(page.locator("#site-search")).to_be_focused()
    expect(page.locator("#site-search")).to_have_value("")  # the slash is not typed into the box
    page.keyboard.type("a/b")
    expect(page.locator("#site-search")).to_have_value("a/b")  # a slash inside the box types a slash


def test_slash_key_works_after_ticking_a_checklist_step(new_page, live_server):
    page = new_page(viewport=DESKTOP, service_workers="block")
    page.goto(f"{live_server}/wotr/turn")
    page.locator("[data-step] .tick").first.focus()
    page.keyboard.press("Space")
    expect(page.locator("[data-step] .tick").first).to_be_checked()
    expect(page.locator("[data-step] .tick").first).to_be_focused()
    page.keyboard.press("/")
    expect(page.locator("#site-search")).to_be_focused()


def test_slash_key_types_a_slash_in_the_search_page_box(new_page, live_server):
    page = new_page(viewport=DESKTOP, service_workers="block")
    page.goto(f"{live_server}/search")
    page.click("#q")
    page.keyboard.type("1/2")
    expect(page.locator("#q")).to_have_value("1/2")
    expect(page.locator("#q")).to_be_focused()


# --- Turn checklist on a phone -------------------------------------------------------------------

def test_phone_turn_bar_fits_and_a_finished_phase_collapses(new_page, live_server):
    page = new_page(service_workers="block", is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto(f"{live_server}/fotf/turn")
    bar = page.locator("[data-turn-bar]")
    expect(bar).to_be_visible()
    box = bar.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    for button in ("[data-next]", "[data-reset]"):
        size = page.locator(button).bounding_box()
        assert size["height"] >= 44 and size["x"] + size["width"] <= PHONE["width"], (button, size)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], "the page scrolls sideways"

    phases = page.locator("[data-phase]")
    first, second = phases.nth(0), phases.nth(1)
    in_first = first.locator("[data-step]").count()
    assert in_first >= 1
    for i in range(in_first):
        first.locator("[data-step] .step-row").nth(i).tap()
    expect(first).to_have_class(re.compile(r"\bphase-done\b"))
    expect(first.locator(".steps")).to_be_hidden()  # a finished phase folds away
    expect(first.locator(".phase-title")).to_be_visible()  # and keeps its title
    expect(second).not_to_have_class(re.compile(r"\bphase-done\b"))
    expect(second.locator(".steps")).to_be_visible()
    expect(second.locator("[data-step]").first).to_have_class(re.compile(r"\bcurrent\b"))
    page.reload()
    expect(page.locator("[data-phase]").first.locator(".steps")).to_be_hidden()  # still folded after a reload
    page.click("[data-reset]")
    expect(page.locator("[data-phase]").first.locator(".steps")).to_be_visible()
    undo = page.locator("[data-undo-bar]")
    expect(undo).to_be_visible()  # a reset can be undone
    where = undo.bounding_box()
    assert where["y"] + where["height"] <= PHONE["height"] + 1 and page.locator("[data-undo]").bounding_box()["height"] >= 44


# --- Calculator errors --------------------------------------------------------------------------

def test_calculator_bad_value_shows_the_error_beside_the_field(new_page, live_server):
    page = new_page(service_workers="block")
    page.goto(f"{live_server}/wotr/calc/roll")
    page.get_by_label("Combat Strength", exact=True).fill("11")
    page.get_by_label("Hit on", exact=True).fill("5")  # the form opens empty: the hit number is given too
    page.get_by_label("Leadership", exact=True).fill("3")
    with page.expect_navigation() as navigation:
        page.click(".calc-form button[type=submit]")
    assert navigation.value.status == 400
    field = page.locator("#f-strength")
    error = page.locator("#e-strength")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Combat Strength", use_inner_text=True)
    expect(field).to_have_value("11")
    expect(page.locator("#f-leadership")).to_have_value("3")  # the other values are kept too
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_attribute("aria-describedby", "e-strength")
    expect(page.locator(".field.has-error")).to_have_count(1)
    expect(page.locator(".field.has-error #e-strength")).to_have_count(1)  # the error sits in the field's own box
    field_box, error_box = field.bounding_box(), error.bounding_box()
    gap = error_box["y"] - (field_box["y"] + field_box["height"])
    assert 0 <= gap <= 40, f"error is {gap}px from its field"
    expect(page.locator("section.result")).to_have_count(0)


def test_calculator_keeps_text_typed_where_a_number_goes(new_page, live_server):
    # a number box cannot show "x": the field with the error must show what the player typed
    page = new_page(service_workers="block")
    page.goto(f"{live_server}/wotr/calc/battle?attacker_regulars=3&attacker_elites=x&defender_regulars=2")
    expect(page.locator("#f-attacker_elites")).to_have_value("x")
    expect(page.locator("#e-attacker_elites")).to_contain_text("whole number", use_inner_text=True)
    expect(page.locator("#f-attacker_regulars")).to_have_value("3")


# --- Offline ------------------------------------------------------------------------------------

@pytest.fixture
def server_hits(app):
    """Paths the live server answers while the test runs."""
    paths = []

    def record(sender, response, **extra):
        paths.append(request.path)

    request_finished.connect(record, app)
    yield paths
    request_finished.disconnect(record, app)


def test_offline_rule_checklist_and_print_sheet_open_from_the_cache(new_page, live_server, server_hits):
    page = new_page()
    page.goto(live_server + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'")
    page.wait_for_function(
        """async () => !!(await caches.match("/meq/print")) && !!(await caches.match("/meccg/corruption"))
                      && !!(await caches.match("/fotf/turn"))""",
        timeout=15000,
    )
    assert "/meq/print" in server_hits, "the precache should have fetched the print sheet from the server"
    page.goto(live_server + "/wotr/calc/roll")  # a calculator's form, opened before going offline
    page.wait_for_function("async () => !!(await caches.match('/wotr/calc/roll'))")
    page.context.set_offline(True)
    server_hits.clear()

    rule = page.goto(f"{live_server}/meccg/corruption#corruption-checks")
    assert rule.from_service_worker
    expect(page.locator("h1")).to_have_text("Corruption", use_inner_text=True)
    expect(page.locator("#corruption-checks")).to_be_visible()
    assert body_background(page) != "rgba(0, 0, 0, 0)", "the stylesheet came from the cache too"

    checklist = page.goto(f"{live_server}/fotf/turn")
    assert checklist.from_service_worker
    expect(page.locator("h1")).to_contain_text("turn checklist", use_inner_text=True)
    expect(page.locator("[data-turn-bar]")).to_be_visible()  # checklist.js came from the cache too

    sheet = page.goto(f"{live_server}/meq/print")
    assert sheet.from_service_worker
    expect(page.locator("h1").first).to_have_text("Middle-earth Quest", use_inner_text=True)

    # search and the calculators say that they need a connection; a page never saved says so
    page.goto(f"{live_server}/search?q=retreat")
    expect(page.locator("h1")).to_have_text("Search needs a connection", use_inner_text=True)
    expect(page.locator("main")).to_contain_text("You are offline, and searching the rules runs on the server")
    expect(page.locator("main")).not_to_contain_text("not saved")
    page.goto(f"{live_server}/fotf/calc/ring?nazgul=2&hope=4")
    expect(page.locator("h1")).to_have_text("Calculators need a connection", use_inner_text=True)
    expect(page.locator("main")).to_contain_text(
        "the calculators work out their answers on the server, so they need a connection")
    expect(page.locator("main")).not_to_contain_text("not saved")
    page.goto(f"{live_server}/meccg/glossary?view=topics")
    expect(page.locator("h1")).to_have_text("You are offline", use_inner_text=True)
    expect(page.locator("main")).to_contain_text("This page was not saved on this device")

    # a game's list of calculators was saved; a calculator's form opened before says it needs a connection
    index = page.goto(f"{live_server}/fotf/calc/")
    assert index.from_service_worker
    expect(page.locator("h1")).not_to_have_text("You are offline", use_inner_text=True)
    page.goto(f"{live_server}/wotr/calc/roll")
    expect(page.locator("[data-needs-network]")).to_be_visible()
    expect(page.locator("[data-needs-network]")).to_contain_text("needs a connection", use_inner_text=True)

    # search as you type says so too, rather than showing nothing
    page.locator("#site-search").press_sequentially("retreat", delay=20)
    expect(page.locator("#live-results .live-empty")).to_have_text(
        re.compile(r"^Search needs a connection: you are offline\."), use_inner_text=True)

    assert server_hits == [], f"the server was reached while offline: {server_hits}"


def test_a_calculation_asked_offline_can_be_tried_again_with_its_inputs(new_page, live_server):
    page = new_page()
    page.goto(live_server + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'")
    page.goto(live_server + "/meccg/calc/strike")  # the form is loaded, then the network goes
    page.wait_for_function("async () => !!(await caches.match('/meccg/calc/strike'))")
    page.context.set_offline(True)
    page.locator("#f-prowess").fill("5")
    page.locator("#f-strike_prowess").fill("7")
    page.click(".calc-form button[type=submit]")
    expect(page.locator("h1")).to_have_text("Calculators need a connection", use_inner_text=True)
    asked = page.url
    assert "prowess=5" in asked and "strike_prowess=7" in asked
    retry = page.get_by_role("link", name="Try again")
    expect(retry).to_be_visible()
    assert retry.evaluate("(link) => link.href") == asked
    back = page.get_by_role("link", name="Back to the calculator")
    assert back.evaluate("(link) => link.href") == live_server + "/meccg/calc/strike"
    for link in (retry, back):
        size = link.bounding_box()
        assert size["height"] >= 44, "a tap target"

    # still offline: the form opens again from the device
    back.click()
    expect(page.locator("#f-prowess")).to_be_visible()
    page.go_back()
    expect(page.locator("h1")).to_have_text("Calculators need a connection", use_inner_text=True)

    # back online, trying again gives the answer to what was asked
    page.context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    expect(page.locator("section.result")).to_be_visible()
    assert page.url == asked
    expect(page.locator("#f-strike_prowess")).to_have_value("7")


def test_other_offline_pages_offer_no_retry(new_page, live_server):
    page = new_page()
    page.goto(live_server + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'")
    page.wait_for_function("async () => !!(await caches.match('/offline/calculator'))")
    page.context.set_offline(True)
    for url, heading in [("/search?q=retreat", "Search needs a connection"), ("/meccg/glossary?view=topics", "You are offline"),
                         ("/offline/calculator", "Calculators need a connection")]:
        page.goto(live_server + url)
        expect(page.locator("h1")).to_have_text(heading, use_inner_text=True)
        expect(page.get_by_role("link", name="Try again")).to_have_count(0)
        expect(page.get_by_role("link", name="Back to the calculator")).to_have_count(0)
        expect(page.get_by_role("link", name="Middle-earth Quest")).to_be_visible()  # the games, as before


def test_pages_visited_besides_the_precache_are_kept_up_to_a_limit_oldest_dropped(new_page, live_server):
    from webapp.offline import RUNTIME_CACHE_LIMIT

    page = new_page()
    page.goto(live_server + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'")
    visited = [f"/wotr/combat-dice?visit={number}" for number in range(RUNTIME_CACHE_LIMIT + 5)]
    for url in visited:  # one after another, so the order they are saved in is the order asked
        page.evaluate("async (url) => { await fetch(url); }", url)
    saved = """async () => {
        const name = (await caches.keys()).find((name) => name.endsWith("-visited"));
        const keys = name ? await (await caches.open(name)).keys() : [];
        return keys.map((request) => { const url = new URL(request.url); return url.pathname + url.search; });
    }"""
    # each page is saved, and the oldest dropped, once its answer has come: wait for the last one
    page.wait_for_function(f"async () => {{ const keys = await ({saved})(); "
                           f"return keys.includes({visited[-1]!r}) && keys.length <= {RUNTIME_CACHE_LIMIT}; }}")
    assert page.evaluate(saved) == visited[-RUNTIME_CACHE_LIMIT:], "the oldest visits are the ones dropped"
    # a precached page fetched again refreshes its precached copy rather than taking a visited slot
    page.evaluate("async () => { await fetch('/wotr/combat-round'); await fetch('/wotr/combat-dice?visit=last'); }")
    page.wait_for_function(f"async () => (await ({saved})()).includes('/wotr/combat-dice?visit=last')")
    assert "/wotr/combat-round" not in page.evaluate(saved)


# --- Theme --------------------------------------------------------------------------------------

def test_dark_theme_follows_the_system_and_the_toggle_choice_is_remembered(new_page, live_server):
    page = new_page(color_scheme="dark", service_workers="block")
    page.goto(f"{live_server}/wotr/combat-dice")
    system_dark = body_background(page)
    assert luminance(system_dark) < 0.05, system_dark
    assert luminance(page.evaluate("getComputedStyle(document.body).color")) > 0.6
    toggle = page.locator("[data-theme-toggle]")
    expect(toggle).to_have_attribute("aria-label", "Switch to light theme")

    toggle.click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert luminance(body_background(page)) > 0.9
    expect(toggle).to_have_attribute("aria-label", "Switch to dark theme")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert luminance(body_background(page)) > 0.9, "the light choice did not survive a reload"

    page.locator("[data-theme-toggle]").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.evaluate("localStorage.getItem('redbook:theme')") == "dark"
    assert body_background(page) == system_dark, "the chosen dark theme differs from the system dark theme"


def test_the_theme_button_names_the_other_theme_from_the_start(new_page, live_server):
    page = new_page(color_scheme="dark", service_workers="block")
    page.goto(f"{live_server}/")
    toggle = page.locator("[data-theme-toggle]")
    expect(toggle).to_have_text("Light", use_inner_text=True)
    page.emulate_media(color_scheme="light")  # the system turns light: no choice was made, so the page follows
    # the page reacts to the change a moment later: expect() waits for it (up to its timeout)
    expect(toggle).to_have_text("Dark", use_inner_text=True)
    expect(toggle).to_have_attribute("aria-label", "Switch to dark theme")
    toggle.click()
    expect(toggle).to_have_text("Light", use_inner_text=True)
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")


def test_dark_choice_overrides_a_light_system(new_page, live_server):
    page = new_page(color_scheme="light", service_workers="block")
    page.goto(f"{live_server}/")
    assert luminance(body_background(page)) > 0.9
    page.click("[data-theme-toggle]")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.goto(f"{live_server}/meccg/turn")
    assert luminance(body_background(page)) < 0.05


# --- Screenshots --------------------------------------------------------------------------------

SHOTS = {
    "home": "/",
    "game": "/meccg/",
    "rule": "/wotr/combat-dice#leader-reroll",
    "glossary": "/meccg/glossary",
    "glossary-topics": "/meccg/glossary?view=topics",
    "checklist": "/wotr-cards/turn",
    "checklist-battle": "/wotr/turn",
    "print": "/meccg/print",
    "checklist-quest": "/meq/turn",
    "print-quest": "/meq/print",
    "print-fotf": "/fotf/print",
    "calculator": ROLL_RESULT,
    "search": "/search?q=leader+re-roll",
}


@pytest.mark.parametrize("viewport, scheme", [(PHONE, "light"), (PHONE, "dark"), (DESKTOP, "light")],
                         ids=["phone", "phone-dark", "desktop"])
def test_screenshots_without_sideways_scrolling(new_page, live_server, screenshots, viewport, scheme):
    page = new_page(viewport=viewport, color_scheme=scheme, service_workers="block")
    size = "phone" if viewport is PHONE else "desktop"
    for name, path in SHOTS.items():
        response = page.goto(live_server + path)
        assert response.status == 200
        target = screenshots / f"site-{size}-{scheme}-{name}.png"
        page.screenshot(path=str(target), full_page=True)
        assert target.stat().st_size > 5000
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= viewport["width"], f"{name} at {size} width scrolls sideways ({width}px)"


# --- Console ------------------------------------------------------------------------------------

CONSOLE_PAGES = ("/", "/wotr/", "/wotr/combat-dice#leader-reroll", "/search?q=leader+re-roll", "/meq/turn",
                 "/wotr-cards/print", "/wotr/calc/", ROLL_RESULT, "/offline")


def test_no_console_errors_on_the_main_pages(new_page, live_server):
    page = new_page(viewport=DESKTOP)
    errors = []
    page.on("console", lambda message: errors.append(f"{page.url}: {message.text}") if message.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    for path in CONSOLE_PAGES:
        page.goto(live_server + path)
        page.wait_for_load_state("load")
    page.evaluate("navigator.serviceWorker.ready")
    page.locator("#site-search").press_sequentially("shadow", delay=20)
    page.locator("#live-results a").first.wait_for()
    page.click("[data-theme-toggle]")
    assert errors == [], "\n".join(errors)
