"""Turn checklists and print sheets in a real browser (headless Chromium, phone size)."""
import io
import re
import unicodedata

import pytest
from playwright.sync_api import expect

from webapp.checklist.model import checklists, phases
from webapp.checklist.views import SMALLEST_ONE_PAGE_SIZE
from webapp.content import GAME_IDS

pytestmark = pytest.mark.browser


def checklist(page, list_id):
    return page.locator(f'[data-checklist="{list_id}"]')


def expect_percent(page, list_id, value):
    """The checklist's progress reaches this percentage (expect waits for the page to update)."""
    expect(checklist(page, list_id)).to_have_attribute("data-percent", str(value))


def expect_unfinished(page, list_id):
    expect(checklist(page, list_id)).not_to_have_attribute("data-percent", "100")


def always_steps(library, game_id, list_id):
    found = [c for c in checklists(library.games[game_id]) if c.id == list_id][0]
    return [step.entry.id for step in found.steps if step.always]


def of_steps(count, total):
    """A checklist's progress as it reads: "0 of 1 step", "2 of 5 steps"."""
    return f"{count} of {total} step{'' if total == 1 else 's'}"


def tap_row(page, step_id):
    """Tap the step's title text, not its box: the whole row is the tick target."""
    page.locator(f'[data-step="{step_id}"] .step-title').tap()


# --- A checklist follows the game's own round or turn --------------------------------------------

@pytest.mark.parametrize("game_id", GAME_IDS)
def test_checklist_reaches_100_percent_at_the_end_of_the_games_round_or_turn(page, live_server, game_id, library):
    page.goto(f"{live_server}/{game_id}/turn")
    for found in checklists(library.games[game_id]):
        required = always_steps(library, game_id, found.id)
        assert required, f"{found.id} has no step that always happens"
        name = found.spec.name[:1].upper() + found.spec.name[1:]
        expect(checklist(page, found.id).locator("[data-turn-bar]")).to_have_text(
            re.compile(rf"^{re.escape(name)} 1"), use_inner_text=True)
        for step_id in required:
            expect_unfinished(page, found.id)
            tap_row(page, step_id)
            expect(page.locator(f"#tick-{step_id}")).to_be_checked()
        expect_percent(page, found.id, 100)  # every step that applies is ticked
        expect(checklist(page, found.id).locator("[data-progress]")).to_have_text(
            of_steps(len(required), len(required)), use_inner_text=True)
        expect(checklist(page, found.id).locator("[data-end-status]")).to_contain_text("is done", use_inner_text=True)
        expect(checklist(page, found.id).locator("[data-step].missed")).to_have_count(0)
    if game_id == "wotr-cards":
        # the combats are checklists of their own: the round is complete without them
        page.reload()
        expect_percent(page, "round", 100)
        expect_percent(page, "path-combat", 100)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_from_the_second_pass_on_its_steps_of_every_pass_but_the_first_count_too(page, live_server, game_id, library):
    page.goto(f"{live_server}/{game_id}/turn")
    for found in checklists(library.games[game_id]):
        later = [step.entry.id for step in found.steps if step.applies in ("always", "not-first")]
        checklist(page, found.id).locator("[data-next]").click()
        for step_id in later:
            expect_unfinished(page, found.id)
            tap_row(page, step_id)
        expect_percent(page, found.id, 100)
        expect(checklist(page, found.id).locator("[data-progress]")).to_have_text(
            of_steps(len(later), len(later)), use_inner_text=True)


