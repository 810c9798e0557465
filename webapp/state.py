"""What the app loads once, when it is created, and the accessors every module reads it through.

``create_app`` builds one :class:`AppState` in the order its fields are listed (each from the
ones before it) and attaches it to the app; nothing else is kept on the app. Views and helpers
reach it through the small functions below, inside a request or an app context.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from flask import abort, current_app

if TYPE_CHECKING:  # types only: this module imports none of the modules that fill it
    from .content import Game, Library
    from .offline.bundle import OfflineBundle
    from .search import SearchIndex

EXTENSION = "redbook"  # the one key under app.extensions


@dataclass
class AppState:
    """Everything the app loads, in the order create_app makes it."""

    library: Library  # 1. the content, read and checked (it names the calculators its rules use)
    calculators: dict  # 2. calculator id -> its declaration bound to the library
    search: SearchIndex | None  # 3. the in-memory search index over the library and the calculators (None
    #                             until first asked where SEARCH_INDEX_AT_START is off: see get_search_index)
    static: dict  # 4. static file name -> short hash of its bytes (the ?v= of its address)
    templates: dict  # 5. template name -> hash of the source compiled at start (see caching.compile_templates)
    build: str  # 6. hash of the code, templates, content and static files: every page's ETag starts here
    render_page: Callable  # 7. a bounded cache of rendered content pages (see pages.cached_page)
    site_paths: frozenset = field(default_factory=frozenset)  # 8. every page's path (see site_map)
    offline: OfflineBundle | None = None  # 9. the offline bundle built for this build, or why none (offline/bundle.py)
    build_search: Callable | None = None  # makes 3., where it was not made at start


def attach(app, state: AppState) -> None:
    app.extensions[EXTENSION] = state


def state_of(app) -> AppState:
    return app.extensions[EXTENSION]


def get_state() -> AppState:
    return state_of(current_app)


def get_library() -> Library:
    return get_state().library


def get_calculators() -> dict:
    """The app's calculators, bound to its content, by id."""
    return get_state().calculators


def get_search_index() -> SearchIndex:
    state = get_state()
    if state.search is None:  # not built at start (the offline worker's first answer does not wait for it)
        state.search = state.build_search()
    return state.search


def get_game_or_404(game_id) -> Game:
    game = get_library().games.get(game_id)
    if game is None:
        abort(404)
    return game
