"""Hostile input on every endpoint: never a 5xx, never a traceback, a JSON error naming the problem.

GET parameters come from the OpenAPI document; POST bodies are random JSON, broken JSON,
bodies that are not objects, too deep or too large. The calculator pages and the search
are fuzzed too: whatever is typed comes back escaped. (How fast a hostile search answers is measured
by bench/search_edge_cases.py, not asserted here.)
"""
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webapp.calculators import CALCULATORS
from webapp.calculators.fields import BOOLEAN_WORDS
from webapp.calculators.plans import EDITS
from webapp.search import MAX_QUERY_CHARS

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GET_PATHS = ["/api/search"] + [api.path for calc in CALCULATORS.values() for api in calc.apis if api.method == "GET"]
POST_PATHS = [api.path for calc in CALCULATORS.values() for api in calc.apis if api.method == "POST"]
PAGES = {f"/{calc.game}/calc/{calc.slug}": calc for calc in CALCULATORS.values()}
# A whole battle between two large Armies fought over many rounds takes seconds: the fuzzer's
# valid values stay small there so the run stays fast (hostile values are not limited).
SMALL = {"/api/wotr/battle": {"regulars": 4, "elites": 3, "leadership": 2, "rounds": 3}}
MARKER = "<x-fuzz a=1>"  # a tag no page has: seen raw in a page, some input was not escaped


@pytest.fixture(scope="module")
def document(app):
    return app.test_client().get("/api/openapi.json").get_json()


def parameters(document, path):
    return {p["name"]: p["schema"] for p in document["paths"][path]["get"]["parameters"]}


def example_query(document, path):
    """A query the endpoint answers: each parameter's documented example (or default)."""
    if path == "/api/search":
        return {"q": "combat"}
    return {name: str(schema.get("example", schema.get("default"))).lower() if isinstance(
        schema.get("example", schema.get("default")), bool) else str(schema.get("example", schema.get("default")))
        for name, schema in parameters(document, path).items() if "example" in schema or "default" in schema}


def reading_query(query, path, name):
    """The example query, changed where needed so that the endpoint reads ``name``: a parameter read only
    with another's value (its description says "Read only when ...") is otherwise neither read nor checked."""
    calc = next((calc for calc in CALCULATORS.values() for api in calc.apis if api.path == path), None)
    if calc is None:
        return query
    for condition in calc.conditions(calc.field(name))[:1]:
        value = condition.values[0] if condition.values else next(
            text for text in ("1", "2") if text not in condition.other_than)
        query = {**reading_query(query, path, condition.field), condition.field: value}
    return query


def body_schema(document, path):
    return document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]


# --------------------------------------------------------------------------- values

