"""Red Book: a rules reference and exact calculators for five Middle-earth games."""
from pathlib import Path

from flask import Flask

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def data_folder(name):
    """templates/, static/ or content/: beside the package in a checkout, inside it (webapp/share/,
    see pyproject.toml) once installed from a wheel."""
    installed = Path(__file__).resolve().parent / "share" / name
    return installed if installed.is_dir() else PROJECT_ROOT / name


def default_config():
    """Settings; FLASK_* environment variables (JSON values, e.g. FLASK_TRUSTED_HOSTS='["rules.example.org"]')
    override them, and create_app's config overrides both."""
    return {
        # Behind a reverse proxy: {"x_for": 1, "x_proto": 1} trusts one proxy's X-Forwarded-For
        # and X-Forwarded-Proto (werkzeug's ProxyFix arguments). None: no proxy headers are read.
        "PROXY_FIX": None,
        "CONTENT_DIR": str(data_folder("content")),
        "MAX_CONTENT_LENGTH": 64 * 1024,
    }


def create_app(config=None):
    """Build the app: load and validate the content, build the search index in memory."""
    config = dict(config or {})
    app = Flask(
        __name__,
        instance_path=config.pop("INSTANCE_PATH", None),
        instance_relative_config=True,
        template_folder=str(data_folder("templates")),
        static_folder=str(data_folder("static")),
    )
    app.config.from_mapping(default_config())
    app.config.from_prefixed_env()
    app.config.from_mapping(config)
    app.json.sort_keys = False  # keys in the order each response is written, as documented

    from werkzeug.routing import AnyConverter

    from . import caching, calculators, content_store, errors, offline, search, security, slashes
    from .content import GAME_IDS
    from .engines.words import noun

    class GameConverter(AnyConverter):
        """Only the five game ids: any other first path segment is a 404 at routing."""

        def __init__(self, url_map):
            super().__init__(url_map, *GAME_IDS)

    app.url_map.converters["game"] = GameConverter
    from .api import bp as api_bp
    from .checklist import bp as checklist_bp
    from .main import bp as main_bp

    content_store.init_app(app)
    search.init_app(app)
    errors.init_app(app)
    security.init_app(app)
    slashes.init_app(app)
    caching.init_app(app)
    offline.init_app(app)
    calculators.init_app(app)
    app.add_template_global(noun)  # "1 point", "2 points" where a page sets the number apart
    app.register_blueprint(main_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(checklist_bp)

    if app.config["PROXY_FIX"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, **app.config["PROXY_FIX"])
    return app
