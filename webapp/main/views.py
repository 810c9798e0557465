"""Pages for people: home, search, game overviews, rule sections and the health check."""
from flask import Blueprint, abort, current_app, jsonify, render_template, request, url_for

from ..errors import ParameterError
from ..pages import cached_page
from ..search import LIMIT_MAX, PAGE_LIMIT, SearchInputError, read_search_input, search
from ..state import get_game_or_404, get_library
from .glossary import by_letter

bp = Blueprint("main", __name__)

GLOSSARY_VIEWS = {"a-z": "A–Z", "topics": "By topic"}  # ?view= and what the page calls it
HEALTH_QUERY = "combat"  # a word the rules of several games use: a working search finds it


@bp.route("/")
@cached_page
def home():
    return render_template("home.html", games=get_library().games.values())


@bp.route("/search")
def search_page():
    try:
        asked, problem = read_search_input(request.args, default_limit=PAGE_LIMIT, required=False), None
    except SearchInputError as error:
        asked, problem = error.typed, error
    results = search(asked.text, game=asked.game, limit=asked.limit) if asked.text.strip() and not problem else None
    game = "" if problem and problem.field == "game" else asked.game or ""  # an unknown game is only in its message
    most = min(results.total, LIMIT_MAX) if results is not None else 0  # the most one page shows
    more_url = (url_for("main.search_page", q=asked.text, game=game or None, limit=LIMIT_MAX)
                if results is not None and len(results.hits) < most else "")
    return render_template("search.html", q=asked.text, game=game, results=results, problem=problem, more_url=more_url,
                           shown_most=most, games=get_library().games.values()), 400 if problem else 200


@bp.route("/<game:game_id>/")
@cached_page
def game_page(game_id):
    game = get_game_or_404(game_id)
    return render_template("game.html", game=game)


@bp.route("/<game:game_id>/<section_id>")
def section_page(game_id, section_id):
    # A glossary reads A-Z with a letter index; ?view=topics keeps the order the content gives.
    view = request.args.get("view", "a-z")
    if section_id not in get_game_or_404(game_id).sections:
        abort(404)
    if view not in GLOSSARY_VIEWS:
        raise ParameterError(f"view: choose {' or '.join(GLOSSARY_VIEWS)}", choices=[
            (f"{label} ({name})", url_for("main.section_page", game_id=game_id, section_id=section_id,
                                          **({} if name == "a-z" else {"view": name})))
            for name, label in GLOSSARY_VIEWS.items()])
    return section_view(game_id=game_id, section_id=section_id, view=view)


@cached_page
def section_view(game_id, section_id, view):
    game = get_game_or_404(game_id)
    section = game.sections.get(section_id)
    if section is None:
        abort(404)
    if section.kind != "glossary":
        return render_template("section.html", game=game, section=section)
    letters = by_letter(section.entries) if view == "a-z" else None
    return render_template("section.html", game=game, section=section, view=view, letters=letters)


@bp.route("/healthz")
def healthz():
    """200 while search answers a known query, else 503; never stored by a cache."""
    try:
        answered = bool(search(HEALTH_QUERY, limit=1).hits)
    except Exception:  # a health check reports a failure instead of raising it
        current_app.logger.exception("search failed the health check")
        answered = False
    body = {"status": "ok"} if answered else {"status": "error", "error": "search: no answer to a known query"}
    response = jsonify(body)
    response.status_code = 200 if answered else 503
    response.headers["Cache-Control"] = "no-store"
    return response