def test_story_and_plot_are_skipped_on_the_first_sauron_turn_and_due_on_every_later_one(page, live_server, library):
    page.goto(f"{live_server}/meq/turn")
    sauron = checklist(page, "sauron-turn")
    first = always_steps(library, "meq", "sauron-turn")
    assert "story-hero-marker" not in first and "plot-choose" not in first
    expect(sauron.locator('[data-phase="story"] .phase-count')).to_have_text("not in Sauron turn 1",
                                                                             use_inner_text=True)
    tap_row(page, first[0])  # Hero Rally: Story and Plot come next, but not in turn 1, so the next step is Event's
    expect(sauron.locator("[data-step].current")).to_have_attribute("data-step", first[1])
    tap_row(page, first[0])  # untick it again
    for step_id in first:
        tap_row(page, step_id)
    expect_percent(page, "sauron-turn", 100)  # turn 1 is complete without Story and Plot
    expect(sauron.locator("[data-step].missed")).to_have_count(0)
    expect(sauron.locator('[data-step="plot-choose"]')).to_have_class(re.compile(r"\bpassed\b"))

    sauron.locator("[data-next]").click()
    expect(sauron.locator("[data-turn-number]")).to_have_text("2", use_inner_text=True)
    expect(sauron.locator('[data-phase="story"] .phase-count')).to_have_text("0/2", use_inner_text=True)
    for step_id in first:
        tap_row(page, step_id)
    expect_unfinished(page, "sauron-turn")  # from turn 2, Story and Plot are due
    expect(sauron.locator('[data-step="plot-choose"].missed')).to_have_count(1)
    for step_id in ("story-hero-marker", "story-sauron-markers", "plot-choose"):
        tap_row(page, step_id)
    expect_percent(page, "sauron-turn", 100)


def test_a_checklist_of_one_step_says_step_not_steps(page, live_server, library):
    page.goto(f"{live_server}/meq/turn")
    hero = checklist(page, "hero-turn")
    required = always_steps(library, "meq", "hero-turn")
    assert len(required) == 1, "the hero turn has one step that always happens"
    progress, status = hero.locator("[data-progress]"), hero.locator("[data-end-status]")
    expect(progress).to_have_text("0 of 1 step", use_inner_text=True)
    expect(status).to_have_text("Hero turn 1: 1 of 1 step still to do.", use_inner_text=True)
    expect(checklist(page, "sauron-turn").locator("[data-progress]")).to_have_text(
        of_steps(0, len(always_steps(library, "meq", "sauron-turn"))), use_inner_text=True)
    tap_row(page, required[0])
    expect(progress).to_have_text("1 of 1 step", use_inner_text=True)
    expect(status).to_have_text("Hero turn 1 is done: every step that applies is ticked.", use_inner_text=True)


def test_the_card_game_round_is_done_before_its_combats_are(page, live_server, library):
    page.goto(f"{live_server}/wotr-cards/turn")
    for step_id in always_steps(library, "wotr-cards", "round"):
        tap_row(page, step_id)
    expect_percent(page, "round", 100)
    expect_percent(page, "path-combat", 0)
    expect_percent(page, "battleground-combat", 0)


def test_a_conditional_step_ticked_is_counted_beside_the_steps_that_must_happen(page, live_server, library):
    page.goto(f"{live_server}/meccg/turn")
    required = len(always_steps(library, "meccg", "turn-sequence"))
    progress = page.locator("[data-progress]")
    expect(progress).to_have_text(of_steps(0, required), use_inner_text=True)
    tap_row(page, "reveal-new-site")  # moving company only: the total of steps to do stays put
    expect(progress).to_have_text(of_steps(0, required) + " · 1 optional", use_inner_text=True)
    expect_percent(page, "turn-sequence", 0)
    tap_row(page, "reveal-new-site")
    expect(progress).to_have_text(of_steps(0, required), use_inner_text=True)


def test_battle_checklist_speaks_of_combat_rounds(page, live_server):
    page.goto(f"{live_server}/wotr/turn")
    expect(page.locator("h1")).to_have_text(re.compile("combat round checklist$"), use_inner_text=True)
    expect(page.locator("[data-turn-number]").locator("..")).to_have_text("Combat round 1", use_inner_text=True)
    page.click("[data-next]")
    expect(page.locator("[data-turn-number]").locator("..")).to_have_text("Combat round 2", use_inner_text=True)
    expect(page.locator("[data-next]")).to_have_text("Next combat round", use_inner_text=True)
    expect(page.locator("[data-turn-bar]")).not_to_contain_text(re.compile("turn", re.I), use_inner_text=True)


