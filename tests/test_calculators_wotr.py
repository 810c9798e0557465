"""War of the Ring battle options on the page and the JSON API, against hand-computed cases: an Elite
eliminated for want of a Regular, standing or withdrawing into the Stronghold, a modifier for one
round, and where each option's rules come from.

Every case is a Regular against a Regular (or an Elite), where each die hits on 5+ (1/3), on 6 in a
siege (1/6), so the fractions can be worked by hand.
"""
import html
import re
from fractions import Fraction as F
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from webapp.calculators.calculator import percent
from webapp.engines import wotr_battle

ONE_ON_ONE = {"attacker_regulars": "1", "attacker_elites": "0", "attacker_policy": "strength",
              "defender_regulars": "1", "defender_elites": "0", "defender_policy": "strength", "terrain": "field"}


def page(client, query):
    response = client.get("/wotr/calc/battle?" + urlencode(query))
    assert response.status_code == 200, re.findall(r'class="field-error"[^>]*>(.*?)</p>', response.get_data(as_text=True))
    return response.get_data(as_text=True)


def texts(shown, css_class):
    """The paragraphs of a class as a player reads them (no tags; a no-break space is a space)."""
    return [html.unescape(re.sub(r"<[^>]+>", "", text)).replace("\xa0", " ").strip()
            for text in re.findall(rf'<p class="{css_class}">(.*?)</p>', shown, re.S)]


def api(client, query):
    response = client.get("/api/wotr/battle?" + urlencode(query))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def close(value, fraction):
    return abs(value - float(fraction)) < 1e-12


# --------------------------------------------------------------------------- an Elite without a Regular


def test_an_elite_with_no_regular_at_hand_is_eliminated_by_one_hit(client):
    # a Regular against a lone Elite. With a Regular at hand the Elite takes two hits: from (1; Elite)
    # the attacker falls 3/5 of the time, else it is 1 against 1 (2/5, 2/5, 1/5), so the defender is
    # destroyed 4/25, the attacker 19/25, both 2/25. With none at hand it is the 1 against 1 itself.
    lone_elite = {**ONE_ON_ONE, "defender_regulars": "0", "defender_elites": "1"}
    at_hand = api(client, lone_elite)["outcomes"]
    assert close(at_hand["defender_eliminated"], F(4, 25)) and close(at_hand["attacker_eliminated"], F(19, 25))
    assert close(at_hand["both_eliminated"], F(2, 25))
    none = api(client, {**lone_elite, "defender_replacement_regulars": "0"})
    assert [close(none["outcomes"][key], value) for key, value in (
        ("defender_eliminated", F(2, 5)), ("attacker_eliminated", F(2, 5)), ("both_eliminated", F(1, 5)))] == [True] * 3
    assert {"rule": wotr_battle.RULES["replacement_regulars"][0], "source": "summary"} in none["sources"]

    shown = page(client, {**lone_elite, "defender_replacement_regulars": "0"})
    assert texts(shown, "headline") == ["Defender destroyed 40% · attacker destroyed 40% · both destroyed 20%."]
    assert "Regulars at hand 0" in texts(shown, "inputs-summary")[0]
    blank = page(client, {**lone_elite, "defender_replacement_regulars": ""})
    assert texts(blank, "headline") == ["Defender destroyed 16% · attacker destroyed 76% · both destroyed 8%."]
    assert "a Regular always at hand" in texts(blank, "inputs-summary")[0]
    # where the rule comes from, in the details
    assert f"{wotr_battle.RULES['replacement_regulars'][0]} <span class=\"rule-source\">(rules summary)</span>" in shown


def test_regulars_at_hand_apply_only_to_an_army_with_elites(client, calculators):
    calc = calculators["wotr-battle"]
    assert "defender_replacement_regulars" not in calc.applying({**calc.prefill(), "defender_elites": 0})
    # not used without Elites: any count there changes nothing
    shown = page(client, {**ONE_ON_ONE, "defender_replacement_regulars": "0"})
    assert texts(shown, "headline") == ["Defender destroyed 40% · attacker destroyed 40% · both destroyed 20%."]
    assert "Regulars at hand" not in texts(shown, "inputs-summary")[0]


