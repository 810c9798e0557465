"""Middle-earth CCG calculator pages and JSON endpoints: influence, faction, strike, corruption, council."""
import re
from fractions import Fraction as F
from html import unescape
from urllib.parse import parse_qsl, urlencode

import pytest
from werkzeug.datastructures import MultiDict

from webapp.calculators import meccg


def error_of(client, url):
    response = client.get(url)
    assert response.status_code == 400
    return response.get_json()["error"]


@pytest.mark.parametrize("url", ["/meccg/calc/influence", "/meccg/calc/faction", "/meccg/calc/strike",
                                 "/meccg/calc/corruption", "/meccg/calc/council"])
def test_pages_render_with_defaults(client, url):
    response = client.get(url)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'class="calc-form"' in html and 'class="result"' not in html


# --------------------------------------------------------------------------- influence

# your 2d6 minus theirs: P(difference = 0) = (1+4+9+16+25+36+25+16+9+4+1)/1296 = 146/1296, so
# P(difference >= 1) = (1296 - 146) / 2 / 1296 = 575/1296; P(difference = 1) = 140/1296
# (2+6+12+20+30+30+20+12+6+2), so P(difference >= 2) = 435/1296.


def test_influence_api_character_by_hand(client):
    body = client.get("/api/meccg/influence?kind=character&direct_influence=5&modifiers=0"
                      "&opponent_general_influence=0&controller_direct_influence=0&mind=5&identical=false").get_json()
    # 5 + roll - roll > 5 needs a difference of at least 1
    assert body["probability"] == pytest.approx(float(F(575, 1296)))
    assert body["need"] == 1 and body["base"] == 5 and body["target"] == 5
    assert sum(body["distribution"].values()) == pytest.approx(1)


def test_influence_api_controller_counts_only_for_controlled_cards(client):
    follower = client.get("/api/meccg/influence?kind=follower&direct_influence=5&controller_direct_influence=2"
                          "&opponent_general_influence=0&mind=3").get_json()
    # 5 - 2 = 3 against mind 3: difference at least 1
    assert follower["probability"] == pytest.approx(float(F(575, 1296)))
    character = client.get("/api/meccg/influence?kind=character&direct_influence=5&controller_direct_influence=2"
                           "&opponent_general_influence=0&mind=3").get_json()
    # the 2 is left out: 5 against 3 needs a difference of at least -1 = 1 - P(difference >= 2)
    assert character["probability"] == pytest.approx(float(1 - F(435, 1296)))


def test_influence_api_item_needs_an_identical_card(client):
    assert error_of(client, "/api/meccg/influence?kind=item&mind=3").startswith(
        "identical: an influence attempt on an item requires revealing an identical card")
    body = client.get("/api/meccg/influence?kind=item&identical=true&direct_influence=0"
                      "&opponent_general_influence=0&controller_direct_influence=0&mind=9").get_json()
    # target drops to 0: difference at least 1
    assert body["target"] == 0
    assert body["probability"] == pytest.approx(float(F(575, 1296)))


def test_influence_page_permalink_and_bad_value(client):
    ok = client.get("/meccg/calc/influence?kind=character&direct_influence=5&modifiers=0&opponent_general_influence=0"
                    "&controller_direct_influence=0&mind=5&identical=false")
    assert ok.status_code == 200
    # 575/1296 = 44.4%
    assert "44% to succeed: your roll minus your opponent's must be at least 1." \
        in unescape(ok.get_data(as_text=True))
    bad = client.get("/meccg/calc/influence?kind=character&direct_influence=31")
    assert bad.status_code == 400
    html = bad.get_data(as_text=True)
    assert 'id="e-direct_influence"' in html and "must be a whole number from 0 to 30" in html
    assert 'name="direct_influence" value="31"' in html
    item = client.get("/meccg/calc/influence?kind=item&mind=3")
    assert item.status_code == 400
    assert 'id="e-identical"' in item.get_data(as_text=True)


# --------------------------------------------------------------------------- faction