printable = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
HOSTILE_TEXT = st.one_of(
    printable,
    st.sampled_from(["", " ", "\x00", "1\x00", "1.5", "1e3", "-0", "+3", " 3 ", "0x10", "NaN", "Infinity", "-inf",
                     "٣", "３", "1_0", "true", "yes", "on", "None", "null", "[]", "{}", "1,2", ",,", "1,2,3,4",
                     "<script>alert(1)</script>", MARKER, "%00", "'; DROP TABLE x; --", "ＡＢＣ", "🜂",
                     "a" * 300]),
    st.integers(-10**30, 10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)


def valid_value(schema, cap=None):
    """A value the parameter's schema allows, as query text."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if schema.get("type") == "boolean":
        return st.sampled_from(["true", "false"])
    if schema.get("type") == "integer":
        high = schema["maximum"] if cap is None else min(schema["maximum"], cap)
        return st.integers(schema["minimum"], max(schema["minimum"], high)).map(str)
    if "pattern" in schema and "," in schema["pattern"]:
        return st.lists(st.integers(0, 60), min_size=1, max_size=4).map(lambda v: ",".join(map(str, v)))
    return printable


def cap_for(path, name):
    return next((cap for part, cap in SMALL.get(path, {}).items() if part in name), None)


@st.composite
def queries(draw, path, schemas):
    """(pairs of name and value, names whose value may be anything)."""
    pairs = []
    # now and then only values the schema allows, so odd but valid combinations are reached too
    kinds = (["omit", "valid"] if draw(st.integers(0, 3)) == 0
             else ["omit", "omit", "valid", "valid", "hostile", "repeat"])
    for name, schema in schemas.items():
        how = draw(st.sampled_from(kinds))
        if how == "valid":
            pairs.append((name, draw(valid_value(schema, cap_for(path, name)))))
        elif how == "hostile":
            pairs.append((name, draw(HOSTILE_TEXT)))
        elif how == "repeat":
            pairs += [(name, draw(valid_value(schema, cap_for(path, name)))), (name, draw(HOSTILE_TEXT))]
    for _ in range(draw(st.integers(0, 2))):  # parameters the endpoint does not have (refused by name)
        pairs.append((draw(st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=10)),
                      draw(HOSTILE_TEXT)))
    return draw(st.permutations(pairs))


def invalid_value(schema):
    """Text the parameter refuses whatever else is sent (blank means the default, so never blank)."""
    letters = st.text(st.characters(categories=("Ll", "Lu", "Lo")), min_size=1, max_size=8)
    if "enum" in schema:
        return st.one_of(letters, HOSTILE_TEXT).filter(lambda v: v.strip() and v.strip() not in schema["enum"])
    if schema.get("type") == "boolean":
        return st.one_of(letters, HOSTILE_TEXT).filter(
            lambda v: v.strip() and v not in BOOLEAN_WORDS)
    if schema.get("type") == "integer":
        outside = st.one_of(st.integers(schema["maximum"] + 1, 10**40), st.integers(-10**40, schema["minimum"] - 1))
        return st.one_of(outside.map(str), letters, st.floats(0.01, 99).filter(lambda v: v != int(v)).map(repr),
                         st.sampled_from(["1.5", "1e3", "NaN", "\x00", "<b>", "1 2", "--1", "0x1"]))
    return st.one_of(letters, st.just("1,x,3"), st.just("\x00"))


# --------------------------------------------------------------------------- assertions


def check_json_response(response, names):
    """2xx with a JSON object, or 4xx with exactly {"error": "..."} starting with a name at fault."""
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/json"
    text = response.get_data(as_text=True)
    assert "Traceback" not in text and 'File "' not in text
    body = response.get_json()
    if response.status_code < 300:
        assert isinstance(body, dict) and "error" not in body
        return body
    assert 400 <= response.status_code < 500
    assert isinstance(body, dict) and list(body) == ["error"]
    message = body["error"]
    assert isinstance(message, str) and message.strip()
    assert any(message.startswith(name) for name in names), message
    return body


def prefixes(names):
    """How an error may begin: a name at fault, one of its items or members, or the first of
    several names wrong together (the faces of one die: "slip_by, weary, ...: ...")."""
    return [f"{name}{after}" for name in names for after in (":", "[", ".", ", ")]


# --------------------------------------------------------------------------- GET endpoints


@pytest.mark.parametrize("path", GET_PATHS)
def test_get_endpoints_answer_any_query_with_json(app, document, path):
    schemas = parameters(document, path)
    client = app.test_client()

    @FUZZ
    @given(pairs=queries(path, schemas))
    def check(pairs):
        response = client.get(path, query_string=pairs)
        strays = [name[:50].replace("\x00", "\ufffd") for name, _ in pairs if name not in schemas]
        check_json_response(response, prefixes(schemas) + [f"{name}: not a parameter" for name in strays])
        if strays:
            assert response.status_code == 400

    check()


@pytest.mark.parametrize("path", GET_PATHS)
def test_a_bad_value_is_refused_by_its_parameters_name(app, document, path):
    schemas = parameters(document, path)
    names = [name for name in schemas if name != "q"]  # the search text may be anything
    client = app.test_client()
    given_q = example_query(document, path)  # every other parameter good

    @FUZZ
    @given(data=st.data())
    def check(data):
        name = data.draw(st.sampled_from(names))
        value = data.draw(invalid_value(schemas[name]))
        response = client.get(path, query_string={**reading_query(given_q, path, name), name: value})
        assert response.status_code == 400, (name, value)
        check_json_response(response, [f"{name}:"])

    check()


@pytest.mark.parametrize("path", GET_PATHS)
def test_a_misspelt_parameter_is_refused_not_answered_with_a_default(app, document, path):
    """A query with every parameter good and one the endpoint does not have ("leadershp") is refused
    by that name, with the endpoint's own parameters listed, rather than answered without it."""
    names = list(parameters(document, path))
    misspelt = names[-1][:-2] + names[-1][-1]
    query = {**example_query(document, path), misspelt: "2"}
    response = app.test_client().get(path, query_string=query)
    assert response.status_code == 400
    message = response.get_json()["error"]
    assert message.startswith(f"{misspelt}: not a parameter of this endpoint")
    assert all(name in message for name in names)
    assert app.test_client().get(path, query_string=example_query(document, path)).status_code == 200


def test_a_post_endpoint_refuses_query_parameters_as_its_input_is_the_body(app, calculators):
    for calc in calculators.values():
        for api in (api for api in calc.apis if api.method == "POST"):
            response = app.test_client().post(api.path + "?ruleset=seed", json={})
            assert response.status_code == 400, api.path
            assert response.get_json()["error"].startswith("ruleset: not a parameter of this endpoint"), api.path


@pytest.mark.parametrize("path", ["/api/search?q=combat&limit=", "/search?q=combat&limit="])
def test_a_number_of_any_length_is_refused_not_a_server_error(client, path):
    response = client.get(path + "9" * 5000)
    assert response.status_code == 400
    assert "must be a whole number from 1 to" in response.get_data(as_text=True)


# the parameters a form sends as two values, one per box (the first round and how many rounds)
TWO_BOXES = {member.name for calc in CALCULATORS.values() for member in calc.fields if member.widget_hint() == "window"}


# the parameters a form sends as one value per box, a fixed count of them (Sauron's three markers)
BOXES = {member.name for calc in CALCULATORS.values() for member in calc.fields if member.widget_hint() == "boxes"}


@pytest.mark.parametrize("path", GET_PATHS)
def test_a_repeated_parameter_is_refused_by_name(app, document, path):
    client = app.test_client()
    base = example_query(document, path)
    for name, schema in parameters(document, path).items():
        read = reading_query(base, path, name)
        value = read.get(name, str(schema.get("minimum", "1")))
        others = [(key, text) for key, text in read.items() if key != name]
        copies = 3 if name in TWO_BOXES else 2
        response = client.get(path, query_string=others + [(name, value)] * copies)
        assert response.status_code == 400, (name, response.get_json())
        message = response.get_json()["error"]
        if name in BOXES:  # so many values, but not one for each box
            assert message.startswith(f"{name}: must be ") and message.endswith(f"(got {copies} values)")
        else:
            assert message == f"{name}: give it only once"


# --------------------------------------------------------------------------- POST endpoints

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=False),
                         printable)
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(printable, inner, max_size=4)), max_leaves=20)


