"""The app's loaded content: read and validated once when the app is created, and the pages made from it."""
from functools import lru_cache, wraps

from flask import abort, current_app

from .content import FLAGS, load_library

# Every game, section, checklist and print page is well under this, so the cache never turns
# pages over in use; a combined print sheet for a new choice of games may push an old one out.
PAGE_CACHE_SIZE = 256


def read_library(content_dir):
    """Load and validate the content at content_dir; an entry may name any of the app's calculators."""
    from .calculators import CALCULATORS

    return load_library(content_dir, calculator_ids=CALCULATORS)


def get_library():
    return current_app.extensions["redbook.library"]


def get_game_or_404(game_id):
    game = get_library().games.get(game_id)
    if game is None:
        abort(404)
    return game


def init_app(app):
    """Load every game's content; a content error stops the app from starting."""
    app.extensions["redbook.library"] = read_library(app.config["CONTENT_DIR"])
    app.extensions["redbook.pages"] = lru_cache(maxsize=PAGE_CACHE_SIZE)(_render)
    app.add_template_filter(flag_label)


def flag_label(name):
    """A step flag as pages show it ("not first")."""
    return FLAGS[name].label


def _render(view, arguments):
    return view(**dict(arguments))


def cached_page(view):
    """Render a content page once per app and arguments: content does not change while the app runs.

    The key is the view and its arguments (the URL's, or what the view was given), never the query
    string, so a URL with junk appended is the same page and cannot push others out.
    """
    @wraps(view)
    def wrapper(**arguments):
        return current_app.extensions["redbook.pages"](view, tuple(sorted(arguments.items())))

    return wrapper
