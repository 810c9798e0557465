"""Calculators: one declaration each (see calculator.py), served as pages and JSON endpoints.

``CALCULATORS`` holds the declarations, read when the app starts (their ids, their endpoints);
once the app is built, every calculator is looked up with :func:`get_calculators`, which gives
them bound to the app's content.
"""
import json

from flask import current_app, url_for

from . import fotf, meccg, meq, wotr, wotr_cards
from .calculator import SOURCE_NAMES, decimal, exact, percent, source_text

CALCULATORS = {calc.id: calc for module in (wotr, fotf, meccg, meq, wotr_cards) for calc in module.CALCULATORS}


def get_calculators() -> dict:
    """The app's calculators, bound to its content, by id."""
    return current_app.extensions["redbook.calculators"]


def for_game(game_id):
    """A game's calculators, in order."""
    return [calc for calc in get_calculators().values() if calc.game == game_id]


def calculator_url(calculator_id):
    calc = get_calculators()[calculator_id]
    return url_for("calculators.page", game_id=calc.game, slug=calc.slug)


def init_app(app):
    """Bind every calculator to the loaded content and serve its page and endpoints."""
    from .views import bp

    library = app.extensions["redbook.library"]
    app.extensions["redbook.calculators"] = {calc_id: calc.bind(library) for calc_id, calc in CALCULATORS.items()}
    app.register_blueprint(bp)

    @app.context_processor
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
            # a field's conditions as the form's script reads them, the names with the plan's prefix
            "shown_when_data": lambda whens, prefix: json.dumps([when.as_data(prefix) for when in whens]),
        }
