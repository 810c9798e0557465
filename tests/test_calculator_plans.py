"""Plans side by side on every calculator page: two or three setups, the difference in the headline,
one permalink (a GET query string with b- and c- prefixed parameters) holding every plan."""
import html
import re
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from werkzeug.datastructures import MultiDict

from webapp.calculators import CALCULATORS
from webapp.calculators.fields import Choice, Integer
from webapp.calculators.plans import flowing


def page_url(calc):
    return f"/{calc.game}/calc/{calc.slug}"


def texts(page, css_class):
    return [html.unescape(text) for text in re.findall(rf'<p class="{css_class}">(.*?)</p>', page, re.S)]


def other_plan(calc):
    """The example values with one applying field changed to another value the calculator answers."""
    values = calc.prefill()
    for member in calc.fields:
        if member.name not in calc.applying(values) or not isinstance(member, (Integer, Choice)):
            continue
        candidates = ([value for value, _ in member.choices] if isinstance(member, Choice)
                      else range(member.minimum, member.maximum + 1))
        for candidate in candidates:
            changed = {**values, member.name: candidate}
            if candidate == values[member.name] or member.name not in calc.applying(changed):
                continue
            _, errors, _, result = calc.answer(MultiDict(calc.form_query(changed)))
            if result is not None and calc.headline(result) != calc.headline(calc.answer(
                    MultiDict(calc.form_query(values)))[3]):
                return changed
    raise AssertionError(f"{calc.id}: no other plan found")


def single_result(calc, values):
    _, errors, _, result = calc.answer(MultiDict(calc.form_query(values)))
    assert not errors, errors
    return result


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_two_plans_side_by_side_with_the_difference_in_the_headline(client, calculators, calc_id):
    calc = calculators[calc_id]
    first, second = calc.prefill(), other_plan(calc)
    query = [("plans", "2"), *calc.form_query(first), *calc.form_query(second, prefix="b-")]
    response = client.get(page_url(calc), query_string=query)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    # each plan answered exactly as the calculator answers it alone
    results = [single_result(calc, first), single_result(calc, second)]
    what, how = calc.key(results[0], results[0])
    _, other = calc.key(results[1], results[0])
    comparison = texts(page, "headline comparison")
    assert comparison == [f"Plan A: {what} {how}; Plan B: {other}.".replace("Plan A:  ", "Plan A: ")]
    headlines = [calc.headline(result) for result in results]
    assert texts(page, "headline") == [headline.main for headline in headlines]
    assert len(re.findall(r'<section class="result" id="result-[ab]"', page)) == 2
    # one set of inputs per plan, every id on the page once
    assert 'id="inputs-a"' in page and 'id="inputs-b"' in page
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_adding_a_plan_copies_the_last_one_into_the_permalink(client, calculators, calc_id):
    calc = calculators[calc_id]
    query = calc.form_query() + [("plan", "Stand"), ("add_plan", "1")]
    response = client.get(page_url(calc), query_string=query)
    assert response.status_code == 303
    location = urlsplit(response.headers["Location"])
    assert location.path == page_url(calc) and location.fragment == "inputs-b"  # the new plan's inputs
    pairs = parse_qsl(location.query, keep_blank_values=True)
    assert pairs[0] == ("plans", "2")
    plan_a = [(key, value) for key, value in pairs[1:] if not key.startswith("b-")]
    plan_b = [(key.removeprefix("b-"), value) for key, value in pairs[1:] if key.startswith("b-")]
    assert plan_a == calc.form_query() + [("plan", "Stand")]
    assert plan_b == calc.form_query()  # a copy of plan A, without its name
    again = client.get(response.headers["Location"])
    assert again.status_code == 200
    assert texts(again.get_data(as_text=True), "headline comparison")[0].startswith("Stand: ")


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_comparing_from_an_untouched_form_gives_two_empty_forms_and_no_error(client, calculators, calc_id):
    # every box left empty, as a fresh form sends them: no plan is answered, nor any box refused, until asked
    calc = calculators[calc_id]
    blank = [(name, "") for name, _ in calc.form_query()]
    response = client.get(page_url(calc), query_string=blank + [("add_plan", "1")])
    assert response.status_code == 303 and urlsplit(response.headers["Location"]).query == "plans=2"
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert 'id="inputs-a"' in page and 'id="inputs-b"' in page
    assert 'class="field-error"' not in page and 'class="result"' not in page
    # a plan with something typed is kept as typed, its empty boxes too
    typed = calc.form_query()
    response = client.get(page_url(calc), query_string=typed + [("add_plan", "1")])
    assert parse_qsl(urlsplit(response.headers["Location"]).query, keep_blank_values=True)[1:len(typed) + 1] == typed


