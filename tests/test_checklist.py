"""Turn checklists and print sheets list every step of the content, in order."""
import re

import pytest

from webapp.checklist.model import phases
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


def test_checklist_has_whose_turn_order_where_the_game_fixes_one(client):
    html = client.get("/wotr-cards/turn").get_data(as_text=True)
    assert 'data-turn-order="Frodo|Witch-king|Aragorn|Saruman"' in html
    assert 'data-turn-order="Sauron|Heroes"' in client.get("/meq/turn").get_data(as_text=True)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_print_sheet_has_every_phase_and_no_navigation(client, game_id, library):
    game = library.games[game_id]
    response = client.get(f"/{game_id}/print")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for phase in phases(game):
        assert f"<h3>{phase.entry.title}" in html.replace("&#39;", "'").replace("&amp;", "&")
    assert "<nav" not in html and "<button" not in html and "<form" not in html


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
    assert html.count('class="sheet"') == 2
    assert 'id="sheet-wotr"' in html and 'id="sheet-meccg"' in html
    every = client.get("/print").get_data(as_text=True)
    assert every.count('class="sheet"') == len(GAME_IDS)


@pytest.mark.parametrize("games", ["narnia", "wotr,wotr", "wotr,<b>"])
def test_combined_print_sheet_rejects_bad_games(client, games):
    response = client.get("/print", query_string={"games": games})
    assert response.status_code == 400
    assert "<b>" not in response.get_data(as_text=True)
