"""How responses travel and are reused: compression, validators and Cache-Control.

- HTML, JSON, CSS, JS and SVG are compressed by the app itself (Flask-Compress: zstd, brotli
  or gzip, whichever the client prefers), so `redbook serve` and gunicorn alone compress.
- Static assets are addressed with a hash of their bytes (?v=...). Only a request whose v is
  the file's hash is cached for a year as immutable; any other is revalidated.
- Pages and API GETs carry a weak ETag made from the build's fingerprint (the app's version,
  code, the templates as compiled when the app was created, the content and the static files) and
  the request's path and query.
  Weak, because the compressed and plain bodies of one page are the same page (RFC 9110,
  8.8.1): one validator serves every encoding. A request whose If-None-Match holds it gets a
  304 before the view runs, so revalidating a calculator costs no computing.
- Pages and API GETs may be stored by phones and shared caches; browsers revalidate every
  time and a CDN after a minute, so new content shows within a minute at most.
"""
import hashlib
import json
from importlib import metadata
from pathlib import Path

from flask import request
from jinja2 import BaseLoader

from .settings import PROJECT_ROOT
from .state import get_state

YEAR = 365 * 24 * 3600
IMMUTABLE = f"public, max-age={YEAR}, immutable"
SHARED_PAGE = "public, max-age=0, s-maxage=60"
REVALIDATE = "no-cache"

COMPRESSION = {
    "COMPRESS_MIMETYPES": ["text/html", "text/css", "text/javascript", "application/javascript",
                           "application/json", "application/manifest+json", "image/svg+xml"],
    "COMPRESS_ALGORITHM": ["zstd", "br", "gzip"],
}


def static_fingerprints(static_folder):
    """A short hash of each static file's bytes, by file name."""
    prints = {}
    root = Path(static_folder)
    for path in root.rglob("*"):
        if path.is_file():
            prints[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
    return prints


def app_version():
    try:
        return metadata.version("redbook")
    except metadata.PackageNotFoundError:
        return "unknown"


class RecordingLoader(BaseLoader):
    """The app's template loader, keeping a hash of each source it hands to Jinja to compile."""

    def __init__(self, loader):
        self.loader = loader
        self.compiled = {}  # template name -> hash of the source it was compiled from

    def get_source(self, environment, template):
        source, filename, uptodate = self.loader.get_source(environment, template)
        self.compiled[template] = hashlib.sha256(source.encode()).hexdigest()
        return source, filename, uptodate

    def list_templates(self):
        return self.loader.list_templates()


def compile_templates(app) -> dict:
    """Compile every template now, once, and return the hash of each one's source as compiled (by name).

    Jinja keeps what it compiled and, outside debug mode, never reads a template again: pages are
    drawn from exactly these sources, whatever changes on disk later, and the first page of each
    kind costs no compiling. (In debug mode Jinja reads a changed template again, and the ETags
    lag behind it until the app is created again.)
    """
    environment = app.jinja_env
    if not isinstance(environment.loader, RecordingLoader):
        environment.loader = RecordingLoader(environment.loader)
    for name in environment.list_templates():
        environment.get_template(name)
    return dict(sorted(environment.loader.compiled.items()))


def build_fingerprint(library, static, templates):
    """A hash of everything a page or an API answer is made from, besides its own URL: the app's
    version, its code and data (the word vectors), the templates as compiled, the content and the
    static files' fingerprints."""
    digest = hashlib.sha256(app_version().encode())
    digest.update(library.fingerprint.encode())
    digest.update(json.dumps(static, sort_keys=True).encode())
    digest.update(json.dumps(templates, sort_keys=True).encode())
    for path in sorted(p for p in (PROJECT_ROOT / "webapp").rglob("*") if p.suffix in (".py", ".bin")):
        digest.update(str(path.relative_to(PROJECT_ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def page_etag(build):
    """The validator of the page or API answer at this request's path and query."""
    where = f"{request.script_root}\0{request.full_path}"
    return hashlib.sha256(f"{build}\0{where}".encode()).hexdigest()[:20]


def revalidated(etag):
    """True when the request's If-None-Match names this ETag (weak comparison; "*" is not enough)."""
    tags = request.if_none_match
    return bool(tags) and not tags.star_tag and tags.contains_weak(etag)


def init_app(app):
    """Compression, static addresses with their hash, validators and Cache-Control on every response."""
    if app.config["COMPRESS_RESPONSES"]:
        from flask_compress import Compress  # compiled codecs: the offline bundle's worker turns this off

        for key, value in COMPRESSION.items():
            app.config.setdefault(key, value)
        # registered first, so it runs after the headers below are set (Flask runs them in reverse)
        Compress(app)

    @app.url_defaults
    def fingerprint_static(endpoint, values):
        if endpoint == "static" and "v" not in values:
            digest = get_state().static.get(values.get("filename", ""))
            if digest:
                values["v"] = digest

    def page_request():
        """A GET or HEAD of a page or an API answer (static files have validators of their own)."""
        return request.method in ("GET", "HEAD") and request.endpoint not in (None, "static")

    @app.before_request
    def answer_revalidation():
        if "If-None-Match" in request.headers and page_request():
            etag = page_etag(get_state().build)
            if revalidated(etag):
                response = app.response_class(status=304)
                response.set_etag(etag, weak=True)
                response.headers["Cache-Control"] = SHARED_PAGE
                return response

    @app.after_request
    def cache_headers(response):
        headers = response.headers
        if request.endpoint == "static":
            asked = request.args.get("v")  # no v, or a name no file has, is never a match
            right_hash = asked is not None and asked == get_state().static.get(request.view_args.get("filename", ""))
            headers["Cache-Control"] = IMMUTABLE if right_hash and response.status_code in (200, 304) else REVALIDATE
            if response.status_code == 200:
                # read the (small) file into the response, so it is compressed whole and closed at once
                response.direct_passthrough = False
                response.make_sequence()
        elif page_request() and response.status_code == 200 and "no-store" not in headers.get("Cache-Control", ""):
            if "ETag" not in headers:
                response.set_etag(page_etag(get_state().build), weak=True)
            headers.setdefault("Cache-Control", SHARED_PAGE)
        else:
            headers.setdefault("Cache-Control", REVALIDATE)
        return response
