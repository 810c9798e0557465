"""Turn checklists and print sheets in a real browser (headless Chromium, phone size)."""
import io
import re
import unicodedata

import pytest

from webapp.checklist.model import checklists, phases
from webapp.checklist.views import SMALLEST_ONE_PAGE_SIZE
from webapp.content import GAME_IDS

pytestmark = pytest.mark.browser


def checklist(page, list_id):
    return page.locator(f'[data-checklist="{list_id}"]')


def percent(page, list_id):
    return int(checklist(page, list_id).get_attribute("data-percent"))


def always_steps(library, game_id, list_id):
    found = [c for c in checklists(library.games[game_id]) if c.id == list_id][0]
    return [step.entry.id for step in found.steps if step.always]


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
        status = checklist(page, found.id).locator("[data-turn-bar]").inner_text()
        assert status.startswith(f"{name} 1"), status
        for i, step_id in enumerate(required):
            assert percent(page, found.id) < 100
            tap_row(page, step_id)
            assert page.locator(f"#tick-{step_id}").is_checked()
        assert percent(page, found.id) == 100, f"{found.id}: every step that applies is ticked"
        progress = checklist(page, found.id).locator("[data-progress]").inner_text()
        assert progress == f"{len(required)} of {len(required)} steps"
        assert "is done" in checklist(page, found.id).locator("[data-end-status]").inner_text()
        assert checklist(page, found.id).locator("[data-step].missed").count() == 0
    if game_id == "wotr-cards":
        # the combats are checklists of their own: the round is complete without them
        page.reload()
        assert percent(page, "round") == 100 and percent(page, "path-combat") == 100


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_from_the_second_pass_on_its_steps_of_every_pass_but_the_first_count_too(page, live_server, game_id, library):
    page.goto(f"{live_server}/{game_id}/turn")
    for found in checklists(library.games[game_id]):
        later = [step.entry.id for step in found.steps if step.applies in ("always", "not-first")]
        checklist(page, found.id).locator("[data-next]").click()
        for step_id in later:
            assert percent(page, found.id) < 100
            tap_row(page, step_id)
        assert percent(page, found.id) == 100, found.id
        progress = checklist(page, found.id).locator("[data-progress]").inner_text()
        assert progress == f"{len(later)} of {len(later)} steps"


def test_story_and_plot_are_skipped_on_the_first_sauron_turn_and_due_on_every_later_one(page, live_server, library):
    page.goto(f"{live_server}/meq/turn")
    sauron = checklist(page, "sauron-turn")
    first = always_steps(library, "meq", "sauron-turn")
    assert "story-hero-marker" not in first and "plot-choose" not in first
    assert sauron.locator('[data-phase="story"] .phase-count').inner_text() == "not in Sauron turn 1"
    for step_id in first:
        tap_row(page, step_id)
    assert percent(page, "sauron-turn") == 100, "turn 1 is complete without Story and Plot"
    assert sauron.locator("[data-step].missed").count() == 0
    assert "passed" in sauron.locator('[data-step="plot-choose"]').get_attribute("class")

    sauron.locator("[data-next]").click()
    assert sauron.locator("[data-turn-number]").inner_text() == "2"
    assert sauron.locator('[data-phase="story"] .phase-count').inner_text() == "0/2"
    for step_id in first:
        tap_row(page, step_id)
    assert percent(page, "sauron-turn") < 100, "from turn 2, Story and Plot are due"
    assert sauron.locator('[data-step="plot-choose"].missed').count() == 1
    for step_id in ("story-hero-marker", "story-sauron-markers", "plot-choose"):
        tap_row(page, step_id)
    assert percent(page, "sauron-turn") == 100


def test_the_card_game_round_is_done_before_its_combats_are(page, live_server, library):
    page.goto(f"{live_server}/wotr-cards/turn")
    for step_id in always_steps(library, "wotr-cards", "round"):
        tap_row(page, step_id)
    assert percent(page, "round") == 100
    assert percent(page, "path-combat") == 0 and percent(page, "battleground-combat") == 0


def test_a_conditional_step_counts_once_it_is_ticked(page, live_server, library):
    page.goto(f"{live_server}/meccg/turn")
    required = len(always_steps(library, "meccg", "turn-sequence"))
    progress = page.locator("[data-progress]")
    assert progress.inner_text() == f"0 of {required} steps"
    tap_row(page, "reveal-new-site")  # moving company only
    assert progress.inner_text() == f"1 of {required + 1} steps"
    tap_row(page, "reveal-new-site")
    assert progress.inner_text() == f"0 of {required} steps"


def test_battle_checklist_speaks_of_combat_rounds(page, live_server):
    page.goto(f"{live_server}/wotr/turn")
    assert page.locator("h1").inner_text().endswith("combat round checklist")
    assert page.locator("[data-turn-number]").locator("..").inner_text() == "Combat round 1"
    page.click("[data-next]")
    assert page.locator("[data-turn-number]").locator("..").inner_text() == "Combat round 2"
    assert page.locator("[data-next]").inner_text() == "Next combat round"
    assert "turn" not in page.locator("[data-turn-bar]").inner_text().lower()


