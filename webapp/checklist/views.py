from flask import abort, render_template, request

from ..content import GAME_IDS
from ..content_store import cached_page, get_game_or_404, get_library
from . import bp
from .model import checklist_version, phases


@bp.route("/<game:game_id>/turn")
@cached_page
def turn(game_id):
    game = get_game_or_404(game_id)
    return render_template("turn.html", game=game, phases=phases(game), version=checklist_version(game))


def sheet(game):
    library = get_library()
    extras = [game.lookup(ref_id) for ref_id in game.print_ids]
    return {"game": game, "phases": phases(game), "extras": extras, "sections": game.sections, "library": library}


@bp.route("/<game:game_id>/print")
@cached_page
def print_sheet(game_id):
    game = get_game_or_404(game_id)
    return render_template("print.html", sheets=[sheet(game)], title=f"{game.short_title}: reference sheet")


@bp.route("/print")
def print_combined():
    """Several games' sheets in one document: /print?games=wotr,meccg (default: all)."""
    raw = request.args.get("games", "")
    wanted = [game_id.strip() for game_id in raw.split(",") if game_id.strip()] or list(GAME_IDS)
    unknown = [game_id for game_id in wanted if game_id not in GAME_IDS]
    if unknown or len(wanted) != len(set(wanted)):
        abort(400, description=f"games: a comma-separated list of distinct game ids from {', '.join(GAME_IDS)}")
    return combined_sheets(games=tuple(wanted))


@cached_page
def combined_sheets(games):
    return render_template("print.html", sheets=[sheet(get_game_or_404(game_id)) for game_id in games],
                           title="Reference sheets")