def test_starting_player_moves_on_one_seat_each_round(page, live_server):
    page.goto(f"{live_server}/wotr-cards/turn")
    seat = checklist(page, "round").locator("[data-seat]")
    count = checklist(page, "round").locator("[data-turn-number]")
    expect(seat).to_have_text("Frodo", use_inner_text=True)
    tap_row(page, "activate-battleground")
    checklist(page, "round").locator("[data-next]").click()
    expect(count).to_have_text("2", use_inner_text=True)
    expect(seat).to_have_text("Witch-king", use_inner_text=True)
    expect(checklist(page, "round").locator(".tick:checked")).to_have_count(0)
    for _ in range(3):
        checklist(page, "round").locator("[data-next]").click()
    expect(count).to_have_text("5", use_inner_text=True)
    expect(seat).to_have_text("Frodo", use_inner_text=True)
    checklist(page, "round").locator("[data-seat-back]").click()
    expect(seat).to_have_text("Saruman", use_inner_text=True)  # the token can be set by hand
    page.reload()
    expect(count).to_have_text("5", use_inner_text=True)
    expect(seat).to_have_text("Saruman", use_inner_text=True)


# --- Tapping, expanding, folding and undoing -----------------------------------------------------

def test_the_whole_row_ticks_and_the_rule_opens_from_its_own_control(page, live_server):
    page.goto(f"{live_server}/meq/turn")
    step = page.locator("[data-step]").first
    row, expand = step.locator(".step-row"), step.locator("summary")
    assert row.bounding_box()["height"] >= 44
    box = expand.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    expand.tap()
    expect(step.locator(".step-links a").first).to_be_visible()
    expect(step.locator(".tick")).not_to_be_checked()  # expanding a step does not tick it
    row.tap()
    expect(step.locator(".tick")).to_be_checked()
    expect(step.locator(".step-details")).to_have_attribute("open", "")  # ticking does not fold the rule


def test_a_folded_phase_opens_from_its_title_and_its_ticks_can_be_reversed(page, live_server):
    page.goto(f"{live_server}/meccg/turn")
    url = page.url
    phase = page.locator('[data-phase="untap-phase"]')
    for step_id in ("untap-or-heal", "untap-other-cards"):
        tap_row(page, step_id)
    expect(phase).to_have_class(re.compile(r"\bfolded\b"))
    expect(phase.locator(".steps")).to_be_hidden()
    toggle = phase.locator(".phase-toggle")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.tap()
    expect(phase.locator(".steps")).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    assert page.url == url, "tapping a phase title must not leave the page"
    tap_row(page, "untap-other-cards")
    expect(page.locator("#tick-untap-other-cards")).not_to_be_checked()
    expect(phase).not_to_have_class(re.compile(r"\bphase-done\b"))
    toggle.tap()
    expect(phase.locator(".steps")).to_be_hidden()  # an unfinished phase can be folded by hand too


def test_the_last_tick_next_and_reset_can_each_be_undone(page, live_server):
    page.goto(f"{live_server}/wotr-cards/turn")
    undo = page.locator("[data-undo]")
    expect(undo).to_be_hidden()
    tap_row(page, "activate-battleground")
    tap_row(page, "activate-path")
    expect(page.locator("[data-undo-label]")).to_have_text("Ticked: Activate next path (number +1)",
                                                         use_inner_text=True)
    undo.tap()
    expect(page.locator("#tick-activate-path")).not_to_be_checked()
    expect(page.locator("#tick-activate-battleground")).to_be_checked()  # only the last tick is undone

    round_list = checklist(page, "round")
    round_list.locator("[data-next]").click()
    expect(round_list.locator("[data-turn-number]")).to_have_text("2", use_inner_text=True)
    undo.tap()
    expect(round_list.locator("[data-turn-number]")).to_have_text("1", use_inner_text=True)
    expect(round_list.locator("[data-seat]")).to_have_text("Frodo", use_inner_text=True)
    expect(page.locator("#tick-activate-battleground")).to_be_checked()  # undoing Next round brings the ticks back

    round_list.locator("[data-reset]").click()
    expect(page.locator("#tick-activate-battleground")).not_to_be_checked()
    page.reload()
    page.locator("[data-undo]").tap()  # the history survives a reload too
    expect(page.locator("#tick-activate-battleground")).to_be_checked()


