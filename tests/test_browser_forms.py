"""Getting the situation on the board into a calculator on a phone (390x844), from a fresh browser:
the core inputs of each side and Calculate in the first screen, no box holding a value the player did
not set, typing replacing a box's number, the taps and keystrokes a real question takes, the last
inputs offered back, plan B's changes in bold, no page scrolling sideways with every fold open, and
screenshots of every form and answer, light and dark, in test-output/forms/."""
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import expect

from webapp import PROJECT_ROOT
from webapp.calculators import CALCULATORS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

# The controls a player fills in first, each side's (the option list's last choice stands for the list);
# a card-game combat shows its kind's inputs once the kind is chosen.
CORE = {
    "wotr-roll": ["#f-strength", "#f-hit", "#f-leadership"],
    "wotr-battle": ["#f-attacker_regulars", "#f-attacker_elites", "#f-attacker_leadership", "#f-defender_regulars",
                    "#f-defender_elites", "#f-defender_leadership", "#f-terrain-siege"],
    "fotf-search": ["#f-nazgul", "#f-shadow_troops", "#f-slip_by", "#f-recall"],
    "fotf-battle": ["#f-initiator-skies-darken", "#f-friendly_troops", "#f-shadow_troops", "#f-rout", "#f-nazgul"],
    "fotf-ring": ["#f-nazgul", "#f-shadow_troops", "#f-hope", "#f-hope_missing", "#f-slip_by", "#f-recall"],
    "meccg-influence": ["#f-kind-item", "#f-direct_influence", "#f-opponent_general_influence", "#f-mind"],
    "meccg-faction": ["#f-direct_influence", "#f-faction_number"],
    "meccg-strike": ["#f-prowess", "#f-strike_prowess", "#f-wounded"],
    "meccg-corruption": ["#f-corruption"],
    "meccg-council": [f"#f-p{player}_{source}" for player in (1, 2)
                      for source in ("character", "item", "faction", "ally", "kill", "misc")] + ["#f-ruleset-seed"],
    "meq-dominance": ["#f-hero_to_finale", "#f-sauron_to_finale-3", "#f-sauron_to_shadow_falls-3"],
    "wotr-cards-combat": ["#f-combat-battleground"],
    "wotr-cards-victory": ["#f-free_peoples_points", "#f-shadow_points", "#f-shadow_corruption"],
}
# once the kind of combat is chosen: the attacking side's first inputs and the defending side's
COMBAT_CORE = {"path": ["#f-shadow_attack_icons", "#f-path_defence", "#f-defenders-1-defence"],
               "battleground": ["#f-owner-shadow", "#f-battleground_defence", "#f-attackers-1-attack"]}
# What each answer is for, two sides at once: in the first screen with the headline
CHANGES = {"wotr-battle": ".result .chart", "meccg-council": ".result .player-card.winner, .result .headline",
           "meq-dominance": ".result .changes", "wotr-cards-combat": ".result .changes",
           "wotr-cards-victory": ".result .player-card"}


@pytest.fixture(scope="module")
def shots():
    folder = PROJECT_ROOT / "test-output" / "forms"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def url(live_server, calc, query=()):
    return f"{live_server}/{calc.game}/calc/{calc.slug}" + (f"?{urlencode(query)}" if query else "")


FIRST_SCREEN = """(selectors) => {
    // each control's box (a radio button or switch measured as the label a player taps), against the
    // room between the sticky header and the Calculate bar
    const header = document.querySelector('.site-header').getBoundingClientRect().bottom;
    const bar = document.querySelector('.calculate-bar').getBoundingClientRect();
    const out = {header, barTop: bar.top, barBottom: bar.bottom, height: innerHeight, controls: {}};
    for (const selector of selectors) {
        const control = document.querySelector(selector);
        const box = (control.closest('label') || control).getBoundingClientRect();
        out.controls[selector] = {top: box.top, bottom: box.bottom, shown: box.width > 0 && box.height > 0};
    }
    return out;
}"""


def assert_in_first_screen(page, selectors):
    where = page.evaluate(FIRST_SCREEN, selectors)
    assert where["header"] <= where["barTop"] and where["barBottom"] <= where["height"] + 0.5, where
    for selector, box in where["controls"].items():
        assert box["shown"] and where["header"] <= box["top"] and box["bottom"] <= where["barTop"] + 0.5, \
            (selector, box, where["barTop"])