# --------------------------------------------------------------------------- stand or withdraw


def test_stand_or_withdraw_compares_the_defender_holding_out(client):
    # standing in the field to the end the defender holds only if the attacker falls alone: 2/5.
    # Withdrawing at once, one siege battle of one round: the attacker hits only on 6 (1/6), so the
    # defender holds out 5/6; it is destroyed 1/6 and destroys the attacker 1/3.
    query = {**ONE_ON_ONE, "defender_choice": "compare", "withdraw_after": "0"}
    shown = page(client, query)
    assert texts(shown, "headline") == [
        "Withdraw into the Stronghold: 83% to hold out if the attacker attacks the Stronghold once and does not "
        "downgrade Elites to go on; stand in the field: 40%."]
    assert texts(shown, "subline") == [
        "Defender destroyed: 17% withdrawing, 60% standing. Attacker destroyed: 33% withdrawing, 60% standing."]
    body = api(client, query)
    assert close(body["headline"]["defender_holds"], F(5, 6)) and close(body["withdrew"], 1)
    assert close(body["stand"]["headline"]["defender_holds"], F(2, 5)) and body["stand"]["withdrew"] == 0
    assert close(body["difference"]["defender_holds"], F(5, 6) - F(2, 5))
    assert body["stand"]["explanation"] and body["explanation"] != body["stand"]["explanation"]
    assert {row["source"] for row in body["sources"]} == {"summary", "rulebook"}
    # standing alone (the choice left out means standing): no comparison
    alone = api(client, ONE_ON_ONE)
    assert alone["stand"] is None and alone["difference"] is None and alone["withdrew"] == 0


def test_withdrawing_after_a_round_and_several_siege_battles(client):
    # after one round in the field: the attacker fell alone (2/9) or the battle goes on (4/9) into a
    # siege the defender holds 5/6: 2/9 + 4/9 x 5/6 = 16/27
    after_one = {**ONE_ON_ONE, "defender_choice": "withdraw", "withdraw_after": "1"}
    body = api(client, after_one)
    assert close(body["headline"]["defender_holds"], F(16, 27)) and close(body["withdrew"], F(4, 9))
    shown = page(client, after_one)
    assert texts(shown, "subline") == ["The defender withdraws into its Stronghold after 1 round in the field (44% "
                                       "of the time: otherwise the field battle ends first), then the attacker "
                                       "attacks the Stronghold once and does not downgrade Elites to go on."]
    at_once = page(client, {**after_one, "withdraw_after": "0"})
    assert texts(at_once, "subline") == ["The defender withdraws into its Stronghold before round 1, then the "
                                         "attacker attacks the Stronghold once and does not downgrade Elites to go "
                                         "on."]
    # two siege battles in a row: the second comes when both still stand (5/9), and the defender
    # falls in each with 1/6: it holds out 1 - 1/6 - 5/9 x 1/6 = 20/27
    two = {**ONE_ON_ONE, "defender_choice": "compare", "withdraw_after": "0", "siege_battles": "2"}
    assert close(api(client, two)["headline"]["defender_holds"], F(20, 27))
    assert texts(page(client, two), "headline")[0].startswith(
        "Withdraw into the Stronghold: 74% to hold out if the attacker attacks the Stronghold twice and does not "
        "downgrade Elites to go on; stand in the field: 40%")


