"""Calculators: one declaration each (see calculator.py), served as pages (views.py) and JSON
endpoints (webapp/api).

``CALCULATORS`` holds the declarations, read when the app starts (their ids, their endpoints);
``bind_calculators`` binds them to the loaded content, and the app keeps the bound ones in its
state (``webapp.state.get_calculators``).
"""
from flask import url_for

from ..state import get_calculators
from . import fotf, meccg, meq, wotr, wotr_cards

CALCULATORS = {calc.id: calc for module in (wotr, fotf, meccg, meq, wotr_cards) for calc in module.CALCULATORS}


def bind_calculators(library) -> dict:
    """Every calculator, bound to the library (what it reads from the content in place), by id."""
    return {calc_id: calc.bind(library) for calc_id, calc in CALCULATORS.items()}


def for_game(game_id):
    """A game's calculators, in order."""
    return [calc for calc in get_calculators().values() if calc.game == game_id]


def calculator_url(calculator_id):
    calc = get_calculators()[calculator_id]
    return url_for("calculators.page", game_id=calc.game, slug=calc.slug)