def test_ticks_are_kept_per_game_across_reloads(page, live_server, library):
    page.goto(f"{live_server}/fotf/turn")
    first = always_steps(library, "fotf", "game-turn")[0]
    tap_row(page, first)
    page.goto(f"{live_server}/meccg/turn")
    expect(page.locator(".tick:checked")).to_have_count(0)  # not another game's ticks
    page.goto(f"{live_server}/fotf/turn")
    expect(page.locator(f"#tick-{first}")).to_be_checked()
    order = [step.entry.id for step in checklists(library.games["fotf"])[0].steps]
    expect(page.locator("[data-step].current")).to_have_attribute("data-step", order[order.index(first) + 1])


def test_ticking_the_last_step_of_a_phase_by_keyboard_keeps_focus(browser, live_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    page = context.new_page()
    page.goto(f"{live_server}/meccg/turn")
    phase = page.locator('[data-phase="untap-phase"]')
    ticks = phase.locator(".tick")
    ticks.first.focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")  # to the step's rule control
    page.keyboard.press("Tab")  # to the next step's tick
    page.keyboard.press("Space")
    expect(phase).to_have_class(re.compile(r"\bfolded\b"))
    expect(page.locator('[data-phase="organization-phase"] .tick').first).to_be_focused()  # kept as the phase folds
    context.close()


# Where the keyboard's focus is: how far the focused element is from the sticky header's bottom edge
# and the Undo bar's top edge (negative: partly under one of them). The bars' own controls, the skip
# link (drawn over the header) and the page itself (focus in the browser's own controls) are left out.
FOCUS_CLEARANCE = """() => {
    const focused = document.activeElement;
    if (!focused || focused === document.body || focused.closest('.site-header, [data-undo-bar], .skip')) return null;
    const box = focused.getBoundingClientRect();
    const header = document.querySelector('.site-header').getBoundingClientRect();
    const bar = document.querySelector('[data-undo-bar]');
    const barTop = bar.hidden ? innerHeight : bar.getBoundingClientRect().top;
    const name = focused.id || focused.className || focused.textContent.trim().slice(0, 30);
    return [name, Math.round(box.top - header.bottom), Math.round(barTop - box.bottom)];
}"""


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}],
                         ids=["phone", "wide"])