def test_the_withdrawal_fields_apply_only_in_the_field(client, calculators):
    calc = calculators["wotr-battle"]
    city = calc.applying({**calc.prefill(), "terrain": "city", "defender_choice": "compare"})
    assert not {"defender_choice", "withdraw_after", "siege_battles", "siege_continue"} & city
    siege = calc.applying({**calc.prefill(), "terrain": "siege"})
    assert {"siege_battles", "siege_continue"} <= siege and "defender_choice" not in siege
    withdrawing = calc.applying({**calc.prefill(), "defender_choice": "withdraw"})
    assert {"withdraw_after", "siege_battles", "siege_continue"} <= withdrawing
    # a City with a withdrawal asked for is fought as a City battle: the choice is not read
    shown = page(client, {**ONE_ON_ONE, "terrain": "city", "defender_choice": "compare"})
    assert "Withdraw" not in texts(shown, "headline")[0]


def test_two_attacker_setups_compare_the_defender_destroyed(client, calculators):
    # attack now with 1 Regular, or wait for a second: 1 against 1 destroys the defender alone 2/5;
    # 2 against 1: round 1 hits 5/9 (1 - (2/3)^2) against 1/3, and so on, computed by the engine
    calc = calculators["wotr-battle"]
    now = {**calc.prefill(), "attacker_regulars": 1, "attacker_elites": 0, "attacker_leadership": 0,
           "defender_regulars": 1, "defender_elites": 0, "defender_leadership": 0}
    later = {**now, "attacker_regulars": 2}
    query = [("plans", "2"), ("plan", "Attack now"), ("b-plan", "Wait for the second army")] + \
        calc.form_query(now) + calc.form_query(later, prefix="b-")
    shown = client.get("/wotr/calc/battle?" + urlencode(query)).get_data(as_text=True)
    waited = wotr_battle.battle(wotr_battle.Army(2, 0), wotr_battle.Army(1, 0), exact=True)
    assert texts(shown, "headline comparison") == [
        f"Attack now: defender destroyed 40%; Wait for the second army: "
        f"{percent(waited['outcomes']['defender_eliminated'])}."]
    # the second plan's inputs say only what differs
    assert texts(shown, "inputs-summary")[1].startswith("Unlike Attack now: Attacker: Regulars 2.")


# --------------------------------------------------------------------------- modifiers for some rounds


def test_a_modifier_for_one_round_from_the_two_boxes_and_as_text(client):
    # the attacker +1 in round 2 only, 2 rounds. Round 1 (1/3 each side): defender alone 2/9,
    # attacker alone 2/9, both 1/9, quiet 4/9. Round 2, the attacker hitting 1/2: defender alone
    # 1/3, attacker alone 1/6, both 1/6, neither 1/3. Defender destroyed 2/9 + 4/9 x 1/3 = 10/27,
    # attacker 8/27, both 5/27, both standing 4/27.
    query = {**ONE_ON_ONE, "attacker_modifier": "1", "rounds": "2"}
    body = api(client, {**query, "attacker_modifier_rounds": "2"})
    assert [close(body["outcomes"][key], value) for key, value in (
        ("defender_eliminated", F(10, 27)), ("attacker_eliminated", F(8, 27)), ("both_eliminated", F(5, 27)),
        ("neither_eliminated", F(4, 27)))] == [True] * 4
    boxes = list(query.items()) + [("attacker_modifier_rounds", "2"), ("attacker_modifier_rounds", "1")]
    shown = page(client, boxes)
    assert texts(shown, "headline") == ["Defender destroyed 37% · attacker destroyed 30% · both destroyed 19% · "
                                        "both still stand 15%."]
    assert "modifiers: round 2 only" in texts(shown, "inputs-summary")[0]
    assert re.search(r'id="f-attacker_modifier_rounds-from" name="attacker_modifier_rounds" value="2"', shown)
    assert re.search(r'id="f-attacker_modifier_rounds-for" name="attacker_modifier_rounds" value="1"', shown)
    # the text form in a permalink fills the same two boxes
    text = page(client, {**query, "attacker_modifier_rounds": "2-2"})
    assert texts(text, "headline") == texts(shown, "headline")
    assert re.search(r'id="f-attacker_modifier_rounds-for" name="attacker_modifier_rounds" value="1"', text)


