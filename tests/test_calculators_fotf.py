"""Fate of the Fellowship calculator pages and JSON endpoints: search, battle and the One Ring.

Most cases pass their own face counts so the expected odds do not depend on the unverified
placeholder counts in content/fotf/data/dice.yaml; the tests that use the file's counts read
them from it.
"""
import html
import re
from fractions import Fraction as F

import pytest
from urllib.parse import parse_qsl, urlencode

from werkzeug.datastructures import MultiDict

from webapp.calculators import fotf
# search die for hand calculations: weary 1 + exposed 1 of 6 faces cost hope (1/3), recall 1/6
SEARCH_FACES = "slip_by=3&weary=1&exposed=1&recall=1"
# battle die: rout 2/6, exchange 2/6, overrun 1/6, Nazgûl 1/6
BATTLE_FACES = "rout=2&exchange=2&overrun=1&nazgul=1"


def approx(values):
    return pytest.approx([float(v) for v in values])


def error_of(client, url):
    response = client.get(url)
    assert response.status_code == 400
    return response.get_json()["error"]


# --------------------------------------------------------------------------- the face counts


@pytest.mark.parametrize("url, die", [("/fotf/calc/search", "search"), ("/fotf/calc/battle", "battle"),
                                      ("/fotf/calc/ring", "search")])
def test_pages_show_the_face_counts_of_the_data_file_as_examples_and_say_they_are_unverified(client, url, die, dice):
    response = client.get(url)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for name, count in dice[die].items():  # an empty box, the data file's count greyed in it
        assert re.search(rf'name="{name}" value=""[^>]* placeholder="e.g. {count}"', html), name
    if not dice["verified"]:
        # the warning sits in the face counts' fieldset legend and note, in the player's words
        assert f"Faces of the {die} die (not in the rules; check your dice)" in html
        assert "Not given in the rules summary; check your dice." in html
    else:
        assert "checked against the real dice" in html
    assert "dice.yaml" not in html  # no file path in the player's view


def test_result_block_repeats_that_the_counts_are_unverified(client, dice):
    html = client.get(f"/fotf/calc/search?nazgul=1&shadow_troops=1&{SEARCH_FACES}").get_data(as_text=True)
    assert "Face counts used:</strong> slip by 3, weary 1, exposed 1, recall 1." in html
    if not dice["verified"]:
        assert "Not given in the rules summary; check your dice: these odds are only as good as" in html
    else:
        assert "They have been checked against the real dice." in html


FOTF_PAGES = ["fotf-search", "fotf-battle", "fotf-ring"]


@pytest.mark.parametrize("calc_id", FOTF_PAGES)
def test_the_answer_says_beside_its_headline_that_the_odds_come_from_faces_the_summary_lacks(client, calculators,
                                                                                              dice, calc_id):
    """The first screen carries the caveat: right under the headline, above every chart."""
    calc = calculators[calc_id]
    shown = client.get(f"/{calc.game}/calc/{calc.slug}", query_string=calc.form_query()).get_data(as_text=True)
    answer = shown[shown.index('<p class="headline">'):]
    note = re.search(r'<p class="headline-note">(.*?)</p>', answer)
    assert note, "no caveat with the headline"
    words = html.unescape(note.group(1))
    assert words.startswith("From the die faces below, which the rules summary does not give")
    if not dice["verified"]:
        assert words.endswith("check them against your dice.")
    assert answer.index('class="headline-note"') < answer.index('class="inputs-summary"') < answer.index("<svg")
    # and a program is told the same with the odds
    api = calc.apis[0]
    body = client.get(api.path, query_string=[(k, v) for k, v in calc.form_query()]).get_json()
    assert body["faces_note"].startswith("From the die faces given, which the rules summary does not give")


def test_no_dice_rolled_needs_no_caveat(client, calculators):
    shown = client.get("/fotf/calc/search?nazgul=0&shadow_troops=0&" + SEARCH_FACES).get_data(as_text=True)
    assert "no search dice are rolled" in shown and 'class="headline-note"' not in shown


