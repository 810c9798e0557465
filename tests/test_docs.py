"""The README keeps up with the code: every endpoint's parameters as the OpenAPI document has them,
and every calculator by its id, page and endpoints as declared (and nothing the code does not have)."""
import re

import pytest
from flask import url_for

from webapp import PROJECT_ROOT
from webapp.calculators import CALCULATORS
from webapp.content import GAME_IDS

README = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
CONTENT_README = (PROJECT_ROOT / "content" / "README.md").read_text(encoding="utf-8")
CALCULATOR_ID = re.compile(r"`((?:wotr-cards|wotr|meccg|meq|fotf)-[a-z]+(?:-[a-z]+)*)`")


def readme_section(heading):
    found = re.search(rf"^## {heading}\n(.*?)(?=^## )", README, re.S | re.M)
    assert found, f"README.md has no '## {heading}' section"
    return found.group(1)


def table_rows(text, first_cell):
    """The cells of each row of a Markdown table whose first cell matches ``first_cell``."""
    return [[cell.strip() for cell in line.strip("|").split(" | ")]
            for line in text.splitlines() if re.match(rf"^\| {first_cell} \|", line)]


def backticked(cell):
    return re.findall(r"`([^`]+)`", cell)


@pytest.fixture(scope="module")
def document(app):
    return app.test_client().get("/api/openapi.json").get_json()


def documented_parameters(document):
    """(method, path) -> the names of its query parameters (GET) or JSON body members (POST)."""
    found = {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            if "$ref" in schema:
                schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
            names = [parameter["name"] for parameter in operation.get("parameters", [])]
            found[method.upper(), path] = names + list(schema.get("properties", {}))
    return found


def readme_parameters():
    """(method, path) -> the parameters the README's JSON API table lists for it."""
    rows = table_rows(readme_section("JSON API"), r"`(?:GET|POST) /api/[^`]+`")
    assert rows, "README.md's JSON API section has no table of endpoints"
    return {tuple(backticked(endpoint)[0].split(" ", 1)): backticked(parameters)
            for endpoint, parameters, *_ in rows}


def test_readme_lists_every_parameter_of_every_endpoint_and_no_other(document):
    documented, listed = documented_parameters(document), readme_parameters()
    assert sorted(listed) == sorted(documented), "endpoints in README.md and in the OpenAPI document differ"
    for operation, names in documented.items():
        assert listed[operation] == names, (f"README.md lists {listed[operation]} for {operation}; "
                                            f"the OpenAPI document has {names}")


def test_readme_parameters_are_the_calculators_declared_fields(document):
    """A GET endpoint's parameters are its calculator's fields, as the README lists them."""
    listed = readme_parameters()
    for calc in CALCULATORS.values():
        for api in calc.apis:
            if api.method == "GET":
                assert listed["GET", api.path] == [field.name for field in calc.fields], calc.id


def test_readme_table_of_calculators_is_every_calculator_as_declared(app):
    rows = table_rows(readme_section("Calculators"), r"[^|`]+")
    rows = [row for row in rows if row[0] not in ("calculator", "---")]
    assert [backticked(row[1])[0] for row in rows] == list(CALCULATORS), "README.md's calculators differ"
    with app.test_request_context():
        for title, calc_id, page, apis in rows:
            calc = CALCULATORS[backticked(calc_id)[0]]
            assert title == calc.title
            assert backticked(page) == [url_for("calculators.page", game_id=calc.game, slug=calc.slug)]
            assert backticked(apis) == [f"{api.method} {api.path}" for api in calc.apis]


@pytest.mark.parametrize("name, text", [("README.md", README), ("content/README.md", CONTENT_README)])
def test_every_calculator_the_readmes_name_exists(name, text):
    named = set(CALCULATOR_ID.findall(text)) - set(GAME_IDS)
    assert named, f"{name} names no calculator"
    assert named <= set(CALCULATORS), f"{name} names calculators that do not exist: {sorted(named - set(CALCULATORS))}"
    pages = {(game, slug) for game, slug in re.findall(r"/([a-z-]+)/calc/([a-z-]+)", text)}
    assert pages <= {(calc.game, calc.slug) for calc in CALCULATORS.values()}, f"{name} links a page that is not a calculator"


def test_content_readme_lists_every_calculator_id_a_rule_may_name():
    found = re.search(r"^### Calculator ids\n(.*?)(?=^#)", CONTENT_README, re.S | re.M)
    assert found, "content/README.md has no '### Calculator ids'"
    assert backticked(found.group(1)) == list(CALCULATORS)
