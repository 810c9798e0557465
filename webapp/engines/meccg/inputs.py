"""Checks on calculator inputs (shared with the other engines) and the way modifiers are written."""
from ..inputs import InputError, require_bool, require_choice, require_int  # noqa: F401

# Bounds on what a player may enter: wider than any legal combination of cards, and they
# keep every calculation small.
MAX_MODIFIER = 20  # a sum of modifiers, either way
MAX_INFLUENCE = 30  # direct or general influence, a mind, a faction's number
MAX_SUPPORT = 20  # characters tapped in support


def signed(number: int) -> str:
    """Write an integer with its sign, as modifiers are printed: +1, -3, +0."""
    return f"{number:+d}"