def test_faction_api_by_hand(client):
    body = client.get("/api/meccg/faction?direct_influence=3&modifiers=0&faction_number=9").get_json()
    # 2d6 + 3 > 9 needs 7 or more: 6+5+4+3+2+1 = 21 of 36
    assert body["probability"] == pytest.approx(float(F(21, 36)))
    assert body["need"] == 7
    sure = client.get("/api/meccg/faction?direct_influence=10&modifiers=0&faction_number=9").get_json()
    assert sure["probability"] == 1


def test_faction_page_permalink_and_bad_value(client):
    ok = client.get("/meccg/calc/faction?direct_influence=3&modifiers=0&faction_number=9")
    assert ok.status_code == 200
    assert "58% to bring the faction into play: a roll of 7 or more on 2d6." in ok.get_data(as_text=True)
    bad = client.get("/meccg/calc/faction?direct_influence=3&modifiers=-21&faction_number=9")
    assert bad.status_code == 400
    html = bad.get_data(as_text=True)
    assert "Modifiers: must be a whole number from -20 to 20" in html and 'value="-21"' in html


# --------------------------------------------------------------------------- strike


def test_strike_api_by_hand(client):
    body = client.get("/api/meccg/strike?prowess=5&strike_prowess=8&tapped=false&wounded=false&stay_untapped=false"
                      "&unused_strikes=0&support=0&resource_modifier=0&other_modifiers=0&body=8").get_json()
    # 2d6 + 5 against 8: success on 4+ (33/36), ineffectual on 3 (2/36), failure on 2 (1/36)
    assert body["defeated"] == pytest.approx(float(F(33, 36)))
    assert body["ineffectual"] == pytest.approx(float(F(2, 36)))
    assert body["successful"] == pytest.approx(float(F(1, 36)))
    # body check fails on more than 8: 4+3+2+1 = 10 of 36; eliminated 1/36 x 10/36
    assert body["body_check_fail"] == pytest.approx(float(F(10, 36)))
    assert body["character_eliminated"] == pytest.approx(float(F(10, 1296)))
    assert body["creature_defeated"] is None
    assert body["modified_prowess"] == 5 and body["need"] == 4


def test_strike_api_wounded_character(client):
    body = client.get("/api/meccg/strike?prowess=5&strike_prowess=8&wounded=true&body=8&creature_body=9").get_json()
    # prowess 5 - 2 = 3: success on 6+ (26/36), ineffectual on 5 (4/36), failure on 4 or less (6/36)
    assert body["modified_prowess"] == 3
    assert body["defeated"] == pytest.approx(float(F(26, 36)))
    assert body["successful"] == pytest.approx(float(F(6, 36)))
    # already wounded: +1 on the body check, so more than 7 fails: 15/36
    assert body["body_check_fail"] == pytest.approx(float(F(15, 36)))
    assert body["character_eliminated"] == pytest.approx(float(F(6, 36) * F(15, 36)))
    # creature's body 9: more than 9 is 6/36; defeated 26/36 x 6/36
    assert body["creature_defeated"] == pytest.approx(float(F(26, 36) * F(6, 36)))


def test_strike_api_without_body_leaves_the_checks_out(client):
    body = client.get("/api/meccg/strike?prowess=5&strike_prowess=8").get_json()
    assert body["body_check_fail"] is None and body["character_eliminated"] is None
    assert body["defeated"] + body["ineffectual"] + body["successful"] == pytest.approx(1)


def test_strike_page_permalink_and_bad_value(client):
    ok = client.get("/meccg/calc/strike?prowess=5&strike_prowess=8&tapped=false&wounded=false&stay_untapped=false"
                    "&unused_strikes=0&support=0&resource_modifier=0&other_modifiers=0&body=8&creature_body=")
    assert ok.status_code == 200
    html = ok.get_data(as_text=True)
    # 33/36 = 92%, 2/36 = 5.6%, 1/36 = 2.8%; eliminated 10/1296 = 0.8%: in the game's words, a
    # successful strike is the one that wounds the character
    assert "92% to defeat the strike, 5.6% ineffectual, 2.8% successful (the character is wounded)." in html
    assert "After the body checks: 0.8% to lose the character (eliminated)." in html
    bad = client.get("/meccg/calc/strike?prowess=5&strike_prowess=8&tapped=true&stay_untapped=true")
    assert bad.status_code == 400
    html = bad.get_data(as_text=True)
    assert 'id="e-stay_untapped"' in html and "only a character that is neither tapped nor wounded" in html