def test_the_face_counts_must_be_given(client, dice):
    assert error_of(client, "/api/fotf/search?nazgul=1").startswith("slip_by: required: a whole number from 0 to 6")
    faces = "&".join(f"{name}={count}" for name, count in dice["search"].items())
    body = client.get(f"/api/fotf/search?nazgul=1&{faces}").get_json()
    assert body["faces"] == dice["search"]
    assert body["faces_verified"] is dice["verified"]
    # one die costs hope on weary or exposed: (weary + exposed) / all faces
    counts = dice["search"]
    p = F(counts["weary"] + counts["exposed"], sum(counts.values()))
    assert body["hope_lost"] == approx([1 - p, p])


FACE_TOTAL_CASES = [
    # the player's report: seven faces on the search die
    ("fotf-search", "nazgul=1&shadow_troops=1&slip_by=2&weary=1&exposed=2&recall=2", "search", 7),
    ("fotf-search", "nazgul=1&slip_by=0&weary=0&exposed=0&recall=0", "search", 0),
    ("fotf-battle", "initiator=attack&friendly_troops=2&shadow_troops=2&rout=2&exchange=2&overrun=1&nazgul=0",
     "battle", 5),
    ("fotf-ring", "nazgul=1&hope=3&slip_by=3&weary=3&exposed=3&recall=3", "search", 12),
]


@pytest.mark.parametrize("calc_id, query, die, total", FACE_TOTAL_CASES,
                         ids=[f"{case[0]}:{case[3]}" for case in FACE_TOTAL_CASES])
def test_the_faces_of_a_die_must_total_six_on_the_page_and_the_api(client, calculators, calc_id, query, die, total):
    calc = calculators[calc_id]
    names = fotf.DIE_FACES[die]
    message = f"the faces of one die total 6; these total {total}"
    api = client.get(f"/api/fotf/{calc.slug}?{query}")
    assert api.status_code == 400
    assert api.get_json() == {"error": f"{', '.join(names)}: {message}"}  # every face field named

    page = client.get(f"/fotf/calc/{calc.slug}?{query}")
    assert page.status_code == 400
    shown = page.get_data(as_text=True)
    assert 'class="result"' not in shown
    labels = "Faces showing " + ", ".join(fotf.FACE_LABELS[name] for name in names[:-1]) + \
        f" and {fotf.FACE_LABELS[names[-1]]}"
    # once beside the first face field, every face box marked and pointing at it, and in the list at the top
    beside = re.findall(r'<p class="field-error" id="e-([a-z_]+)">(.*?)</p>', shown)
    assert [(name, html.unescape(text)) for name, text in beside] == [(names[0], f"{labels}: {message}")]
    for name in names:
        assert re.search(rf'id="f-{name}" name="{name}" value="\d+"[^>]* aria-invalid="true" '
                         rf'aria-describedby="e-{names[0]}"', shown), name
    summary = re.search(r'<div class="error-summary".*?</div>', shown, re.S).group(0)
    assert f'<a href="#f-{names[0]}">{labels}: {message}</a>' in html.unescape(summary)
    # what was typed is kept
    for name, count in parse_qsl(query):
        if name in names:
            assert f'name="{name}" value="{count}"' in shown


def test_the_face_fields_say_what_a_die_allows(client):
    shown = client.get("/fotf/calc/battle").get_data(as_text=True)
    assert "The faces of one die total 6." in shown


# --------------------------------------------------------------------------- search roll


def test_search_api_two_dice_by_hand(client):
    body = client.get(f"/api/fotf/search?nazgul=2&{SEARCH_FACES}&in_haven=false"
                      "&in_mordor=false&rerolls=0").get_json()
    # hope per die 1/3: (2/3)^2, 2(1/3)(2/3), (1/3)^2
    assert body["hope_lost"] == approx([F(4, 9), F(4, 9), F(1, 9)])
    assert body["expected_hope_lost"] == pytest.approx(float(F(2, 3)))
    # recall per die 1/6: (5/6)^2, 2(1/6)(5/6), (1/6)^2
    assert body["recall"] == approx([F(25, 36), F(10, 36), F(1, 36)])
    assert body["expected_recall"] == pytest.approx(float(F(1, 3)))
    assert body["dice"] == 2 and body["explanation"]