def test_starting_player_moves_on_one_seat_each_round(page, live_server):
    page.goto(f"{live_server}/wotr-cards/turn")
    seat = checklist(page, "round").locator("[data-seat]")
    count = checklist(page, "round").locator("[data-turn-number]")
    assert seat.inner_text() == "Frodo"
    tap_row(page, "activate-battleground")
    checklist(page, "round").locator("[data-next]").click()
    assert (count.inner_text(), seat.inner_text()) == ("2", "Witch-king")
    assert checklist(page, "round").locator(".tick:checked").count() == 0
    for _ in range(3):
        checklist(page, "round").locator("[data-next]").click()
    assert (count.inner_text(), seat.inner_text()) == ("5", "Frodo")
    checklist(page, "round").locator("[data-seat-back]").click()
    assert seat.inner_text() == "Saruman", "the token can be set by hand"
    page.reload()
    assert (count.inner_text(), seat.inner_text()) == ("5", "Saruman")


# --- Tapping, expanding, folding and undoing -----------------------------------------------------

def test_the_whole_row_ticks_and_the_rule_opens_from_its_own_control(page, live_server):
    page.goto(f"{live_server}/meq/turn")
    step = page.locator("[data-step]").first
    row, expand = step.locator(".step-row"), step.locator("summary")
    assert row.bounding_box()["height"] >= 44
    box = expand.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    expand.tap()
    assert step.locator(".step-links a").first.is_visible()
    assert not step.locator(".tick").is_checked(), "expanding a step must not tick it"
    row.tap()
    assert step.locator(".tick").is_checked()
    assert step.locator(".step-details").get_attribute("open") is not None, "ticking must not fold the rule"


def test_a_folded_phase_opens_from_its_title_and_its_ticks_can_be_reversed(page, live_server):
    page.goto(f"{live_server}/meccg/turn")
    url = page.url
    phase = page.locator('[data-phase="untap-phase"]')
    for step_id in ("untap-or-heal", "untap-other-cards"):
        tap_row(page, step_id)
    assert "folded" in phase.get_attribute("class") and phase.locator(".steps").is_hidden()
    toggle = phase.locator(".phase-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.tap()
    assert page.url == url, "tapping a phase title must not leave the page"
    assert phase.locator(".steps").is_visible() and toggle.get_attribute("aria-expanded") == "true"
    tap_row(page, "untap-other-cards")
    assert not page.locator("#tick-untap-other-cards").is_checked()
    assert "phase-done" not in phase.get_attribute("class")
    toggle.tap()
    assert phase.locator(".steps").is_hidden(), "an unfinished phase can be folded by hand too"


def test_the_last_tick_next_and_reset_can_each_be_undone(page, live_server):
    page.goto(f"{live_server}/wotr-cards/turn")
    undo = page.locator("[data-undo]")
    assert not undo.is_visible()
    tap_row(page, "activate-battleground")
    tap_row(page, "activate-path")
    assert page.locator("[data-undo-label]").inner_text() == "Ticked: Activate next path (number +1)"
    undo.tap()
    assert not page.locator("#tick-activate-path").is_checked()
    assert page.locator("#tick-activate-battleground").is_checked(), "only the last tick is undone"

    round_list = checklist(page, "round")
    round_list.locator("[data-next]").click()
    assert round_list.locator("[data-turn-number]").inner_text() == "2"
    undo.tap()
    assert round_list.locator("[data-turn-number]").inner_text() == "1"
    assert round_list.locator("[data-seat]").inner_text() == "Frodo"
    assert page.locator("#tick-activate-battleground").is_checked(), "undoing Next round brings the ticks back"

    round_list.locator("[data-reset]").click()
    assert page.locator("#tick-activate-battleground").is_checked() is False
    page.reload()
    page.locator("[data-undo]").tap()  # the history survives a reload too
    assert page.locator("#tick-activate-battleground").is_checked()


def test_ticks_are_kept_per_game_across_reloads(page, live_server, library):
    page.goto(f"{live_server}/fotf/turn")
    first = always_steps(library, "fotf", "game-turn")[0]
    tap_row(page, first)
    page.goto(f"{live_server}/meccg/turn")
    assert page.locator(".tick:checked").count() == 0, "another game's ticks"
    page.goto(f"{live_server}/fotf/turn")
    assert page.locator(f"#tick-{first}").is_checked()
    order = [step.entry.id for step in checklists(library.games["fotf"])[0].steps]
    assert page.locator("[data-step].current").get_attribute("data-step") == order[order.index(first) + 1]


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
    assert "folded" in phase.get_attribute("class")
    following = page.locator('[data-phase="organization-phase"] .tick').first
    assert following.evaluate("(e) => document.activeElement === e"), "focus was lost when the phase folded"
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
    assert nav.is_visible() and page.locator("[data-print]").is_visible()
    assert page.get_by_role("link", name="WotR Card Game").is_visible()
    assert page.get_by_role("link", name=re.compile("Letter")).bounding_box()["height"] >= 44
    with page.expect_navigation():
        page.get_by_role("link", name=re.compile("Letter")).tap()
    assert page.url.endswith("?paper=letter")
    assert page.get_by_role("link", name=re.compile("Letter")).get_attribute("aria-current") == "true"
    page.emulate_media(media="print")
    assert not nav.is_visible()
    assert page.locator(".sheet").is_visible()