# --------------------------------------------------------------------------- corruption


def test_corruption_api_by_hand(client):
    body = client.get("/api/meccg/corruption?corruption=7&modifier=0").get_json()
    # more than 7 passes: 5+4+3+2+1 = 15/36; 6 or 7 discards: 5+6 = 11/36; the rest eliminates: 10/36
    assert body["pass"] == pytest.approx(float(F(15, 36)))
    assert body["discard"] == pytest.approx(float(F(11, 36)))
    assert body["eliminate"] == pytest.approx(float(F(10, 36)))
    assert body["removal"] is None


def test_corruption_api_support(client):
    body = client.get("/api/meccg/corruption?corruption=7&modifier=0&support=1").get_json()
    # +1: more than 6 passes (21/36), 5 or 6 discards (4+5 = 9/36), 4 or less eliminates (6/36)
    assert body["pass"] == pytest.approx(float(F(21, 36)))
    assert body["discard"] == pytest.approx(float(F(9, 36)))
    assert body["eliminate"] == pytest.approx(float(F(6, 36)))


@pytest.mark.parametrize("query, probability, lowest", [
    ("removal_need=6", F(21, 36), 7),  # more than 6
    ("removal_need=6&stay_untapped=true", F(6, 36), 10),  # -3: more than 9 = 3+2+1
    ("removal_need=6&removal_comparison=at-least", F(26, 36), 6),  # 6 or more
    ("removal_need=6&removal_modifier=2", F(30, 36), 5),  # +2: 5 or more
])
def test_corruption_api_removal_roll(client, query, probability, lowest):
    body = client.get(f"/api/meccg/corruption?corruption=7&removal_comparison=greater&{query}".replace(
        "removal_comparison=greater&removal_need=6&removal_comparison=at-least",
        "removal_need=6&removal_comparison=at-least")).get_json()
    assert body["removal"]["probability"] == pytest.approx(float(probability))
    assert body["removal"]["lowest_roll"] == lowest
    # the check itself is unchanged by the removal fields
    assert body["pass"] == pytest.approx(float(F(15, 36)))


def test_corruption_page_permalink_and_bad_value(client):
    ok = client.get("/meccg/calc/corruption?corruption=7&modifier=0&support=0&removal_need=6&removal_modifier=0"
                    "&stay_untapped=false&removal_comparison=greater")
    assert ok.status_code == 200
    html = ok.get_data(as_text=True)
    # 15/36 = 42%, 11/36 = 31%, 10/36 = 28%; removal 21/36 = 58%
    assert "42% to pass, 31% discarded, 28% eliminated." in html and "58% to remove the corruption card." in html
    assert "Removal roll" in html
    bad = client.get("/meccg/calc/corruption?corruption=seven")
    assert bad.status_code == 400
    html = bad.get_data(as_text=True)
    assert "Corruption points: must be a whole number from 0 to 30" in html and 'value="seven"' in html


# --------------------------------------------------------------------------- The Free Council

# P1 character 5, item 3; P2 character 4. P1's item doubles (P2 has none): 5 + 6 = 11, and no kind is
# over half (5 <= 6 + 1, 6 <= 5 + 1). P2's character 4 is the only kind: with nothing else it may give
# at most 0 + 1 (half rounded up), so P2 ends with 1. Exact half: P1's item 6 > 5 drops to 5 (total 10)
# and P2's character drops to 0.
COUNCIL = {"players": [{"character": 5, "item": 3}, {"character": 4}], "ruleset": "seed"}


def council_query(p1, p2, **extra):
    args = {}
    for number, player in ((1, p1), (2, p2)):
        for name in meccg.PLAYER_KEYS:
            value = player.get(name, False if name == "avatar_eliminated" else 0)
            args[f"p{number}_{name}"] = str(value).lower() if isinstance(value, bool) else str(value)
        args[f"p{number}_deck_exhaustions"] = ""
    args["ruleset"] = "seed"
    args.update(extra)
    return urlencode(args)


