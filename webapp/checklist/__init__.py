"""Turn checklists (/<game>/turn) and print sheets (/<game>/print), read from the turn sequence."""
from flask import Blueprint

bp = Blueprint("checklist", __name__)

from . import views  # noqa: E402,F401
