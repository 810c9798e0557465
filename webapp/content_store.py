"""The app's loaded content: read and validated once when the app is created."""
from flask import abort, current_app

from .content import load_library


def get_library():
    return current_app.extensions["redbook.library"]


def get_game_or_404(game_id):
    game = get_library().games.get(game_id)
    if game is None:
        abort(404)
    return game


def init_app(app):
    """Load every game's content; a content error stops the app from starting."""
    app.extensions["redbook.library"] = load_library(app.config["CONTENT_DIR"])

    import click

    @app.cli.command("check-content")
    def check_content_command():
        """Validate every content file (the app only starts when this passes)."""
        library = get_library()
        entries = sum(1 for _, entry in library.entries() if entry is not None)
        click.echo(f"content OK: {len(library.games)} games, {entries} entries")


MAX_CACHED_PAGES = 1000


def cached_page(view):
    """Render a content page once per process: content does not change while the app runs."""
    from functools import wraps

    from flask import request

    @wraps(view)
    def wrapper(**kwargs):
        cache = current_app.extensions.setdefault("redbook.pages", {})
        key = request.full_path
        body = cache.get(key)
        if body is None:
            body = view(**kwargs)
            if len(cache) < MAX_CACHED_PAGES:
                cache[key] = body
        return body

    return wrapper
