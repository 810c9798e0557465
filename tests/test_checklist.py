"""Turn checklists and print sheets list every step of the content, in order."""
import re

import pytest

from webapp.checklist.model import checklists, phases
from webapp.checklist.views import SHEET_SIZES, SMALLEST_ONE_PAGE_SIZE, TWO_PAGES, ONE_PAGE, sheet_size
from webapp.content import GAME_IDS



def expected_steps(game):
    """Every step of every turn section, in file order: the children of each phase."""
    ids = []
    for section in game.turn:
        for phase in section.entries:
            ids += [step.id for step in phase.entries] or [phase.id]
    return ids


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_checklist_lists_every_step_in_order(client, game_id, library):
    game = library.games[game_id]
    html = client.get(f"/{game_id}/turn").get_data(as_text=True)
    shown = re.findall(r'data-step="([a-z0-9-]+)"', html)
    assert shown == expected_steps(game)
    assert len(shown) >= 5


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_checklist_steps_link_to_rule_pages(client, game_id, library):
    game = library.games[game_id]
    html = client.get(f"/{game_id}/turn").get_data(as_text=True)
    for phase in phases(game):
        for step in phase.steps:
            assert f'href="{step.entry.url}"' in html


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_checklist_progress_counts_its_steps_in_the_right_number(client, game_id, library):
    # the progress line as the page is sent: the steps of the first pass to do, "step" for one
    html = client.get(f"/{game_id}/turn").get_data(as_text=True)
    for found in checklists(library.games[game_id]):
        total = len([step for step in found.steps if step.always])
        section = html[html.index(f'data-checklist="{found.id}"'):]
        shown = re.search(r"<span data-progress>([^<]*)</span>", section).group(1)
        assert shown == f"0 of {total} step{'' if total == 1 else 's'}", (found.id, shown)
    if game_id == "meq":
        assert "<span data-progress>0 of 1 step</span>" in html  # the hero turn


def test_checklist_marks_optional_and_conditional_steps(client):
    html = client.get("/meccg/turn").get_data(as_text=True)
    assert re.search(r'class="step[^"]*flag-optional', html)
    assert re.search(r'class="step[^"]*flag-conditional', html)


@pytest.mark.parametrize("game_id, calculator_url", [
    ("wotr", "/wotr/calc/roll"), ("meq", "/meq/calc/dominance"), ("meccg", "/meccg/calc/council"),
    ("fotf", "/fotf/calc/search"), ("wotr-cards", "/wotr-cards/calc/combat"),
])
def test_checklist_links_steps_to_their_calculators(client, game_id, calculator_url):
    html = client.get(f"/{game_id}/turn").get_data(as_text=True)
    assert f'href="{calculator_url}"' in html


def test_checklists_are_named_as_the_game_names_its_rounds_and_turns(client):
    battle = client.get("/wotr/turn").get_data(as_text=True)
    assert "combat round checklist</h1>" in battle and "Next combat round</button>" in battle
    assert "Next turn" not in battle and ">Turn <" not in battle
    cards = client.get("/wotr-cards/turn").get_data(as_text=True)
    assert "round checklist</h1>" in cards and "Next round</button>" in cards
    assert re.findall(r'data-checklist="([a-z-]+)"', cards) == ["round", "path-combat", "battleground-combat"]
    quest = client.get("/meq/turn").get_data(as_text=True)
    assert re.findall(r'data-name="([^"]+)"', quest) == ["Sauron turn", "Hero turn"]


def test_seat_order_is_given_where_the_rules_fix_one(client):
    html = client.get("/wotr-cards/turn").get_data(as_text=True)
    round_list = html[html.index('data-checklist="round"'):html.index('data-checklist="path-combat"')]
    assert 'data-seats="Frodo|Witch-king|Aragorn|Saruman"' in round_list
    assert "Starting player:" in round_list
    assert "data-seats" not in html[html.index('data-checklist="path-combat"'):]
    assert "data-seats" not in client.get("/meccg/turn").get_data(as_text=True)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_steps_that_may_not_happen_are_counted_only_when_ticked(client, game_id, library):
    html = client.get(f"/{game_id}/turn").get_data(as_text=True)
    for phase in phases(library.games[game_id]):
        for step in phase.steps:
            flags = set(step.entry.flags) | set(phase.entry.flags)
            applies = "if" if flags & {"optional", "conditional"} else "not-first" if "not-first" in flags else "always"
            assert f'data-step="{step.entry.id}" data-applies="{applies}"' in html, step.entry.id
    assert 'data-applies="always"' in html


