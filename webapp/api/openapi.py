"""The OpenAPI document, generated from the same declarations that parse each endpoint's input."""
from ..calculators.fields import REQUIRED, describe, object_schema
from ..content import GAME_IDS
from ..search import API_LIMIT, LIMIT_MAX, MAX_QUERY_CHARS

ERROR = {"$ref": "#/components/schemas/Error"}
PLANS_NOTE = ("Rules search and exact calculators for five Middle-earth games. Each calculator request answers one "
              "setup; the calculator pages compare two or three plans side by side under one address, the same "
              "parameters prefixed b- and c- for the second and third plan (with plans=2 or 3).")


def _error_responses(method="get"):
    """The errors an operation may answer: the app's 400 (and 413 for a body), and the 429 of the rate
    limit nginx keeps in front of it (deploy/nginx-site.conf.j2), which is JSON like the app's errors."""
    responses = {
        "400": {"description": "Invalid input; the message names the parameter and what is allowed.",
                "content": {"application/json": {"schema": ERROR}}},
    }
    if method == "post":
        responses["413"] = {"description": "The body is larger than the server takes (64 KB unless configured).",
                            "content": {"application/json": {"schema": ERROR}}}
    responses["429"] = {
        "description": "Too many requests from one address (behind the documented nginx); ask again later.",
        "headers": {"Retry-After": {"description": "Seconds to wait before asking again.",
                                    "schema": {"type": "integer", "minimum": 1}}},
        "content": {"application/json": {"schema": ERROR}}}
    return responses


def _ok(description):
    return {"description": description, "content": {"application/json": {"schema": {"type": "object"}}}}


def search_operation():
    return {
        "get": {
            "summary": "Search the rules of every game",
            "operationId": "search",
            "parameters": [
                {"name": "q", "in": "query", "required": True,
                 "description": (f"The question, in the player's own words. Up to {MAX_QUERY_CHARS:,} characters are "
                                 "read; a longer question is cut there and the answer says so in `note`."),
                 "schema": {"type": "string", "minLength": 1, "pattern": r"\S"}},
                {"name": "game", "in": "query", "schema": {"type": "string", "enum": list(GAME_IDS)}},
                {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": LIMIT_MAX, "default": API_LIMIT}},
            ],
            "responses": {
                "200": {"description": "Matching rules, best first",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SearchResults"}}}},
                **_error_responses(),
            },
        }
    }


def calculator_operation(calc, api):
    """One endpoint, from the calculator's declaration: the query parameters or the body it reads."""
    operation = {
        "summary": api.summary,
        "operationId": api.id,
        "description": calc.method,
        "responses": {"200": _ok(calc.title), **_error_responses(api.method.lower())},
    }
    if api.method == "GET":
        operation["parameters"] = [
            {"name": member.name, "in": "query",
             "required": member.default is REQUIRED and not calc.conditions(member),
             "description": " ".join(filter(None, (describe(member), calc.condition_text(member)))),
             "schema": member.openapi_schema(query=True)}
            for member in calc.fields
        ]
    else:
        operation["requestBody"] = {"required": True,
                                    "content": {"application/json": {"schema": object_schema(api.fields)}}}
    return {api.method.lower(): operation}


def document(calculators):
    """The OpenAPI document of the search endpoint and of every endpoint the calculators declare."""
    paths = {"/api/search": search_operation()}
    for calc in calculators.values():
        for api in calc.apis:
            paths[api.path] = calculator_operation(calc, api)
    return {
        "openapi": "3.0.3",
        "info": {"title": "Red Book API", "version": "1",
                 "description": PLANS_NOTE},
        "paths": paths,
        "components": {"schemas": {
            "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
            "SearchResults": {
                "type": "object", "required": ["query", "total", "results", "suggestion", "rewrites", "note", "by_meaning"],
                "properties": {
                    "query": {"type": "string"}, "total": {"type": "integer"},
                    "suggestion": {"type": "string", "nullable": True},
                    "note": {"type": "string", "nullable": True,
                             "description": "Said when the question was cut at the length limit (query is what was read), "
                                            "or when the results are the rules nearest to it in meaning"},
                    "by_meaning": {"type": "boolean",
                                   "description": "No rule uses the question's words: the results are the rules nearest "
                                                  "to it in meaning (none when none is near)"},
                    "results": {"type": "array", "items": {
                        "type": "object",
                        "required": ["id", "game", "section", "kind", "title", "url", "snippet", "game_title", "section_title"],
                        "properties": {k: {"type": "string"} for k in (
                            "id", "game", "section", "kind", "title", "url", "snippet", "game_title", "section_title")}}},
                    "rewrites": {"type": "array", "description": "Player words also searched as the rules' words",
                                 "items": {"type": "object", "required": ["from", "to"], "properties": {
                                     "from": {"type": "string"}, "to": {"type": "array", "items": {"type": "string"}}}}},
                },
            },
        }},
    }
