"""The `redbook` command: serve the app, build the search index, check the content."""
import sys

import click

from .content import ContentError, load_library


@click.group()
def main():
    """Red Book: rules reference and calculators for Middle-earth games."""


def content_root():
    from . import default_config

    return default_config()["CONTENT_DIR"]


@main.command("check-content")
@click.option("--content", "root", default=None, help="Content folder (default: the project's content/).")
def check_content_command(root):
    """Validate every file under content/ and report each problem."""
    root = root or content_root()
    try:
        library = load_library(root)
    except ContentError as exc:
        for problem in exc.problems:
            click.echo(problem, err=True)
        click.echo(f"{len(exc.problems)} problem(s) in {root}", err=True)
        sys.exit(1)
    entries = sum(1 for _, entry in library.entries() if entry is not None)
    click.echo(f"content OK: {len(library.games)} games, {entries} entries")


@main.command("build-index")
@click.option("--force", is_flag=True, help="Rebuild even when the index is up to date.")
def build_index_command(force):
    """Build the search index into the instance folder (atomically)."""
    from . import create_app
    from .search import build_index

    try:
        app = create_app({"BUILD_INDEX_ON_START": False})
    except ContentError as exc:
        for problem in exc.problems:
            click.echo(problem, err=True)
        sys.exit(1)
    with app.app_context():
        path, seconds = build_index(force=force)
    click.echo(f"index built in {seconds:.2f} s at {path}" if seconds is not None else f"index up to date at {path}")


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
def serve_command(host, port):
    """Serve Red Book (for production, run gunicorn 'webapp:create_app()')."""
    from . import create_app

    try:
        app = create_app()
    except ContentError as exc:
        click.echo(f"content has {len(exc.problems)} problem(s); run 'redbook check-content'", err=True)
        sys.exit(1)
    app.run(host=host, port=port, debug=False, threaded=True)
