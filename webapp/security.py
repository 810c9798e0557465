"""Response headers for every response: a strict Content-Security-Policy and caching rules.

Static assets are addressed with a hash of their bytes (?v=...), so they can be cached for a
year; HTML and JSON are revalidated every time, so a content change shows at once.
"""
import hashlib
from pathlib import Path

from flask import request

CSP = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
))
YEAR = 365 * 24 * 3600


def static_fingerprints(static_folder):
    """A short hash of each static file's bytes, by file name."""
    prints = {}
    root = Path(static_folder)
    for path in root.rglob("*"):
        if path.is_file():
            prints[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
    return prints


def init_app(app):
    prints = static_fingerprints(app.static_folder)
    app.extensions["redbook.static"] = prints

    @app.url_defaults
    def fingerprint_static(endpoint, values):
        if endpoint == "static" and "v" not in values:
            digest = prints.get(values.get("filename", ""))
            if digest:
                values["v"] = digest

    @app.after_request
    def security_headers(response):
        headers = response.headers
        headers.setdefault("Content-Security-Policy", CSP)
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "same-origin")
        headers.setdefault("X-Frame-Options", "DENY")
        if request.endpoint == "static" and request.args.get("v"):
            headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        elif "Cache-Control" not in headers:
            headers["Cache-Control"] = "no-cache"
        return response
