"""The turn checklists and the print sheets."""
from flask import Blueprint, abort, render_template, request

from ..content import GAME_IDS
from ..pages import cached_page
from ..state import get_game_or_404
from .model import checklist_version, checklists

bp = Blueprint("checklist", __name__)

# Paper sizes a sheet can be laid out for (?paper=); print.css gives each its @page size.
PAPER_SIZES = ("a4", "letter")

# Type sizes (pt) a sheet may be set in, largest first, and the text a page holds at a size, in
# characters x pt squared (see sheet_text_length). Printed on A4 and on Letter, the five sheets fit
# one page up to about 385 000 and two pages up to about 760 000; the figures below keep a margin.
SHEET_SIZES = (10.4, 9.6, 9.2, 8.8, 8.4, 8.0, 7.6)
ONE_PAGE = 375_000
TWO_PAGES = 720_000
# Read at arm's length across a table, type under about 8.5 pt is hard going: a sheet that would
# need it to fit one page takes two pages at a larger size instead.
SMALLEST_ONE_PAGE_SIZE = 8.5


@bp.route("/<game:game_id>/turn")
@cached_page
def turn(game_id):
    game = get_game_or_404(game_id)
    return render_template("turn.html", game=game, checklists=checklists(game), version=checklist_version(game))


def sheet_text_length(lists, extras):
    """About how many characters a sheet prints, counted as print.html lays them out."""
    length, shown = 0, []
    for checklist in lists:
        length += len(checklist.spec.section.title) + len(checklist.spec.note) + len(" ".join(checklist.spec.seats))
        for phase in checklist.phases:
            length += 0 if phase.lone else len(phase.entry.short or phase.entry.title) + len(phase.entry.when)
            shown.append(phase.entry)
            for step in phase.steps:
                entry = step.entry
                length += len(entry.short or entry.title) + len(entry.when)
                length += sum(len(sub.short or sub.title) + 2 for sub in step.substeps)
                shown += [entry, *step.substeps]
    for item in extras:
        length += len(item.title) + len(item.text)
        shown.append(item)
        for child in item.entries:
            length += len(child.short or child.title) + len(child.text)
            length += sum(len(grand.short or grand.title) for grand in child.entries)
            shown += [child, *child.entries]
    # the numbered source notes at the end: one line per distinct source
    notes = {" · ".join(map(str, entry.sources)) for entry in shown if getattr(entry, "sources", None)}
    return length + sum(len(note) + 4 for note in notes)


def sheet_size(text_length):
    """The largest type size at which the text fits one page, if that size is at least
    SMALLEST_ONE_PAGE_SIZE; else the largest at which it fits two pages."""
    one_page_sizes = [size for size in SHEET_SIZES if size >= SMALLEST_ONE_PAGE_SIZE]
    for capacity, sizes in ((ONE_PAGE, one_page_sizes), (TWO_PAGES, SHEET_SIZES)):
        for size in sizes:
            if text_length * size * size <= capacity:
                return size
    return SHEET_SIZES[-1]


def sheet(game):
    lists = checklists(game)
    extras = [game.lookup(ref_id) for ref_id in game.print_ids]
    return {"game": game, "checklists": lists, "extras": extras, "size": sheet_size(sheet_text_length(lists, extras))}


def requested_paper():
    """The paper asked for in ?paper= (a4 or letter), or '' for the printer's own default."""
    paper = request.args.get("paper", "").strip().lower()
    if paper and paper not in PAPER_SIZES:
        abort(400, description="paper: choose a4 or letter")
    return paper


@bp.route("/<game:game_id>/print")
def print_sheet(game_id):
    return game_sheet(game_id=game_id, paper=requested_paper())


@cached_page
def game_sheet(game_id, paper):
    game = get_game_or_404(game_id)
    return render_template("print.html", sheets=[sheet(game)], title=f"{game.short_title}: reference sheet",
                           game=game, games=None, paper=paper)


@bp.route("/print")
def print_combined():
    """Several games' sheets in one document: /print?games=wotr,meccg (default: all)."""
    raw = request.args.get("games", "")
    wanted = [game_id.strip() for game_id in raw.split(",") if game_id.strip()] or list(GAME_IDS)
    unknown = [game_id for game_id in wanted if game_id not in GAME_IDS]
    only_commas = raw.strip() and not raw.replace(",", "").strip()  # ",,," names no game: not "all" either
    if unknown or only_commas or len(wanted) != len(set(wanted)) or len(request.args.getlist("games")) > 1:
        abort(400, description=f"games: a comma-separated list of distinct game ids from {', '.join(GAME_IDS)}")
    return combined_sheets(games=tuple(wanted), paper=requested_paper())


@cached_page
def combined_sheets(games, paper):
    return render_template("print.html", sheets=[sheet(get_game_or_404(game_id)) for game_id in games],
                           title="Reference sheets", game=None, games=",".join(games), paper=paper)
