"""Every route under /api/: the search, the OpenAPI document and each calculator's endpoints."""
from flask import Blueprint, jsonify, request

from ..calculators import CALCULATORS
from ..errors import error_response, unknown_parameter
from ..search import API_LIMIT, SEARCH_PARAMETERS, SearchInputError, read_search_input, search
from ..state import get_calculators
from .calculators import answer_get, answer_post
from .openapi import document

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.route("/search")
def api_search():
    refused = unknown_parameter(request.args, SEARCH_PARAMETERS)
    if refused is not None:
        return refused
    try:
        asked = read_search_input(request.args, default_limit=API_LIMIT)
    except SearchInputError as error:
        return error_response(400, error.description)
    results = search(asked.text, game=asked.game, limit=asked.limit)
    return jsonify(results.as_json())


@bp.route("/openapi.json")
def openapi_json():
    return jsonify(document(get_calculators()))


def calculator_endpoint(calc_id, api_id):
    """The view of one calculator endpoint: the calculator bound to the app's content answers it."""
    def view():
        calc = get_calculators()[calc_id]
        api = next(api for api in calc.apis if api.id == api_id)
        return (answer_get if api.method == "GET" else answer_post)(calc, api)

    return view


@bp.record_once
def add_calculator_endpoints(setup):
    """Each calculator's endpoints, at the paths and with the method its declaration gives
    (GET /api/wotr/battle, POST /api/meccg/council, ...): added when create_app registers the API."""
    for calc in CALCULATORS.values():
        for api in calc.apis:
            setup.add_url_rule(api.path.removeprefix(bp.url_prefix), f"calculator_{api.id}",
                               calculator_endpoint(calc.id, api.id), methods=[api.method])