NOTHING_SET = """() => [...document.querySelectorAll('#calc-form input:not([type=hidden])')]
    .filter((box) => box.type === 'text' ? box.value !== '' : box.checked && box.value !== '')
    .map((box) => `${box.id}=${box.value}`)"""


EXAMPLES_SHOWN = """() => {
    const canvas = document.createElement('canvas').getContext('2d');
    return [...document.querySelectorAll('#calc-form input[type=text][placeholder]')]
        .filter((input) => input.offsetParent !== null).map((input) => {
            const style = getComputedStyle(input), shown = getComputedStyle(input, '::placeholder');
            canvas.font = `${shown.fontStyle} ${shown.fontWeight} ${shown.fontSize} ${shown.fontFamily}`;
            return {text: input.placeholder, width: canvas.measureText(input.placeholder).width,
                    room: input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)};
        });
}"""


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_a_fresh_form_has_each_sides_core_inputs_and_calculate_in_the_first_screen_and_no_value_set(
        phone, live_server, calc_id):
    calc = CALCULATORS[calc_id]
    phone.goto(url(live_server, calc))
    assert_in_first_screen(phone, CORE[calc_id])
    assert phone.evaluate(NOTHING_SET) == [], "a box holds a value the player did not set"
    placeholders = phone.locator("#calc-form input[type=text][placeholder]:visible")
    assert placeholders.count() >= 1  # the examples are shown greyed, as placeholders, said to be examples
    examples = phone.evaluate(EXAMPLES_SHOWN)
    assert all(example["text"].startswith("e.g. ") for example in examples), examples
    assert [example["text"] for example in examples if example["width"] > example["room"]] == []  # none cut short
    if calc_id == "wotr-cards-combat":
        for kind, selectors in COMBAT_CORE.items():
            phone.locator(f"label[for='f-combat-{kind}']").tap()
            assert_in_first_screen(phone, selectors)
    # typing replaces: a box showing 1, tapped, then "5" typed, holds 5
    box = phone.locator("#calc-form input[type=text]:visible").first
    box.fill("1")
    phone.locator("h1").tap()
    box.tap()
    phone.keyboard.type("5")
    expect(box).to_have_value("5")