@pytest.mark.parametrize("start, rounds, text, summary", [
    ("1", "", "all", "every round"), ("1", "1", "first", "round 1 only"), ("2", "", "2-", "from round 2 on"),
    ("2", "2", "2-3", "rounds 2–3"), ("100", "1", "100", "round 100 only")])
def test_the_two_boxes_mean_what_the_text_means(client, start, rounds, text, summary):
    query = {**ONE_ON_ONE, "defender_modifier": "-1", "rounds": "3"}
    boxes = page(client, list(query.items()) + [("defender_modifier_rounds", start), ("defender_modifier_rounds", rounds)])
    assert f"modifiers: {summary}" in texts(boxes, "inputs-summary")[0]
    assert texts(boxes, "headline") == texts(page(client, {**query, "defender_modifier_rounds": text}), "headline")
    api_link = re.search(r'href="(/api/wotr/battle\?[^"]+)"', boxes).group(1)
    assert f"defender_modifier_rounds={text}" in html.unescape(api_link)


@pytest.mark.parametrize("start, rounds", [("0", ""), ("x", "1"), ("", "2"), ("100", "2"), ("2", "0"), ("1,2", "")])
def test_boxes_that_make_no_rounds_are_refused_beside_the_field(client, start, rounds):
    query = list({**ONE_ON_ONE, "attacker_modifier": "1"}.items()) + \
        [("attacker_modifier_rounds", start), ("attacker_modifier_rounds", rounds)]
    response = client.get("/wotr/calc/battle?" + urlencode(query))
    assert response.status_code == 400
    shown = response.get_data(as_text=True)
    error = html.unescape(re.search(r'id="e-attacker_modifier_rounds">(.*?)</p>', shown).group(1))
    assert error == ("Attacker modifiers apply: must be a round from 1 to 100 to start from, and how many rounds "
                     "(blank: to the end), ending by round 100")
    assert f'id="f-attacker_modifier_rounds-from" name="attacker_modifier_rounds" value="{html.escape(start)}"' in shown
    assert f'id="f-attacker_modifier_rounds-for" name="attacker_modifier_rounds" value="{html.escape(rounds)}"' in shown
    assert 'class="result"' not in shown


def test_both_boxes_blank_are_required_once_there_is_a_modifier(client):
    query = list({**ONE_ON_ONE, "attacker_modifier": "1"}.items()) + [("attacker_modifier_rounds", "")] * 2
    response = client.get("/wotr/calc/battle?" + urlencode(query))
    assert response.status_code == 400
    assert "Attacker modifiers apply: required: a round from 1 to 100" in html.unescape(response.get_data(as_text=True))
    missing = client.get("/api/wotr/battle?" + urlencode({**ONE_ON_ONE, "attacker_modifier": "1"}))
    assert missing.status_code == 400 and missing.get_json()["error"].startswith("attacker_modifier_rounds: required: ")


# --------------------------------------------------------------------------- where the rules come from


def test_each_new_option_says_where_its_rules_come_from(client, calculators):
    calc = calculators["wotr-battle"]
    expected = {"attacker_replacement_regulars": "replacement_regulars", "defender_modifier_rounds": "modifier_rounds",
                "defender_choice": "withdraw_after", "withdraw_after": "withdraw_after",
                "siege_battles": "siege_battles", "siege_continue": "siege_continue", "terrain": "terrain"}
    shown = page(client, {**ONE_ON_ONE, "defender_elites": "1", "defender_modifier": "1",
                          "defender_modifier_rounds": "all", "defender_choice": "compare"})
    for name, option in expected.items():
        sources = wotr_battle.option_sources(option)
        assert calc.field(name).source == sources
        words = " and ".join({"summary": "rules summary", "rulebook": "published rulebook"}[s] for s in sources)
        help_text = re.search(rf'id="h-{name}">(.*?)</p>', shown, re.S).group(1)
        assert f'<span class="rule-source">Source: {words}</span>' in help_text, name
    assert wotr_battle.option_sources("replacement_regulars") == ("summary",)
    assert wotr_battle.option_sources("siege_battles") == ("rulebook",)
    assert wotr_battle.option_sources("withdraw_after") == ("summary", "rulebook")


