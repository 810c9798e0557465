from flask import jsonify, request

from ..errors import error_response
from ..search import search
from ..search_input import API_LIMIT, SearchInputError, read_search_input
from . import bp


@bp.route("/search")
def api_search():
    try:
        asked = read_search_input(request.args, default_limit=API_LIMIT)
    except SearchInputError as error:
        return error_response(400, error.description)
    results = search(asked.text, game=asked.game, limit=asked.limit)
    return jsonify(results.as_json())
