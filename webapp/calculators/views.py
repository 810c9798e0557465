"""Calculator pages (GET forms, so every result has a permalink) and their JSON endpoints."""
from flask import Blueprint, abort, current_app, jsonify, render_template, request

from ..content_store import get_game_or_404, get_library
from ..engines.inputs import InputError
from ..errors import error_response
from . import CALCULATORS
from .calculator import api_body, working
from .fields import read_json

bp = Blueprint("calculators", __name__)


def get_calculators() -> dict:
    """The app's calculators, bound to its content, by id."""
    return current_app.extensions["redbook.calculators"]


def find(game_id, slug):
    found = next((calc for calc in get_calculators().values() if calc.game == game_id and calc.slug == slug), None)
    if found is None:
        abort(404)
    return found


@bp.route("/<game:game_id>/calc/")
def calculator_index(game_id):
    game = get_game_or_404(game_id)
    calcs = [calc for calc in get_calculators().values() if calc.game == game_id]
    if not calcs:
        abort(404)
    return render_template("calculator_index.html", game=game, calcs=calcs)


@bp.route("/<game:game_id>/calc/<slug>")
def page(game_id, slug):
    calc = find(game_id, slug)
    game = get_game_or_404(game_id)
    if any(member.name in request.args for member in calc.fields):
        values, errors, raw, result = calc.answer(request.args)
    else:
        values, errors, result = calc.prefill(), {}, None
        raw = {member.name: member.form_value(member.prefill) for member in calc.fields}
    rules = get_library().entries_for_calculator(calc.id)
    charts = calc.charts(result) if result is not None else []
    steps = working(result) if result is not None else None
    return render_template("calculator.html", calc=calc, game=game, raw=raw, errors=errors, result=result,
                           values=values, charts=charts, steps=steps, rules=rules), 400 if errors else 200


def api_get(calc, api):
    values, errors, raw, result = calc.answer(request.args)
    if errors:
        name, message = next(iter(errors.items()))
        return error_response(400, message if name == "_form" else f"{name}: {message}")
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


for _calc in CALCULATORS.values():
    for _api in _calc.apis:
        bp.add_url_rule(_api.path, f"api_{_api.id}", api_view(_calc.id, _api.id), methods=[_api.method])