def test_the_api_document_and_the_details_say_how_figures_are_given(client):
    document = client.get("/api/openapi.json").get_json()
    described = {p["name"]: p["description"] for p in document["paths"]["/api/wotr/battle"]["get"]["parameters"]}
    assert "Its rules come from the summary and the rulebook." in described["withdraw_after"]
    assert "Its rules come from the rulebook." in described["siege_battles"]
    # the battle is worked out in floating point: its details give 10 decimals, not "exact" fractions
    shown = page(client, ONE_ON_ONE)
    assert ">to 10 places</th>" in shown and ">exact value</th>" not in shown
    assert "0.4000000000" in shown
    roll = client.get("/wotr/calc/roll?strength=1&hit=5&modifier=0&leadership=0&reroll_modifier=0")
    assert ">exact value</th>" in roll.get_data(as_text=True) and "1/3" in roll.get_data(as_text=True)


# --------------------------------------------------------------------------- the attacker's plan for the Stronghold


def test_the_answer_shows_holding_out_by_the_attackers_plan(client):
    # a Regular against a Regular, withdrawing at once: each siege battle is one round the defender
    # survives 5/6 of; going on is never possible (no Elite to downgrade), so both columns agree
    query = {**ONE_ON_ONE, "defender_choice": "compare", "withdraw_after": "0", "siege_battles": "2"}
    body = api(client, query)
    table = body["hold_out_by_siege_battles"]
    assert [(row["siege_battles"], row["siege_continue"]) for row in table] == \
        [(battles, goes_on) for battles in range(1, 6) for goes_on in (False, True)]
    assert close(table[0]["defender_holds"], F(5, 6)) and close(table[2]["defender_holds"], F(20, 27))
    assert close(table[2]["defender_holds"], body["headline"]["defender_holds"])  # the plan asked: twice, no Elite
    assert body["stand"]["hold_out_by_siege_battles"] is None
    shown = page(client, query)
    table_html = shown.split('class="numbers hold-out"')[1].split("</table>")[0]
    rows = re.findall(r"<tr><th scope=\"row\">(\w+(?: times)?)</th>(.*?)</tr>", table_html, re.S)
    assert [attacks for attacks, _ in rows] == ["Once", "Twice", "3 times", "4 times", "5 times"]
    assert "<strong>74%</strong>" in rows[1][1]
    assert api(client, ONE_ON_ONE)["hold_out_by_siege_battles"] is None
    assert 'class="numbers hold-out"' not in page(client, ONE_ON_ONE)


def test_the_headline_names_going_on_by_downgrading_elites(client):
    # an attacking Elite can downgrade itself to go on: the headline says the plan it rests on
    query = {**ONE_ON_ONE, "attacker_regulars": "0", "attacker_elites": "1", "defender_choice": "compare",
             "withdraw_after": "0", "siege_battles": "3", "siege_continue": "true"}
    headline = texts(page(client, query), "headline")[0]
    assert " to hold out if the attacker attacks the Stronghold 3 times and downgrades Elites to go on; " in headline
    table = api(client, query)["hold_out_by_siege_battles"]
    going_on = [row["defender_holds"] for row in table if row["siege_continue"]]
    not_going_on = [row["defender_holds"] for row in table if not row["siege_continue"]]
    # one attack: the defender falls to a 6 (1/6); going on, the attacker unhit (2/3) downgrades its Elite
    # for a second round with another 1/6: holds out 1 - 1/6 - 5/6 x 2/3 x 1/6 = 20/27 rather than 5/6
    assert close(not_going_on[0], F(5, 6)) and close(going_on[0], F(20, 27))


def test_the_siege_fields_say_a_downgrade_needs_a_regular(client):
    document = client.get("/api/openapi.json").get_json()
    described = {p["name"]: p["description"] for p in document["paths"]["/api/wotr/battle"]["get"]["parameters"]}
    assert described["siege_battles"].startswith("How many times will the attacker attack the Stronghold?")
    assert described["siege_continue"].startswith("Will the attacker downgrade Elites to go on?")
    assert "with none at hand it cannot, and that siege battle ends" in described["siege_continue"]