@pytest.mark.parametrize("calc_id", ["wotr-battle", "wotr-roll", "meccg-strike"])
def test_a_box_shows_its_digits_left_of_its_steppers_and_steps_from_what_blank_means(phone, live_server, calc_id):
    """An empty box steps from the number a blank stands for where it stands for one ("Blank: 0"),
    never from the greyed example; a box that must be filled in steps from its example."""
    calc = CALCULATORS[calc_id]
    phone.goto(url(live_server, calc))
    stepper = phone.locator("#calc-form [data-stepper]").first
    box, less, more = stepper.locator("input"), stepper.locator("[data-step='-1']"), stepper.locator("[data-step='1']")
    assert box.bounding_box()["x"] < less.bounding_box()["x"] < more.bounding_box()["x"]
    assert float(box.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px")) >= 18
    field = calc.field(box.get_attribute("name"))
    start = field.default if field.zero_when_blank else int(box.get_attribute("data-example"))
    low = field.minimum
    more.tap()
    expect(box).to_have_value(str(start + 1))
    box.fill("")
    less.tap()
    expect(box).to_have_value(str(max(low, start - 1)))


@pytest.mark.parametrize("calc_id", [calc_id for calc_id, calc in CALCULATORS.items()
                                     if any(f.zero_when_blank and f.widget_hint() == "stepper" and not calc.conditions(f)
                                            for f in calc.fields)])
def test_one_more_on_an_empty_box_that_counts_as_0_gives_1_not_the_example_plus_1(phone, live_server, calc_id):
    calc = CALCULATORS[calc_id]
    phone.goto(url(live_server, calc))
    phone.evaluate("document.querySelectorAll('#calc-form details').forEach(d => { d.open = true; })")
    boxes = phone.locator("#calc-form [data-stepper] input[data-empty]:visible")
    assert boxes.count() >= 1
    box = boxes.first
    field = calc.field(box.get_attribute("name"))
    assert field.zero_when_blank and box.input_value() == ""
    box.locator("xpath=..").locator("[data-step='1']").tap()
    expect(box).to_have_value(str(min(field.maximum, max(field.minimum, field.default + 1))))


# --------------------------------------------------------------------------- taps and keystrokes


class Counted:
    """A player's taps and keystrokes on a page, counted."""

    def __init__(self, page):
        self.page, self.taps, self.keys, self.digits = page, 0, 0, 0

    def tap(self, selector):
        self.page.locator(selector).tap()
        self.taps += 1

    def type(self, text):
        for key in text:
            self.page.keyboard.type(key)
            self.digits += key.isdigit()
            self.keys += 1

    def press(self, key):
        self.page.keyboard.press(key)
        self.keys += 1

    def calculate(self):
        with self.page.expect_navigation():
            self.tap(".calculate-bar button")

    @property
    def count(self):
        return self.taps + self.keys


def headline(page):
    return page.locator(".result .headline").inner_text().strip()


def api_headline(page, live_server, calc, query):
    """The headline the page gives for the same inputs typed into its address: the answer to compare with."""
    page.goto(url(live_server, calc, query))
    return headline(page)


def test_a_city_battle_takes_at_most_12_taps_and_keystrokes(phone, live_server):
    """4 Regulars + 2 Elites, Leadership 2, against 3 Regulars + 1 Elite, Leadership 1, in a City."""
    calc = CALCULATORS["wotr-battle"]
    phone.goto(url(live_server, calc))
    player = Counted(phone)
    for name, digits in (("attacker_regulars", "4"), ("defender_regulars", "3")):
        player.tap(f"#f-{name}")
        player.type(digits)
    for label, taps in (("Attacker Elites", 2), ("Attacker Leadership", 2), ("Defender Elites", 1),
                        ("Defender Leadership", 1)):
        for _ in range(taps):  # an empty box counts as 0, and steps from 0
            player.tap(f"[aria-label='One more: {label}']")
    player.tap("label[for='f-terrain-city']")
    player.calculate()
    assert player.count <= 12, player.count
    print(f"City battle: {player.count} taps and keystrokes ({player.taps} taps, {player.keys} keys)")
    answer = headline(phone)
    query = {"attacker_regulars": 4, "attacker_elites": 2, "attacker_leadership": 2, "defender_regulars": 3,
             "defender_elites": 1, "defender_leadership": 1, "terrain": "city"}
    assert answer == api_headline(phone, live_server, calc, query)


def test_the_free_council_takes_at_most_20_touches_beyond_the_digits(phone, live_server):
    calc = CALCULATORS["meccg-council"]
    phone.goto(url(live_server, calc))
    points = {1: {"character": 10, "item": 6, "faction": 4, "ally": 2, "kill": 3, "misc": 1},
              2: {"character": 8, "item": 3, "faction": 6, "ally": 1, "kill": 5, "misc": 2}}
    player = Counted(phone)
    player.tap("#f-p1_character")
    boxes = [(number, source) for source in points[1] for number in (1, 2)]  # the table's order: row by row
    for index, (number, source) in enumerate(boxes):
        if index:
            player.press("Tab")
        player.type(str(points[number][source]))
    player.tap("label[for='f-ruleset-seed']")
    player.calculate()
    beyond = player.count - player.digits
    assert beyond <= 20, beyond
    print(f"Free Council: {beyond} touches beyond the {player.digits} digits typed")
    query = {f"p{number}_{source}": value for number, kinds in points.items() for source, value in kinds.items()}
    assert headline(phone) == api_headline(phone, live_server, calc, {**query, "ruleset": "seed"})


def test_a_card_game_battleground_with_three_attackers_takes_at_most_15(phone, live_server):
    """The Shadow attacks a Free Peoples battleground: an army of faction A (2 attack), a card with 1 attack,
    and a character of faction A with 1 attack and 2 leadership, which the army makes count."""
    calc = CALCULATORS["wotr-cards-combat"]
    phone.goto(url(live_server, calc))
    player = Counted(phone)
    player.tap("label[for='f-combat-battleground']")
    player.tap("label[for='f-owner-free-peoples']")
    player.tap("#f-attackers-1-attack")
    player.type("2")
    player.tap("label[for='f-attackers-1-is_army']")
    player.tap("label[for='f-attackers-1-faction-a']")
    player.tap("#f-attackers-2-attack")
    player.type("1")
    player.tap("#f-attackers-3-attack")
    player.type("1")
    player.tap("#f-attackers-3-leadership")
    player.type("2")
    player.tap("label[for='f-attackers-3-faction-a']")
    player.tap("label[for='f-order-given']")
    player.calculate()
    assert player.count <= 15, player.count
    print(f"Battleground, three attackers: {player.count} taps and keystrokes")
    assert "Attacking cards: 2 attack (army, faction A); 1 attack; 1 attack + 2 leadership (faction A)" in \
        phone.locator(".inputs-summary").inner_text().replace("\xa0", " ")
    answer = headline(phone)
    query = [("combat", "battleground"), ("owner", "free-peoples"), ("order", "given"),
             ("attackers-1-attack", "2"), ("attackers-1-is_army", "true"), ("attackers-1-faction", "a"),
             ("attackers-2-attack", "1"), ("attackers-3-attack", "1"), ("attackers-3-leadership", "2"),
             ("attackers-3-faction", "a")]
    assert answer == api_headline(phone, live_server, calc, query)
    # the army makes the character's leadership count: 2 + 1 + 1 attack icons and 2 leadership
    assert "6 (4 attack icons + 2 leadership)" in phone.locator(".result .kv").first.inner_text()


# --------------------------------------------------------------------------- remembered, compared


def test_the_last_inputs_are_offered_back_with_a_line_that_says_so_and_cleared(phone, live_server):
    calc = CALCULATORS["meccg-strike"]
    phone.goto(url(live_server, calc))
    expect(phone.locator("[data-last-inputs]")).to_be_hidden()  # nothing remembered yet
    phone.locator("#f-prowess").fill("6")
    phone.locator("#f-strike_prowess").fill("9")
    with phone.expect_navigation():
        phone.locator(".calculate-bar button").tap()
    answer = headline(phone)
    phone.goto(url(live_server, calc))
    offer = phone.locator("[data-last-inputs]")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("Your last inputs · Clear")
    assert phone.evaluate(NOTHING_SET) == [], "the last inputs are offered, never filled in"
    with phone.expect_navigation():
        offer.get_by_role("link", name="Your last inputs").tap()
    assert headline(phone) == answer and phone.input_value("#f-prowess") == "6"
    phone.goto(url(live_server, calc))
    offer.get_by_role("button", name="Clear").tap()
    expect(offer).to_be_hidden()
    phone.reload()
    expect(phone.locator("[data-last-inputs]")).to_be_hidden()


@pytest.mark.parametrize("calc_id, typed", [
    ("fotf-search", {"#f-nazgul": "2", "#f-shadow_troops": "1", "#f-slip_by": "2", "#f-weary": "1",
                     "#f-exposed": "2", "#f-recall": "1"}),
    ("meq-dominance", {"#f-hero_to_finale": "5", "#f-sauron_to_finale-1": "4", "#f-sauron_to_finale-2": "6",
                       "#f-sauron_to_finale-3": "8", "#f-sauron_to_shadow_falls-1": "3",
                       "#f-sauron_to_shadow_falls-2": "4", "#f-sauron_to_shadow_falls-3": "5"}),
])
def test_back_from_the_answer_to_its_form_puts_back_what_was_typed(phone, live_server, calc_id, typed):
    calc = CALCULATORS[calc_id]
    phone.goto(url(live_server, calc))
    for box, value in typed.items():
        phone.locator(box).fill(value)
    with phone.expect_navigation():
        phone.locator(".calculate-bar button").tap()
    assert phone.locator("section.result").count() == 1
    phone.go_back()
    expect(phone.locator("section.result")).to_have_count(0)
    assert {box: phone.input_value(box) for box in typed} == typed
    phone.goto(url(live_server, calc))  # come to the form anew: offered back, not filled in
    assert phone.evaluate(NOTHING_SET) == []


def test_plan_b_has_the_same_compact_form_and_what_differs_is_in_bold(phone, live_server, shots):
    calc = CALCULATORS["wotr-battle"]
    phone.goto(url(live_server, calc, {"attacker_regulars": 4, "defender_regulars": 3, "terrain": "field"}))
    with phone.expect_navigation():
        phone.get_by_role("button", name="Compare with a second plan").tap()
    assert phone.locator("#inputs-b .sides").count() == 1 and phone.locator("#inputs-b details.more-options").count() == 1
    assert phone.locator("#inputs-b .field.changed").count() == 0  # a copy of plan A
    phone.locator("#f-b-defender_regulars").fill("5")
    changed = phone.locator("#inputs-b .field.changed")
    expect(changed).to_have_count(1)
    assert changed.locator("#f-b-defender_regulars").count() == 1
    assert changed.locator("input").evaluate("e => getComputedStyle(e).fontWeight") == "700"
    assert phone.locator("#inputs-a .field.changed").count() == 0
    with phone.expect_navigation():
        phone.locator(".calculate-bar button").tap()
    assert phone.locator("#inputs-b .field.changed #f-b-defender_regulars").count() == 1  # said again by the page
    phone.screenshot(path=str(shots / "wotr-battle-plan-b-light.png"), full_page=True)


# --------------------------------------------------------------------------- no sideways scrolling


# answers with more in their folds than the examples give: standing and withdrawing compared, with the
# hold-out table; a battle in progress
MORE_ANSWERS = {"wotr-battle": [{"attacker_regulars": 4, "attacker_elites": 2, "attacker_leadership": 2,
                                 "defender_regulars": 3, "defender_elites": 1, "defender_leadership": 1,
                                 "terrain": "field", "defender_choice": "compare", "withdraw_after": 1,
                                 "siege_battles": 2, "siege_continue": "true", "start_round": 2}]}


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_no_page_scrolls_sideways_with_every_fold_open(browser, live_server, calculators, calc_id, width):
    calc = calculators[calc_id]
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True,
                                  service_workers="block")
    page = context.new_page()
    wide = []
    for query in ((), calc.form_query(), *MORE_ANSWERS.get(calc_id, ())):
        page.goto(url(live_server, calc, query))
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        # against the phone's width (a phone's browser widens its window to a page that overflows)
        scrolls = page.evaluate("document.scrollingElement.scrollWidth")
        if scrolls > width:
            wide.append((query, scrolls))
    context.close()
    assert wide == [], wide


