"""A calculator's JSON endpoint: read the query string (GET) or the JSON body (POST), run, answer."""
from flask import abort, jsonify, request
from werkzeug.exceptions import BadRequest, ClientDisconnected, HTTPException

from ..calculators.calculator import api_body
from ..calculators.fields import read_json
from ..engines.inputs import InputError
from ..errors import error_response, unknown_parameter


def answer_get(calc, api):
    refused = unknown_parameter(request.args, [member.name for member in calc.fields])
    if refused is not None:
        return refused
    values, errors, raw, result = calc.answer(request.args)
    if errors:
        return error_response(400, errors.first())
    return jsonify(api_body(result, api.result))


UNREADABLE_BODY = "body: could not be read (cut short, or a malformed chunk of Transfer-Encoding: chunked)"


def request_body() -> bytes:
    """The body, read whole (and kept for get_json); one the server cannot read is the client's error."""
    try:
        return request.get_data(cache=True)
    except ClientDisconnected as error:  # werkzeug's server: a malformed chunk, or a body cut short
        raise BadRequest(UNREADABLE_BODY) from error
    except HTTPException:  # a body over the limit stays a 413
        raise
    except Exception as error:  # gunicorn alone: its own exception for a malformed chunk
        raise BadRequest(UNREADABLE_BODY) from error


def answer_post(calc, api):
    refused = unknown_parameter(request.args, [])  # its input is the body alone
    if refused is not None:
        return refused
    limit = request.max_content_length
    sent = request_body()
    # Werkzeug cuts a body sent without Content-Length (chunked) at the limit instead of refusing it
    if limit is not None and request.content_length is None and len(sent) >= limit:
        abort(413)
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # the JSON decoder recurses once per level of nesting
        return error_response(400, "body: nested too deeply to be read")
    if body is None:
        return error_response(400, "body: must be a JSON object (Content-Type: application/json)")
    try:
        result = calc.run(read_json(api.fields, body), api.compute)
    except InputError as error:
        return error_response(400, str(error))
    return jsonify(api_body(result, api.result))