def test_the_quest_first_sauron_turn_skips_story_and_plot_and_draws_one_event(client, library):
    game = library.games["meq"]
    sauron = [c for c in checklists(game) if c.id == "sauron-turn"][0]
    applies = {step.entry.id: step.applies for step in sauron.steps}
    # Story and Plot come round every turn but the first: not "sometimes", and not on turn 1
    assert [i for i, a in applies.items() if a == "not-first"] == ["story-hero-marker", "story-sauron-markers", "plot-choose"]
    assert applies["story-new-minions"] == applies["story-finale-check"] == "if"
    assert all(not set(phase.entry.flags) & {"optional", "conditional"} for phase in sauron.phases)
    # the Event step's draw says what happens on the first turn and after
    draw = game.entries["event-draw-and-resolve"]
    assert applies[draw.id] == "always"
    assert "Turn 1" in draw.short and "1 Event" in draw.short and "3" in draw.short
    rows = {row[0]: row[1] for row in draw.table.rows}
    assert rows["First Sauron turn of the game"] == "1"
    assert sorted(rows.values()) == ["1", "1", "3", "3"]
    html = client.get("/meq/turn").get_data(as_text=True)
    assert 'data-step="story-hero-marker" data-applies="not-first"' in html
    assert '<span class="flag flag-not-first">not first</span>' in html
    assert "Draw 3 Events" not in html


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_phase_title_never_leaves_the_page_and_a_lone_step_is_no_heading(client, game_id, library):
    html = client.get(f"/{game_id}/turn").get_data(as_text=True)
    titles = re.findall(r'<h3 class="phase-title">(.*?)</h3>', html, flags=re.S)
    assert titles and not any("<a " in title for title in titles)
    lone = [p.entry for p in phases(library.games[game_id]) if p.lone]
    for entry in lone:
        assert f'data-phase="{entry.id}"' not in html
        assert html.count(f">{entry.short or entry.title}<".replace("'", "&#39;")) == 1, entry.id


def unescape(html):
    return html.replace("&#39;", "'").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&#34;", '"')


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_print_sheet_lists_every_phase_and_step_and_numbers_none_itself(client, game_id, library):
    game = library.games[game_id]
    response = client.get(f"/{game_id}/print")
    assert response.status_code == 200
    html = unescape(response.get_data(as_text=True))
    assert html.startswith("<!doctype html>")
    sheet = html[html.index("<main>"):]
    for phase in phases(game):
        if not phase.lone:
            assert f"<h3>{phase.entry.short or phase.entry.title}" in sheet, phase.entry.id
        for step in phase.steps:
            assert f"<li>{step.entry.short or step.entry.title}" in sheet, step.entry.id
    assert "<form" not in html and "<input" not in html


def test_print_sheet_offers_paper_sizes_and_rejects_others(client):
    html = client.get("/meq/print").get_data(as_text=True)
    assert 'href="/meq/print?paper=a4"' in html and 'href="/meq/print?paper=letter"' in html and "data-print" in html
    assert 'class="print-sheet paper-letter"' in client.get("/meq/print?paper=letter").get_data(as_text=True)
    combined = client.get("/print?games=wotr,meq&paper=a4").get_data(as_text=True)
    assert 'href="/print?games=wotr,meq&amp;paper=letter"' in combined and "paper-a4" in combined
    assert "paper-letter" not in client.get("/print?games=wotr,meq").get_data(as_text=True), "the paper is not cached"
    for bad in ("a3", "<b>", ""):
        response = client.get("/meq/print", query_string={"paper": bad})
        if bad:
            assert response.status_code == 400
            assert "paper: choose a4 or letter" in response.get_data(as_text=True)
        else:
            assert response.status_code == 200


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_print_sheet_gives_each_listed_rule_its_text(client, game_id, library):
    # a result name alone ("Rout.") tells a player nothing: each child rule carries its body
    game = library.games[game_id]
    html = client.get(f"/{game_id}/print").get_data(as_text=True)
    children = [child for ref in game.print_ids for child in getattr(game.lookup(ref), "entries", ())
                if not child.table and child.html]
    for child in children:
        assert child.html in html, child.id


