"""Finding the way on a phone: the home screen, a game's overview, glossaries, control borders."""
import re

import pytest
from playwright.sync_api import expect

from webapp.content import GAME_IDS

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def test_home_shows_every_game_with_its_four_ways_in_on_the_first_phone_screen(page, live_server, library):
    page.goto(f"{live_server}/")
    assert page.viewport_size == PHONE
    for game in library.games.values():
        card = page.locator(".game-card", has=page.locator(f'h2 a[href="{game.url}"]'))
        links = {
            "rules": card.locator(f'a[href="{game.url}"]').last,
            "turn": card.locator(f'a[href="/{game.id}/turn"]'),
            "odds": card.locator(f'a[href="/{game.id}/calc/"]'),
            "print": card.locator(f'a[href="/{game.id}/print"]'),
        }
        for name, link in {"title": card.locator("h2 a"), **links}.items():
            box = link.bounding_box()
            assert box is not None, (game.id, name)
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], f"{game.id} {name} is below the first screen: {box}"
            if name != "title":
                assert box["height"] >= 44 and box["width"] >= 44, (game.id, name, box)
        expect(links["turn"]).to_have_text(re.compile(f"^{re.escape(game.turn_name)}$", re.I), use_inner_text=True)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_game_overview_leads_with_checklist_calculators_and_search(page, live_server, game_id):
    page.goto(f"{live_server}/{game_id}/")
    checklist = page.locator(f'main a[href="/{game_id}/turn"]').first
    calculators = page.locator(f'.game-calcs a[href^="/{game_id}/calc/"]')
    search = page.locator("form.game-search input[name=q]")
    rules = page.locator("main h2", has_text="Rules")
    assert calculators.count() >= 1
    for item in (checklist, calculators.first, search):
        box = item.bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"], f"not in the first screen: {box}"
        assert box["y"] < rules.bounding_box()["y"], "the rule list comes after the tools"
    search.fill("hit")
    with page.expect_navigation():
        search.press("Enter")
    assert re.search(rf"/search\?q=hit&game={game_id}$", page.url), page.url


def test_glossary_reads_a_to_z_with_a_letter_index_and_keeps_the_topic_view(page, live_server, library):
    page.goto(f"{live_server}/meccg/glossary")
    letters = page.locator(".letter-index a")
    shown = letters.all_inner_texts()
    assert shown == sorted(shown) and len(shown) >= 10
    terms = page.locator(".letter .entry-title").all_inner_texts()
    titles = [t.lstrip("# ").strip() for t in terms]
    keys = [re.sub(r"^the ", "", t.lower()) for t in titles]
    assert keys == sorted(keys), "terms are not in A-Z order"
    assert len(titles) == len(library.games["meccg"].sections["glossary"].entries)
    index = shown.index("M")
    letters.nth(index).tap()
    page.wait_for_function("location.hash === '#letter-M'")
    section = page.locator("#letter-M")
    top = section.bounding_box()["y"]
    header = page.locator(".site-header").bounding_box()
    assert header["height"] - 1 <= top < PHONE["height"] / 2, top
    assert all(t.lstrip("# ").strip()[0] == "M" for t in section.locator(".entry-title").all_inner_texts())
    with page.expect_navigation():
        page.get_by_role("link", name="By topic").tap()
    in_file_order = [t.title for t in library.games["meccg"].sections["glossary"].entries]
    expect(page.locator(".letter-index")).to_have_count(0)
    assert [t.lstrip("# ").strip() for t in page.locator(".entry-title").all_inner_texts()] == in_file_order


def contrast(a, b):
    def luminance(css):
        r, g, b_ = (int(n) / 255 for n in re.findall(r"\d+", css)[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b_)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


CONTROL_PAGES = ("/", "/meccg/", "/meccg/glossary", "/meccg/glossary?view=pictures", "/wotr-cards/turn", "/meq/turn",
                 "/search?q=strike", "/wotr/calc/roll", "/meccg/calc/influence",
                 "/wotr/calc/roll?strength=5&hit=5&modifier=0&leadership=2&reroll_modifier=0")
# what a player taps or types into: form controls, links drawn as buttons, a checklist's rows (the
# whole row ticks) and their rule controls, the details that fold a result, switches and choices
CONTROLS = ("input, select, textarea, button, a, summary, .step, details.more, .switch-track, .choice")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_control_borders_stand_out_three_to_one_against_the_page(browser, live_server, theme):
    context = browser.new_context(viewport=PHONE, color_scheme=theme, service_workers="block")
    page = context.new_page()
    checked, weak = set(), []
    for path in CONTROL_PAGES:
        page.goto(live_server + path)
        # each side drawn, against what is behind the control (the nearest background that is not transparent)
        borders = page.evaluate("""(selector) => {
            const opaque = (colour) => colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent';
            const behind = (e) => {
                for (let up = e.parentElement; up; up = up.parentElement) {
                    const colour = getComputedStyle(up).backgroundColor;
                    if (opaque(colour)) return colour;
                }
                return getComputedStyle(document.documentElement).backgroundColor;
            };
            return [...document.querySelectorAll(selector)]
              .filter((e) => e.getClientRects().length && !['checkbox', 'radio', 'hidden'].includes(e.type))
              .flatMap((e) => { const s = getComputedStyle(e);
                  return ['Top', 'Right', 'Bottom', 'Left']
                    .filter((side) => s[`border${side}Style`] !== 'none' && parseFloat(s[`border${side}Width`]) > 0)
                    .map((side) => [e.classList[0] || e.tagName.toLowerCase(), e.outerHTML.slice(0, 70), side,
                                    s[`border${side}Color`], behind(e)]); });
        }""", CONTROLS)
        for kind, html, side, colour, background in borders:
            checked.add(kind)
            if contrast(colour, background) < 3:
                weak.append(f"{path}: {html} {side} {colour} on {background}: {contrast(colour, background):.2f}")
    context.close()
    assert not weak, f"{theme}: borders under 3:1\n" + "\n".join(sorted(set(weak)))
    # among them the checklist rows (solid and dashed), their rule controls and a result's details
    assert {"step", "more", "phase-toggle", "theme-toggle"} <= checked, checked
    assert len(checked) >= 10