@st.composite
def bodies(draw, schema):
    """An object with the documented members holding anything, some left out, some unknown ones added."""
    body = {}
    for name, member in schema.get("properties", {}).items():
        how = draw(st.sampled_from(["omit", "junk", "near"]))
        if how == "junk":
            body[name] = draw(json_values)
        elif how == "near":
            body[name] = draw(near_values(member))
    if draw(st.booleans()):
        body[draw(printable)] = draw(json_values)
    return body


def near_values(schema):
    """Values close to what a member takes: right type, out of range, wrong type, nested junk."""
    if schema.get("type") == "integer":
        return st.one_of(st.integers(-5, 120), st.integers(), st.floats(), st.booleans(), st.just("3"))
    if schema.get("type") == "array":
        item = schema.get("items", {})
        item_values = st.one_of(near_values(item), json_values) if item else json_values
        return st.lists(item_values, max_size=4)
    if schema.get("type") == "object" or "properties" in schema:
        return bodies(schema)
    if "oneOf" in schema:
        return st.one_of(*[near_values(option) for option in schema["oneOf"]])
    if "enum" in schema:
        return st.one_of(st.sampled_from(schema["enum"]), printable, st.integers())
    return json_values


def post_names(schema, body):
    names = ["body"] + list(schema.get("properties", {}))
    if isinstance(body, dict):
        names += [str(key)[:50] for key in body]
    return prefixes(names)


