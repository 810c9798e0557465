"""War of the Ring: The Card Game calculators: the combat page, its two JSON endpoints, the Victory Check."""
import html
import re
from urllib.parse import parse_qsl, urlencode

import pytest
from werkzeug.datastructures import MultiDict

from webapp.calculators import wotr_cards

PATH_URL = "/api/wotr-cards/path-combat"
BATTLEGROUND_URL = "/api/wotr-cards/battleground-combat"
VICTORY_URL = "/api/wotr-cards/victory"

# Shadow attackers: an army (2 attack), a character of the same faction (1 attack, 2 leadership), a character
# of another faction with no army (3 leadership). Attack 2 + 1 + 2 = 5 (the 3 do not count); the battleground
# cancels 1, the defenders 2 + 1 = 3 more, so 1 attack is left and the attackers win.
BATTLEGROUND = {
    "owner": "free-peoples",
    "attackers": [{"attack": 2, "leadership": 0, "faction": "a", "is_army": True},
                  {"attack": 1, "leadership": 2, "faction": "a"},
                  {"attack": 0, "leadership": 3, "faction": "b"}],
    "battleground_defence": 1,
    "defenders": [2, 1],
    "points": 3,
    "order": "given",
}
PATH = {"shadow_attack_icons": 5, "path_defence": 1, "defenders": [2, {"defence": 1, "items": [1]}, 3],
        "path_points": 2, "order": "given"}


def cards(name, records):
    """A list of cards as the combat page's form sends it, card by card from 1."""
    def text(value):
        return "true" if value is True else ",".join(map(str, value)) if isinstance(value, list) else str(value)

    return [(f"{name}-{number}-{member}", text(value))
            for number, record in enumerate(records, start=1)
            for member, value in (record.items() if isinstance(record, dict) else [("defence", record)])
            if value is not False]


def combat_query(defenders=(2, 1), attackers=BATTLEGROUND["attackers"], **changes):
    args = {"combat": "path", "order": "given", "shadow_attack_icons": "4", "path_defence": "1", "path_points": "2",
            "owner": "free-peoples", "battleground_defence": "1", "points": "3", **changes}
    return urlencode(list(args.items()) + cards("defenders", defenders) + cards("attackers", attackers))


@pytest.mark.parametrize("url", ["/wotr-cards/calc/combat", "/wotr-cards/calc/victory"])
def test_pages_render_with_defaults(client, url):
    response = client.get(url)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'class="calc-form"' in html and 'class="result"' not in html


