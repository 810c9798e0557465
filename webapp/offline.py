"""Offline use: the web app manifest, the service worker and the page shown without a network.

The service worker precaches every rule page, checklist and print sheet; its cache name is a
hash of the content and the static files, so any change installs a fresh cache and the old
ones are deleted.
"""
import hashlib
import json

from flask import Response, current_app, render_template, url_for

from .calculators import CALCULATORS
from .content_store import get_library


def precache_urls():
    """Every page that must open without a network after the first visit, and the assets."""
    library = get_library()
    urls = ["/", "/offline", "/print"]
    for game in library.games.values():
        urls += [game.url, f"/{game.id}/turn", f"/{game.id}/print"]
        urls += [section.url for section in game.sections.values()]
    prints = current_app.extensions["redbook.static"]
    urls += [url_for("static", filename=name) for name in sorted(prints) if not name.endswith(".webmanifest")]
    return urls


def cache_name():
    library = get_library()
    prints = current_app.extensions["redbook.static"]
    digest = hashlib.sha256((library.fingerprint + json.dumps(prints, sort_keys=True)).encode()).hexdigest()
    return f"redbook-{digest[:12]}"


def init_app(app):
    @app.route("/sw.js")
    def service_worker():
        body = render_template("sw.js", cache_name=cache_name(), urls=precache_urls())
        response = Response(body, mimetype="text/javascript")
        response.headers["Service-Worker-Allowed"] = "/"
        return response

    @app.route("/manifest.webmanifest")
    def manifest():
        body = {
            "name": "Red Book: Middle-earth rules and odds",
            "short_name": "Red Book",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#fdfbf7",
            "theme_color": "#8b1a1a",
            "icons": [{"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
        }
        return Response(json.dumps(body), mimetype="application/manifest+json")

    @app.route("/offline")
    def offline_page():
        calculators = sorted(CALCULATORS.values(), key=lambda calc: calc.game)
        return render_template("offline.html", calculators=calculators)