def test_combined_print_sheet(client):
    html = client.get("/print?games=wotr,meccg").get_data(as_text=True)
    assert html.count('<article class="sheet ') == 2
    assert 'id="sheet-wotr"' in html and 'id="sheet-meccg"' in html
    every = client.get("/print").get_data(as_text=True)
    assert every.count('<article class="sheet ') == len(GAME_IDS)


@pytest.mark.parametrize("games", ["narnia", "wotr,wotr", "wotr,<b>"])
def test_combined_print_sheet_rejects_bad_games(client, games):
    response = client.get("/print", query_string={"games": games})
    assert response.status_code == 400
    assert "<b>" not in response.get_data(as_text=True)


TOP_NUMBER = re.compile(r"^(\d+)\. ")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_print_sheet_numbers_each_checklists_phases_as_the_checklist_does(client, game_id, library):
    # what the checklist shows for a phase or a lone step, the sheet prints: numbers included, and
    # the numbers of one checklist run on without a gap (none dropped, none twice)
    html = unescape(client.get(f"/{game_id}/print").get_data(as_text=True))
    sections = [part.split("</section>")[0] for part in html.split('<section class="sheet-checklist">')[1:]]
    for checklist, section in zip(checklists(library.games[game_id]), sections):
        tops = re.findall(r'<li class="sheet-phase">\s*<h3>([^<]+)|\n\s*<li>([^<]+)', section)
        shown = [heading or lone for heading, lone in tops]
        expected = [phase.entry.short or phase.entry.title for phase in checklist.phases]
        assert shown == expected, checklist.id
        numbers = [int(m.group(1)) for m in map(TOP_NUMBER.match, shown) if m]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers))) if numbers else True, (checklist.id, shown)
        if numbers:  # nothing unnumbered between the first numbered item and the last
            first = next(i for i, text in enumerate(shown) if TOP_NUMBER.match(text))
            assert all(TOP_NUMBER.match(text) for text in shown[first:first + len(numbers)]), (checklist.id, shown)


def test_the_quest_print_sheet_numbers_all_six_sauron_steps(client):
    html = unescape(client.get("/meq/print").get_data(as_text=True))
    for number, name in enumerate(["Hero Rally", "Story", "Plot", "Event", "Action", "Hero Draw"], start=1):
        assert re.search(rf">{number}\. {name}<", html), name


def test_a_sheet_that_needs_small_type_for_one_page_takes_two_at_a_larger_size():
    # text that fits one page only below the legible size: two pages, at the largest size they hold
    length = int(ONE_PAGE / 8.0 ** 2)
    assert length * 8.4 ** 2 > ONE_PAGE and length * 8.0 ** 2 <= ONE_PAGE
    size = sheet_size(length)
    assert size >= SMALLEST_ONE_PAGE_SIZE and length * size ** 2 <= TWO_PAGES
    assert all(length * larger ** 2 > TWO_PAGES for larger in SHEET_SIZES if larger > size)
    # a short text still fits one page, at the largest size
    assert sheet_size(int(ONE_PAGE / SHEET_SIZES[0] ** 2)) == SHEET_SIZES[0]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_sheet_is_set_at_a_legible_size(client, game_id):
    html = client.get(f"/{game_id}/print").get_data(as_text=True)
    size = int(re.search(r'<article class="sheet size-(\d+)"', html).group(1)) / 10
    assert size >= SMALLEST_ONE_PAGE_SIZE, f"{game_id}: {size} pt"
