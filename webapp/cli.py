"""The `redbook` command: Flask's command group for the app, with serve and check-content.

Commands the app registers appear here too; check-content and serve work
even when the content is broken, to say what is wrong.
"""
import os
import sys

import click
from flask.cli import FlaskGroup

from .content import ContentError


def load_app():
    """The app, or a list of the content's problems and exit status 1."""
    from . import create_app

    try:
        return create_app()
    except ContentError as exc:
        for problem in exc.problems:
            click.echo(problem, err=True)
        click.echo(f"content has {len(exc.problems)} problem(s); run 'redbook check-content'", err=True)
        sys.exit(1)


main = FlaskGroup(create_app=load_app, help="Red Book: rules reference and calculators for Middle-earth games.")


@main.command("check-content", with_appcontext=False)
@click.option("--content", "root", default=None, help="Content folder (default: the project's content/).")
def check_content_command(root):
    """Validate every file under content/ and report each problem."""
    from .library import read_library
    from .settings import default_config

    root = root or default_config()["CONTENT_DIR"]
    try:
        library = read_library(root)
    except ContentError as exc:
        for problem in exc.problems:
            click.echo(problem, err=True)
        click.echo(f"{len(exc.problems)} problem(s) in {root}", err=True)
        sys.exit(1)
    entries = sum(1 for _ in library.entries())
    click.echo(f"content OK: {len(library.games)} games, {entries} entries")


@main.command("offline-build", with_appcontext=False)
@click.option("--into", "target", default=None,
              help="Folder to build into (default: OFFLINE_BUNDLE_DIR, share/redbook/offline in this Python environment).")
def offline_build_command(target):
    """Build the offline bundle: Pyodide (from npm) and the app, for calculators and search without a
    connection. Without npm it says so and exits 0: the app serves everything else."""
    from .offline.build import BuildError, build_bundle, missing_tools
    from .settings import default_config

    missing = missing_tools()
    if missing:
        click.echo(f"{' and '.join(missing)} not found: offline calculators and search are not built, and the "
                   "app says it does not offer them. Install Node.js and npm, then run 'redbook offline-build'.")
        return
    target = target or default_config()["OFFLINE_BUNDLE_DIR"]
    try:
        manifest = build_bundle(target, log=click.echo)
    except BuildError as exc:
        click.echo(f"offline bundle not built: {exc}", err=True)
        sys.exit(1)
    files = manifest["files"].values()
    sent = sum(f.get("br", f["gzip"]) for f in files)
    click.echo(f"offline bundle built in {target}: {len(manifest['files'])} files, "
               f"{sent / 1e6:.1f} MB to download ({sum(f['bytes'] for f in files) / 1e6:.1f} MB unpacked)")


@main.command("serve", with_appcontext=False)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
def serve_command(host, port):
    """Serve Red Book (for production, gunicorn behind nginx: docs/deployment.md)."""
    from .serving import ready_to_serve

    app = load_app()
    click.echo(ready_to_serve(app))  # warmed and frozen for the collector, as gunicorn's master does before it forks
    # FlaskGroup marks the process as started by `flask run`, which makes app.run() do nothing
    os.environ.pop("FLASK_RUN_FROM_CLI", None)
    app.run(host=host, port=port, debug=False, threaded=True)
