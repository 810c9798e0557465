"""Calculator pages: parse the form, call an engine, render the result and its working."""
from .registry import CALCULATORS, for_game
from .spec import percent


def all_specs():
    """Every calculator's spec, in registry order."""
    from . import fotf, meccg, meq, wotr, wotr_cards

    specs = {spec.id: spec for module in (wotr, fotf, meccg, meq, wotr_cards) for spec in module.SPECS}
    return [specs[cid] for cid in CALCULATORS if cid in specs]


def init_app(app):
    from . import views

    specs = all_specs()
    app.register_blueprint(views.make_blueprint(specs))
    app.extensions["redbook.calculators"] = {spec.id: spec for spec in specs}

    @app.context_processor
    def calculator_helpers():
        return {
            "calculator_url": lambda cid: CALCULATORS[cid].url,
            "calculator_title": lambda cid: CALCULATORS[cid].title,
            "calculators_for": for_game,
            "pct": percent,
        }