@pytest.mark.parametrize("calc_id", ["wotr-battle", "wotr-cards-combat", "meccg-council"])
def test_adding_a_plan_keeps_only_the_calculators_own_parameters(client, calculators, calc_id):
    """Parameters no field reads are left out of the permalink, however many: it stays a request nginx takes."""
    calc = calculators[calc_id]
    junk = [(f"junk{number}", "x" * 20) for number in range(3500)] + [("b-junk", "1"), ("utm_source", "club")]
    response = client.get(page_url(calc), query_string=junk + calc.form_query() + [("add_plan", "1")])
    assert response.status_code == 303
    pairs = parse_qsl(urlsplit(response.headers["Location"]).query, keep_blank_values=True)
    assert pairs == [("plans", "2"), *calc.form_query(), *calc.form_query(prefix="b-")]
    assert len(response.headers["Location"]) < 2 * len(urlencode(calc.form_query())) + 100


def test_a_permalink_too_long_to_follow_is_refused_by_name(client, calculators):
    calc = calculators["wotr-battle"]
    repeated = [("attacker_regulars", "5")] * 1500  # one box given 1,500 times: the copy would pass 8 KB
    response = client.get(page_url(calc), query_string=calc.form_query() + repeated + [("add_plan", "1")])
    assert response.status_code == 400 and "Location" not in response.headers
    assert "plans: the inputs are too long to keep in one address (at most 8000 characters)" in response.get_data(
        as_text=True)


def test_three_plans_named_and_one_removed(client, calculators):
    calc = calculators["wotr-battle"]
    plans = [calc.prefill(), {**calc.prefill(), "terrain": "city"}, {**calc.prefill(), "defender_regulars": 1}]
    query = [("plans", "3"), ("plan", "Attack now"), ("b-plan", "Attack the City"), ("c-plan", "Wait")]
    for prefix, values in zip(("", "b-", "c-"), plans):
        query += calc.form_query(values, prefix=prefix)
    page = client.get("/wotr/calc/battle", query_string=query).get_data(as_text=True)
    keys = [calc.key(single_result(calc, values), None)[1] for values in plans]
    assert texts(page, "headline comparison") == [
        f"Attack now: defender destroyed {keys[0]}; Attack the City: {keys[1]}; Wait: {keys[2]}."]
    # removing plan B moves plan C into its place
    removed = client.get("/wotr/calc/battle", query_string=query + [("remove_plan", "B")])
    assert removed.status_code == 303
    assert urlsplit(removed.headers["Location"]).fragment == "inputs-a"  # the plan before the one removed
    pairs = parse_qsl(urlsplit(removed.headers["Location"]).query, keep_blank_values=True)
    assert ("plans", "2") in pairs and ("b-plan", "Wait") in pairs and ("b-defender_regulars", "1") in pairs
    assert not any(key.startswith("c-") for key, _ in pairs)
    after = client.get(removed.headers["Location"]).get_data(as_text=True)
    assert texts(after, "headline comparison") == [f"Attack now: defender destroyed {keys[0]}; Wait: {keys[2]}."]
    # at most three plans: no button to add a fourth
    assert 'name="add_plan"' not in page and 'name="add_plan"' in after
    # a third plan lands on plan C's inputs; removing plan C lands on plan B's
    two = [("plans", "2")] + [pair for pair in query[1:] if not pair[0].startswith("c-")]
    third = client.get("/wotr/calc/battle", query_string=two + [("add_plan", "1")])
    assert urlsplit(third.headers["Location"]).fragment == "inputs-c"
    last = client.get("/wotr/calc/battle", query_string=query + [("remove_plan", "C")])
    assert urlsplit(last.headers["Location"]).fragment == "inputs-b"
    for location in (third.headers["Location"], last.headers["Location"]):  # the landing is on the page
        fragment = urlsplit(location).fragment
        assert f'id="{fragment}"' in client.get(location).get_data(as_text=True)


