"""Content pages: rendered once per app and arguments, since content does not change while the app runs."""
from functools import lru_cache, wraps

from .content import FLAGS
from .state import get_state

# Every game, section, checklist and print page is well under this, so the cache never turns
# pages over in use; a combined print sheet for a new choice of games may push an old one out.
PAGE_CACHE_SIZE = 256


def page_cache():
    """A new, empty cache of rendered pages: (view, arguments) -> response."""
    return lru_cache(maxsize=PAGE_CACHE_SIZE)(_render)


def _render(view, arguments):
    return view(**dict(arguments))


def cached_page(view):
    """Render a content page once per app and arguments.

    The key is the view and its arguments (the URL's, or what the view was given), never the query
    string, so a URL with junk appended is the same page and cannot push others out.
    """
    @wraps(view)
    def wrapper(**arguments):
        return get_state().render_page(view, tuple(sorted(arguments.items())))

    return wrapper


def flag_label(name):
    """A step flag as pages show it ("not first")."""
    return FLAGS[name].label
