"""Calculator pages (GET forms, so every result has a permalink) and their JSON endpoints."""
from urllib.parse import urlencode

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for

from ..content_store import get_game_or_404, get_library
from ..engines.inputs import InputError
from ..errors import error_response
from . import CALCULATORS, for_game, get_calculators
from .calculator import api_body
from .fields import read_json
from .plans import MAX_PLANS, api_query, comparison, edited_query, plan_count, read_plans

bp = Blueprint("calculators", __name__)


def find(game_id, slug):
    found = next((calc for calc in for_game(game_id) if calc.slug == slug), None)
    if found is None:
        abort(404)
    return found


@bp.route("/<game:game_id>/calc/")
def calculator_index(game_id):
    game = get_game_or_404(game_id)
    calcs = for_game(game_id)
    if not calcs:
        abort(404)
    return render_template("calculator_index.html", game=game, calcs=calcs)


@bp.route("/<game:game_id>/calc/<slug>")
def page(game_id, slug):
    """The calculator's form and, once submitted, its answer first; with ``plans``, two or three side by side."""
    calc = find(game_id, slug)
    game = get_game_or_404(game_id)
    edited = edited_query(request.args)
    if edited is not None:  # a plan was added or removed: the permalink that holds every plan
        query, landing = edited
        return redirect(url_for(".page", game_id=game_id, slug=slug) + "?" + urlencode(query) + "#" + landing, 303)
    count, count_error = plan_count(request.args)
    plans = read_plans(calc, request.args, count)
    get_api = next((api for api in calc.apis if api.method == "GET"), None)
    api_urls = [f"{get_api.path}?{api_query(calc, plan)}" if get_api and plan.result is not None else ""
                for plan in plans]
    failed = bool(count_error) or any(plan.errors for plan in plans)
    if failed:  # no answer at all until every plan can be answered
        for plan in plans:
            plan.result = None
    problems = [problem for plan in plans for problem in plan.problem_list]
    return render_template("calculator.html", calc=calc, game=game, plans=plans, count_error=count_error,
                           problems=problems,
                           comparison=comparison(calc, plans), api_urls=api_urls, max_plans=MAX_PLANS,
                           rules=get_library().entries_for_calculator(calc.id)), 400 if failed else 200


def api_get(calc, api):
    values, errors, raw, result = calc.answer(request.args)
    if errors:
        return error_response(400, errors.first())
    return jsonify(api_body(result, api.result))


def api_post(calc, api):
    limit = request.max_content_length
    # Werkzeug cuts a body sent without Content-Length (chunked) at the limit instead of refusing it
    if limit is not None and request.content_length is None and len(request.get_data(cache=True)) >= limit:
        abort(413)
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # the JSON decoder recurses once per level of nesting
        return error_response(400, "body: nested too deeply to be read")
    if body is None:
        return error_response(400, "body: must be a JSON object (Content-Type: application/json)")
    try:
        result = calc.run(read_json(api.fields, body), api.compute)
    except InputError as error:
        return error_response(400, str(error))
    return jsonify(api_body(result, api.result))


def api_view(calc_id, api_id):
    """The view of one JSON endpoint; the calculator is looked up in the app, bound to its content."""
    def view():
        calc = get_calculators()[calc_id]
        api = next(api for api in calc.apis if api.id == api_id)
        return (api_get if api.method == "GET" else api_post)(calc, api)

    return view


for _calc in CALCULATORS.values():  # the endpoints a calculator declares, each served by its bound calculator
    for _api in _calc.apis:
        bp.add_url_rule(_api.path, f"api_{_api.id}", api_view(_calc.id, _api.id), methods=[_api.method])