def test_search_api_haven_and_mordor(client):
    body = client.get(f"/api/fotf/search?nazgul=1&shadow_troops=1&{SEARCH_FACES}&in_haven=1&in_mordor=1").get_json()
    # in a haven only weary costs hope: 1/6 per die
    assert body["hope_lost"] == approx([F(25, 36), F(10, 36), F(1, 36)])
    # in Mordor recall does nothing
    assert body["recall"] == approx([1, 0, 0])


def test_search_api_reroll(client):
    body = client.get(f"/api/fotf/search?shadow_troops=1&{SEARCH_FACES}&rerolls=1").get_json()
    # the die costs hope only if it shows hope and the reroll shows hope again: 1/3 x 1/3
    assert body["hope_lost"] == approx([F(8, 9), F(1, 9)])
    assert body["expected_rerolls_spent"] == pytest.approx(float(F(1, 3)))


def test_search_api_boolean_words(client):
    as_words = client.get(f"/api/fotf/search?shadow_troops=2&{SEARCH_FACES}&in_haven=true").get_json()
    as_digits = client.get(f"/api/fotf/search?shadow_troops=2&{SEARCH_FACES}&in_haven=1").get_json()
    assert as_words["hope_lost"] == as_digits["hope_lost"]
    assert as_words["hope_lost"] == approx([F(25, 36), F(10, 36), F(1, 36)])


def test_search_page_permalink_shows_the_numbers(client):
    response = client.get(f"/fotf/calc/search?nazgul=1&shadow_troops=1&dice=&{SEARCH_FACES}&in_mordor=false"
                          "&rerolls=0")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    # expected hope lost 2/3; no hope lost 4/9 = 44%; at least 1 hope 5/9 = 56%, at least 2 1/9 = 11%
    assert "44% to lose no hope; 56% to lose at least 1 hope." in html
    assert "11% at least 2. Expected hope lost: 0.67, with 2 search dice." in html
    assert "Hope lost" in html and "4/9" in html  # the exact fraction in the details


def test_search_page_bad_value_is_shown_beside_the_field_and_kept(client):
    response = client.get(f"/fotf/calc/search?nazgul=1&dice=9&{SEARCH_FACES}")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert 'id="e-dice"' in html and "Search dice: must be a whole number from 0 to 7 (or blank)" in html
    assert 'name="dice" value="9"' in html
    assert 'class="result"' not in html


@pytest.mark.parametrize("query, dice", [
    ("nazgul=1&shadow_troops=2", 3),
    ("nazgul=4&shadow_troops=5", 7),  # at most 7
    ("nazgul=9", 7),
    ("nazgul=2&shadow_troops=3&dice=2", 2),  # the shadow troops ignored (Frodo puts on the Ring)
    ("shadow_troops=0", 0),  # nothing present: no roll
])
def test_search_api_counts_the_dice_from_the_nazgul_and_shadow_troops(client, query, dice):
    body = client.get(f"/api/fotf/search?{SEARCH_FACES}&{query}").get_json()
    assert body["dice"] == dice and len(body["hope_lost"]) == dice + 1


# --------------------------------------------------------------------------- battle roll


def test_battle_api_one_die_by_hand(client):
    body = client.get(f"/api/fotf/battle?initiator=attack&dice=1&{BATTLE_FACES}&friendly_troops=3&shadow_troops=3"
                      "&in_haven=false&nazgul_present=true&rerolls=0").get_json()
    # shadow troop lost on rout or exchange: 4/6
    assert body["shadow_removed"] == approx([F(1, 3), F(2, 3)])
    # friendly: none on rout (2/6), 1 on exchange or overrun (3/6), 2 on Nazgûl (1/6)
    assert body["friendly_removed"] == approx([F(1, 3), F(1, 2), F(1, 6)])
    assert body["expected_friendly_removed"] == pytest.approx(float(F(5, 6)))
    assert body["haven_lost"] is None
    assert body["dice"] == 1 and body["dice_from"] == "given"


