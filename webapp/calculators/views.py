"""Calculator pages (GET forms, so every result has a permalink) and their JSON endpoints."""
from flask import Blueprint, abort, jsonify, render_template, request

from ..content_store import get_game_or_404, get_library
from ..errors import error_response
from .fields import field_of_error, parse_fields


def run(spec, args):
    """(values, errors, raw, result) for a request's arguments."""
    values, errors, raw = parse_fields(spec.fields, args)
    result = None
    if not errors:
        try:
            result = spec.compute(values)
        except ValueError as exc:
            name, message = field_of_error(exc, spec.fields)
            errors[name or "_form"] = message
    return values, errors, raw, result


def page(spec):
    game = get_game_or_404(spec.calculator.game)
    submitted = any(f.name in request.args for f in spec.fields)
    if submitted:
        values, errors, raw, result = run(spec, request.args)
    else:
        values, errors, result = spec.defaults(), {}, None
        raw = {f.name: f.form_value(f.default) for f in spec.fields}
    rules = get_library().entries_for_calculator(spec.id)
    charts = spec.charts(values, result) if result is not None else []
    status = 400 if errors else 200
    return render_template("calculator.html", spec=spec, calc=spec.calculator, game=game, raw=raw,
                           errors=errors, result=result, values=values, charts=charts, rules=rules), status


def api(spec):
    values, errors, raw, result = run(spec, request.args)
    if errors:
        name, message = next(iter(errors.items()))
        return error_response(400, f"{name}: {message}" if name != "_form" else message)
    return jsonify(spec.to_json(values, result))


def api_post(spec):
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
        inputs = spec.read_json(body)
        result = (spec.compute_json or spec.compute)(inputs)
    except ValueError as exc:
        return error_response(400, str(exc))
    return jsonify(spec.to_json(inputs, result))


def make_blueprint(specs):
    """A blueprint with a page and an endpoint per calculator (new for each app)."""
    bp = Blueprint("calculators", __name__)
    bp.add_url_rule("/<game:game_id>/calc/", "calculator_index", calculator_index)
    for spec in specs:
        calc = spec.calculator
        bp.add_url_rule(calc.url, f"page_{calc.id}", lambda spec=spec: page(spec))
        for path, endpoint in spec.api_paths().items():
            if endpoint.api_method == "GET":
                bp.add_url_rule(path, f"api_{endpoint.id}", lambda endpoint=endpoint: api(endpoint))
            elif endpoint.api_method == "POST":
                bp.add_url_rule(path, f"api_{endpoint.id}", lambda endpoint=endpoint: api_post(endpoint),
                                methods=["POST"])
    return bp


def calculator_index(game_id):
    game = get_game_or_404(game_id)
    from .registry import for_game

    calcs = for_game(game_id)
    if not calcs:
        abort(404)
    return render_template("calculator_index.html", game=game, calcs=calcs)
