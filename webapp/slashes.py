"""Trailing slashes: a page asked for with a slash at the end it does not have, or without one it
has, is redirected to the page (308, the query string kept, a relative Location); an address that
is no page either way stays a 404.

Werkzeug redirects a missing slash itself (/wotr/calc to /wotr/calc/); this adds the rest
(/wotr to /wotr/, /wotr/combat-dice/ to /wotr/combat-dice), looking the twin address up in the
site's pages (site_map.py). The JSON API is left out: its paths are exactly those of the OpenAPI
document, and a program that asks for another gets a JSON 404 rather than a redirect it may not
follow.
"""
from urllib.parse import quote

from flask import redirect, request
from werkzeug.exceptions import NotFound

from .errors import wants_json
from .state import get_state


def init_app(app):
    @app.before_request
    def redirect_to_slash_twin():
        path = request.path
        if (request.method not in ("GET", "HEAD") or not isinstance(request.routing_exception, NotFound)
                or path == "/" or path.startswith("//") or "\\" in path or wants_json()):
            return None
        twin = path[:-1] if path.endswith("/") else path + "/"
        if twin not in get_state().site_paths:
            return None
        query = request.query_string.decode("latin-1")
        return redirect(request.script_root + quote(twin) + (f"?{query}" if query else ""), code=308)