# --------------------------------------------------------------------------- a battle in progress

IN_PROGRESS = [
    {"attacker_regulars": "3", "attacker_elites": "1", "attacker_leadership": "1",
     "defender_regulars": "2", "defender_elites": "1", "defender_leadership": "1"},
    {"attacker_regulars": "4", "attacker_elites": "2", "attacker_leadership": "2", "attacker_policy": "elites",
     "defender_regulars": "3", "defender_elites": "1", "defender_leadership": "1"},
    {"attacker_regulars": "0", "attacker_elites": "5", "attacker_leadership": "3", "attacker_modifier": "1",
     "attacker_modifier_rounds": "3-", "defender_regulars": "6", "defender_elites": "0", "rounds": "4"},
    {"attacker_regulars": "2", "attacker_elites": "3", "attacker_replacement_regulars": "1",
     "defender_regulars": "1", "defender_elites": "2", "attacker_ceases_at": "2"},
]


@pytest.mark.parametrize("terrain", ["city", "fortification"])
@pytest.mark.parametrize("armies", IN_PROGRESS)
def test_a_city_battle_from_round_two_is_the_open_field_answer(client, terrain, armies):
    query = {**ONE_ON_ONE, **armies}
    walled = api(client, {**query, "terrain": terrain, "start_round": "2"})
    field = api(client, {**query, "terrain": "field", "start_round": "2"})
    working = "explanation"
    assert {key: value for key, value in walled.items() if key != working} == \
        {key: value for key, value in field.items() if key != working}
    assert walled["start_round"] == 2 and [row["round"] for row in walled["per_round"][:2]] == [2, 3]
    if "attacker_modifier_rounds" not in armies:  # nothing else follows the round: the field from round 1
        fresh = api(client, {**query, "terrain": "field"})
        for key in ("outcomes", "headline", "attacker_survivors_detail", "defender_survivors_detail",
                    "expected_rounds", "expected_attacker_casualties", "sources"):
            assert walled[key] == fresh[key], key
        assert [{**row, "round": None} for row in walled["per_round"]] == \
            [{**row, "round": None} for row in fresh["per_round"]]
    assert walled["outcomes"] != api(client, {**query, "terrain": terrain})["outcomes"]  # round 1 is not the field


def test_the_round_a_battle_is_in_is_stated(client):
    shown = page(client, {**ONE_ON_ONE, "terrain": "city", "start_round": "3"})
    assert "from round 3" in texts(shown, "inputs-summary")[0]
    assert "The battle is already in round 3" in shown
    assert "from round 1" in texts(page(client, ONE_ON_ONE), "inputs-summary")[0]
    refused = client.get("/api/wotr/battle?" + urlencode({**ONE_ON_ONE, "start_round": "0"}))
    assert refused.status_code == 400
    assert refused.get_json()["error"] == "start_round: must be a whole number from 1 to 100 (or blank)"


# --------------------------------------------------------------------------- after this round

CITY = {"attacker_regulars": "4", "attacker_elites": "2", "attacker_leadership": "2", "attacker_replacement_regulars": "1",
        "attacker_modifier": "1", "attacker_modifier_rounds": "2-3", "defender_regulars": "3", "defender_elites": "1",
        "defender_leadership": "1", "defender_policy": "elites", "terrain": "city", "rounds": "5",
        "attacker_ceases_at": "1"}


def next_step_form(shown):
    """The "After this round" form under an answer: its hidden inputs, its boxes and its button, or None."""
    found = re.search(r'<form class="next-step".*?</form>', shown, re.S)
    if not found:
        return None
    block = found.group(0)
    return {"hidden": re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', block),
            "boxes": dict(re.findall(r'<input id="f-(after-[^"]+)"[^>]*value="([^"]*)"', block)),
            "button": re.search(r'<button type="submit" name="next_step"[^>]*>([^<]*)<', block).group(1)}


