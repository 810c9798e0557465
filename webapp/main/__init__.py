"""Pages for people: home, search, game overviews and rule sections."""
from .views import bp

__all__ = ["bp"]
