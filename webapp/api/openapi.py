"""The OpenAPI document, generated from the same declarations that parse each endpoint's input."""
from flask import current_app, jsonify

from ..content import GAME_IDS
from ..search import LIMIT_MAX
from . import bp

ERROR = {"$ref": "#/components/schemas/Error"}


def _error_responses():
    return {
        "400": {"description": "Invalid input; the message names the parameter and what is allowed.",
                "content": {"application/json": {"schema": ERROR}}},
    }


def _ok(description):
    return {"description": description, "content": {"application/json": {"schema": {"type": "object"}}}}


def search_operation():
    return {
        "get": {
            "summary": "Search the rules of every game",
            "operationId": "search",
            "parameters": [
                {"name": "q", "in": "query", "required": True,
                 "schema": {"type": "string", "minLength": 1, "maxLength": 10000, "pattern": r"\S"}},
                {"name": "game", "in": "query", "schema": {"type": "string", "enum": list(GAME_IDS)}},
                {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": LIMIT_MAX, "default": 10}},
            ],
            "responses": {
                "200": {"description": "Matching rules, best first",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SearchResults"}}}},
                **_error_responses(),
                "503": {"description": "The search index is missing or cannot be read; the message says what to run.",
                        "content": {"application/json": {"schema": ERROR}}},
            },
        }
    }


def calculator_operation(spec):
    operation = {
        "summary": spec.api_summary or spec.calculator.title,
        "operationId": spec.id.replace("-", "_"),
        "description": spec.method,
        "responses": {"200": _ok(spec.calculator.title), **_error_responses()},
    }
    if spec.api_method == "GET":
        operation["parameters"] = [
            {"name": f.name, "in": "query", "required": False, "description": f.label + (f" — {f.help}" if f.help else ""),
             "schema": f.openapi_schema()}
            for f in spec.fields
        ]
        return {"get": operation}
    operation["requestBody"] = {"required": True,
                                "content": {"application/json": {"schema": spec.json_schema or {"type": "object"}}}}
    return {"post": operation}


def document():
    specs = current_app.extensions["redbook.calculators"].values()
    paths = {"/api/search": search_operation()}
    for spec in specs:
        for path, method_spec in getattr(spec, "api_paths", lambda: {spec.api_path: spec})().items():
            if path:
                paths[path] = calculator_operation(method_spec)
    return {
        "openapi": "3.0.3",
        "info": {"title": "Red Book API", "version": "1",
                 "description": "Rules search and exact calculators for five Middle-earth games."},
        "paths": paths,
        "components": {"schemas": {
            "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
            "SearchResults": {
                "type": "object", "required": ["query", "total", "results", "suggestion"],
                "properties": {
                    "query": {"type": "string"}, "total": {"type": "integer"},
                    "suggestion": {"type": "string", "nullable": True},
                    "results": {"type": "array", "items": {"type": "object", "required": ["id", "game", "section", "title", "url", "snippet"],
                                "properties": {k: {"type": "string"} for k in ("id", "game", "section", "kind", "title", "url", "snippet")}}},
                },
            },
        }},
    }


@bp.route("/openapi.json")
def openapi_json():
    return jsonify(document())
