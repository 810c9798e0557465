"""Offline use: the web app manifest, the service worker and the pages shown without a network.

The service worker precaches every rule page, checklist and print sheet; its cache name is a
hash of the content and the static files, so any change installs a fresh cache and the old
ones are deleted. A page it cannot fetch nor find in the cache is answered by one of the
OFFLINE_PAGES: search and the calculators say that they need a connection, any other page that
it was not saved on this device.
"""
import hashlib
import json

from flask import Response, current_app, render_template, url_for

from .calculators import CALCULATORS
from .content_store import get_library


# What a page the service worker can neither fetch nor find in its cache is answered with, by
# kind: (the kind, a pattern of the paths it answers, the heading). The last one answers the rest.
OFFLINE_PAGES = (
    ("search", r"^/search$", "Search needs a connection"),
    ("calculator", r"^/[^/]+/calc/[^/]+$", "Calculators need a connection"),
    ("page", r"", "You are offline"),
)


def offline_url(kind):
    return url_for("offline_page") if kind == "page" else url_for("offline_page", need=kind)


def precache_urls():
    """Every page that must open without a network after the first visit, and the assets."""
    library = get_library()
    urls = ["/", "/print", *(offline_url(kind) for kind, _, _ in OFFLINE_PAGES)]
    for game in library.games.values():
        urls += [game.url, f"/{game.id}/turn", f"/{game.id}/print"]
        if any(calc.game == game.id for calc in CALCULATORS.values()):
            urls.append(url_for("calculators.calculator_index", game_id=game.id))
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
        offline = [{"pattern": pattern, "url": offline_url(kind)} for kind, pattern, _ in OFFLINE_PAGES]
        body = render_template("sw.js", cache_name=cache_name(), urls=precache_urls(), offline=offline)
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

    @app.route("/offline", defaults={"need": "page"})
    @app.route("/offline/<any(search, calculator):need>")
    def offline_page(need):
        heading = next(words for kind, _, words in OFFLINE_PAGES if kind == need)
        return render_template("offline.html", need=need, heading=heading, games=get_library().games.values())
