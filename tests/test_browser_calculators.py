"""Calculators in a real browser on a phone (390x844): the answer in the first screen after Calculate,
errors for bad or empty input in every kind of field, steppers and switches by touch and keyboard,
fields shown only when they apply, cards added one by one, plans side by side. Screenshots of every
calculator's result, light and dark, land in test-output/calculators/."""
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import expect

from webapp import PROJECT_ROOT
from webapp.calculators import CALCULATORS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def shots():
    folder = PROJECT_ROOT / "test-output" / "calculators"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def calculate(page):
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name="Calculate").click()
    return navigation.value


def light_and_dark(page, shots, name):
    """Screenshots of the first screen, light and dark: <name>-light.png and <name>-dark.png."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        target = shots / f"{name}-{scheme}.png"
        page.screenshot(path=str(target))
        assert target.stat().st_size > 10000


def assert_headline_in_first_screen(page):
    where = in_first_screen(page, ".result .headline")
    assert where["headerBottom"] <= where["top"] and where["bottom"] <= where["height"], where
    return where


def in_first_screen(page, selector):
    return page.evaluate(
        """(selector) => {
            const box = document.querySelector(selector).getBoundingClientRect();
            const header = document.querySelector(".site-header").getBoundingClientRect();
            return {top: box.top, bottom: box.bottom, headerBottom: header.bottom, height: window.innerHeight,
                    scrollY: window.scrollY, fontSize: parseFloat(getComputedStyle(document.querySelector(selector)).fontSize)};
        }""", selector)


# --------------------------------------------------------------------------- the answer first


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_after_calculate_the_headline_is_in_the_first_screen(phone, live_server, shots, fill_examples, calc_id):
    calc = CALCULATORS[calc_id]
    phone.goto(f"{live_server}/{calc.game}/calc/{calc.slug}")
    assert phone.locator("section.result").count() == 0
    fill_examples(phone, calc_id)
    response = calculate(phone)
    assert response.status == 200
    where = assert_headline_in_first_screen(phone)
    assert where["fontSize"] >= 22, "the headline is in large type"
    assert phone.locator(".result .headline").inner_text().strip()
    if calc.data == "dice":  # odds from die faces the rules summary lacks: the caveat is read with the headline
        note = in_first_screen(phone, ".result .headline-note")
        assert where["bottom"] <= note["top"] and note["bottom"] <= note["height"], note
        assert "which the rules summary does not give" in phone.locator(".result .headline-note").inner_text()
    assert phone.locator(".inputs-summary a", has_text="Change").is_visible()
    assert phone.locator("details.more").count() == 1 and not phone.locator("details.more").get_attribute("open")
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], "the page scrolls sideways"
    light_and_dark(phone, shots, calc_id)


LINE_OPENINGS = """() => {
    // each line of the inputs summary: its first character, and whether the input it belongs to is
    // wider than the line (only such an input may break inside itself)
    const summary = document.querySelector(".result .inputs-summary");
    const width = summary.getBoundingClientRect().width;
    const walker = document.createTreeWalker(summary, NodeFilter.SHOW_TEXT);
    const lines = new Map();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let at = 0; at < node.length; at++) {
            if (!node.data[at].trim()) continue;
            const range = document.createRange();
            range.setStart(node, at); range.setEnd(node, at + 1);
            const top = Math.round(range.getBoundingClientRect().top);
            if (lines.has(top)) continue;
            const item = node.parentElement.closest(".summary-item");
            const long = item ? item.getBoundingClientRect().width >= width - 1 : false;
            lines.set(top, {first: node.data[at], long});
        }
    }
    return [...lines.values()];
}"""


LINE_ENDS = """() => {
    // each line of each inputs line under an answer: how far short of the line's width it ends, and how
    // wide the first piece of the next line is that could not break (a whole input kept together, or
    // the first word of an input that flows)
    const out = [];
    for (const summary of document.querySelectorAll(".result .inputs-summary")) {
        const box = summary.getBoundingClientRect();
        const style = getComputedStyle(summary);
        const right = box.right - parseFloat(style.paddingRight);
        const width = right - box.left - parseFloat(style.paddingLeft);
        const lines = [];
        const walker = document.createTreeWalker(summary, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let at = 0; at < node.length; at++) {
                if (!node.data[at].trim()) continue;
                const range = document.createRange();
                range.setStart(node, at); range.setEnd(node, at + 1);
                const rect = range.getBoundingClientRect();
                let line = lines.find(l => Math.abs(l.top - rect.top) < rect.height / 2);
                if (!line) {
                    const unit = node.parentElement.closest(".summary-item, a") || node.parentElement;
                    const display = getComputedStyle(unit).display;
                    let opening;
                    if (display !== "inline") opening = unit.getBoundingClientRect().width;
                    else {  // the first word: up to the first ordinary space
                        let end = node.data.indexOf(" ", at);
                        if (end < 0) end = node.length;
                        const word = document.createRange();
                        word.setStart(node, at); word.setEnd(node, end);
                        opening = word.getBoundingClientRect().width;
                    }
                    line = {top: rect.top, right: rect.right, opening, text: ""};
                    lines.push(line);
                }
                line.right = Math.max(line.right, rect.right);
                line.text += node.data[at];
            }
        }
        lines.sort((a, b) => a.top - b.top);
        out.push({width, space: parseFloat(style.fontSize) / 2, lines: lines.map((l, i) => ({text: l.text, short: right - l.right,
                                                      next: i + 1 < lines.length ? lines[i + 1].opening : 0}))});
    }
    return out;
}"""


def assert_no_blank_band(summaries):
    """No line of an inputs line ends more than 40% of its width short, unless what opens the next line
    (an input kept whole, or the first word of one that flows) is wider than the room left after the
    space between them (at most half an em)."""
    assert summaries
    for summary in summaries:
        for line in summary["lines"][:-1]:
            if line["short"] > 0.4 * summary["width"]:
                assert line["next"] + summary["space"] > line["short"], summary


@pytest.mark.parametrize("width", [390, 320])
@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_the_inputs_line_wraps_between_inputs(browser, live_server, fill_examples, calc_id, width):
    """'Nazgûl 1' stays together: no line of the inputs under an answer opens with a separator, or with
    a number cut from its input, unless that input alone is wider than the line."""
    calc = CALCULATORS[calc_id]
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True,
                                  service_workers="block")
    page = context.new_page()
    page.goto(f"{live_server}/{calc.game}/calc/{calc.slug}")
    fill_examples(page, calc_id)
    calculate(page)
    lines = page.evaluate(LINE_OPENINGS)
    ends = page.evaluate(LINE_ENDS)
    context.close()
    assert lines, "the answer lists its inputs"
    for line in lines[1:]:
        assert line["first"] != "·", lines
        assert not line["first"].isdigit() or line["long"], lines
    assert_no_blank_band(ends)


def two_battle_plans(live_server):
    calc = CALCULATORS["wotr-battle"]
    query = [("plans", "2"), ("plan", "Stand in the field"), ("b-plan", "Defend the City")]
    query += [(key, value) for key, value in calc.form_query()] + \
        [("b-" + key, "city" if key == "terrain" else value) for key, value in calc.form_query()]
    return f"{live_server}/wotr/calc/battle?{urlencode(query)}"


@pytest.mark.parametrize("width", [390, 320, 1280])
def test_a_long_input_flows_with_the_line_and_leaves_no_blank_band(browser, live_server, width):
    """Two battle plans: each army's inputs are a long item, which flows on from the line before
    rather than jumping whole to a new line; short inputs still wrap whole."""
    context = browser.new_context(viewport={"width": width, "height": 844}, service_workers="block")
    page = context.new_page()
    page.goto(two_battle_plans(live_server))
    ends = page.evaluate(LINE_ENDS)
    lines = page.evaluate(LINE_OPENINGS)
    context.close()
    assert len(ends) == 2 and len(ends[0]["lines"]) > 2, ends
    assert_no_blank_band(ends)
    for line in lines[1:]:
        assert line["first"] != "·" and not line["first"].isdigit(), lines


def test_plans_side_by_side_screenshots(phone, live_server, shots, browser):
    url = two_battle_plans(live_server)
    phone.goto(url)
    where = in_first_screen(phone, ".headline.comparison")
    assert where["bottom"] <= where["height"], where
    assert re.match(r"Stand in the field: defender destroyed \d+%; Defend the City: \d+%\.",
                    phone.locator(".headline.comparison").inner_text())
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        phone.screenshot(path=str(shots / f"plans-phone-{scheme}.png"), full_page=True)
    # side by side on a wide screen
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    wide = context.new_page()
    wide.goto(url)
    first, second = (wide.locator(f"#result-{letter}").bounding_box() for letter in "ab")
    assert abs(first["y"] - second["y"]) < 2 and second["x"] > first["x"] + first["width"] - 1
    wide.screenshot(path=str(shots / "plans-desktop-light.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("path", ["/meccg/calc/strike", "/wotr/calc/battle", "/fotf/calc/battle"])
def test_comparing_lands_on_the_new_plans_inputs_below_the_sticky_header(phone, live_server, path):
    """After "Compare with a second plan" the page opens at plan B's inputs (the ones to change next),
    its heading in view and clear of the sticky header."""
    phone.goto(live_server + path)
    calculate(phone)
    with phone.expect_navigation():
        phone.get_by_role("button", name="Compare with a second plan").click()
    assert phone.url.endswith("#inputs-b")
    where = in_first_screen(phone, "#inputs-title-b")
    assert where["headerBottom"] <= where["top"] and where["bottom"] <= where["height"], where
    assert phone.locator("#inputs-title-b").inner_text() == "Plan B: inputs"


def test_two_players_stack_on_a_phone_and_sit_side_by_side_on_a_wide_screen(phone, live_server, browser):
    calc = CALCULATORS["meccg-council"]
    url = f"{live_server}/meccg/calc/council?{urlencode(calc.form_query())}"
    phone.goto(url)
    one, two = (card.bounding_box() for card in phone.locator(".player-card").all())
    assert two["y"] >= one["y"] + one["height"] and one["x"] + one["width"] <= PHONE["width"]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    wide = context.new_page()
    wide.goto(url)
    one, two = (card.bounding_box() for card in wide.locator(".player-card").all())
    assert abs(one["y"] - two["y"]) < 2 and two["x"] > one["x"]
    context.close()


# --------------------------------------------------------------------------- bad or empty input


def typed_boxes(page):
    """The boxes a player types numbers into (steppers, number boxes, a list's boxes), as shown."""
    return page.locator(".calc-form [data-stepper] input:visible, .calc-form input.number:visible, "
                        ".calc-form .boxes input:visible")


ERROR_CASES = [pytest.param(calc_id, None, "x", id=f"{calc_id}:last-box") for calc_id in CALCULATORS] + [
    # what players reported: the only error was 2,400 px down, or just below the first screen
    pytest.param("meccg-council", "p2_misc", "two", id="meccg-council:p2_misc"),
    pytest.param("wotr-roll", "leadership", "lots", id="wotr-roll:leadership"),
]


@pytest.mark.parametrize("calc_id, name, typed", ERROR_CASES)
def test_a_bad_value_is_named_at_the_top_of_the_first_screen_with_no_result(phone, live_server, shots, fill_examples,
                                                                            calc_id, name, typed):
    calc = CALCULATORS[calc_id]
    phone.goto(f"{live_server}/{calc.game}/calc/{calc.slug}")
    fill_examples(phone, calc_id)
    # the box farthest down the form, unless the case names one
    box_id = f"f-{name}" if name else typed_boxes(phone).last.get_attribute("id")
    box = phone.locator(f"#{box_id}")
    box.fill(typed)
    response = calculate(phone)
    assert response.status == 400
    assert phone.locator("section.result").count() == 0
    assert phone.title().startswith("Error: ")
    summary = phone.locator(".error-summary")
    where = in_first_screen(phone, ".error-summary")
    assert where["headerBottom"] <= where["top"] and where["bottom"] <= where["height"], where
    assert summary.get_attribute("role") == "alert"
    assert phone.evaluate("document.activeElement.matches('.error-summary')"), "the summary takes the focus"
    links = summary.locator("a")
    assert links.count() == 1
    assert links.first.get_attribute("href") == f"#{box_id}"
    assert "must be" in links.first.inner_text()
    light_and_dark(phone, shots, f"{calc_id}-error" + (f"-{name}" if name else ""))
    phone.emulate_media(color_scheme="light")
    # the link goes to the box, its label in view under the header, the cursor in it, what was typed kept
    links.first.click()
    assert phone.evaluate("document.activeElement.id") == box_id
    field = in_first_screen(phone, f"#{box_id}")
    assert field["headerBottom"] <= field["top"] and field["bottom"] <= field["height"], field
    assert box.input_value() == typed and box.get_attribute("aria-invalid") == "true"
    assert phone.locator(f"#{box.get_attribute('aria-describedby')}").is_visible()


def test_the_error_list_is_at_the_top_without_javascript(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    response = page.goto(f"{live_server}/meccg/calc/council?p1_character=10&p2_misc=two&ruleset=seed")
    assert response.status == 400
    where = in_first_screen(page, ".error-summary")
    assert where["bottom"] <= where["height"], where
    link = page.locator(".error-summary a")
    assert link.inner_text() == "Player 2 — Miscellaneous points: must be a whole number from -100 to 100"
    link.click()  # a plain link to the box
    assert page.url.endswith("#f-p2_misc")
    box = in_first_screen(page, "#f-p2_misc")
    assert box["headerBottom"] <= box["top"] and box["bottom"] <= box["height"], box
    assert page.input_value("#f-p2_misc") == "two"
    context.close()


def open_more_options(page, plan="a"):
    """A player opens the options folded under More options (its line says what they are set to)."""
    fold = page.locator(f"#inputs-{plan} details.more-options")
    if fold.get_attribute("open") is None:
        fold.locator("summary").tap()
    expect(fold).to_have_attribute("open", "")


def assert_refused(page, response, name, kept=None):
    assert response.status == 400
    error = page.locator(f"#e-{name}")
    assert error.is_visible(), f"no error shown beside {name}"
    assert page.locator("section.result").count() == 0
    if kept is not None:
        assert page.input_value(f"#f-{name}") == kept


@pytest.mark.parametrize("path, name, typed", [
    ("/wotr/calc/roll", "strength", "abc"),  # letters in a stepper's box are kept and refused, never dropped
    ("/wotr/calc/roll", "strength", ""),  # a required count left empty
    ("/wotr/calc/battle", "rounds", "many"),  # an optional box
    ("/fotf/calc/search", "dice", "x"),
    ("/fotf/calc/search", "weary", ""),  # the die faces the rules do not give must be given
    ("/meccg/calc/strike", "prowess", "5.5"),
])
def test_bad_or_empty_typing_gives_an_error_and_no_result(phone, live_server, fill_examples, path, name, typed):
    phone.goto(live_server + path)
    fill_examples(phone, next(calc.id for calc in CALCULATORS.values() if path.endswith(f"/{calc.game}/calc/{calc.slug}")))
    box = phone.locator(f"#f-{name}")
    if box.locator("xpath=ancestor::details").count():
        open_more_options(phone)
    box.fill("")
    box.press_sequentially(typed)
    assert_refused(phone, calculate(phone), name, kept=typed)
    assert box.get_attribute("aria-invalid") == "true"


def test_a_box_of_a_fixed_list_and_a_card_refuse_bad_input(phone, live_server, fill_examples):
    phone.goto(f"{live_server}/meq/calc/dominance")
    fill_examples(phone, "meq-dominance")
    phone.locator("#f-sauron_to_finale-2").fill("x")
    assert_refused(phone, calculate(phone), "sauron_to_finale")
    # only the bad box is marked, and the message names it
    assert [phone.locator(f"#f-sauron_to_finale-{box}").get_attribute("aria-invalid") for box in (1, 2, 3)] == \
        [None, "true", None]
    assert "(marker 2 is x)" in phone.locator("#e-sauron_to_finale").inner_text()
    colours = [phone.locator(f"#f-sauron_to_finale-{box}").evaluate("e => getComputedStyle(e).borderTopColor")
               for box in (1, 2, 3)]
    assert colours[0] == colours[2] != colours[1], colours
    phone.goto(f"{live_server}/wotr-cards/calc/combat")
    fill_examples(phone, "wotr-cards-combat")
    phone.locator("#f-defenders-2-defence").fill("-1")
    assert_refused(phone, calculate(phone), "defenders-2-defence", kept="-1")
    phone.locator("#f-defenders-2-items").fill("1,x")
    phone.locator("#f-defenders-2-defence").fill("1")
    assert_refused(phone, calculate(phone), "defenders-2-items", kept="1,x")


@pytest.mark.parametrize("path, name, value", [
    ("/fotf/calc/search", "in_haven", "maybe"),  # a switch
    ("/wotr/calc/battle", "terrain", "swamp"),  # radio buttons
    ("/meccg/calc/council", "ruleset", ""),  # radio buttons left empty
])
def test_a_switch_or_radio_given_a_bad_or_no_value_in_the_address_is_refused(phone, live_server, path, name, value):
    calc = next(calc for calc in CALCULATORS.values() if path.endswith(f"/{calc.game}/calc/{calc.slug}"))
    query = [(key, text) for key, text in calc.form_query() if key != name] + [(name, value)]
    response = phone.goto(f"{live_server}{path}?{urlencode(query)}")
    assert_refused(phone, response, name)


# --------------------------------------------------------------------------- steppers and switches


def test_steppers_by_touch_and_keyboard(phone, live_server):
    phone.goto(f"{live_server}/wotr/calc/roll")
    box = phone.locator("#f-strength")
    more = phone.get_by_role("button", name="One more: Combat Strength")
    less = phone.get_by_role("button", name="One less: Combat Strength")
    expect(box).to_have_value("")  # empty, the example 5 greyed in it
    assert box.get_attribute("placeholder") == "e.g. 5" and box.get_attribute("data-example") == "5"
    more.tap()  # from the example
    expect(box).to_have_value("6")
    less.tap()
    less.tap()
    expect(box).to_have_value("4")
    box.focus()
    phone.keyboard.press("ArrowUp")
    expect(box).to_have_value("5")
    phone.keyboard.press("ArrowDown")
    expect(box).to_have_value("4")
    phone.keyboard.press("Tab")  # to the − button, then the + button (the box's digits come first)
    phone.keyboard.press("Tab")
    phone.keyboard.press("Enter")
    phone.keyboard.press("Space")
    expect(box).to_have_value("6")
    box.fill("10")
    more.tap()
    expect(box).to_have_value("10")  # a stepper stops at its maximum
    box.fill("")
    more.tap()
    expect(box).to_have_value("6")  # a blank box steps from the example it shows
    size = more.bounding_box()
    assert size["width"] >= 44 and size["height"] >= 44
    calculate(phone)
    assert "strength=6" in phone.url


def test_switches_by_touch_and_keyboard_and_the_fields_they_show(phone, live_server):
    phone.goto(f"{live_server}/meccg/calc/strike")
    switch = phone.get_by_role("switch", name="Character is wounded")
    expect(switch).not_to_be_checked()
    phone.locator("label.switch", has_text="Character is wounded").tap()
    expect(switch).to_be_checked()
    switch.focus()
    phone.keyboard.press("Space")
    expect(switch).not_to_be_checked()
    phone.keyboard.press("Space")
    expect(switch).to_be_checked()
    assert phone.locator("label.switch", has_text="Character is wounded").bounding_box()["height"] >= 44
    calculate(phone)
    assert "wounded=true" in phone.url and "tapped=" not in phone.url
    expect(phone.get_by_role("switch", name="Character is wounded")).to_be_checked()

    # a field shown only when it applies: the removal roll's fields wait for its number
    phone.goto(f"{live_server}/meccg/calc/corruption")
    removal = phone.locator("#f-removal_modifier")
    expect(removal).to_be_hidden()
    open_more_options(phone)
    expect(removal).to_be_hidden()
    phone.locator("#f-removal_need").fill("6")
    expect(removal).to_be_visible()
    phone.locator("#f-removal_need").fill("")
    expect(removal).to_be_hidden()


def test_fields_follow_the_choice_made(phone, live_server):
    phone.goto(f"{live_server}/wotr/calc/battle")
    siege = phone.get_by_role("switch", name=re.compile("Will the attacker downgrade Elites to go on"))
    open_more_options(phone)
    expect(siege).to_be_hidden()
    phone.get_by_role("radio", name="Stronghold under siege").check()
    expect(siege).to_be_visible()
    rounds = phone.locator("#f-attacker_modifier_rounds-from")
    expect(rounds).to_be_hidden()
    phone.get_by_role("button", name="One more: Attacker roll modifier").tap()
    expect(rounds).to_be_visible()
    # the withdrawal's fields hang on the defender's choice, which hangs on the field
    phone.get_by_role("radio", name=re.compile("Open field")).check()
    phone.get_by_role("radio", name="Compare standing and withdrawing").check()
    expect(phone.locator("#f-withdraw_after")).to_be_visible()
    expect(siege).to_be_visible()
    phone.get_by_role("radio", name="City").check()
    expect(phone.locator("#f-defender_choice-compare")).to_be_hidden()
    expect(phone.locator("#f-withdraw_after")).to_be_hidden()
    expect(siege).to_be_hidden()
    phone.goto(f"{live_server}/wotr-cards/calc/combat")
    expect(phone.locator("#f-owner-shadow")).to_be_hidden()
    expect(phone.locator("#f-shadow_attack_icons")).to_be_hidden()  # until the kind of combat is chosen
    phone.get_by_role("radio", name="Path combat").check()
    expect(phone.locator("#f-shadow_attack_icons")).to_be_visible()
    phone.get_by_role("radio", name="Battleground combat").check()
    expect(phone.locator("#f-owner-shadow")).to_be_visible()
    expect(phone.locator("#f-shadow_attack_icons")).to_be_hidden()


def test_cards_added_and_removed_one_by_one(phone, live_server, fill_examples):
    phone.goto(f"{live_server}/wotr-cards/calc/combat")
    fill_examples(phone, "wotr-cards-combat")
    cards = phone.locator("[data-records='defenders'] [data-record]:visible")
    start = cards.count()
    assert start == 3  # a box for each of the three example cards
    phone.get_by_role("button", name="Add a card").last.click()
    expect(cards).to_have_count(start + 1)
    expect(phone.locator("[data-records='defenders'] [data-record-number]:visible").last).to_have_text(
        "Card 4", use_inner_text=True)
    phone.locator("#f-defenders-4-defence").fill("3")
    # remove card 1: the others close up, numbered from 1
    cards.first.get_by_role("button", name="Remove this card").click()
    expect(phone.locator("[data-records='defenders'] [data-record-number]:visible")).to_have_text(
        [f"Card {n}" for n in range(1, start + 1)], use_inner_text=True)
    calculate(phone)
    fates = phone.locator(".card-fates li").all_inner_texts()
    assert [re.sub(r"\s+", " ", fate) for fate in fates] == [
        "Defending card 1 eliminated", "Defending card 2 eliminated", "Defending card 3 cycled"]


# --------------------------------------------------------------------------- battle options


def test_stand_or_withdraw_answers_in_the_first_phone_screen(phone, live_server, shots, fill_examples):
    phone.goto(f"{live_server}/wotr/calc/battle")
    fill_examples(phone, "wotr-battle")
    open_more_options(phone)
    expect(phone.locator("#f-withdraw_after")).to_be_hidden()
    phone.locator("label.choice", has_text="Compare standing and withdrawing").tap()
    expect(phone.locator("#f-withdraw_after")).to_be_visible()
    expect(phone.locator("#f-siege_battles")).to_be_visible()
    phone.get_by_role("button", name="One more: How many times will the attacker attack the Stronghold?").tap()
    expect(phone.locator("#f-siege_battles")).to_have_value("2")
    response = calculate(phone)
    assert response.status == 200 and "defender_choice=compare" in phone.url and "siege_battles=2" in phone.url
    headline = phone.locator(".result .headline")
    assert re.fullmatch(r"Withdraw into the Stronghold: [<>\d.]+% to hold out if the attacker attacks the Stronghold "
                        r"twice and does not downgrade Elites to go on; stand in the field: [<>\d.]+%\.",
                        headline.inner_text().strip())
    assert_headline_in_first_screen(phone)
    chart = in_first_screen(phone, ".result .chart")
    assert chart["top"] < chart["height"], "the chart starts in the first screen"
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], "the page scrolls sideways"
    light_and_dark(phone, shots, "wotr-battle-stand-or-withdraw")


def test_a_modifier_for_one_round_with_the_steppers(phone, live_server, fill_examples):
    phone.goto(f"{live_server}/wotr/calc/battle")
    fill_examples(phone, "wotr-battle")
    open_more_options(phone)
    phone.get_by_role("button", name="One more: Attacker roll modifier").tap()
    start, rounds = phone.locator("#f-attacker_modifier_rounds-from"), phone.locator("#f-attacker_modifier_rounds-for")
    expect(start).to_have_attribute("placeholder", "e.g. 1")  # every round, greyed as the example
    expect(start).to_have_value("1")  # typed in by the examples, as a player would
    expect(rounds).to_have_value("")
    phone.get_by_role("button", name="One more: Attacker modifiers apply, from round").tap()
    more = phone.get_by_role("button", name="One more: Attacker modifiers apply, for how many rounds")
    less = phone.get_by_role("button", name="One less: Attacker modifiers apply, for how many rounds")
    more.tap()
    expect(start).to_have_value("2")
    expect(rounds).to_have_value("1")
    less.tap()
    expect(rounds).to_have_value("")  # below 1 round the box empties: to the end
    less.tap()
    expect(rounds).to_have_value("")
    more.tap()
    calculate(phone)
    assert "attacker_modifier_rounds=2&attacker_modifier_rounds=1" in phone.url
    expect(phone.locator(".inputs-summary")).to_contain_text("modifiers: round 2 only", use_inner_text=True)
    expect(phone.locator("#f-attacker_modifier_rounds-from")).to_have_value("2")


def test_the_results_to_reroll_with_a_battle_roll(phone, live_server, shots, fill_examples):
    phone.goto(f"{live_server}/fotf/calc/battle")
    fill_examples(phone, "fotf-battle")
    open_more_options(phone)
    exchange = phone.get_by_role("checkbox", name=re.compile("^Exchange"))
    expect(exchange).to_be_hidden()
    phone.get_by_role("button", name="One more: Rerolls").tap()
    expect(exchange).to_be_visible()
    expect(exchange).to_be_checked()  # ticked with the examples, as a player would
    phone.locator("label.choice", has_text="Exchange").tap()
    expect(exchange).not_to_be_checked()
    phone.get_by_role("switch", name="Nazgûl present").check()
    response = calculate(phone)
    assert response.status == 200
    assert parse_qs(urlsplit(phone.url).query)["reroll_results"] == ["nazgul", "overrun"]
    expect(phone.locator(".inputs-summary")).to_contain_text("rerolling: Nazgûl, Overrun", use_inner_text=True)
    assert_headline_in_first_screen(phone)
    light_and_dark(phone, shots, "fotf-battle-reroll-choice")
    # the choice stays ticked as given; the form below shows it
    phone.locator("#f-reroll_results-exchange").scroll_into_view_if_needed()
    expect(phone.locator("#f-reroll_results-exchange")).not_to_be_checked()
    phone.screenshot(path=str(shots / "fotf-battle-reroll-choice-form-dark.png"))


def test_removing_a_card_keeps_the_place_and_opens_no_keyboard(phone, live_server, fill_examples):
    phone.goto(f"{live_server}/wotr-cards/calc/combat")
    fill_examples(phone, "wotr-cards-combat")
    cards = phone.locator("[data-records='defenders'] [data-record]:visible")
    phone.get_by_role("button", name="Add a card").last.click()
    second = cards.nth(1)
    second.scroll_into_view_if_needed()
    scrolled = phone.evaluate("window.scrollY")
    second.get_by_role("button", name="Remove this card").click()
    # focus on the next card's Remove button (not a box: no keyboard), and the page where it was
    focused = phone.evaluate("[document.activeElement.hasAttribute('data-remove-record'), "
                             "document.activeElement.closest('[data-record]').querySelector('input').id]")
    assert focused[0] and focused[1].startswith("f-defenders-3-"), focused
    assert abs(phone.evaluate("window.scrollY") - scrolled) < 150
    # the last card removed: focus goes back to the card before it
    cards.last.get_by_role("button", name="Remove this card").click()
    assert phone.evaluate("document.activeElement.closest('[data-record]').querySelector('input').id").startswith(
        "f-defenders-3-")
