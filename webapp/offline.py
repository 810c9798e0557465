"""Offline use: the web app manifest, the service worker and the pages shown without a network.

The service worker precaches every rule page, checklist and print sheet; its cache name is a
hash of the content and the static files, so any change installs a fresh cache and the old
ones are deleted. Other pages visited (calculator results, search pages) are kept apart, at most
RUNTIME_CACHE_LIMIT of them. A page it cannot fetch nor find in the cache is answered by one of the
OFFLINE_PAGES: search and the calculators say that they need a connection, any other page that
it was not saved on this device.
"""
import hashlib
import json

from flask import Blueprint, Response, render_template, request, url_for

from .calculators import calculator_url, for_game
from .state import get_calculators, get_library, get_state

bp = Blueprint("offline", __name__)


# What a page the service worker can neither fetch nor find in its cache is answered with, by
# kind: (the kind, the heading). The last one answers every other page.
OFFLINE_PAGES = (
    ("search", "Search needs a connection"),
    ("calculator", "Calculators need a connection"),
    ("page", "You are offline"),
)


# Pages the service worker keeps besides the precache (calculator results, search pages): enough
# for a game's worth of calculator answers, and a bound on what a device stores.
RUNTIME_CACHE_LIMIT = 60


def offline_url(kind):
    return url_for(".offline_page") if kind == "page" else url_for(".offline_page", need=kind)


def offline_paths(kind):
    """The paths whose page, when it cannot be fetched, is answered by the offline page of this kind."""
    if kind == "search":
        return [url_for("main.search_page")]
    if kind == "calculator":
        return [calculator_url(calc_id) for calc_id in get_calculators()]
    return None  # every other page


def precache_urls():
    """Every page that must open without a network after the first visit, and the assets."""
    library = get_library()
    urls = [url_for("main.home"), url_for("checklist.print_combined"), *(offline_url(kind) for kind, _ in OFFLINE_PAGES)]
    for game in library.games.values():
        urls += [url_for("main.game_page", game_id=game.id), url_for("checklist.turn", game_id=game.id),
                 url_for("checklist.print_sheet", game_id=game.id)]
        if for_game(game.id):
            urls.append(url_for("calculators.calculator_index", game_id=game.id))
        urls += [url_for("main.section_page", game_id=game.id, section_id=section.id)
                 for section in game.sections.values()]
    prints = get_state().static
    urls += [url_for("static", filename=name) for name in sorted(prints) if not name.endswith(".webmanifest")]
    return urls


def cache_name():
    state = get_state()
    digest = hashlib.sha256((state.library.fingerprint + json.dumps(state.static, sort_keys=True)).encode()).hexdigest()
    return f"redbook-{digest[:12]}"


@bp.route("/sw.js")
def service_worker():
    offline = [{"paths": offline_paths(kind), "url": offline_url(kind)} for kind, _ in OFFLINE_PAGES]
    body = render_template("sw.js", cache_name=cache_name(), urls=precache_urls(), offline=offline,
                           runtime_limit=RUNTIME_CACHE_LIMIT,
                           static_prefix=url_for("static", filename=""),
                           api_prefix=request.script_root + "/api/")
    response = Response(body, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = url_for("main.home")
    return response


@bp.route("/manifest.webmanifest")
def manifest():
    body = {
        "name": "Red Book: Middle-earth rules and odds",
        "short_name": "Red Book",
        "start_url": url_for("main.home"),
        "scope": url_for("main.home"),
        "display": "standalone",
        "background_color": "#fdfbf7",
        "theme_color": "#8b1a1a",
        "icons": [{"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    return Response(json.dumps(body), mimetype="application/manifest+json")


@bp.route("/offline", defaults={"need": "page"})
@bp.route("/offline/<any(search, calculator):need>")
def offline_page(need):
    heading = next(words for kind, words in OFFLINE_PAGES if kind == need)
    return render_template("offline.html", need=need, heading=heading, games=get_library().games.values())