@pytest.mark.parametrize("path", POST_PATHS)
def test_post_endpoints_answer_any_json_with_json(app, document, path):
    schema = body_schema(document, path)
    client = app.test_client()

    @FUZZ
    @given(body=st.one_of(bodies(schema), json_values))
    def check(body):
        response = client.post(path, data=json.dumps(body), content_type="application/json")
        check_json_response(response, post_names(schema, body))

    check()


@pytest.mark.parametrize("path", POST_PATHS)
def test_post_endpoints_refuse_what_is_not_a_json_object(app, document, path):
    schema = body_schema(document, path)
    client = app.test_client()
    raw = st.one_of(
        st.binary(max_size=200),
        st.sampled_from([b"", b"{", b"}", b"[1,", b'{"a":}', b"\xff\xfe{}", b"null", b"NaN", b"1e999", b'"text"',
                         b"[]", b"[{}, {}]", b"12", b"true", b"{" * 5000 + b"}" * 5000, b"[" * 20000,
                         b'{"players": ' + b"[" * 3000 + b"]" * 3000 + b"}", b"\x00", b"{\x00}"]),
        json_values.filter(lambda v: not isinstance(v, dict)).map(lambda v: json.dumps(v).encode()),
    )

    @FUZZ
    @given(body=raw, content_type=st.sampled_from(["application/json", "text/plain",
                                                   "application/x-www-form-urlencoded",
                                                   "application/json; charset=latin-1", None]))
    def check(body, content_type):
        if content_type is None:
            response = client.post(path, data=body)
        else:
            response = client.post(path, data=body, content_type=content_type)
        if response.status_code == 200:  # only a body that really is an acceptable object
            assert json.loads(body) is not None
        check_json_response(response, ["body:"] + prefixes(schema.get("properties", {})))

    check()