def test_battle_api_haven_lost(client):
    body = client.get(f"/api/fotf/battle?initiator=attack&{BATTLE_FACES}&friendly_troops=1&shadow_troops=2"
                      "&in_haven=true").get_json()
    # only an exchange (2/6) takes the last friendly troop, and it leaves 1 shadow troop: haven falls 1/3
    assert body["haven_lost"] == pytest.approx(float(F(1, 3)))
    assert body["friendly_removed"] == approx([F(2, 3), F(1, 3)])


@pytest.mark.parametrize("query, dice", [
    ("initiator=attack&friendly_troops=5&shadow_troops=2", 3),  # 1 per friendly troop, at most 3
    ("initiator=attack&friendly_troops=1&shadow_troops=2", 1),
    ("initiator=shadow&friendly_troops=5&shadow_troops=2", 2),  # 1 per shadow troop
    ("initiator=skies-darken&friendly_troops=1&shadow_troops=7", 3),
])
def test_battle_api_counts_the_dice_from_the_initiator(client, query, dice):
    body = client.get(f"/api/fotf/battle?{query}&{BATTLE_FACES}").get_json()
    assert body["dice"] == dice
    assert body["dice_from"] == query.split("&")[0].split("=")[1]
    assert sum(body["shadow_removed"]) == pytest.approx(1)


def test_battle_page_permalink_and_bad_value(client):
    ok = client.get(f"/fotf/calc/battle?dice=1&initiator=attack&{BATTLE_FACES}&friendly_troops=1&shadow_troops=2"
                    "&in_haven=true&rerolls=0")
    assert ok.status_code == 200
    assert "33% to lose the haven." in ok.get_data(as_text=True)
    bad = client.get(f"/fotf/calc/battle?dice=&initiator=dragon&{BATTLE_FACES}")
    assert bad.status_code == 400
    html = bad.get_data(as_text=True)
    assert 'id="e-initiator"' in html and "must be one of attack, shadow, skies-darken" in html


def test_keeping_exchanges_by_hand_on_the_api_and_the_page(client):
    # 1 die, 1 reroll, Nazgûl present. Rerolling every harmful result: a rout (1/3) stands, anything
    # else is rerolled once, the new face standing: a shadow troop goes 1/3 + 2/3 x 2/3 = 7/9, a
    # friendly one 2/3 x 2/3 = 4/9 (expected friendly troops 2/3 x 5/6 = 5/9; rerolls spent 2/3).
    # Keeping exchanges: a rout or an exchange (2/3) stands, a Nazgûl or an overrun (1/3) is rerolled:
    # a shadow troop goes 2/3 + 1/3 x 2/3 = 8/9, a friendly one 1/3 + 1/3 x 2/3 = 5/9 (expected
    # 1/3 + 1/3 x 5/6 = 11/18; rerolls spent 1/3).
    base = (f"initiator=attack&dice=1&{BATTLE_FACES}&friendly_troops=3&shadow_troops=3&nazgul_present=true"
            "&rerolls=1")
    every = client.get(f"/api/fotf/battle?{base}&reroll_results=nazgul,overrun,exchange").get_json()
    kept = client.get(f"/api/fotf/battle?{base}&reroll_results=nazgul,overrun").get_json()
    assert every["shadow_removed"] == approx([F(2, 9), F(7, 9)])
    assert kept["shadow_removed"] == approx([F(1, 9), F(8, 9)])
    assert every["expected_friendly_removed"] == pytest.approx(float(F(5, 9)))
    assert kept["expected_friendly_removed"] == pytest.approx(float(F(11, 18)))
    assert (every["expected_rerolls_spent"], kept["expected_rerolls_spent"]) == pytest.approx((2 / 3, 1 / 3))
    # the page: the same choice as ticked boxes, one value each
    page = client.get(f"/fotf/calc/battle?{base}&reroll_results=nazgul&reroll_results=overrun")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "89% to remove at least 1 shadow troop; 56% to lose at least 1 friendly troop." in text
    assert re.search(r'name="reroll_results" value="exchange"(?! checked)', text)
    assert 'name="reroll_results" value="overrun" checked' in text
    assert "rerolling: Nazgûl, Overrun" in text.replace("\xa0", " ")  # the inputs line as read
    every_page = client.get(f"/fotf/calc/battle?{base}&reroll_results=nazgul&reroll_results=overrun"
                            "&reroll_results=exchange").get_data(as_text=True)
    assert "78% to remove at least 1 shadow troop; 44% to lose at least 1 friendly troop." in every_page


