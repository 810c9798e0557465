"""The OpenAPI document against the real endpoints, the calculator pages and docs/api.md."""
import html
import re

import pytest
from flask import request
from werkzeug.datastructures import ImmutableMultiDict

from webapp import PROJECT_ROOT
from webapp.calculators import CALCULATORS
from webapp.calculators.fields import REQUIRED as FIELD_REQUIRED

IGNORED_METHODS = {"HEAD", "OPTIONS"}
REQUIRED = {"/api/search": {"q": "combat"}}  # parameters the search cannot do without
API_DOCS = (PROJECT_ROOT / "docs" / "api.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def document(app):
    response = app.test_client().get("/api/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.get_json()


def example_query(document, path):
    """Parameters an endpoint answers: the search's required ones, a calculator's documented examples."""
    return REQUIRED.get(path) or {
        parameter["name"]: schema_values({key: parameter["schema"][key] for key in ("example", "default")
                                          if key in parameter["schema"]})[0]
        for parameter in document["paths"][path]["get"].get("parameters", [])
        if {"example", "default"} & set(parameter["schema"])}


def documented_operations(document):
    return {(path, method.upper()) for path, item in document["paths"].items() for method in item}


def get_parameters(document, path):
    return {p["name"]: p for p in document["paths"][path]["get"].get("parameters", [])}


def routed_operations(app):
    return {(rule.rule, method) for rule in app.url_map.iter_rules()
            if rule.rule.startswith("/api/") and rule.rule != "/api/openapi.json"
            for method in rule.methods - IGNORED_METHODS}


def test_every_api_route_is_documented_with_its_method_and_nothing_else(app, document):
    assert routed_operations(app) == documented_operations(document)


def test_every_documented_operation_answers(client, document):
    for path, method in documented_operations(document):
        if method == "GET":
            response = client.get(path, query_string=example_query(document, path))
            assert response.status_code == 200, (path, response.get_data(as_text=True)[:200])
        else:
            # an empty body is refused, naming a member, when the body has members it must give
            schema = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
            response = client.post(path, json={})
            if schema.get("required"):
                assert response.status_code == 400, path
                assert response.get_json()["error"].startswith(f"{schema['required'][0]}: required"), path
            else:
                assert response.status_code == 200 and "error" not in response.get_json(), path


def test_the_document_is_well_formed(document):
    assert document["openapi"].startswith("3.0")
    ids = [op["operationId"] for item in document["paths"].values() for op in item.values()]
    assert len(ids) == len(set(ids))
    for path, item in document["paths"].items():
        for method, operation in item.items():
            # a body over the limit (the app's or nginx's) is a 413, a client over nginx's rate limit a 429
            assert set(operation["responses"]) == {"200", "400", "429"} | ({"413"} if method == "post" else set())
            for status in set(operation["responses"]) - {"200"}:
                error = operation["responses"][status]["content"]["application/json"]["schema"]
                assert error == {"$ref": "#/components/schemas/Error"}, (method, path, status)
            assert "Retry-After" in operation["responses"]["429"]["headers"]
            if method == "post":
                schema = operation["requestBody"]["content"]["application/json"]["schema"]
                assert schema["type"] == "object" and schema.get("additionalProperties") is False
    # every $ref points at something that exists
    text = str(document)
    for ref in set(re.findall(r"'\$ref': '#/([^']+)'", text)):
        node = document
        for part in ref.split("/"):
            node = node[part]
        assert isinstance(node, dict)


# --------------------------------------------------------------------------- parameters


class RecordingArgs(ImmutableMultiDict):
    """Query arguments that remember every name a view asks for."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.asked = set()

    def __getitem__(self, key):
        self.asked.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None, type=None):
        self.asked.add(key)
        return super().get(key, default, type)

    def getlist(self, key, type=None):
        self.asked.add(key)
        return super().getlist(key, type)

    def __contains__(self, key):
        self.asked.add(key)
        return super().__contains__(key)


def call_recording(app, path, query):
    """(names the view read from the query, status) for a GET of path with query."""
    endpoint, values = app.url_map.bind("localhost").match(path, method="GET")
    with app.test_request_context(path, query_string=query):
        args = RecordingArgs(request.args)
        request._get_current_object().__dict__["args"] = args  # Werkzeug caches args on the request
        response = app.make_response(app.view_functions[endpoint](**values))
    return args.asked, response.status_code


def get_paths():
    return ["/api/search"] + [api.path for calc in CALCULATORS.values() for api in calc.apis if api.method == "GET"]


@pytest.mark.parametrize("path", get_paths())
def test_an_endpoint_reads_exactly_its_documented_parameters(app, document, path):
    documented = set(get_parameters(document, path))
    asked, status = call_recording(app, path, example_query(document, path))
    assert status == 200
    assert asked == documented
    # a parameter it does not document is refused by name, not read
    asked, status = call_recording(app, path, {**example_query(document, path), "unknown_parameter": "1"})
    assert status == 400
    assert "unknown_parameter" not in asked


def schema_values(schema):
    """Text values drawn from a parameter's schema: its default, enum, bounds and middle."""
    values = []
    if "example" in schema:
        values.append(schema["example"])
    if "default" in schema:
        values.append(schema["default"])
    values += schema.get("enum", [])
    if schema.get("type") == "boolean":
        values += [True, False]
    if schema.get("type") == "integer":
        values += [schema["minimum"], schema["maximum"], (schema["minimum"] + schema["maximum"]) // 2]
    text = [str(v).lower() if isinstance(v, bool) else str(v) for v in values]
    return text or ["combat"]


@pytest.mark.parametrize("path", get_paths())
def test_every_documented_parameter_is_accepted(client, document, path):
    for name, parameter in get_parameters(document, path).items():
        assert parameter["in"] == "query"
        schema = parameter["schema"]
        answers = {}
        for value in schema_values(schema):
            response = client.get(path, query_string={**example_query(document, path), name: value})
            answers[value] = response.status_code
            if response.status_code != 200:
                # refused only with the reason, naming a parameter (or the parameters wrong together)
                assert re.match(r"\w+(, \w+)*: ", response.get_json()["error"]), response.get_json()
        assert 200 in answers.values(), (name, answers)
        if "default" in schema:
            default = schema_values({"default": schema["default"]})[0]
            assert answers[default] == 200, (name, default)


# --------------------------------------------------------------------------- pages and docs


def method_paragraph(page):
    found = re.search(r'<section class="method">\s*<h2>Method</h2>\s*<p>(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)).strip() if found else ""


@pytest.mark.parametrize("calculator", list(CALCULATORS.values()), ids=lambda c: c.id)
def test_every_calculator_page_explains_its_method(client, document, calculator):
    response = client.get(f"/{calculator.game}/calc/{calculator.slug}")
    assert response.status_code == 200
    explanation = method_paragraph(response.get_data(as_text=True))
    assert len(explanation.split()) >= 8, explanation
    assert explanation == calculator.method
    # the API says the same about every endpoint of the page
    for api in calculator.apis:
        operation = document["paths"][api.path][api.method.lower()]
        assert operation["description"] == calculator.method


def json_api_section():
    found = re.search(r"^## JSON API\n(.*?)(?=^## |\Z)", API_DOCS, re.S | re.M)
    assert found, "docs/api.md has no '## JSON API' section"
    return found.group(1)


def test_readme_lists_every_api_endpoint(document):
    section = json_api_section()
    assert "/api/openapi.json" in section
    for path, method in sorted(documented_operations(document)):
        line = next((line for line in section.splitlines() if re.search(rf"{method} {re.escape(path)}[?` ]", line)),
                    None)
        assert line, f"docs/api.md does not list {method} {path}"
        assert len(re.sub(r"[`|?&=.,]", " ", line).split()) >= 4  # a description beside it, not a bare path


def test_every_parameter_says_whether_it_is_required_and_what_leaving_it_out_means(document, calculators):
    for calc in calculators.values():
        for api in calc.apis:
            if api.method != "GET":
                continue
            parameters = get_parameters(document, api.path)
            for member in calc.fields:
                parameter = parameters[member.name]
                always = member.default is FIELD_REQUIRED and not calc.conditions(member)
                assert parameter["required"] is always, member.name
                if member.default is None:
                    assert f"Left out or blank: {member.blank}." in parameter["description"]
                elif member.default is not FIELD_REQUIRED:
                    assert "Left out or blank: " in parameter["description"]
                if calc.conditions(member):
                    assert "Read only when " in parameter["description"], member.name


def test_the_document_says_the_api_answers_one_plan_and_how_pages_hold_several(document, client, calculators):
    words = document["info"]["description"]
    assert "one setup" in words and "prefixed b- and c-" in words and "plans=2 or 3" in words
    # the pages do read the prefixes the document names
    calc = calculators["wotr-roll"]
    page = client.get("/wotr/calc/roll", query_string=[("plans", "2"), *calc.form_query(),
                                                       *calc.form_query(prefix="b-")])
    assert page.status_code == 200 and 'id="result-b"' in page.get_data(as_text=True)


# --------------------------------------------------------------------------- parameters read only with another's value


def conditional_parameters():
    for calc in CALCULATORS.values():
        if any(api.method == "GET" for api in calc.apis):
            for member in calc.fields:
                if calc.conditions(member):
                    yield pytest.param(calc.id, member.name, id=f"{calc.id}:{member.name}")


def api_query(calc, values):
    return [(member.name, member.form_value(values[member.name])) for member in calc.fields
            if values[member.name] is not None]


def with_conditions(calc, member, hold):
    """The example values, changed so that the field's conditions hold (the first of them) or none does."""
    values = calc.prefill()
    for condition in calc.conditions(member)[:1] if hold else calc.conditions(member):
        control = calc.field(condition.field)
        if hold:
            texts = condition.values or [text for text in ("1", "2", str(getattr(control, "maximum", 1)))
                                         if text not in condition.other_than]
        else:
            texts = condition.other_than or [value for value in control.values if value not in condition.values]
        values[condition.field] = control.parse_text(texts[0])
    assert (member.name in calc.applying(values)) is hold, (calc.id, member.name, hold)
    return values


@pytest.mark.parametrize("calc_id, name", list(conditional_parameters()))
def test_a_parameter_read_only_with_another_says_when_and_whether_it_is_required_then(client, document, calculators,
                                                                                      calc_id, name):
    calc = calculators[calc_id]
    member = calc.field(name)
    path = next(api.path for api in calc.apis if api.method == "GET")
    parameter = get_parameters(document, path)[name]
    required_then = member.default is FIELD_REQUIRED
    assert parameter["required"] is False
    assert ("and then required" in parameter["description"]) is required_then, parameter["description"]
    assert "otherwise neither read nor checked" in parameter["description"]
    # while it is read: left out, it is refused as required (or stands for its stated blank)
    read = [(key, text) for key, text in api_query(calc, with_conditions(calc, member, hold=True)) if key != name]
    response = client.get(path, query_string=read)
    if required_then:
        assert response.status_code == 400 and response.get_json()["error"].startswith(f"{name}: required"), \
            response.get_json()
    else:
        assert response.status_code == 200, response.get_json()
    # while it is not read, whatever it holds is neither read nor checked
    unread = [(key, text) for key, text in api_query(calc, with_conditions(calc, member, hold=False)) if key != name]
    answered = client.get(path, query_string=unread)
    assert answered.status_code == 200, answered.get_json()
    assert client.get(path, query_string=unread + [(name, "nonesuch")]).get_json() == answered.get_json()


def test_siege_battles_with_a_defender_who_stands_are_not_read(client):
    """A stand in the field fights no siege: siege_battles=6 (more than allowed) is not read, as documented."""
    query = {"attacker_regulars": "4", "defender_regulars": "3", "terrain": "field", "defender_choice": "stand"}
    stand = client.get("/api/wotr/battle", query_string=query)
    assert stand.status_code == 200
    assert client.get("/api/wotr/battle", query_string={**query, "siege_battles": "6"}).get_json() == stand.get_json()
    siege = client.get("/api/wotr/battle", query_string={**query, "terrain": "siege", "siege_battles": "6"})
    assert siege.status_code == 400 and siege.get_json()["error"].startswith("siege_battles: must be")


def test_the_siege_rule_on_downgrading_is_in_the_description(document):
    described = get_parameters(document, "/api/wotr/battle")["siege_continue"]["description"]
    assert "the Regular must come from its casualties or the reinforcements: with none at hand it cannot, and that " \
           "siege battle ends" in described
