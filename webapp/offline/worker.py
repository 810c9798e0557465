"""What the offline bundle's Web Worker runs (static/python_worker.js): the app, created as the
server creates it, answering the requests a page hands it.

Five settings differ from the server's, none of which changes an answer: the content's YAML
comes parsed ahead of time (the browser has no libyaml), so do the templates compiled (Jinja's
bytecode cache, checked against each template's source) and the search index (built natively by
the bundle's build, read only by the same build), answers are not compressed (they never cross a
network), and the search index is read once the first answer is given, not before it.
"""
import gc
from urllib.parse import urlsplit

from werkzeug.test import EnvironBuilder, run_wsgi_app

TEMPLATE_BYTECODE = "template-bytecode"  # beside the app in the bundle: its templates, compiled at build time
SEARCH_INDEX = "search-index.pickle"  # beside the app in the bundle: its search index, built at build time

# Request headers passed on to the app: what it reads (the rest describe the browser's connection)
PASSED_HEADERS = ("Accept", "Accept-Language")


def start(root, bundle_dir=None):
    """The app from the bundle unpacked at root; bundle_dir holds the bundle's manifest, so that its
    pages offer offline use as the server's do."""
    from .. import create_app  # noqa: PLC0415 (this module is imported before the app's package is needed)

    gc.disable()  # nothing made while loading is garbage: collecting would only cost time
    try:
        return create_app({"CONTENT_PARSED": f"{root}/parsed-content.pickle", "COMPRESS_RESPONSES": False,
                           "SEARCH_INDEX_AT_START": False, "SEARCH_INDEX_SAVED": f"{root}/{SEARCH_INDEX}",
                           "OFFLINE_BUNDLE_DIR": bundle_dir,
                           "TEMPLATE_BYTECODE_DIR": f"{root}/{TEMPLATE_BYTECODE}"})
    finally:
        gc.enable()


def finish_start(app):
    """What start left for later: the search index (the worker reads it once it has answered)."""
    from ..state import get_search_index  # noqa: PLC0415

    gc.disable()
    try:
        with app.app_context():
            get_search_index()
    finally:
        gc.enable()


def answer(app, method, url, headers, script_root=""):
    """(status, [(header, value)], body) of the app's answer to a request for the absolute url, the
    app being at script_root on its site (as the server's SCRIPT_NAME, "" at the top)."""
    parts = urlsplit(url)
    path = parts.path[len(script_root):] if parts.path.startswith(script_root + "/") else parts.path
    builder = EnvironBuilder(method=method, base_url=f"{parts.scheme}://{parts.netloc}{script_root}", path=path,
                             query_string=parts.query,
                             headers={name: value for name, value in headers.items() if name.title() in PASSED_HEADERS})
    try:
        body, status, response_headers = run_wsgi_app(app, builder.get_environ(), buffered=True)
        return int(status.split()[0]), list(response_headers.items()), b"".join(body)
    finally:
        builder.close()