def test_keyboard_focus_stays_clear_of_the_sticky_header_and_the_undo_bar(browser, live_server, viewport):
    context = browser.new_context(viewport=viewport, service_workers="block")
    page = context.new_page()
    page.goto(f"{live_server}/fotf/turn")
    first = page.locator("[data-step]").first
    first.locator(".step-title").click()
    expect(page.locator("[data-undo-bar]")).to_be_visible()
    first.locator(".tick").focus()
    hidden, measured = [], 0
    for key in ["Tab"] * 80 + ["Shift+Tab"] * 80:  # down the page, then back up under the header
        page.keyboard.press(key)
        found = page.evaluate(FOCUS_CLEARANCE)
        if found is None:
            continue
        measured += 1
        name, below_header, above_bar = found
        if below_header < 0 or above_bar < 0:
            hidden.append(f"{key} to {name}: {below_header} px below the header, {above_bar} px above the bar")
    context.close()
    assert measured >= 120
    assert not hidden, "focus partly hidden:\n" + "\n".join(hidden)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_next_step_is_marked_in_a_colour_and_style_unlike_the_focus_ring(browser, live_server, theme):
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=theme, service_workers="block")
    page = context.new_page()
    page.goto(f"{live_server}/meq/turn")
    current = page.locator("[data-step].current")
    expect(current).to_have_count(2)  # one in each checklist, none focused
    page.locator(".tick").first.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")  # by keyboard, so the ring shows
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    for marked in current.all():
        drawn = marked.evaluate("""(e) => { const s = getComputedStyle(e), label = getComputedStyle(e, '::before');
            return {borders: ['Top', 'Right', 'Bottom', 'Left'].map((side) => s[`border${side}Color`]),
                    left: parseFloat(s.borderLeftWidth), outline: s.outlineStyle === 'none' ? null : s.outlineColor,
                    shadow: s.boxShadow, label: label.content, labelBackground: label.backgroundColor}; }""")
        assert ring not in drawn["borders"] and drawn["outline"] != ring and ring not in drawn["shadow"], (theme, ring, drawn)
        assert drawn["left"] >= 4, drawn  # a bar down its left edge
        assert "Next" in drawn["label"] and drawn["labelBackground"] != ring, drawn
    context.close()


def test_checklist_without_javascript_is_a_plain_ordered_list(browser, live_server, library):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server}/wotr-cards/turn")
    shown = page.locator("[data-step]")
    assert shown.count() == len([s for p in phases(library.games["wotr-cards"]) for s in p.steps])
    assert all(item.is_visible() for item in shown.all())
    assert page.locator("ol.phases").count() == 3
    assert not page.locator(".tick").first.is_visible()
    assert not page.locator("[data-turn-bar]").first.is_visible()
    assert not page.locator("[data-next]").first.is_visible()
    context.close()


# --- Print sheets --------------------------------------------------------------------------------

def pdf_text(pdf_bytes):
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf_bytes))
    return [p.extract_text() for p in reader.pages]


def squash(text):
    # NFKC undoes the ligatures (fi, fl, ff) that the PDF's text carries
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


NUMBER = r"(?:\d+[.)]|Step \d+:|[a-h]\.)"
NUMBERED_TWICE = re.compile(rf"(?:^|\n)\s*{NUMBER}\s*{NUMBER}")


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_printed_sheet_fits_two_pages_numbers_each_step_once_and_no_heading_is_bare(browser, live_server, game_id, paper,
                                                                                   library):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{live_server}/{game_id}/print")
    page.emulate_media(media="print")
    # each heading's own words with the first words of what follows it (a list: its first item),
    # leaving out the small raised source marks and the flags, which print in capitals
    pairs = page.evaluate("""() => {
        const text = (e) => { const copy = e.cloneNode(true);
                              copy.querySelectorAll('.source-mark').forEach((m) => m.remove());
                              return copy.textContent; };
        return [...document.querySelectorAll('.sheet h1, .sheet h2, .sheet h3')].map((h) => {
            let next = h.nextElementSibling;
            if (!next && h.parentElement.matches('header')) next = h.parentElement.nextElementSibling;
            if (next && next.matches('ol, ul') && next.firstElementChild) next = next.firstElementChild;
            // another heading straight after is no text for this one
            if (next && (next.matches('h1, h2, h3, h4') || (next.firstElementChild && next.firstElementChild.matches('h1, h2, h3, h4')))) next = null;
            const own = [...h.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(' ');
            return [own, next ? text(next) : ''];
        });
    }""")
    points = float(page.evaluate("getComputedStyle(document.querySelector('.sheet')).fontSize").removesuffix("px")) * 0.75
    pages = pdf_text(page.pdf(format=paper))
    context.close()
    assert 1 <= len(pages) <= 2, f"{game_id} on {paper}: {len(pages)} pages"
    assert points >= SMALLEST_ONE_PAGE_SIZE, f"{game_id} is set in {points} pt"
    text = "\n".join(pages)
    assert not NUMBERED_TWICE.search(text), NUMBERED_TWICE.search(text).group(0)
    flat = squash(text).lower()
    for heading, following in pairs:
        words = " ".join(squash(following).split(" ")[:3]).lower()
        assert words, f"heading without text: {heading!r}"
        # in the PDF: the heading, then (past its flags, source mark or a note's number) the text it heads
        starts = [m.end() for m in re.finditer(re.escape(squash(heading).lower()), flat)]
        assert starts, f"heading not printed: {heading!r}"
        assert any(words in flat[end:end + len(words) + 40] for end in starts), (heading, words)
    for phase in phases(library.games[game_id]):
        assert squash(phase.entry.short or phase.entry.title).lower() in flat


