"""Every field of every calculator refuses a bad value by name: beside the field on its page (with
what was typed kept), and as a 400 naming it on the API, GET and POST alike.

The cases are generated from the calculators' declarations, so a field added to a declaration is
checked here without a new test.
"""
import html

import pytest

from webapp.calculators import CALCULATORS
from webapp.calculators.fields import Boolean, Choice, Integer, IntegerList, Records, Text


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
    raise AssertionError(f"no bad text for {field!r}")


def page_cases():
    for calc in CALCULATORS.values():
        for field in calc.fields:
            for text in bad_texts(field):
                yield pytest.param(calc.id, field.name, text, id=f"{calc.id}:{field.name}={text}")


@pytest.mark.parametrize("calc_id, name, text", list(page_cases()))
def test_a_bad_value_is_refused_beside_its_field_and_on_the_api(client, calculators, calc_id, name, text):
    calc = calculators[calc_id]
    field = calc.field(name)
    page = client.get(f"/{calc.game}/calc/{calc.slug}", query_string={name: text})
    assert page.status_code == 400
    shown = page.get_data(as_text=True)
    assert f'id="e-{name}"' in shown
    message = html.unescape(shown.split(f'id="e-{name}" role="alert">', 1)[1].split("</p>", 1)[0])
    assert message.startswith(f"{field.label}: must be ")
    if isinstance(field, (Integer, IntegerList)):  # says what is allowed
        assert f"from {field.minimum} to {field.maximum}" in message
    if field.kind in ("integer", "integer_list"):  # what was typed is kept (a drop-down has no bad option)
        assert f'name="{name}" value="{html.escape(text)}"' in shown
    for api in calc.apis:
        if api.method == "GET":
            response = client.get(api.path, query_string={name: text})
            assert response.status_code == 400
            assert response.get_json() == {"error": f"{name}: {message.removeprefix(field.label + ': ')}"}


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