def test_council_api_by_hand(client):
    response = client.post("/api/meccg/council", json=COUNCIL)
    assert response.status_code == 200
    body = response.get_json()
    assert [p["total"] for p in body["players"]] == [11, 1]
    assert body["players"][0]["sources"] == {"character": 5, "item": 6, "faction": 0, "ally": 0, "kill": 0, "misc": 0}
    assert body["players"][1]["sources"]["character"] == 1
    assert body["winner"] == 0
    steps = [s["step"] for s in body["players"][1]["steps"]]
    assert steps == ["sources", "dead characters", "imprisoned characters", "doubling", "half rule", "avatar",
                     "duplicates"]
    half = body["players"][1]["steps"][4]
    assert half["before"]["character"] == 4 and half["after"]["character"] == 1


def test_council_api_exact_half_ruleset(client):
    body = client.post("/api/meccg/council", json={**COUNCIL, "ruleset": "council-of-elrond"}).get_json()
    assert [p["total"] for p in body["players"]] == [10, 0]


def test_council_api_penalties_and_tie(client):
    body = client.post("/api/meccg/council", json={"ruleset": "seed", "players": [
        {"character": 3, "item": 3, "avatar_eliminated": True},
        {"character": 3, "item": 3, "duplicates_revealed_by_opponent": 2, "dead_character_points": 2},
    ]}).get_json()
    # P1: 3 + 3 - 5 = 1. P2: character 3 - 2 = 1, item 3 cut to 1 + 1 = 2, so 3, less 2 duplicates = 1
    assert [p["total"] for p in body["players"]] == [1, 1]
    assert body["winner"] is None


def test_council_page_shows_every_step_for_both_players(client):
    response = client.get("/meccg/calc/council?" + council_query(*COUNCIL["players"]))
    assert response.status_code == 200
    page = unescape(response.get_data(as_text=True))
    assert "Player 1 wins, 11 marshalling points to 1." in page
    # one card per player, each with its total and every step
    cards = re.findall(r'<section class="player-card[^"]*".*?</section>', page, re.S)
    assert len(cards) == 2
    assert "Player 1: wins" in cards[0] and '<span class="big">11</span>' in cards[0]
    assert "Player 2</h3>" in cards[1] and '<span class="big">1</span>' in cards[1]
    result = client.post("/api/meccg/council", json=COUNCIL).get_json()
    for card, player in zip(cards, result["players"]):
        assert card.count("<li>") == len(player["steps"]) == 7
        for step in player["steps"]:
            assert step["description"] in card


def council_rows(page):
    """Each player's table of points by kind, as the page shows it: [{label: text}, {label: text}]."""
    cards = re.findall(r'<section class="player-card[^"]*".*?</table>', page, re.S)
    return [{unescape(label): unescape(re.sub(r"<[^>]+>", "", cell)).strip()
             for label, cell in re.findall(r'<th scope="row">(.*?)</th><td>(.*?)</td>', card)} for card in cards]


def test_council_table_says_why_a_kind_of_points_was_doubled_or_cut(client):
    # the player's report: item 6 and ally 2 against an opponent with none showed 12 and 4 unexplained
    doubled = client.get("/meccg/calc/council?" + council_query(
        {"character": 10, "item": 6, "faction": 4, "ally": 2}, {"character": 8, "faction": 6})).get_data(as_text=True)
    mine, theirs = council_rows(doubled)
    assert mine["Item points"] == "12 (6 doubled)" and mine["Ally points"] == "4 (2 doubled)"
    assert mine["Character points"] == "10" and mine["Faction points"] == "4"  # the opponent has some: as entered
    assert theirs["Item points"] == "0"  # 0 doubled is still 0: nothing to explain
    # no kind above half the total (rounded up): character 20 against item 2 drops to 3
    cut = client.get("/meccg/calc/council?" + council_query(
        {"character": 20, "item": 2}, {"character": 5, "item": 5, "faction": 5, "ally": 5})).get_data(as_text=True)
    assert council_rows(cut)[0]["Character points"] == "3 (20 cut by the half rule)"
    # dead characters, doubling and the half rule together, each said in the order they count
    both = client.get("/meccg/calc/council?" + council_query(
        {"character": 10, "dead_character_points": 3, "item": 1}, {"item": 3})).get_data(as_text=True)
    assert council_rows(both)[0]["Character points"] == "2 (10 less 3 dead, doubled to 14, cut by the half rule)"


