"""Offline use: the web app manifest, the service worker, the pages shown without a network, and
the offline bundle.

The service worker precaches every rule page, checklist and print sheet; its cache name is a
hash of the content and the static files, so any change installs a fresh cache and the old
ones are deleted. Other pages visited (calculator results, search pages) are kept apart, at most
RUNTIME_CACHE_LIMIT of them. A page it cannot fetch nor find in the cache is answered by one of the
OFFLINE_PAGES: search and the calculators say that they need a connection, any other page that
it was not saved on this device.

Once a player switches on "Use Red Book offline", the page downloads the offline bundle (the app
and Pyodide, built by `redbook offline-build`: build.py) into a cache of its own, named after the
bundle's version. Then a page the service worker can neither fetch nor find is answered by the app
itself, run in a Web Worker from the bundle (python_worker.js, worker.py): the same code,
templates and content as the server's. See docs/offline.md.
"""
import hashlib
import json

from flask import Blueprint, Response, abort, render_template, request, send_file, url_for

from ..caching import IMMUTABLE
from ..calculators import calculator_url, for_game
from ..state import get_calculators, get_library, get_state
from .bundle import NOT_OFFERED

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
                           api_prefix=request.script_root + "/api/",
                           python=bundle_addresses(), relay_timeout=RELAY_TIMEOUT_MS)
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


# --- the offline bundle -------------------------------------------------------------------------

# How long the service worker waits for a page's Python to answer: a first answer starts Python
# (seconds), and the largest battle takes a second or two more.
RELAY_TIMEOUT_MS = 60_000
# The worker compiles Pyodide's WebAssembly: its script alone may ('wasm-unsafe-eval')
WORKER_CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; "
              "object-src 'none'; base-uri 'none'")


def bundle_addresses():
    """What a page and the service worker need to know of the offline bundle (None: not offered):
    its version, where its files are, and what it downloads and takes."""
    bundle = get_state().offline
    if not bundle.offered:
        return None
    version = bundle.version

    def address(name):
        return url_for("offline.bundle_file", version=version, name=name)

    manifest = url_for("offline.bundle_manifest", version=version)
    return {"version": version, "base": manifest.rsplit("/", 1)[0] + "/",
            "files": [address(name) for name in bundle.files], "manifest": manifest, "worker": url_for("offline.python_worker", version=version),
            "shell": url_for("offline.answering", version=version), "root": url_for("main.home"),
            "static": url_for("static", filename=""),
            "download": bundle.download_bytes(), "space": bundle.unpacked_bytes()}


@bp.app_context_processor
def offline_context():
    bundle = get_state().offline
    return {"offline_bundle": bundle, "offline_not_offered": NOT_OFFERED.get(bundle.problem), "offline_json": bundle_json}


def bundle_json():
    addresses = bundle_addresses()
    return json.dumps(addresses) if addresses else ""


def offered_bundle(version):
    """The bundle this server offers, when version is its version; else a 404."""
    bundle = get_state().offline
    if not bundle.offered or version != bundle.version:
        abort(404)
    return bundle


@bp.route("/offline/bundle/<version>/manifest.json")
def bundle_manifest(version):
    response = Response(json.dumps(offered_bundle(version).manifest), mimetype="application/json")
    response.headers["Cache-Control"] = IMMUTABLE
    return response


@bp.route("/offline/bundle/<version>/<name>")
def bundle_file(version, name):
    """A file of the bundle, in the best stored form the browser takes (brotli, gzip or as it is);
    its address names the version, so it never changes."""
    bundle = offered_bundle(version)
    info = bundle.files.get(name) or abort(404)
    encoding = next((coding for coding in ("br", "gzip") if coding in info and request.accept_encodings[coding]), None)
    path = bundle.folder / (name + {"br": ".br", "gzip": ".gz", None: ""}[encoding])
    response = send_file(path, mimetype=info["type"], etag=f"{info['sha256'][:20]}-{encoding or 'identity'}",
                         conditional=True)
    if encoding:
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    response.headers["Cache-Control"] = IMMUTABLE
    return response


@bp.route("/offline/bundle/<version>/worker.js")
def python_worker(version):
    offered_bundle(version)
    body = render_template("python_worker.js", version=version, script_root=request.script_root)
    response = Response(body, mimetype="text/javascript")
    response.headers["Content-Security-Policy"] = WORKER_CSP
    response.headers["Cache-Control"] = IMMUTABLE
    return response


@bp.route("/offline/bundle/<version>/answer")
def answering(version):
    """What the service worker shows for a page it can neither fetch nor find while the bundle is
    on the device: the page then asks its Python for the page at its own address."""
    offered_bundle(version)
    return render_template("offline_answer.html")
