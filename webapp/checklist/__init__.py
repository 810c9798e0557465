"""Turn checklists (/<game>/turn) and print sheets (/<game>/print), read from the turn sequence."""
from .views import bp

__all__ = ["bp"]