# --------------------------------------------------------------------------- what two-sided answers change


@pytest.mark.parametrize("calc_id", CHANGES)
def test_what_a_two_sided_answer_changes_is_in_the_first_screen(phone, live_server, calculators, calc_id):
    calc = calculators[calc_id]
    query = calc.form_query()
    if calc_id == "wotr-cards-combat":
        query = [(key, "battleground" if key == "combat" else value) for key, value in query]
    phone.goto(url(live_server, calc, query))
    box = phone.locator(CHANGES[calc_id]).first.bounding_box()
    assert box["y"] + min(box["height"], 120) <= PHONE["height"], box  # it starts, and reads, in the first screen


# --------------------------------------------------------------------------- screenshots


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_screenshots_of_every_form_and_answer_light_and_dark(phone, live_server, calculators, shots, calc_id):
    calc = calculators[calc_id]
    for what, query in (("form", ()), ("answer", calc.form_query())):
        phone.goto(url(live_server, calc, query))
        for scheme in ("light", "dark"):
            phone.emulate_media(color_scheme=scheme)
            target = shots / f"{calc_id}-{what}-{scheme}.png"
            phone.screenshot(path=str(target))
            assert target.stat().st_size > 10000


# --------------------------------------------------------------------------- after this round

CITY_BATTLE = {"attacker_regulars": 4, "attacker_elites": 2, "attacker_leadership": 2, "defender_regulars": 3,
               "defender_elites": 1, "defender_leadership": 1, "terrain": "city", "attacker_modifier": 1,
               "attacker_modifier_rounds": "all", "attacker_ceases_at": 1}


