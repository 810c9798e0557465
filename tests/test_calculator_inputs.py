"""Every field of every calculator, generated from the declarations (a field added to a declaration is
checked here without a new test):

- a bad value is refused by name: beside the field on its page (with what was typed kept), and as
  a 400 naming it on the API, GET and POST alike;
- no submitted form computes from a value the player did not give: a blank or missing field is an
  error beside it, or (a count, points, a modifier, a switch) the 0 it stands for, shown again in
  the form, or (an optional field) the meaning its declaration states, shown in the result;
- what a blank may stand for is only ever one of those three, for every field declared.
"""
import html
import re

import pytest
from werkzeug.datastructures import MultiDict

from webapp.calculators import CALCULATORS
from webapp.calculators.calculator import FORM_PROBLEM, Calculator, Group, check_blank
from webapp.engines.inputs import InputError
from webapp.calculators.fields import (MAX_TEXT, REQUIRED, Boolean, Choice, ChoiceList, Integer, IntegerList, Records,
                                       RoundWindow, Text, When, read_query)
from webapp.state import get_calculators


def page_url(calc):
    return f"/{calc.game}/calc/{calc.slug}"


def replaced(query, name, pairs):
    """The form query with every parameter of one field (or one record's box) replaced by pairs."""
    kept = [(key, value) for key, value in query if key != name]
    at = next((index for index, (key, _) in enumerate(query) if key == name), len(kept))
    return kept[:at] + list(pairs) + kept[at:]


def applying_values(calc, member):
    """Example values changed, where needed, so that the field applies (its first condition holds)."""
    values = calc.prefill()
    for condition in calc.conditions(member)[:1]:
        control = calc.field(condition.field)
        if condition.values:
            values[condition.field] = control.read_text(condition.values[0], control.name)
        else:
            values[condition.field] = next(number for number in (1, 2, control.maximum)
                                           if str(number) not in condition.other_than)
    assert member.name in calc.applying(values), (calc.id, member.name)
    return values