# the width inside the sheet's page margins (print.css: @page margin 8mm), in CSS pixels
PRINTED_WIDTH = {"A4": (210 - 16) / 25.4 * 96, "Letter": (215.9 - 16) / 25.4 * 96}


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("path", [f"/{game_id}/print" for game_id in GAME_IDS] + ["/print"])
def test_printed_tables_fit_their_column(browser, live_server, path, paper):
    # laid out as printed: print media, as wide as the paper inside its margins
    context = browser.new_context(viewport={"width": round(PRINTED_WIDTH[paper]), "height": 1000})
    page = context.new_page()
    page.goto(f"{live_server}{path}")
    page.emulate_media(media="print")
    tables = page.evaluate("""() => [...document.querySelectorAll('.sheet table')].map((table) => {
        const columns = table.closest('.sheet-columns'), style = getComputedStyle(columns);
        const count = parseInt(style.columnCount, 10) || 1, gap = parseFloat(style.columnGap) || 0;
        const column = (columns.clientWidth - (count - 1) * gap) / count;
        const box = table.getBoundingClientRect(), holder = table.parentElement.getBoundingClientRect();
        const cells = [...table.querySelectorAll('th, td, caption')]
            .filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent);
        return {caption: table.caption ? table.caption.textContent : table.textContent.slice(0, 40),
                width: box.width, column, left: box.left - holder.left, right: holder.right - box.right, cells};
    })""")
    context.close()
    if path == "/print":  # every game's sheet: tables there are
        assert tables
    for t in tables:
        assert t["width"] <= t["column"] + 0.5, f"{path} on {paper}: {t['caption']!r} is {t['width']:.0f} px in a {t['column']:.0f} px column"
        assert t["left"] >= -0.5 and t["right"] >= -0.5, f"{path} on {paper}: {t['caption']!r} sticks out of its block"
        assert not t["cells"], f"{path} on {paper}: text runs out of its cell in {t['caption']!r}: {t['cells']}"


@pytest.mark.parametrize("paper, size", [("a4", (595, 842)), ("letter", (612, 792))])
def test_paper_choice_sets_the_page_size(browser, live_server, paper, size):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{live_server}/meq/print?paper={paper}")
    from pypdf import PdfReader

    box = PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True))).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size
    context.close()


def test_print_sheet_has_navigation_and_print_button_on_screen_only(page, live_server):
    page.goto(f"{live_server}/wotr-cards/print")
    nav = page.locator(".print-nav")
    expect(nav).to_be_visible()
    expect(page.locator("[data-print]")).to_be_visible()
    expect(page.get_by_role("link", name="WotR Card Game")).to_be_visible()
    assert page.get_by_role("link", name=re.compile("Letter")).bounding_box()["height"] >= 44
    with page.expect_navigation():
        page.get_by_role("link", name=re.compile("Letter")).tap()
    assert page.url.endswith("?paper=letter")
    expect(page.get_by_role("link", name=re.compile("Letter"))).to_have_attribute("aria-current", "true")
    page.emulate_media(media="print")
    expect(nav).to_be_hidden()
    expect(page.locator(".sheet")).to_be_visible()
