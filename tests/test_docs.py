"""The docs keep up with the code: every endpoint's parameters as the OpenAPI document has them
(docs/api.md), every calculator by its id, page and endpoints as declared (docs/calculators.md),
and nothing the code does not have; the README stays short and its links lead somewhere."""
import re

import pytest
from flask import url_for

from webapp import PROJECT_ROOT
from webapp.calculators import CALCULATORS
from webapp.content import GAME_IDS

README = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
CONTENT_README = (PROJECT_ROOT / "content" / "README.md").read_text(encoding="utf-8")
DOCS = {path.name: path.read_text(encoding="utf-8") for path in sorted((PROJECT_ROOT / "docs").glob("*.md"))}
README_MOST_LINES = 250
CALCULATOR_ID = re.compile(r"`((?:wotr-cards|wotr|meccg|meq|fotf)-[a-z]+(?:-[a-z]+)*)`")


def docs_section(name, heading):
    """The text of '## heading' in docs/<name>, to the next '## ' heading or the end."""
    found = re.search(rf"^## {heading}\n(.*?)(?=^## |\Z)", DOCS[name], re.S | re.M)
    assert found, f"docs/{name} has no '## {heading}' section"
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
    """(method, path) -> the parameters the JSON API table of docs/api.md lists for it."""
    rows = table_rows(docs_section("api.md", "JSON API"), r"`(?:GET|POST) /api/[^`]+`")
    assert rows, "docs/api.md has no table of endpoints"
    return {tuple(backticked(endpoint)[0].split(" ", 1)): backticked(parameters)
            for endpoint, parameters, *_ in rows}


def test_docs_lists_every_parameter_of_every_endpoint_and_no_other(document):
    documented, listed = documented_parameters(document), readme_parameters()
    assert sorted(listed) == sorted(documented), "endpoints in docs/api.md and in the OpenAPI document differ"
    for operation, names in documented.items():
        assert listed[operation] == names, (f"docs/api.md lists {listed[operation]} for {operation}; "
                                            f"the OpenAPI document has {names}")


def test_docs_parameters_are_the_calculators_declared_fields(document):
    """A GET endpoint's parameters are its calculator's fields, as docs/api.md lists them."""
    listed = readme_parameters()
    for calc in CALCULATORS.values():
        for api in calc.apis:
            if api.method == "GET":
                assert listed["GET", api.path] == [field.name for field in calc.fields], calc.id


def test_docs_table_of_calculators_is_every_calculator_as_declared(app):
    rows = table_rows(docs_section("calculators.md", "Calculators"), r"[^|`]+")
    rows = [row for row in rows if row[0] not in ("calculator", "---")]
    assert [backticked(row[1])[0] for row in rows] == list(CALCULATORS), "docs/calculators.md's calculators differ"
    with app.test_request_context():
        for title, calc_id, page, apis in rows:
            calc = CALCULATORS[backticked(calc_id)[0]]
            assert title == calc.title
            assert backticked(page) == [url_for("calculators.page", game_id=calc.game, slug=calc.slug)]
            assert backticked(apis) == [f"{api.method} {api.path}" for api in calc.apis]


@pytest.mark.parametrize("name, text", [("README.md", README), ("content/README.md", CONTENT_README),
                                        *((f"docs/{name}", text) for name, text in DOCS.items() if name != "content.md")])
def test_every_calculator_the_readmes_name_exists(name, text):
    named = set(CALCULATOR_ID.findall(text)) - set(GAME_IDS)
    assert named <= set(CALCULATORS), f"{name} names calculators that do not exist: {sorted(named - set(CALCULATORS))}"
    pages = {(game, slug) for game, slug in re.findall(r"/([a-z-]+)/calc/([a-z-]+)", text)}
    assert pages <= {(calc.game, calc.slug) for calc in CALCULATORS.values()}, f"{name} links a page that is not a calculator"


def test_content_readme_lists_every_calculator_id_a_rule_may_name():
    found = re.search(r"^### Calculator ids\n(.*?)(?=^#)", CONTENT_README, re.S | re.M)
    assert found, "content/README.md has no '### Calculator ids'"
    assert backticked(found.group(1)) == list(CALCULATORS)


def test_the_readme_orients_in_few_lines_and_its_links_lead_to_files():
    assert len(README.splitlines()) <= README_MOST_LINES
    for heading in ("Quick start", "The pages", "Where the code lives", "How to add", "Tests"):
        assert re.search(rf"^## {heading}$", README, re.M), heading
    links = re.findall(r"\]\(([^)#]+)\)", README)
    assert {"docs/api.md", "docs/calculators.md", "docs/search.md", "docs/deployment.md"} <= set(links)
    for link in links:
        assert (PROJECT_ROOT / link).is_file(), link


def test_every_folder_and_module_the_readme_names_exists():
    for path in re.findall(r"`((?:webapp|templates|static|content|tests|bench|deploy)/[\w./<>-]*)`", README):
        if "<" not in path:
            assert (PROJECT_ROOT / path).exists(), path


def test_the_search_features_and_weights_are_documented_as_the_ranker_has_them():
    from webapp.search import WEIGHTS

    rows = table_rows(docs_section("search.md", "Ranking"), r"`[a-z_]+`")
    documented = {backticked(cells[0])[0]: float(cells[1]) for cells in rows if len(cells) == 3}
    assert documented == WEIGHTS


def test_the_testing_docs_name_every_test_file_and_no_other():
    """docs/testing.md's table names each tests/test_*.py, by name or by a pattern (`test_browser_*.py`,
    `test_calculators_<game>.py`), and every name or pattern there matches a file."""
    from fnmatch import fnmatch

    named = {name.replace("<game>_<calculator>", "*").replace("<game>", "*")
             for name in re.findall(r"`(test_[^`]*\.py)`", DOCS["testing.md"])}
    files = {path.name for path in (PROJECT_ROOT / "tests").glob("test_*.py")}
    assert {name for name in files if not any(fnmatch(name, pattern) for pattern in named)} == set()
    assert {pattern for pattern in named if not any(fnmatch(name, pattern) for name in files)} == set()
