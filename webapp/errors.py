"""Errors: JSON under /api/, HTML pages everywhere else; never a traceback."""
from flask import jsonify, render_template, request
from werkzeug.exceptions import BadRequest, HTTPException, SecurityError
from werkzeug.http import HTTP_STATUS_CODES


class ParameterError(BadRequest):
    """A page's query parameter with a value it does not take: the message names the parameter
    and what is allowed, and the error page links each allowed value (label, url)."""

    def __init__(self, message, choices=()):
        super().__init__(description=message)
        self.choices = tuple(choices)


def error_response(status, message=None):
    """A JSON error body {"error": message} with the given status."""
    payload = {"error": message or HTTP_STATUS_CODES.get(status, "Unknown error")}
    response = jsonify(payload)
    response.status_code = status
    return response


def without_nul(text: str) -> str:
    """Text as a page or a message may hold it: a NUL, which none may, as U+FFFD."""
    return text.replace("\x00", "\ufffd")


def quoted_name(key: str) -> str:
    """A parameter's name as a message quotes it: at most 50 characters, without a NUL."""
    return without_nul(key[:50])


def unknown_parameter(args, names):
    """A 400 for the first query parameter that is none of ``names``, or None: a misspelt name is
    refused by name, never answered as if it had been left out."""
    stray = next((key for key in args if key not in names), None)
    if stray is None:
        return None
    shown = quoted_name(stray) or "(a parameter with no name)"
    takes = f"its parameters are {', '.join(names)}" if names else "it takes none (its input is the JSON body)"
    return error_response(400, f"{shown}: not a parameter of this endpoint; {takes}")


def wants_json():
    return request.path.startswith("/api/") or request.path == "/api"


def init_app(app):
    @app.errorhandler(SecurityError)
    def handle_untrusted_host(exc):
        # a Host outside TRUSTED_HOSTS: no page can be drawn, since every link is built for a host
        return "Bad Request: this site does not answer to that host name\n", 400, {"Content-Type": "text/plain"}

    @app.errorhandler(HTTPException)
    def handle_http_error(exc):
        if wants_json():
            message = exc.description if exc.code in (400, 405) else None
            if exc.code == 413:
                message = f"body: larger than the {app.config['MAX_CONTENT_LENGTH']} bytes allowed"
            response = error_response(exc.code, message)
        else:
            # a 400 says which parameter was wrong and what is allowed
            response = app.make_response((render_template(
                "error.html", status=exc.code, title=HTTP_STATUS_CODES.get(exc.code, "Error"),
                message=exc.description if exc.code == 400 else None,
                choices=getattr(exc, "choices", ())), exc.code))
        if exc.code == 405 and exc.valid_methods:
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(Exception)
    def handle_unexpected(exc):
        app.logger.exception("unhandled error on %s", request.path)
        if wants_json():
            return error_response(500)
        return render_template("error.html", status=500, title="Something went wrong"), 500