def test_a_bad_value_in_one_plan_is_shown_beside_that_plans_field_and_nothing_is_answered(client, calculators):
    calc = calculators["wotr-roll"]
    query = [("plans", "2"), *calc.form_query(), *calc.form_query(prefix="b-")]
    query = [(key, "x" if key == "b-strength" else value) for key, value in query]
    response = client.get("/wotr/calc/roll", query_string=query)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert re.search(r'id="e-b-strength">Combat Strength: must be a whole number from 0 to 10', page)
    assert 'name="b-strength" value="x"' in page and 'id="e-strength"' not in page
    assert 'class="result"' not in page and "headline comparison" not in page


@pytest.mark.parametrize("count", ["4", "0", "two"])
def test_the_number_of_plans_is_checked(client, count):
    response = client.get("/wotr/calc/roll", query_string=[("plans", count), ("strength", "5"), ("hit", "5")])
    assert response.status_code == 400
    assert "plans: must be a whole number from 1 to 3" in response.get_data(as_text=True)


def test_a_plan_not_yet_submitted_shows_its_form_and_no_comparison(client, calculators):
    calc = calculators["wotr-roll"]
    page = client.get("/wotr/calc/roll", query_string=[("plans", "2"), *calc.form_query()]).get_data(as_text=True)
    assert 'id="f-b-strength"' in page and 'id="result-a"' in page and 'id="result-b"' not in page
    assert "headline comparison" not in page


@pytest.mark.parametrize("item, shown", [
    ("Attacker: Regulars 5, Elites 1, Leadership 1", "Attacker: Regulars\u00a05, Elites\u00a01,\u00a0Leadership\u00a01"),
    ("the attacker never ceases", "the attacker never\u00a0ceases"),
    ("Defending cards: 2 icons; 1 icon + a 1-icon item", "Defending cards:\u00a02 icons;\u00a01 icon + a\u00a01-icon\u00a0item"),
])
def test_a_long_input_flows_but_never_opens_a_line_with_a_number_or_its_last_word(item, shown):
    assert flowing(item) == shown


@pytest.mark.parametrize("query, stray, meant", [
    ("strenght=3&hit=5", "strenght", "strength"),  # a box's name misspelt by hand
    ("plans=2&strength=3&hit=5&b-strength=4&b-hitt=5", "b-hitt", "b-hit"),  # in the second plan
    ("strength=3&hit=5&leadershp=1", "leadershp", "leadership"),  # one that would have read as 0
])
def test_a_parameter_the_page_does_not_read_is_refused_not_read_as_blank(client, query, stray, meant):
    page = client.get(f"/wotr/calc/roll?{query}")
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert f"The address holds “{stray}”, which this calculator does not read" in text
    assert 'class="result"' not in text
    fixed = client.get(f"/wotr/calc/roll?{query.replace(stray + '=', meant + '=')}")
    assert fixed.status_code == 200 and 'class="result"' in fixed.get_data(as_text=True)


@pytest.mark.parametrize("calc_id, name, first, second, said", [
    ("wotr-roll", "leadership", 2, 0, "Leadership 0"),
    ("wotr-battle", "attacker_elites", 2, 0, "Elites 0"),
    ("meccg-strike", "tapped", True, False, ": no"),
])
def test_a_plan_that_sets_a_count_back_to_0_or_a_switch_off_says_so(client, calculators, calc_id, name, first,
                                                                     second, said):
    calc = calculators[calc_id]
    values = {**calc.prefill(), name: first}
    query = [("plans", "2"), *calc.form_query(values), *calc.form_query({**values, name: second}, prefix="b-")]
    page = client.get(page_url(calc), query_string=query).get_data(as_text=True)
    plan_b = html.unescape(re.sub(r"<[^>]+>", "", re.findall(r'class="inputs-summary">(.*?)</p>', page, re.S)[1]))
    assert "the same inputs" not in plan_b
    assert said in plan_b.replace("\xa0", " "), plan_b
