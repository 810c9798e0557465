"""Calculator pages: GET forms, so every result has a permalink (their JSON endpoints are in webapp/api)."""
import json
from urllib.parse import urlencode

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..state import get_calculators, get_game_or_404, get_library
from . import calculator_url, for_game
from .calculator import NEXT, SOURCE_NAMES, decimal, exact, percent, source_text
from .plans import MAX_PLANS, api_query, comparison, edited_query, plan_count, read_plans, stray_parameter

bp = Blueprint("calculators", __name__)


@bp.app_context_processor
def calculator_helpers():
    return {
        "calculator_url": calculator_url,
        "calculator_title": lambda calculator_id: get_calculators()[calculator_id].title,
        "calculators_for": for_game,
        "pct": percent,
        "decimal": decimal,
        "exact": exact,
        "source_text": source_text,
        "source_names": SOURCE_NAMES,
        "next_step_name": NEXT,
        # a field's conditions as the form's script reads them, the names with the plan's prefix
        "shown_when_data": lambda whens, prefix: json.dumps([when.as_data(prefix) for when in whens]),
    }


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
    edited = edited_query(calc, request.args)
    if edited is not None:  # a plan was added or removed: the permalink that holds every plan
        query, landing = edited
        return redirect(url_for(".page", game_id=game_id, slug=slug) + "?" + urlencode(query) + "#" + landing, 303)
    following = calc.next_query(request.args)
    if following is not None:  # "After this round": the permalink of the setup that follows
        return redirect(url_for(".page", game_id=game_id, slug=slug) + "?" + urlencode(following) + "#result-a", 303)
    count, count_error = plan_count(request.args)
    count_error = count_error or stray_parameter(calc, request.args)
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