def test_combat_page_lists_both_endpoints_and_openapi_describes_them(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    path_op, battleground_op = paths[PATH_URL]["post"], paths[BATTLEGROUND_URL]["post"]
    assert path_op["operationId"] != battleground_op["operationId"]
    path_schema = path_op["requestBody"]["content"]["application/json"]["schema"]
    assert path_schema["additionalProperties"] is False
    # a blank on the page is 0 or no cards too; the order is needed only with defending cards
    assert path_schema["required"] == ["shadow_attack_icons"]
    assert set(path_schema["properties"]) == {"shadow_attack_icons", "path_defence", "defenders", "path_points", "order"}
    # a defending card is its defence icons, or a record with the icons of the items it carries
    card = path_schema["properties"]["defenders"]["items"]["oneOf"]
    assert card[0]["type"] == "integer" and set(card[1]["properties"]) == {"defence", "items"}
    schema = battleground_op["requestBody"]["content"]["application/json"]["schema"]
    assert schema["additionalProperties"] is False and schema["required"] == ["owner"]


# --------------------------------------------------------------------------- path combat


def test_path_combat_api_by_hand(client):
    response = client.post(PATH_URL, json=PATH)
    assert response.status_code == 200
    body = response.get_json()
    # 5 attacks - 1 for the path = 4; card 0 cancels 2, card 1 (1 + an item's 1) cancels 2; card 2 is cycled
    assert body["attack"] == 5 and body["cancelled_by_path"] == 1
    assert body["eliminated"] == [0, 1] and body["cycled"] == [2]
    assert (body["winner"], body["free_peoples_points"], body["shadow_corruption"]) == ("free-peoples", 2, 0)
    assert body["explanation"]


def test_path_combat_api_fewest_losses_and_a_shadow_win(client):
    body = client.post(PATH_URL, json={**PATH, "order": "fewest-losses"}).get_json()
    # most icons first: card 2 (3) cancels 3, card 0 (2) the last 1; card 1 survives
    assert body["order"] == [2, 0, 1] and body["eliminated"] == [2, 0] and body["cycled"] == [1]
    shadow = client.post(PATH_URL, json={"shadow_attack_icons": 6, "path_defence": 0, "defenders": [1, 1],
                                         "order": "given"}).get_json()
    # 6 - 1 - 1 = 4 attacks left: 4 corruption, no points for the Free Peoples
    assert (shadow["winner"], shadow["uncancelled"], shadow["shadow_corruption"]) == ("shadow", 4, 4)


def test_the_order_defenders_are_given_up_in_is_needed_only_when_there_are_defenders(client):
    """With no defending card the order changes nothing, so it may be left out; with one it may not."""
    alone = {"shadow_attack_icons": 3, "path_defence": 1}
    body = client.post(PATH_URL, json=alone).get_json()
    assert (body["winner"], body["uncancelled"], body["eliminated"]) == ("shadow", 2, [])
    refused = client.post(PATH_URL, json={**alone, "defenders": [2]})
    assert refused.status_code == 400
    assert refused.get_json()["error"].startswith("order: required when there are defending cards")
    page = client.get("/wotr-cards/calc/combat", query_string={"combat": "path", **alone})
    assert page.status_code == 200 and "The Shadow wins the path" in page.get_data(as_text=True)
    page = client.get("/wotr-cards/calc/combat", query_string=[("combat", "path"), *alone.items(),
                                                                *cards("defenders", [2])])
    assert page.status_code == 400
    html = page.get_data(as_text=True)
    # beside the options, in the form's words: their labels, not the values the API takes
    assert re.search(r'id="e-order"[^>]*>Defenders are given up: required when there are defending cards: '
                     r'choose one of the options</p>', html)
    assert "fewest-losses" not in html.split('id="e-order"')[1].split("</p>")[0]
    # said at once with another box's problem, not only once that one is mended
    page = client.get("/wotr-cards/calc/combat", query_string=[("combat", "path"), ("shadow_attack_icons", "four"),
                                                                ("path_defence", "1"), *cards("defenders", [2])])
    html = page.get_data(as_text=True)
    assert page.status_code == 400 and 'id="e-shadow_attack_icons"' in html and 'id="e-order"' in html
    assert 'value="four"' in html


def test_a_card_box_the_form_never_draws_is_refused_not_dropped(client):
    """A box numbered outside 1-999, or not plainly (01, +1), is named in the message beside the cards,
    rather than read as no card, which would change the answer."""
    base = [("combat", "battleground"), ("owner", "free-peoples"), ("order", "given")]
    counted = client.get("/wotr-cards/calc/combat", query_string=base + [("attackers-999-attack", "2")])
    assert counted.status_code == 200 and "The Shadow wins" in counted.get_data(as_text=True)
    for key in ("attackers-1000-attack", "attackers-01-attack", "attackers-+1-attack", "attackers-x-attack",
                "attackers-1-power", "attackers", "attackers-" + "9" * 5000 + "-attack"):
        page = client.get("/wotr-cards/calc/combat", query_string=base + [(key, "2")])
        assert page.status_code == 400, key
        assert html.escape(key[:50]) in page.get_data(as_text=True) and "is not a box of this form" in \
            page.get_data(as_text=True), key
    twice = client.get("/wotr-cards/calc/combat", query_string=base + [("attackers-1-attack", "2")] * 2)
    assert twice.status_code == 400 and "attackers-1-attack: give it only once" in twice.get_data(as_text=True)


# --------------------------------------------------------------------------- battleground combat


def test_battleground_combat_api_by_hand(client):
    response = client.post(BATTLEGROUND_URL, json=BATTLEGROUND)
    assert response.status_code == 200
    body = response.get_json()
    assert (body["attack_icons"], body["leadership_counted"], body["leadership_ignored"]) == (3, 2, 3)
    assert body["attack"] == 5 and body["cancelled_by_battleground"] == 1
    assert body["eliminated"] == [0, 1] and body["uncancelled"] == 1
    assert (body["winner"], body["winning_team"], body["shadow_points"], body["free_peoples_points"]) == (
        "attackers", "shadow", 3, 0)
    assert body["attackers_eliminated"] == [0, 1, 2]


def test_battleground_combat_api_reactivated_and_defended(client):
    reactivated = client.post(BATTLEGROUND_URL, json={**BATTLEGROUND, "reactivated": True}).get_json()
    # the battleground's 1 defence is ignored: 5 - 3 = 2 left
    assert reactivated["cancelled_by_battleground"] == 0 and reactivated["uncancelled"] == 2
    held = client.post(BATTLEGROUND_URL, json={**BATTLEGROUND, "defenders": [2, 2]}).get_json()
    # 5 - 1 - 4 = 0: the Free Peoples keep their battleground and score its 3 points
    assert (held["winner"], held["winning_team"], held["free_peoples_points"]) == ("defenders", "free-peoples", 3)


# --------------------------------------------------------------------------- the combat page


def fates(page):
    return re.findall(r'<li class="fate-(\w+)"><span>Defending card (\d+)</span>', page)


def test_combat_page_path_permalink(client):
    response = client.get("/wotr-cards/calc/combat?" + combat_query(defenders=PATH["defenders"],
                                                                     shadow_attack_icons="5"))
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    # the same fight as test_path_combat_api_by_hand, entered card by card and numbered from 1
    assert "The Free Peoples win the path and score 2; 2 defending cards eliminated." in html
    blank = client.get("/wotr-cards/calc/combat?" + combat_query(defenders=PATH["defenders"], shadow_attack_icons="5",
                                                                  path_points="")).get_data(as_text=True)
    assert "The Free Peoples win the path; 2 defending cards eliminated." in blank
    assert fates(html) == [("eliminated", "1"), ("eliminated", "2"), ("cycled", "3")]
    assert "The Free Peoples eliminate card 1 (2 defence icons), cancelling 2" in html
    assert "card 0" not in html


def test_combat_page_battleground_permalink(client):
    response = client.get("/wotr-cards/calc/combat?" + combat_query(combat="battleground"))
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    # the same fight as test_battleground_combat_api_by_hand
    assert "The Shadow wins the battleground, worth 3; 2 defending cards eliminated." in html
    # with its victory points left blank, no score of 0 is claimed for it
    blank = client.get("/wotr-cards/calc/combat?" + combat_query(combat="battleground", points="")).get_data(as_text=True)
    assert "The Shadow wins the battleground; 2 defending cards eliminated." in blank
    assert "5 (3 attack icons + 2 leadership; 3 leadership not counted)" in html
    assert "Attacker 2 adds 2 leadership" in html


def result_rows(shown):
    """The combat's result table as (row heading, first number of its cell)."""
    table = re.search(r'<table class="kv">(.*?)</table>', shown, re.S).group(1)
    return [(heading, int(re.match(r"\d+", cell).group(0)))
            for heading, cell in re.findall(r'<th scope="row">(.*?)</th><td>(.*?)</td>', table)]


# (changes to combat_query, attack, cancelled by the location, by the cards, not cancelled), each worked out by hand
COMBATS = [
    # the path cancels 1 of 4; cards 1 (2 icons) and 2 (1 + a 1-icon item, 1 of its 2 wasted) cancel the other 3
    ({"defenders": (2, {"defence": 1, "items": [1]}, 1)}, 4, 1, 3, 0),
    ({"defenders": (1,), "shadow_attack_icons": "6"}, 6, 1, 1, 4),  # too few defenders: the Shadow wins
    ({"defenders": (), "path_defence": "5", "shadow_attack_icons": "3"}, 3, 3, 0, 0),  # the path alone
    ({"defenders": (1, 3, 1), "order": "fewest-losses", "shadow_attack_icons": "5"}, 5, 1, 4, 0),
    ({"combat": "battleground"}, 5, 1, 3, 1),  # the fight of test_battleground_combat_api_by_hand
    ({"combat": "battleground", "reactivated": "true", "defenders": (2, 2)}, 5, 0, 4, 1),
    ({"combat": "battleground", "owner": "shadow", "defenders": (4, 4), "battleground_defence": "2"}, 5, 2, 3, 0),
]


@pytest.mark.parametrize("changes, attack, by_location, by_cards, left", COMBATS)
def test_the_result_table_adds_up_to_the_attacks_not_cancelled(client, changes, attack, by_location, by_cards, left):
    """Attack = cancelled by the path or battleground + cancelled by the defending cards + not cancelled,
    row by row as the page shows them, and as the engine's endpoint answers."""
    response = client.get("/wotr-cards/calc/combat?" + combat_query(**changes))
    assert response.status_code == 200
    rows = result_rows(response.get_data(as_text=True))
    kind = "battleground" if changes.get("combat") == "battleground" else "path"
    assert rows == [("Attack", attack), (f"Cancelled by the {kind}", by_location),
                    ("Cancelled by defending cards", by_cards), ("Attacks not cancelled", left)]
    assert attack == by_location + by_cards + left
    # the page's rows are the engine's own figures
    result = wotr_cards.COMBAT.answer(MultiDict(parse_qsl(combat_query(**changes))))[3]
    assert (result["attack"], result[f"cancelled_by_{kind}"], result["cancelled_by_defenders"],
            result["uncancelled"]) == (attack, by_location, by_cards, left)


def test_the_inputs_line_lists_each_card_in_a_few_words(client):
    shown = client.get("/wotr-cards/calc/combat?" + combat_query(defenders=(2, {"defence": 1, "items": [1]}, 1)))
    summary = inputs_summary(shown.get_data(as_text=True))
    assert "Defending cards: 2 icons; 1 icon + a 1-icon item; 1 icon ·" in summary
    assert "Attacking cards" not in summary  # a path combat has none
    battle = client.get("/wotr-cards/calc/combat?" + combat_query(
        combat="battleground", defenders=({"defence": 0, "items": [2, 1]},)))
    summary = inputs_summary(battle.get_data(as_text=True))
    assert "Defending cards: 0 icons + a 2-icon item + a 1-icon item ·" in summary
    assert "Attacking cards: 2 attack (army, faction A); 1 attack + 2 leadership (faction A); 0 attack + 3 leadership " \
           "(faction B) ·" \
        in summary


def test_combat_page_bad_value_beside_the_card_and_kept(client):
    response = client.get("/wotr-cards/calc/combat?" + combat_query(
        combat="battleground", attackers=[{"attack": 2}, {"attack": "x", "leadership": 1}]))
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert 'id="e-attackers-2-attack"' in html and "Attack icons: must be a whole number from 0 to 99" in html
    assert 'name="attackers-2-attack" value="x"' in html
    assert 'name="attackers-2-leadership" value="1"' in html  # the rest of the card is kept


def test_combat_page_blank_rows_are_no_cards_and_numbers_close_up(client):
    values, errors, raw, result = wotr_cards.COMBAT.answer(MultiDict(
        {"combat": "path", "order": "given", "shadow_attack_icons": "3", "path_defence": "1", "defenders-1-defence": "",
         "defenders-1-items": ""}))
    assert errors == {}
    assert (result["eliminated"], result["uncancelled"], result["shadow_corruption"]) == ([], 2, 2)
    gap = client.get("/wotr-cards/calc/combat?" + urlencode(
        [("combat", "path"), ("order", "given"), ("shadow_attack_icons", "3"), ("defenders-1-defence", "1"),
         ("defenders-2-defence", ""), ("defenders-3-defence", "5")])).get_data(as_text=True)
    assert fates(gap) == [("eliminated", "1"), ("eliminated", "2")]


def card_help(page, name):
    """The help under a list of cards, and under each box of its first card, as the form says them."""
    intro = re.search(rf'data-records="{name}".*?<p class="help">(.*?)</p>', page, re.S).group(1)
    boxes = dict(re.findall(rf'<label for="f-{name}-1-(\w+)">.*?<p class="help" id="h-{name}-1-\w+">(.*?)</p>', page,
                            re.S))
    return html_text(intro), {box: html_text(words) for box, words in boxes.items()}


def html_text(words):
    import html as entities
    return entities.unescape(re.sub(r"<[^>]+>", "", words)).strip()


def test_the_cards_help_gives_one_rule_for_blank_boxes_and_the_page_follows_it(client):
    """A card with any box filled in is a card, its blank boxes as their help says; an all-blank card is left out."""
    page = client.get("/wotr-cards/calc/combat").get_data(as_text=True)
    for name in ("defenders", "attackers"):
        intro, boxes = card_help(page, name)
        assert "whose boxes are all blank is left out; fill in any of them and it counts, each blank box as its " \
               "help says." in intro, intro
        assert "left blank is no card" not in intro
    assert card_help(page, "defenders")[1]["defence"].endswith("Blank: 0.")
    # the defence box blank, the items given: a card of 0 defence icons and its items
    shown = client.get("/wotr-cards/calc/combat?" + urlencode(
        [("combat", "path"), ("order", "given"), ("shadow_attack_icons", "3"), ("path_defence", "0"),
         ("defenders-1-defence", ""), ("defenders-1-items", "2"), ("defenders-2-defence", ""),
         ("defenders-2-items", ""), ("defenders-3-defence", "1")])).get_data(as_text=True)
    assert fates(shown) == [("eliminated", "1"), ("eliminated", "2")]  # card 2 is the third, renumbered
    assert "card 1 (2 defence icons with its items)" in shown
    assert 'name="defenders-1-defence" value="0"' in shown  # the 0 it stood for is shown
    # an attacking card with a box filled in counts too: its attack icons are then asked for
    battle = client.get("/wotr-cards/calc/combat?" + urlencode(
        [("combat", "battleground"), ("order", "given"), ("owner", "shadow"), ("attackers-1-attack", ""),
         ("attackers-1-leadership", "1")]))
    assert battle.status_code == 400
    assert "Attack icons: required" in battle.get_data(as_text=True)


def test_combat_page_too_many_cards(client):
    response = client.get("/wotr-cards/calc/combat?" + combat_query(defenders=[1] * 31))
    assert response.status_code == 400
    assert "Defending cards: must be a list of at most 30 cards (got 31)" in response.get_data(as_text=True)


# --------------------------------------------------------------------------- victory check


def test_victory_api_by_hand(client):
    won = client.post(VICTORY_URL, json={"free_peoples_points": 12, "shadow_points": 0, "shadow_corruption": 2})
    assert won.status_code == 200
    body = won.get_json()
    # Shadow 0 + 2 corruption = 2; lead 12 - 2 = 10, enough to win
    assert (body["free_peoples"], body["shadow"], body["lead"], body["winner"]) == (12, 2, 10, "free-peoples")
    close = client.post(VICTORY_URL, json={"free_peoples_points": 12, "shadow_points": 0, "shadow_corruption": 3})
    # lead 9: the Free Peoples lead but nobody wins
    assert (close.get_json()["leader"], close.get_json()["winner"]) == ("free-peoples", None)
    no_corruption = client.post(VICTORY_URL, json={"free_peoples_points": 0, "shadow_points": 10}).get_json()
    assert (no_corruption["shadow"], no_corruption["winner"]) == (10, "shadow")


def test_victory_api_counts_a_score_left_out_as_0_as_the_page_does(client):
    body = client.post("/api/wotr-cards/victory", json={"free_peoples_points": 12}).get_json()
    assert (body["free_peoples"], body["shadow"], body["lead"], body["winner"]) == (12, 0, 12, "free-peoples")
    page = client.get("/wotr-cards/calc/victory?free_peoples_points=12&shadow_points=&shadow_corruption=")
    assert page.status_code == 200 and "The Free Peoples win the game." in page.get_data(as_text=True)


def inputs_summary(shown):
    """The line of inputs under an answer, as a player reads it (no tags; a no-break space is a space)."""
    found = re.search(r'<p class="inputs-summary">(.*?)</p>', shown, re.S).group(1)
    return html.unescape(re.sub(r"<[^>]+>", "", found)).replace("\xa0", " ")


def test_victory_page_says_the_scores_left_blank_were_counted_as_0(client):
    page = client.get("/wotr-cards/calc/victory?free_peoples_points=&shadow_points=&shadow_corruption=3")
    shown = page.get_data(as_text=True)
    assert "The Shadow leads by 3; the game goes on." in shown
    summary = inputs_summary(shown)
    assert "Free Peoples victory points 0 · Shadow victory points 0 · Shadow corruption tokens 3." in summary
    # a score typed in is said as typed; the 0 of a score typed as 0 need not be repeated
    typed = client.get("/wotr-cards/calc/victory?free_peoples_points=0&shadow_points=4&shadow_corruption=3")
    summary = inputs_summary(typed.get_data(as_text=True))
    assert "Shadow victory points 4 · Shadow corruption tokens 3." in summary


def test_victory_page_permalink_and_bad_value(client):
    ok = client.get("/wotr-cards/calc/victory?free_peoples_points=12&shadow_points=0&shadow_corruption=3")
    assert ok.status_code == 200
    assert "The Free Peoples lead by 9; the game goes on." in ok.get_data(as_text=True)
    won = client.get("/wotr-cards/calc/victory?free_peoples_points=1&shadow_points=8&shadow_corruption=3")
    assert "The Shadow wins the game." in won.get_data(as_text=True)
    bad = client.get("/wotr-cards/calc/victory?free_peoples_points=1000&shadow_points=0")
    assert bad.status_code == 400
    html = bad.get_data(as_text=True)
    assert "Free Peoples victory points: must be a whole number from 0 to 999" in html
    assert 'name="free_peoples_points" value="1000"' in html


def test_every_bad_box_of_every_card_is_named_beside_it_and_at_the_top(client):
    page = client.get("/wotr-cards/calc/combat?" + urlencode(
        [("combat", "path"), ("order", "given"), ("shadow_attack_icons", "3"), ("defenders-1-defence", "2"),
         ("defenders-2-defence", "x"), ("defenders-3-defence", "1"), ("defenders-3-items", "1,y")]))
    assert page.status_code == 400
    shown = page.get_data(as_text=True)
    assert re.findall(r'class="field-error" id="e-([^"]+)"', shown) == ["defenders-2-defence", "defenders-3-items"]
    listed = re.findall(r'<li><a href="#([^"]+)">(.*?)</a>', shown)
    assert listed == [
        ("f-defenders-2-defence", "Defending cards, card 2 — Defence icons: must be a whole number from 0 to 99"),
        ("f-defenders-3-items", "Defending cards, card 3 — Defence icons of the items it carries: must be whole "
                                "numbers from 0 to 99, separated by commas")]


def test_two_plans_of_a_victory_check_say_who_wins_or_leads_in_each(client):
    query = ("plans=2&free_peoples_points=14&shadow_points=2&shadow_corruption=2"
             "&b-free_peoples_points=10&b-shadow_points=9&b-shadow_corruption=2")
    page = client.get(f"/wotr-cards/calc/victory?{query}").get_data(as_text=True)
    assert ("Plan A: Free Peoples 14, Shadow 4 (the Free Peoples win); "
            "Plan B: Free Peoples 10, Shadow 11 (the Shadow leads by 1).") in page
