"""Red Book: a rules reference and exact calculators for five Middle-earth games.

``create_app`` is the whole app in one place: its settings, its route table (every blueprint it
registers) and the hooks every response passes through, then what it loads, in order, into one
:class:`~webapp.state.AppState`.
"""
from functools import partial

from flask import Flask
from jinja2 import FileSystemBytecodeCache
from werkzeug.routing import AnyConverter

from . import caching, errors, security, slashes
from .api import bp as api_bp
from .caching import build_fingerprint, compile_templates, static_fingerprints
from .calculators import bind_calculators
from .calculators.views import bp as calculators_bp
from .checklist import bp as checklist_bp
from .content import GAME_IDS
from .content.parsed import read_parsed
from .engines.words import noun
from .library import read_library
from .main import bp as main_bp
from .offline import bp as offline_bp
from .offline.bundle import read_bundle
from .pages import flag_label, page_cache
from .search import SearchIndex
from .settings import PROJECT_ROOT, data_folder, default_config
from .site_map import page_paths
from .state import AppState, attach

__all__ = ["PROJECT_ROOT", "create_app", "data_folder", "default_config"]


class GameConverter(AnyConverter):
    """Only the five game ids: any other first path segment is a 404 at routing."""

    def __init__(self, url_map):
        super().__init__(url_map, *GAME_IDS)


def create_app(config=None):
    """Build the app: its routes, then load and check the content and build the search index in memory."""
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
    if app.config["TEMPLATE_BYTECODE_DIR"]:
        app.jinja_env.bytecode_cache = FileSystemBytecodeCache(app.config["TEMPLATE_BYTECODE_DIR"])

    # The route table: every URL the app answers is in one of these blueprints (and /static).
    app.url_map.converters["game"] = GameConverter
    app.register_blueprint(main_bp)  # /, /search, /healthz, /<game>/, /<game>/<section>
    app.register_blueprint(checklist_bp)  # /<game>/turn, /<game>/print, /print
    app.register_blueprint(calculators_bp)  # /<game>/calc/, /<game>/calc/<slug>
    app.register_blueprint(api_bp)  # /api/search, /api/openapi.json, /api/<game>/<calculator endpoint>
    app.register_blueprint(offline_bp)  # /sw.js, /manifest.webmanifest, /offline

    # What every request and response passes through.
    errors.init_app(app)  # JSON errors under /api/, HTML pages elsewhere
    security.init_app(app)  # security headers, relative redirects
    slashes.init_app(app)  # a page asked with or without its trailing slash
    caching.init_app(app)  # compression, ETags, Cache-Control
    app.add_template_global(noun)  # "1 point", "2 points" where a page sets the number apart
    app.add_template_filter(flag_label)

    attach(app, load_state(app))
    if app.config["PROXY_FIX"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, **app.config["PROXY_FIX"])
    return app


def load_state(app) -> AppState:
    """What the app loads, in order, each from what comes before it; a content error stops here."""
    library = read_library(app.config["CONTENT_DIR"], parsed=read_parsed(app.config["CONTENT_PARSED"]))
    calculators = bind_calculators(library)
    static = static_fingerprints(app.static_folder)
    templates = compile_templates(app)
    build = build_fingerprint(library, static, templates)
    # a saved index is read only when this build saved it
    build_search = partial(SearchIndex.saved_or_built, library, calculators, app.config["SEARCH_INDEX_SAVED"], build)
    return AppState(
        library=library,
        calculators=calculators,
        search=build_search() if app.config["SEARCH_INDEX_AT_START"] else None,
        static=static,
        templates=templates,
        build=build,
        render_page=page_cache(),
        site_paths=page_paths(app.url_map, library, calculators),
        offline=read_bundle(app.config["OFFLINE_BUNDLE_DIR"], build),
        build_search=build_search,
    )
