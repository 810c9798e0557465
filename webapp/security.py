"""Security headers on every response, and redirects that never repeat the Host header.

A strict Content-Security-Policy; no camera, microphone, location or payment features; no
window of another site may hold a reference to ours, nor load our files. Redirects point at a
path on this site (a relative Location), so a forged Host header cannot send anyone elsewhere;
TRUSTED_HOSTS, when configured, refuses such requests outright with a 400.
"""
from urllib.parse import urlsplit, urlunsplit

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
PERMISSIONS = ", ".join(f"{feature}=()" for feature in (
    "accelerometer", "camera", "geolocation", "gyroscope", "magnetometer", "microphone", "payment", "usb",
))


def relative_location(location):
    """A Location as a path on this site: the app never redirects elsewhere, and Werkzeug's own
    redirects (a missing trailing slash) would otherwise be built from the Host header."""
    parts = urlsplit(location)
    return urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))


def init_app(app):
    @app.after_request
    def security_headers(response):
        headers = response.headers
        headers.setdefault("Content-Security-Policy", CSP)
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "same-origin")
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("Permissions-Policy", PERMISSIONS)
        headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        if "Location" in headers:
            headers["Location"] = relative_location(headers["Location"])
        return response
