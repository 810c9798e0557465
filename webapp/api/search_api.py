from flask import jsonify, request

from ..content import GAME_IDS
from ..errors import error_response
from ..search import LIMIT_MAX, MAX_QUERY_CHARS, search
from . import bp


@bp.route("/search")
def api_search():
    text = request.args.get("q", "")
    if not text.strip():
        return error_response(400, "q: required, the words to search for")
    if len(text) > 10_000:
        return error_response(400, "q: at most 10000 characters")
    game = request.args.get("game") or None
    if game is not None and game not in GAME_IDS:
        return error_response(400, f"game: must be one of {', '.join(GAME_IDS)}")
    raw_limit = request.args.get("limit", "10")
    try:
        limit = int(raw_limit)
    except ValueError:
        return error_response(400, f"limit: must be a whole number from 1 to {LIMIT_MAX}")
    if not 1 <= limit <= LIMIT_MAX:
        return error_response(400, f"limit: must be a whole number from 1 to {LIMIT_MAX}")
    results = search(text[:MAX_QUERY_CHARS], game=game, limit=limit)
    return jsonify(results.as_json())