def test_the_results_to_reroll_are_asked_for_only_with_rerolls(client):
    base = f"initiator=attack&dice=1&{BATTLE_FACES}&friendly_troops=3&shadow_troops=3"
    # no box ticked while rerolling: an error beside the boxes, not a silent choice
    none = client.get(f"/fotf/calc/battle?{base}&rerolls=1")
    assert none.status_code == 400
    assert 'id="e-reroll_results">Results to reroll, worst first: required:' in none.get_data(as_text=True)
    assert error_of(client, f"/api/fotf/battle?{base}&rerolls=1").startswith("reroll_results: required: ")
    assert error_of(client, f"/api/fotf/battle?{base}&rerolls=1&reroll_results=rout").startswith(
        "reroll_results: must be some of nazgul, overrun, exchange")
    # without rerolls the choice is not read
    assert client.get(f"/api/fotf/battle?{base}&rerolls=0").status_code == 200


# --------------------------------------------------------------------------- the One Ring


def test_ring_api_by_hand(client):
    body = client.get(f"/api/fotf/ring?nazgul=1&shadow_troops=0&hope=2&hope_missing=1&{SEARCH_FACES}&rerolls=0").get_json()
    # 1 + 0 + 1 = 2 dice, hope per die 1/3; win unless both cost hope: 1 - 1/9
    assert body["dice"] == 2
    assert body["win"] == pytest.approx(float(F(8, 9)))
    assert body["hope_lost"] == approx([F(4, 9), F(4, 9), F(1, 9)])


def test_ring_rerolls_stop_once_the_win_is_certain(client):
    # 2 dice, 2 hope, 1 reroll; a die costs hope 1/3. The players lose only if both dice cost hope
    # after the reroll: 1/9 x 1/3 = 1/27, stopping or not. Without stopping the reroll goes on any
    # die that costs hope (1 - 4/9 = 5/9); stopping, only when both do (1/9), one loss being a win.
    base = f"/api/fotf/ring?nazgul=2&shadow_troops=0&hope=2&hope_missing=0&{SEARCH_FACES}&rerolls=1"
    going_on = client.get(f"{base}&stop_when_won=false").get_json()
    stopping = client.get(f"{base}&stop_when_won=true").get_json()
    assert going_on["win"] == pytest.approx(float(F(26, 27))) and stopping["win"] == going_on["win"]
    assert going_on["expected_rerolls_spent"] == pytest.approx(float(F(5, 9)))
    assert stopping["expected_rerolls_spent"] == pytest.approx(float(F(1, 9)))
    page = client.get(base.replace("/api/fotf/ring", "/fotf/calc/ring") + "&stop_when_won=true").get_data(as_text=True)
    assert "96% to destroy the One Ring." in page
    assert "rerolls stop once the win is certain" in page.replace("\xa0", " ")  # the inputs line as read
    assert "Rerolls spent, on average</th><td>0.11</td>" in page


def test_ring_api_caps_the_dice_at_seven(client):
    body = client.get(f"/api/fotf/ring?nazgul=5&shadow_troops=3&hope=8&hope_missing=2&{SEARCH_FACES}").get_json()
    assert body["dice"] == 7
    # with 8 hope, 7 dice can never take it all
    assert body["win"] == pytest.approx(1)


def test_ring_page_permalink_and_bad_value(client):
    ok = client.get(f"/fotf/calc/ring?nazgul=1&shadow_troops=0&hope=2&hope_missing=1&{SEARCH_FACES}&rerolls=0")
    assert ok.status_code == 200
    assert "89% to destroy the One Ring." in ok.get_data(as_text=True)
    bad = client.get(f"/fotf/calc/ring?nazgul=1&hope=0&{SEARCH_FACES}")
    assert bad.status_code == 400
    html = bad.get_data(as_text=True)
    assert "Hope left: must be a whole number from 1 to 30" in html and 'name="hope" value="0"' in html