def error_text(page, name):
    found = re.search(rf'id="e-{re.escape(name)}">(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)) if found else None


def summary_links(page):
    """(the id linked to, the text) of each error in the list at the top of the page."""
    found = re.search(r'<div class="error-summary".*?</div>', page, re.S)
    return [(anchor, html.unescape(text)) for anchor, text in re.findall(r'<a href="#([^"]+)">(.*?)</a>', found.group(0))] \
        if found else []


def headline(page):
    found = re.search(r'<p class="headline">(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)) if found else None


def summary(page):
    found = re.search(r'<p class="inputs-summary">(.*?)</p>', page, re.S)
    # read as a player sees it: the no-break space that keeps an input with its separator is a space
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).replace("\xa0", " ") if found else ""


def api_query(calc, values):
    """The same values as a GET endpoint's query (a list as one comma-separated value)."""
    return [(member.name, member.form_value(values[member.name])) for member in calc.fields
            if values[member.name] is not None]


# --------------------------------------------------------------------------- bad values


def bad_texts(field):
    """Form or query text the field must refuse, whatever else is sent."""
    if isinstance(field, Integer):
        return [str(field.maximum + 1), str(field.minimum - 1), "x", "1.5"]
    if isinstance(field, Boolean):
        return ["yes", "True", "2"]
    if isinstance(field, Choice):
        return ["nonesuch", field.values[0].upper()]
    if isinstance(field, IntegerList):
        wrong_count = ",".join([str(field.minimum)] * ((field.count or 1) + 1)) if field.count else None
        return [f"{field.minimum},x", str(field.maximum + 1)] + ([wrong_count] if wrong_count else [])
    if isinstance(field, Text):
        return ["a" * (field.max_length + 1)]
    if isinstance(field, ChoiceList):
        return ["nonesuch", f"{field.values[0]},{field.values[0]}", f"{field.values[0]},"]
    if isinstance(field, RoundWindow):
        return ["0", str(field.maximum + 1), "3-2", f"2-{field.maximum + 1}", "every", " 2-3 x"]
    raise AssertionError(f"no bad text for {field!r}")


def boxes(field):
    return isinstance(field, Records) or field.widget_hint() == "boxes"


def page_cases():
    for calc in CALCULATORS.values():
        for field in calc.fields:
            members = [(f"{field.name}-1-{member.name}", member, field) for member in field.fields] \
                if isinstance(field, Records) else [(field.name, field, None)]
            for name, member, records in members:
                for text in bad_texts(member):
                    yield pytest.param(calc.id, field.name, name, text, id=f"{calc.id}:{name}={text[:20]}")


@pytest.mark.parametrize("calc_id, field_name, name, text", list(page_cases()))
def test_a_bad_value_is_refused_beside_its_field_and_on_the_api(client, calculators, calc_id, field_name, name, text):
    calc = calculators[calc_id]
    field = calc.field(field_name)
    member = next(m for m in field.fields if name.endswith("-" + m.name)) if isinstance(field, Records) else field
    values = applying_values(calc, field)
    query = replaced(calc.form_query(values), name, [(name, text)])
    page = client.get(page_url(calc), query_string=query)
    assert page.status_code == 400
    shown = page.get_data(as_text=True)
    message = error_text(shown, name)
    assert message is not None, f"no error beside {name}"
    assert message.startswith(f"{member.label}: must be "), message
    if isinstance(member, (Integer, IntegerList)):  # says what is allowed
        assert f"from {member.minimum} to {member.maximum}" in message
    if member.kind in ("integer", "integer_list", "text") and member.widget_hint() != "boxes":
        assert f'name="{name}" value="{html.escape(text[:MAX_TEXT])}"' in shown  # what was typed is kept
    assert 'class="result"' not in shown
    # and at the top of the page, above the form, linked to a control of the field
    links = summary_links(shown)
    assert len(links) == 1 and links[0][1].endswith(message), (links, message)
    assert f'id="{links[0][0]}"' in shown and links[0][0].startswith(f"f-{name}")
    assert shown.index('class="error-summary"') < shown.index('id="calc-form"')
    for api in calc.apis:
        if api.method == "GET":
            response = client.get(api.path, query_string=replaced(api_query(calc, values), name, [(name, text)]))
            assert response.status_code == 400
            assert response.get_json() == {"error": f"{name}: {message.removeprefix(member.label + ': ')}"}


def test_a_box_of_a_fixed_list_keeps_what_was_typed(client, calculators):
    calc = calculators["meq-dominance"]
    query = replaced(calc.form_query(), "sauron_to_finale", [("sauron_to_finale", text) for text in ("10", "x", "14")])
    shown = client.get(page_url(calc), query_string=query).get_data(as_text=True)
    assert error_text(shown, "sauron_to_finale") == ("Sauron's markers: spaces to the Finale: must be 3 whole numbers "
                                                     "from 0 to 50, one per marker (marker 2 is x)")
    assert re.findall(r'name="sauron_to_finale" value="([^"]*)"', shown) == ["10", "x", "14"]
    # only the bad box is marked, and the list at the top links to it
    boxes = re.findall(r'<input id="f-sauron_to_finale-(\d)"[^>]*>', shown)
    tags = re.findall(r'<input id="f-sauron_to_finale-\d"[^>]*>', shown)
    assert [(box, 'aria-invalid="true"' in tag) for box, tag in zip(boxes, tags)] == \
        [("1", False), ("2", True), ("3", False)]
    assert summary_links(shown)[0][0] == "f-sauron_to_finale-2"
    blank = client.get(page_url(calc), query_string=replaced(calc.form_query(), "sauron_to_finale", [
        ("sauron_to_finale", text) for text in ("10", "12", " ")])).get_data(as_text=True)
    assert error_text(blank, "sauron_to_finale").endswith("(marker 3 is blank)")


# --------------------------------------------------------------------------- nothing the player did not give


def blank_cases():
    for calc in CALCULATORS.values():
        for field in calc.fields:
            yield pytest.param(calc.id, field.name, None, id=f"{calc.id}:{field.name}")
            if isinstance(field, Records):
                for member in field.fields:
                    yield pytest.param(calc.id, field.name, member.name, id=f"{calc.id}:{field.name}-1-{member.name}")


def blank_pairs(field, name):
    """What a browser sends for a field left blank: an empty box (an unchecked switch sends nothing)."""
    if isinstance(field, (Boolean, Records, ChoiceList)):
        return []
    return [(name, "")] * {"boxes": field.count if field.widget_hint() == "boxes" else 1, "window": 2}.get(
        field.widget_hint(), 1)


def record_row(field, member, values):
    """The first example record that stays a record (not a blank row) with the member left blank."""
    for number, record in enumerate(values[field.name], start=1):
        others = [m for m in field.fields if m is not member and record.get(m.name, m.prefill) not in (None, "", (), False)]
        if others:
            return number, record
    raise AssertionError(f"no example record keeps another box filled when {member.name} is blank")


@pytest.mark.parametrize("calc_id, field_name, member_name", list(blank_cases()))
def test_a_blank_field_is_an_error_or_the_zero_it_shows_or_its_stated_meaning(client, calculators, calc_id,
                                                                               field_name, member_name):
    calc = calculators[calc_id]
    field = calc.field(field_name)
    values = applying_values(calc, field)
    full = calc.form_query(values)
    if member_name is None:
        member, name = field, field.name
        zero_values = {**values, field.name: field.default}
    else:
        member = next(m for m in field.fields if m.name == member_name)
        number, record = record_row(field, member, values)
        name = f"{field.name}-{number}-{member.name}"
        records = [dict(r) for r in values[field.name]]
        records[number - 1][member.name] = member.default
        zero_values = {**values, field.name: records}
    query = replaced(full, name, blank_pairs(member, name)) if member_name or not isinstance(field, Records) else \
        [(key, value) for key, value in full if not key.startswith(field.name + "-")]
    page = client.get(page_url(calc), query_string=query)
    shown = page.get_data(as_text=True)

    if member.default is REQUIRED:
        assert page.status_code == 400
        assert error_text(shown, name).startswith(f"{member.label}: required: "), error_text(shown, name)
        if isinstance(member, Choice):  # the page asks for a tick among its labelled options, not for API values
            assert error_text(shown, name) == f"{member.label}: required: choose one of the options"
        assert 'class="result"' not in shown
    elif member.default is None and page.status_code == 400:
        # blank only where it changes nothing (the order defenders are given up in, with none): else
        # the message beside it says when it is needed
        assert error_text(shown, name).startswith(f"{member.label}: required when "), error_text(shown, name)
        assert 'class="result"' not in shown
    elif member.default is None:
        assert page.status_code == 200, error_text(shown, name)
        assert member.blank in summary(shown), (member.blank, summary(shown))  # the meaning is stated
        if member.widget_hint() == "radio":  # no choice is ticked
            assert re.search(rf'name="{re.escape(name)}" value="', shown) and \
                not re.search(rf'name="{re.escape(name)}" value="[^"]*" checked', shown)
        else:
            assert re.search(rf'name="{re.escape(name)}" value=""', shown)
    else:
        # the same answer as the 0 it stands for, and the 0 is shown again in the form
        assert page.status_code == 200, re.findall(r'class="field-error"[^>]*>(.*?)</p>', shown)
        given = client.get(page_url(calc), query_string=calc.form_query(zero_values))
        assert headline(shown) == headline(given.get_data(as_text=True)) is not None
        if isinstance(member, Integer):
            assert f'name="{name}" value="0"' in shown
        if member_name is None and isinstance(member, (Integer, IntegerList, Records)):
            # the result's one-line summary of the inputs says the 0 the blank stood for too
            zero = f"{member.short or member.label}{':' if isinstance(member, Records) else ''} " \
                   f"{member.form_value(member.default) if isinstance(member, Integer) else 'none'}"
            assert re.search(rf"(^From |[:·,] ){re.escape(zero)}([ ,.·]|$)", summary(shown)), (zero, summary(shown))
        if isinstance(member, Boolean):
            assert re.search(rf'name="{re.escape(name)}" value="true" type="checkbox" role="switch"(?! checked)', shown)

    # the API (a GET endpoint's parameter left out) says the same
    for api in calc.apis:
        if api.method == "GET" and member_name is None:
            missing = [(key, value) for key, value in api_query(calc, values) if key != name]
            response = client.get(api.path, query_string=missing)
            if member.default is REQUIRED:
                assert response.status_code == 400
                assert response.get_json()["error"].startswith(f"{name}: required: ")
            else:
                assert response.status_code == 200, response.get_json()
                if member.default is not None:
                    assert response.get_json() == client.get(api.path, query_string=api_query(calc, zero_values)).get_json()


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_a_field_that_does_not_apply_may_be_left_blank_and_changes_nothing(client, calculators, calc_id):
    calc = calculators[calc_id]
    values = calc.prefill()
    full = client.get(page_url(calc), query_string=calc.form_query(values)).get_data(as_text=True)
    for member in calc.fields:
        if member.name in calc.applying(values):
            continue
        query = [(key, value) for key, value in calc.form_query(values)
                 if key != member.name and not key.startswith(member.name + "-")]
        page = client.get(page_url(calc), query_string=query)
        assert page.status_code == 200, (member.name, re.findall(r'class="field-error"[^>]*>(.*?)</p>', page.get_data(as_text=True)))
        assert headline(page.get_data(as_text=True)) == headline(full)


def test_an_engine_error_that_names_no_field_of_the_form_is_the_form_s_own():
    def compute(values):
        raise InputError("deck", "no cards left to draw")

    calc = Calculator(id="x", game="wotr", slug="x", title="x", compute=compute, method="",
                      form=(Integer("a", "A", minimum=0, maximum=1),))
    values, errors, raw, result = calc.answer(MultiDict([("a", "1")]))
    assert result is None and not len(errors) and errors  # no field's error, yet an error
    assert errors.form == errors.first() == "deck: no cards left to draw"
    problem = calc.problems(errors, "b-", form_anchor="inputs-b")[FORM_PROBLEM]
    assert (problem.name, problem.message, problem.anchor) == ("b-" + FORM_PROBLEM, errors.form, "inputs-b")
    fine = calc.answer(MultiDict([("a", "9")]))[1]
    assert fine.form == "" and dict(fine) == {"a": "must be a whole number from 0 to 1"}


def test_every_declared_blank_is_an_error_a_zero_or_a_stated_meaning():
    for calc in CALCULATORS.values():
        for field in calc.fields:
            for member in (field, *(field.fields if isinstance(field, Records) else ())):
                assert member.default is REQUIRED or (member.default is None and member.blank) or \
                    member.default in (0, False, (), ""), (calc.id, member.name)
    with pytest.raises(ValueError, match="silently stand for 5"):
        check_blank("x", Integer("dice", "Dice", default=5, minimum=0, maximum=5))
    with pytest.raises(ValueError, match="does not say what a blank means"):
        check_blank("x", Integer("rounds", "Rounds", default=None, minimum=1, maximum=5))
    with pytest.raises(ValueError, match="a field is declared twice"):  # in two groups, or twice in one
        Calculator(id="x", game="wotr", slug="x", title="x", compute=lambda values: {}, method="",
                   form=(Group("A", (Integer("a", "A", minimum=0, maximum=1),)),
                         Group("B", (Integer("a", "A again", minimum=0, maximum=1),))))
    with pytest.raises(ValueError, match="not a field before it"):
        Calculator(id="x", game="wotr", slug="x", title="x", compute=lambda values: {}, method="",
                   form=(Integer("a", "A", minimum=0, maximum=1, shown_when=(When("b", "1"),)),
                         Integer("b", "B", minimum=0, maximum=1)))


# --------------------------------------------------------------------------- JSON bodies


def good_json(field):
    """A value the field takes in a JSON body."""
    if isinstance(field, Integer):
        return field.minimum
    if isinstance(field, Boolean):
        return False
    if isinstance(field, Choice):
        return field.values[0]
    if isinstance(field, IntegerList):
        return [field.minimum] * (field.count or 1)
    if isinstance(field, Text):
        return ""
    if isinstance(field, Records):
        return [{member.name: good_json(member) for member in field.fields}] * max(field.min_items, 1)
    raise AssertionError(f"no value for {field!r}")


def bad_json(field):
    """(JSON value, the name the error must give) the field must refuse."""
    if isinstance(field, Integer):
        return [(field.maximum + 1, ""), (str(field.minimum), ""), (True, ""), (1.5, "")]
    if isinstance(field, Boolean):
        return [(1, ""), ("true", "")]
    if isinstance(field, Choice):
        return [("nonesuch", ""), (0, "")]
    if isinstance(field, IntegerList):
        return [("1", ""), (["x"], "[0]"), ([field.maximum + 1], "[0]")]
    if isinstance(field, Text):
        return [(1, ""), ("a" * (field.max_length + 1), "")]
    if isinstance(field, Records):
        cases = [(5, ""), ([good_json(field)[0]] * (field.max_items + 1), "")]
        # an item that is not a record: refused as a record, or as the one member it may stand for
        count = max(field.min_items, 1)
        cases.append((["7"] * count, f"[0].{field.shorthand}") if field.shorthand else ([7] * count, "[0]"))
        for member in field.fields:
            for value, inner in bad_json(member):
                record = {**good_json(field)[0], member.name: value}
                cases.append(([record] * max(field.min_items, 1), f"[0].{member.name}{inner}"))
        return cases
    raise AssertionError(f"no bad value for {field!r}")


def post_cases():
    for calc in CALCULATORS.values():
        for api in calc.apis:
            if api.method != "POST":
                continue
            for field in api.fields:
                for value, inner in bad_json(field):
                    yield pytest.param(calc.id, api.path, field.name, value, field.name + inner,
                                       id=f"{api.path}:{field.name + inner}={str(value)[:20]}")


@pytest.mark.parametrize("calc_id, path, name, value, where", list(post_cases()))
def test_a_bad_member_of_a_json_body_is_refused_by_name(client, calculators, calc_id, path, name, value, where):
    api = next(api for api in calculators[calc_id].apis if api.path == path)
    body = {field.name: good_json(field) for field in api.fields}
    assert client.post(path, json=body).status_code == 200, body  # the body is good but for the bad value
    response = client.post(path, json={**body, name: value})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith(f"{where}: must be "), error


def test_a_required_member_left_out_of_a_json_body_is_refused_by_name(client, calculators):
    for calc in calculators.values():
        for api in calc.apis:
            if api.method != "POST":
                continue
            body = {field.name: good_json(field) for field in api.fields}
            for field in api.fields:
                response = client.post(api.path, json={key: value for key, value in body.items() if key != field.name})
                if field.default is REQUIRED:
                    assert response.status_code == 400
                    assert response.get_json()["error"].startswith(f"{field.name}: required: ")
                elif response.status_code == 400:  # needed only with other members (an order, with defenders)
                    assert response.get_json()["error"].startswith(f"{field.name}: required when "), api.path
                else:
                    assert response.status_code == 200, (api.path, field.name, response.get_json())


def test_a_post_body_reads_the_fields_the_page_declares(calculators):
    """A member of a JSON body is the page's field (a player's record: each player's fields of the page),
    so a blank on the page and a member left out of a body mean the same, with the same limits."""
    for calc in calculators.values():
        names = {field.name for field in calc.fields}
        for api in (api for api in calc.apis if api.method == "POST"):
            for field in api.fields:
                if field.name in names:
                    assert field == calc.field(field.name), (api.path, field.name)
                    continue
                assert isinstance(field, Records), (api.path, field.name)
                for number in range(1, field.max_items + 1):
                    for member in field.fields:
                        page = calc.field(f"p{number}_{member.name}")
                        assert member.but(name=page.name, example=page.example) == page, (api.path, page.name)


def post_apis():
    return [pytest.param(calc.id, api.path, id=api.path) for calc in CALCULATORS.values() for api in calc.apis
            if api.method == "POST"]


@pytest.mark.parametrize("calc_id, path", post_apis())
def test_a_body_that_is_no_object_or_names_an_unknown_member_is_refused(client, calculators, calc_id, path):
    api = next(api for api in calculators[calc_id].apis if api.path == path)
    for body in ([1, 2], "x", 5):
        response = client.post(path, json=body)
        assert response.status_code == 400
        assert response.get_json()["error"].startswith("body: must be a JSON object"), body
    for raw in ("{not json", "players=2"):
        response = client.post(path, data=raw, content_type="application/json")
        assert response.status_code == 400 and response.get_json()["error"].startswith("body: must be a JSON object")
    good = {field.name: good_json(field) for field in api.fields}
    response = client.post(path, json={**good, "nonesuch": 1})
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("nonesuch: not a field of this request; allowed fields are " +
                                                   ", ".join(field.name for field in api.fields))
    for field in api.fields:
        if isinstance(field, Records):  # a record's unknown member, named with the record's place in the list
            record = {**good_json(field)[0], "nonesuch": 1}
            response = client.post(path, json={**good, field.name: [record] * max(field.min_items, 1)})
            assert response.status_code == 400
            assert response.get_json()["error"].startswith(
                f"{field.name}[0].nonesuch: not a field of a {field.item}; allowed fields are "), field.name


def twice_cases():
    for calc in CALCULATORS.values():
        if any(api.method == "GET" for api in calc.apis):
            for field in calc.fields:
                if isinstance(field, (Integer, Boolean, Choice, Text)):
                    yield pytest.param(calc.id, field.name, id=f"{calc.id}:{field.name}")


@pytest.mark.parametrize("calc_id, name", list(twice_cases()))
def test_a_parameter_given_twice_is_refused_on_the_api(client, calculators, calc_id, name):
    calc = calculators[calc_id]
    api = next(api for api in calc.apis if api.method == "GET")
    values = applying_values(calc, calc.field(name))
    query = api_query(calc, values)
    value = dict(query).get(name) or calc.field(name).form_value(calc.field(name).prefill) or "0"
    response = client.get(api.path, query_string=replaced(query, name, [(name, value), (name, value)]))
    assert response.status_code == 400
    assert response.get_json() == {"error": f"{name}: give it only once"}


# --------------------------------------------------------------------------- what the rules allow

RULE_CHECKS = [
    # MECCG: only a character that can tap may choose -3 to stay untapped; a wounded one cannot tap
    ("meccg-strike", {"tapped": "true", "stay_untapped": "true"}, "stay_untapped",
     "only a character that is neither tapped nor wounded can choose to remain untapped"),
    ("meccg-strike", {"wounded": "true", "stay_untapped": "true"}, "stay_untapped",
     "only a character that is neither tapped nor wounded can choose to remain untapped"),
    # FotF battle: troops of both sides must be present, and a given dice count must follow them
    ("fotf-battle", {"friendly_troops": "0"}, "friendly_troops", "a battle needs at least 1 friendly troop"),
    ("fotf-battle", {"shadow_troops": "0"}, "shadow_troops", "a battle needs at least 1 shadow troop"),
    ("fotf-battle", {"friendly_troops": "2", "dice": "3"}, "dice",
     "must be from 1 to 2: an attack rolls up to 1 die per friendly troop, at most 3"),
    ("fotf-battle", {"initiator": "shadow", "shadow_troops": "5", "dice": "2"}, "dice",
     "must be 3: a card's battle rolls 1 die per shadow troop, at most 3"),
    ("fotf-battle", {"dice": "4"}, "dice", "must be a whole number from 1 to 3"),
    # FotF search: each Nazgûl in Frodo's region rolls a die, so never more Nazgûl than dice
    ("fotf-search", {"nazgul": "3", "shadow_troops": "0", "dice": "2"}, "dice",
     "more Nazgûl (3) than search dice (2)"),
    ("fotf-search", {"nazgul": "1", "shadow_troops": "2", "dice": "2"}, "dice",
     "1 Nazgûl and 2 shadow troops roll 3 search dice (1 when the shadow troops are ignored), not 2"),
    ("fotf-search", {"dice": "8"}, "dice", "must be a whole number from 0 to 7"),
    # MECCG: an item can only be influenced by revealing an identical card
    ("meccg-influence", {"kind": "item"}, "identical", "an influence attempt on an item requires revealing"),
]


@pytest.mark.parametrize("calc_id, texts, name, message", RULE_CHECKS,
                         ids=[f"{case[0]}:{'&'.join(f'{k}={v}' for k, v in case[1].items())}" for case in RULE_CHECKS])
def test_what_the_rules_forbid_is_the_same_error_on_the_page_and_the_api(client, calculators, calc_id, texts, name,
                                                                       message):
    calc = calculators[calc_id]
    query = calc.form_query()
    for key, text in texts.items():
        query = replaced(query, key, [(key, text)])
    page = client.get(page_url(calc), query_string=query)
    assert page.status_code == 400
    shown = page.get_data(as_text=True)
    beside = error_text(shown, name)
    assert beside is not None and beside.startswith(f"{calc.field(name).label}: {message}"), beside
    assert 'class="result"' not in shown
    api = next(api for api in calc.apis if api.method == "GET")
    response = client.get(api.path, query_string={**dict(api_query(calc, calc.prefill())), **texts})
    assert response.status_code == 400
    assert response.get_json() == {"error": f"{name}: {beside.removeprefix(calc.field(name).label + ': ')}"}


# --------------------------------------------------------------------------- words for players

# What only a program needs (how a query or a JSON body writes a value, names of parameters, files)
# belongs in the OpenAPI description (a field's api_help), never in what a player reads.
DEVELOPER_WORDS = re.compile(r"\b((?i:query|json|api|parameters?|endpoint|null|true|false|string|integer|boolean|array|"
                             r"yaml)|None|GET|POST)\b")
DEVELOPER_MARKS = ("{", "}", "[", "]", "_", "content/", ".yaml", "1e-", "==", "://")


def developer_terms(text, names=()):
    """The developer terms in a text a player reads: words, marks, and the names a program uses."""
    found = [match.group(0) for match in DEVELOPER_WORDS.finditer(text)]
    found += [mark for mark in DEVELOPER_MARKS if mark in text]
    return found + [name for name in names if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)]