def after_the_round(client, query, **boxes):
    """The battle's next round as its form asks for it: the Armies as they now stand; the redirect's query."""
    form = next_step_form(page(client, query))
    sent = form["hidden"] + [(name, boxes.get(name.removeprefix("after-"), text)) for name, text in form["boxes"].items()]
    response = client.get("/wotr/calc/battle", query_string=sent + [("next_step", "1")])
    assert response.status_code == 303 and response.headers["Location"].endswith("#result-a")
    return response.headers["Location"]


@pytest.mark.parametrize("lost", [
    {"attacker_regulars": "3"},  # the attacker lost a Regular
    {"defender_elites": "0", "defender_regulars": "4"},  # the defender's Elite downgraded
    {"attacker_elites": "1", "defender_regulars": "2"},  # both sides: an Elite removed, a Regular lost
])
def test_after_this_round_answers_from_the_armies_as_they_stand_every_other_input_kept(client, lost):
    form = next_step_form(page(client, CITY))
    assert form["button"] == "Fight round 2"
    assert form["boxes"] == {"after-attacker_regulars": "4", "after-defender_regulars": "3",
                             "after-attacker_elites": "2", "after-defender_elites": "1"}  # as the battle began
    location = after_the_round(client, CITY, **lost)
    following = parse_qs(urlsplit(location).query, keep_blank_values=True)
    # the Armies as they stand, the round on by one, most rounds counted from there, every option kept (the
    # modifier's rounds as the form's two boxes send them: from round 2, for 2 rounds)
    expected = {**CITY, **lost, "start_round": "2", "rounds": "4"}
    # each Regular the attacker lost joins those at hand to replace its Elites
    expected["attacker_replacement_regulars"] = str(1 + 4 - int(expected["attacker_regulars"]))
    for name, text in expected.items():
        assert following[name] == (["2", "2"] if name == "attacker_modifier_rounds" else [text]), name
    # the round that follows is answered as the engine answers that battle from round 2
    assert api(client, {**expected, "attacker_modifier_rounds": "2-3"})["outcomes"] == \
        api(client, [(name, text) for name, texts in following.items() for text in texts])["outcomes"]
    shown = client.get(location).get_data(as_text=True)
    assert "from round 2" in " ".join(texts(shown, "inputs-summary"))
    assert next_step_form(shown)["button"] == "Fight round 3"


def test_after_a_round_in_the_field_before_a_withdrawal_one_round_fewer_is_left_in_the_field(client):
    query = {**ONE_ON_ONE, "attacker_regulars": "3", "defender_regulars": "3", "defender_choice": "compare",
             "withdraw_after": "2"}
    location = after_the_round(client, query, defender_regulars="2")
    assert "withdraw_after=1" in location and "defender_choice=compare" in location and "start_round=2" in location


@pytest.mark.parametrize("changes", [
    {"terrain": "siege"},  # whether the attacker went on is not in the counts
    {"defender_choice": "withdraw", "withdraw_after": "0"},  # the round fought was a siege round
    {"rounds": "1"},  # the last round allowed
])
def test_no_next_round_is_offered_where_the_counts_cannot_tell_it(client, changes):
    shown = page(client, {**ONE_ON_ONE, **changes})
    assert next_step_form(shown) is None and 'href="#next-step"' not in shown


def test_a_box_after_the_round_that_cannot_be_read_is_named_beside_it_and_nothing_moves_on(client):
    form = next_step_form(page(client, CITY))
    sent = form["hidden"] + [(name, "x" if name == "after-defender_regulars" else text)
                             for name, text in form["boxes"].items()] + [("next_step", "1")]
    response = client.get("/wotr/calc/battle", query_string=sent)
    assert response.status_code == 200  # the answer stands; the box at fault says why
    shown = response.get_data(as_text=True)
    assert re.search(r'id="e-after-defender_regulars">must be a whole number from 0 to 10</p>', shown)
    assert 'name="after-defender_regulars" value="x"' in shown