MALFORMED = {
    "empty": b"", "cut short": b'{"players": [', "not JSON": b"players", "bad bytes": b"\xff\xfe\xfa{}",
    "NUL": b"{\x00}", "a list": b"[{}, {}]", "a string": b'"text"', "a number": b"12", "null": b"null",
    "nested too deep": b"[" * 20_000, "an object nested too deep": b'{"players": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    "a huge number": b'{"players": ' + b"9" * 5000 + b"}",
}


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize("name", list(MALFORMED))
def test_post_endpoints_refuse_a_malformed_body_naming_the_body(client, path, name):
    response = client.post(path, data=MALFORMED[name], content_type="application/json")
    assert response.status_code == 400
    message = check_json_response(response, ["body:", "players:"])["error"]
    if name != "a huge number":
        assert message.startswith("body:"), message


@pytest.mark.parametrize("path", POST_PATHS)
def test_post_endpoints_refuse_a_body_over_the_limit(app, path):
    limit = app.config["MAX_CONTENT_LENGTH"]
    client = app.test_client()

    @settings(max_examples=5, deadline=None)
    @given(extra=st.integers(1, 5000), filler=st.sampled_from([b" ", b"a", b"\x00"]))
    def check(extra, filler):
        response = client.post(path, data=b"{}" + filler * (limit - 1 + extra), content_type="application/json")
        assert response.status_code == 413
        check_json_response(response, ["body:"])

    check()


@pytest.mark.parametrize("path", POST_PATHS)
def test_get_on_a_post_endpoint_is_json_405(client, path):
    response = client.get(path)
    assert response.status_code == 405 and "POST" in response.headers["Allow"]
    assert list(response.get_json()) == ["error"]


# --------------------------------------------------------------------------- pages


@pytest.fixture(scope="module")
def script_tags(app):
    """How many <script tags a calculator page has of its own."""
    return app.test_client().get(next(iter(PAGES))).get_data(as_text=True).count("<script")


@pytest.mark.parametrize("url", list(PAGES))
def test_calculator_pages_escape_whatever_is_typed(app, url, script_tags):
    names = [member.name for member in PAGES[url].fields]
    client = app.test_client()
    hostile = st.one_of(HOSTILE_TEXT, printable).map(lambda v: MARKER + v)

    @FUZZ
    @given(pairs=st.lists(st.tuples(st.one_of(st.sampled_from(names), printable), st.one_of(hostile, HOSTILE_TEXT)),
                          max_size=6))
    def check(pairs):
        if url == "/wotr/calc/battle":  # keep the fuzzer to short battles
            pairs = [(n, v) for n, v in pairs if not re.search(r"regulars|elites|rounds|leadership", n)]
        response = client.get(url, query_string=pairs)
        if response.status_code == 303:  # adding or removing a plan redirects to the new permalink
            assert any(name in EDITS for name, _ in pairs)
            assert response.headers["Location"].startswith(url)
            return
        assert response.status_code in (200, 400)
        text = response.get_data(as_text=True)
        assert "<x-fuzz" not in text
        assert text.count("<script") == script_tags
        assert "Traceback" not in text

    check()


# --------------------------------------------------------------------------- search

SEARCH_PIECES = st.sampled_from([
    '"', '""', "'", "(", ")", "[", "]", "{", "}", "title:", "game:", "body:", "*", "?", "a*", "comb*", "r?ng", "~",
    "^2", "\\", "-", "+", "AND", "OR", "NOT", "TO", "<script>", "</mark>", "<mark>", "&amp;", "&", "<", ">",
    "\x00", " ", "  ", "combat", "ring", "corruption", "re-roll", "Nazgûl", "army leader", "hit", "xyzzy",
])
SEARCH_TEXT = st.lists(st.one_of(SEARCH_PIECES, printable), min_size=1, max_size=30).map(" ".join)


def check_search(client, text, game=None):
    query = {"q": text, **({"game": game} if game else {})}
    response = client.get("/api/search", query_string=query)
    if not text.replace("\x00", " ").strip():  # a NUL reads as a space
        assert response.status_code == 400
        assert response.get_json() == {"error": "q: required, the words to search for"}
        return
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    body = response.get_json()
    # a question over the limit is read up to it, and the answer says so; so does one answered by meaning alone
    assert (body["note"] or "").startswith("Only the first") == (len(text) > MAX_QUERY_CHARS)
    assert (body["note"] is not None) == (len(text) > MAX_QUERY_CHARS or body["by_meaning"])
    assert not body["by_meaning"] or (body["results"] and len(body["results"]) <= 5)
    assert body["query"] == text[:MAX_QUERY_CHARS].replace("\x00", " ")
    for hit in body["results"]:
        snippet = hit["snippet"]
        assert set(re.findall(r"</?\s*([a-zA-Z][\w-]*)", snippet)) <= {"mark"}, snippet
        bare = snippet.replace("<mark>", "").replace("</mark>", "")
        assert "<" not in bare and ">" not in bare, snippet
    assert body["suggestion"] is None or re.fullmatch(r"[\w ]+", body["suggestion"]), body["suggestion"]
    page = client.get("/search", query_string=query)
    assert page.status_code == 200
    assert "<x-fuzz" not in page.get_data(as_text=True) and "<script>alert" not in page.get_data(as_text=True)


@FUZZ
@given(text=SEARCH_TEXT, game=st.sampled_from([None, "wotr", "meccg", "fotf"]))
def test_search_is_safe_for_any_text(app, text, game):
    check_search(app.test_client(), text, game)


@pytest.mark.parametrize("text", [
    "a" * 10_000, ("combat ring " * 1000)[:10_000], " ".join(["corupption"] * 2000)[:10_000],
    '"unbalanced quote', '"""', '"a" "b', "(((", ")))", "[[", "]]", "{{", "}}", "(combat", "combat)",
    "title:", "title:ring", "game:meq combat", "body:hit", "title:(ring OR army)",
    "*", "?", "a*", "*a", "comb*", "r?ng", "**", "?*?*", "combat~2", "ring^5",
    "<script>alert(1)</script>", "<script>alert(1)</script> combat", "<mark>combat</mark>", '"><img src=x>',
    MARKER + " ring", "AND", "OR NOT", "\x00combat", "combat\x00ring",
])
def test_search_edge_cases_are_safe(client, text):
    check_search(client, text)


def test_search_over_ten_thousand_characters_is_cut_at_the_limit(client):
    response = client.get("/api/search", query_string={"q": "a" * 10_001})
    assert response.status_code == 200
    assert response.get_json()["note"] == (f"Only the first {MAX_QUERY_CHARS:,} characters of the question were read "
                                           "(it has 10,001).")