def program_names(calc):
    """The names a program gives a calculator's fields and choices that are not plain words."""
    names = set()
    for field in calc.fields:
        for member in (field, *(field.fields if isinstance(field, Records) else ())):
            names.add(member.name)
            names.update(value for value in getattr(member, "values", ()) if not value.isalpha())
    return {name for name in names if not name.isalpha()}


def player_texts(member):
    """What a player reads of a field: its label, help, the meaning of a blank, its choices, its name in a summary."""
    texts = [member.label, member.form_help, member.blank, member.short]
    texts += [label for _, label in getattr(member, "choices", ())]
    if isinstance(member, Records):
        texts.append(member.item)
    return [text for text in texts if text]


def field_cases():
    for calc in CALCULATORS.values():
        for field in calc.fields:
            for member in (field, *(field.fields if isinstance(field, Records) else ())):
                yield pytest.param(calc.id, field.name, member.name, id=f"{calc.id}:{member.name}")


@pytest.mark.parametrize("calc_id, field_name, member_name", list(field_cases()))
def test_what_a_player_reads_of_a_field_has_no_developer_terms(calculators, calc_id, field_name, member_name):
    calc = calculators[calc_id]
    field = calc.field(field_name)
    member = field if member_name == field_name else next(m for m in field.fields if m.name == member_name)
    for text in player_texts(member):
        assert developer_terms(text, program_names(calc)) == [], text


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_what_a_player_reads_of_a_calculator_has_no_developer_terms(client, calculators, calc_id):
    calc = calculators[calc_id]
    texts = [calc.title, calc.method]
    for group in calc.groups:
        texts += [group.legend, group.note]
    for text in filter(None, texts):
        assert developer_terms(text, program_names(calc)) == [], text
    # and the page as a whole: its form's words, outside the markup
    page = client.get(page_url(calc)).get_data(as_text=True)
    form = re.search(r'<form id="calc-form".*?</form>', page, re.S).group(0)
    form = re.sub(r"<template.*?</template>", "", form, flags=re.S)  # the script's copy of a card's boxes
    words = html.unescape(re.sub(r"<[^>]+>", " ", form))
    assert developer_terms(words, program_names(calc)) == [], words


