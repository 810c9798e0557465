"""Middle-earth Quest dominance calculator: page and JSON endpoint."""
import re

from werkzeug.datastructures import MultiDict

from webapp.calculators import meq


def test_page_renders_with_defaults(client):
    response = client.get("/meq/calc/dominance")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    # one box per Sauron story marker, empty, the example greyed in it
    assert re.findall(r'name="sauron_to_finale" value="([^"]*)"', html) == ["", "", ""]
    assert re.findall(r'name="sauron_to_finale" value="" [^>]*placeholder="e.g. ([^"]*)"', html) == ["10", "12", "14"]
    assert 'class="result"' not in html


def test_api_sauron_dominant_by_the_shadow_falls(client):
    body = client.get("/api/meq/dominance?hero_to_finale=5&sauron_to_finale=8,9,10"
                      "&sauron_to_shadow_falls=2,1,1&first_turn=false").get_json()
    # Sauron: lower of closest 8 and 2 + 1 + 1 = 4, so 4 against the heroes' 5
    assert body["heroes"] == 5 and body["sauron"] == 4
    assert body["sauron_closest_to_finale"] == 8 and body["sauron_to_shadow_falls_total"] == 4
    assert body["dominant"] == "sauron" and body["event"] == "highest"
    # Sauron dominant: the Ringwraiths gain the heroes' count
    assert body["ringwraiths_modifier"] == 5
    assert body["finale_begins"] is False
    assert body["explanation"]


def test_api_heroes_dominant(client):
    body = client.get("/api/meq/dominance?hero_to_finale=3&sauron_to_finale=8,9,10"
                      "&sauron_to_shadow_falls=3,3,3").get_json()
    # Sauron: lower of 8 and 9 = 8; heroes 3 is lower
    assert (body["heroes"], body["sauron"], body["dominant"], body["event"]) == (3, 8, "heroes", "lowest")
    # heroes dominant: the Ringwraiths lose Sauron's count
    assert body["ringwraiths_modifier"] == -8


def test_api_level_counts_and_first_turn(client):
    level = client.get("/api/meq/dominance?hero_to_finale=4&sauron_to_finale=4,5,6"
                       "&sauron_to_shadow_falls=2,2,2").get_json()
    # Sauron: lower of 4 and 6 = 4, same as the heroes
    assert (level["dominant"], level["event"], level["ringwraiths_modifier"]) == ("none", "draw-one", 0)
    first = client.get("/api/meq/dominance?hero_to_finale=3&sauron_to_finale=8,9,10"
                       "&sauron_to_shadow_falls=3,3,3&first_turn=true").get_json()
    assert first["dominant"] == "heroes" and first["event"] == "draw-one"


def test_api_finale_begins_when_every_marker_reaches_the_shadow_falls(client):
    body = client.get("/api/meq/dominance?hero_to_finale=6&sauron_to_finale=5,7,9"
                      "&sauron_to_shadow_falls=0,0,0").get_json()
    assert body["finale_begins"] is True and body["sauron"] == 0


def test_page_permalink_shows_the_result(client):
    response = client.get("/meq/calc/dominance?hero_to_finale=5&sauron_to_finale=8,9,10"
                          "&sauron_to_shadow_falls=2,1,1&first_turn=false")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Sauron is dominant: heroes 5, Sauron 4 (lower is dominant)." in html
    assert "+5 health and +5 fortitude" in html
    assert "resolves the one with the highest priority" in html


def test_page_bad_value_beside_the_field_and_kept(client):
    response = client.get("/meq/calc/dominance?hero_to_finale=5&sauron_to_finale=8,9"
                          "&sauron_to_shadow_falls=2,1,1")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert 'id="e-sauron_to_finale"' in html
    assert "must be 3 whole numbers from 0 to 50, one per marker (got 2)" in html
    assert re.findall(r'name="sauron_to_finale" value="([^"]*)"', html) == ["8", "9", ""]


def test_the_form_sends_one_value_per_box(client):
    boxes = [("hero_to_finale", "5"), *(("sauron_to_finale", n) for n in "8 9 10".split()),
             *(("sauron_to_shadow_falls", n) for n in "2 1 1".split())]
    response = client.get("/meq/calc/dominance", query_string=boxes)
    assert response.status_code == 200
    assert "Sauron is dominant: heroes 5, Sauron 4 (lower is dominant)." in response.get_data(as_text=True)
    partly = client.get("/meq/calc/dominance", query_string=[(k, "" if (k, v) == ("sauron_to_finale", "9") else v)
                                                             for k, v in boxes])
    assert partly.status_code == 400 and 'id="e-sauron_to_finale"' in partly.get_data(as_text=True)


def test_run_without_the_app():
    values, errors, raw, result = meq.DOMINANCE.answer(MultiDict(
        {"hero_to_finale": "2", "sauron_to_finale": "7, 8, 9", "sauron_to_shadow_falls": "5,5,5"}))
    assert errors == {}
    assert values["sauron_to_finale"] == [7, 8, 9]
    assert (result["dominant"], result["ringwraiths_text"]) == ("heroes", "-7 health and -7 fortitude")