def test_an_army_left_with_no_units_after_the_round_ends_the_battle_there(client):
    form = next_step_form(page(client, CITY))
    wiped = {"after-defender_regulars": "0", "after-defender_elites": "0"}
    sent = form["hidden"] + [(name, wiped.get(name, text)) for name, text in form["boxes"].items()] + \
        [("next_step", "1")]
    response = client.get("/wotr/calc/battle", query_string=sent)
    assert response.status_code == 200  # no next round to move on to: the answer stands, and the box says why
    shown = response.get_data(as_text=True)
    assert re.search(r'id="e-after-defender_regulars">no defender Army units are left, so the battle is over</p>',
                     shown)
    assert not re.search(r'id="e-after-attacker_regulars"', shown)


def test_both_armies_too_large_are_each_named_beside_their_own_boxes(client):
    query = {**ONE_ON_ONE, "attacker_regulars": "5", "attacker_elites": "7", "defender_regulars": "6",
             "defender_elites": "8"}
    response = client.get("/wotr/calc/battle?" + urlencode(query))
    assert response.status_code == 400
    shown = html.unescape(response.get_data(as_text=True))
    for side in ("Attacker", "Defender"):
        assert re.search(rf'id="e-{side.lower()}_regulars">{side} Regulars: regulars \+ elites from 1 to 10<', shown)
    assert 'value="7"' in shown and 'value="8"' in shown  # what was typed is kept
    assert 'class="result"' not in shown
    api = client.get("/api/wotr/battle?" + urlencode(query))
    assert api.status_code == 400 and api.get_json()["error"].startswith("attacker_regulars: ")
    one_side = client.get("/wotr/calc/battle?" + urlencode({**query, "attacker_elites": "0"}))
    assert 'id="e-attacker_regulars"' not in one_side.get_data(as_text=True)
    assert 'id="e-defender_regulars"' in one_side.get_data(as_text=True)


def test_an_empty_form_names_every_problem_in_one_go(client):
    # the Armies are checked as soon as their own boxes read well, not only once the rest is right
    blank = {name: "" for name in ONE_ON_ONE}
    shown = html.unescape(client.get("/wotr/calc/battle?" + urlencode(blank)).get_data(as_text=True))
    named = dict(re.findall(r'id="e-([a-z_]+)">([^<]*)<', shown))
    assert named == {"attacker_regulars": "Attacker Regulars: regulars + elites from 1 to 10",
                     "defender_regulars": "Defender Regulars: regulars + elites from 1 to 10",
                     "terrain": "Where: required: choose one of the options"}
    # a side whose own box is wrong is named for that box; the other side is still checked
    shown = html.unescape(client.get("/wotr/calc/battle?" + urlencode({**blank, "attacker_regulars": "x"}))
                          .get_data(as_text=True))
    named = dict(re.findall(r'id="e-([a-z_]+)">([^<]*)<', shown))
    assert named["attacker_regulars"] == "Attacker Regulars: must be a whole number from 0 to 10"
    assert named["defender_regulars"] == "Defender Regulars: regulars + elites from 1 to 10"


def test_a_table_of_units_left_says_at_least_none_and_at_most_all_for_certain(client):
    armies = {"attacker_regulars": 5, "attacker_elites": 2, "attacker_leadership": 1,
              "defender_regulars": 3, "defender_elites": 0, "defender_leadership": 0, "terrain": "field"}
    page = client.get("/wotr/calc/battle?" + urlencode(armies)).get_data(as_text=True)
    table = re.search(r"<caption>Attacker units left</caption>(.*?)</table>", page, re.S).group(1)
    rows = [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)]
    body = [row for row in rows if row and row[0] != ""]
    assert body[0][0] == "0 units" and body[0][2] == "100%", body[0]  # at least none
    assert body[-1][3] == "100%", body[-1]  # at most the most