def test_developer_terms_are_found():
    # the check above must be able to fail: the words players reported are found
    assert developer_terms("One number per marker (in a query, separated by commas: 10,12,14).") == ["query"]
    assert developer_terms("or {defence, items} for a card carrying items") == ["{", "}"]
    assert developer_terms("Give nazgul_present, or see content/fotf/data/dice.yaml") == ["yaml", "_", "content/", ".yaml"]
    assert developer_terms("Set it to skies-darken", {"skies-darken"}) == ["skies-darken"]
    assert developer_terms("Nazgûl present; a Skies Darken card", {"skies-darken", "nazgul_present"}) == []


def test_no_heading_is_repeated_under_itself(client, calculators):
    # a fieldset's legend and the labels under it never say the same ("Combat / Combat")
    for calc in calculators.values():
        for group in calc.groups:
            for field in group.fields:
                assert field.label.casefold() != group.legend.casefold(), (calc.id, group.legend)
        # nor does any heading of the page follow one that says the same, with an answer or without
        for query in ([], calc.form_query()):
            page = client.get(page_url(calc), query_string=query).get_data(as_text=True)
            headings = [html.unescape(re.sub(r"<[^>]+>", "", text)).strip().casefold() for _, text in re.findall(
                r"<(h\d|legend|label|summary|figcaption|caption)\b[^>]*>(.*?)</\1>", page, re.S)]
            repeated = [first for first, second in zip(headings, headings[1:]) if first and first == second]
            assert repeated == [], (calc.id, repeated)


