"""The JSON API under /api/."""
from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api")

from . import openapi, search_api  # noqa: E402,F401
