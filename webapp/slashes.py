"""Trailing slashes: a page asked for with a slash at the end it does not have, or without one it
has, is redirected to the page (308, the query string kept, a relative Location); an address that
is no page either way stays a 404.

Werkzeug redirects a missing slash itself (/wotr/calc to /wotr/calc/); this adds the rest
(/wotr to /wotr/, /wotr/combat-dice/ to /wotr/combat-dice). The JSON API is left out: its paths are
exactly those of the OpenAPI document, and a program that asks for another gets a JSON 404 rather
than a redirect it may not follow.
"""
from urllib.parse import quote

from flask import current_app, redirect, request
from werkzeug.exceptions import HTTPException, NotFound

from .errors import wants_json


def page_at(path):
    """True when a page answers at this path: a route matches it and its view does not say 404
    (a rule or calculator that does not exist). Only asked for an address that matched no route."""
    try:
        endpoint, arguments = current_app.create_url_adapter(request).match(path, method=request.method)
    except HTTPException:  # no route, another method only, or one werkzeug would send elsewhere
        return False
    if endpoint == "static":
        return False
    try:
        current_app.view_functions[endpoint](**arguments)
    except NotFound:
        return False
    except HTTPException:  # the page is there; what it says of the query it says after the redirect
        pass
    return True


def init_app(app):
    @app.before_request
    def redirect_to_slash_twin():
        path = request.path
        if (request.method not in ("GET", "HEAD") or not isinstance(request.routing_exception, NotFound)
                or path == "/" or path.startswith("//") or "\\" in path or wants_json()):
            return None
        twin = path[:-1] if path.endswith("/") else path + "/"
        if not page_at(twin):
            return None
        query = request.query_string.decode("latin-1")
        return redirect(request.script_root + quote(twin) + (f"?{query}" if query else ""), code=308)
