"""Checks on calculator inputs (shared with the other engines) and the way modifiers are written."""
from ..inputs import InputError, require_bool, require_choice, require_int  # noqa: F401


def signed(number: int) -> str:
    """Write an integer with its sign, as modifiers are printed: +1, -3, +0."""
    return f"{number:+d}"