class ReadValues(dict):
    """A calculator's values that remember which of them its engine call read (``**values`` reads them all)."""

    def __init__(self, values):
        super().__init__(values)
        self.read = set()

    def __getitem__(self, name):
        self.read.add(name)
        return super().__getitem__(name)

    def get(self, name, default=None):
        self.read.add(name)
        return super().get(name, default)

    def _whole(self, *args):
        raise AssertionError("the values were read whole, not field by field")

    items = values = copy = __iter__ = _whole


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_every_field_a_form_shows_reaches_the_engine(app, calc_id):
    # a field added to a form but never read by the calculation would still render, take input and pass
    # the API's and the docs' checks; every field that applies to the example inputs must be read
    with app.app_context():
        calc = get_calculators()[calc_id]
        values, errors, _ = read_query(calc.fields, MultiDict(calc.form_query()))
        assert not errors
        seen = ReadValues(values)
        calc.run(seen)
    assert calc.applying(values) - seen.read == set()


def test_a_field_the_engine_does_not_read_is_found():
    calc = Calculator(id="t-test", game="wotr", slug="test", title="Test", method="",
                      form=(Integer("a", "A", default=0, minimum=0, maximum=5),
                            Integer("b", "B", default=0, minimum=0, maximum=5)),
                      compute=lambda values: values["a"] + 1)
    values, errors, _ = read_query(calc.fields, MultiDict(calc.form_query()))
    seen = ReadValues(values)
    assert not errors and calc.run(seen) == 1
    assert calc.applying(values) - seen.read == {"b"}
