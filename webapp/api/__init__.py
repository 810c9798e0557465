"""The JSON API under /api/: search, the OpenAPI document and every calculator's endpoints."""
from .views import bp

__all__ = ["bp"]