def test_council_page_bad_value_beside_its_field(client):
    query = council_query(*COUNCIL["players"], p2_item="abc")
    response = client.get("/meccg/calc/council?" + query)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert 'id="e-p2_item"' in html and "Item points: must be a whole number from -100 to 100" in html
    assert 'name="p2_item" value="abc"' in html


def test_council_page_says_who_may_call_the_council(client):
    p1 = {"character": 20, "item": 6}  # 26 points counted for calling
    p2 = {"character": 10}
    page = client.get("/meccg/calc/council?" + council_query(p1, p2, p1_deck_exhaustions="1",
                                                              p2_deck_exhaustions="0")).get_data(as_text=True)
    cards = re.findall(r'<section class="player-card[^"]*".*?</section>', page, re.S)
    assert "May call the Council:</strong> yes" in cards[0]
    assert "You have exhausted your play deck once and have 26 marshalling points, at least 25." in cards[0]
    assert "May call the Council:</strong> no" in cards[1]
    assert "Your play deck has not been exhausted yet." in cards[1]
    values, errors, raw, result = meccg.COUNCIL.answer(MultiDict(
        [("p1_deck_exhaustions", "1"), ("p2_deck_exhaustions", ""), ("ruleset", "seed")]))
    assert result is None
    assert errors == {"p2_deck_exhaustions": "give it for both players, or for neither"}


def test_council_api_says_who_may_call_the_council_as_the_page_does(client):
    p1, p2 = {"character": 20, "item": 6}, {"character": 10}
    body = client.post("/api/meccg/council", json={"players": [{**p1, "deck_exhaustions": 1},
                                                               {**p2, "deck_exhaustions": 0}],
                                                   "ruleset": "seed"}).get_json()
    page = meccg.COUNCIL.answer(MultiDict(parse_qsl(
        council_query(p1, p2, p1_deck_exhaustions="1", p2_deck_exhaustions="0"))))[3]
    assert [check["can_call"] for check in body["calling"]] == [True, False]
    assert [check["reason"] for check in body["calling"]] == [check["reason"] for check in page["calling"]]
    assert client.post("/api/meccg/council", json=COUNCIL).get_json()["calling"] is None
    one = client.post("/api/meccg/council", json={"players": [{**p1, "deck_exhaustions": 1}, p2], "ruleset": "seed"})
    assert one.status_code == 400
    assert one.get_json()["error"] == "players[1].deck_exhaustions: give it for both players, or for neither"


def test_a_bar_label_too_long_for_the_phone_goes_on_two_lines(client):
    # a wounded character's outcomes have the longest labels of any chart: each line fits the label column
    html = client.get("/meccg/calc/strike?prowess=6&strike_prowess=9&wounded=true&body=8").get_data(as_text=True)
    labels = re.findall(r'<text class="bar-label" x="(\d+)"[^>]*>(.*?)</text>', html)
    assert labels
    two_lines = [(x, re.findall(r"<tspan[^>]*>([^<]*)</tspan>", inner)) for x, inner in labels if inner.count("<tspan") == 2]
    assert two_lines, labels
    for x, lines in two_lines:
        assert len(" ".join(lines)) * 8 > int(x), (x, lines)  # on one line it would not fit
        assert all(len(line) * 8 <= int(x) for line in lines), (x, lines)


def test_council_inputs_line_names_each_count_in_a_few_lower_case_words(client):
    p1 = {"character": 3, "dead_character_points": 2, "imprisoned_character_points": 1,
          "duplicates_revealed_by_opponent": 1, "avatar_eliminated": True}
    page = unescape(client.get("/meccg/calc/council?" + council_query(p1, {"character": 1})).get_data(as_text=True))
    line = re.sub(r"<[^>]+>", "", re.search(r'class="inputs-summary">(.*?)</p>', page, re.S).group(1)).replace("\xa0", " ")
    player_1 = line.split("Player 2:")[0]
    for words in ("character 3", "dead key characters' points 2", "imprisoned characters' points 1",
                  "duplicates revealed 1", "avatar eliminated"):
        assert words in player_1, line
    assert not re.search(r", [A-Z]", player_1), line  # no label in the form's capitals among them