@pytest.mark.parametrize("taps, stands", [
    # each side lost a Regular
    ([("One less", "Attacker Regulars"), ("One less", "Defender Regulars")],
     {"attacker_regulars": 3, "defender_regulars": 2}),
    # the defender's Elite was downgraded: one Elite less, one Regular more
    ([("One less", "Defender Elites"), ("One more", "Defender Regulars")],
     {"defender_regulars": 4, "defender_elites": 0}),
], ids=["each-side-lost-a-regular", "the-defenders-elite-downgraded"])
def test_after_this_round_answers_the_next_round_in_at_most_4_taps(phone, live_server, calculators, taps, stands):
    calc = calculators["wotr-battle"]
    phone.goto(url(live_server, calc, CITY_BATTLE))
    player = Counted(phone)
    player.tap(".inputs-summary a[href='#next-step']")
    for button, label in taps:
        player.tap(f"form.next-step [aria-label='{button}: {label} after this round']")
    with phone.expect_navigation():
        player.tap("form.next-step button[type=submit]")
    assert player.count <= 4, player.count
    print(f"After this round ({', '.join(label for _, label in taps)}): {player.count} taps")
    reached = parse_qs(urlsplit(phone.url).query)
    expected = {**CITY_BATTLE, **stands, "start_round": 2}
    assert {name: reached[name] for name in expected if name != "attacker_modifier_rounds"} == \
        {name: [str(value)] for name, value in expected.items() if name != "attacker_modifier_rounds"}
    answer = headline(phone)
    assert "from round 2" in phone.locator(".inputs-summary").inner_text()
    assert answer == api_headline(phone, live_server, calc, expected)
