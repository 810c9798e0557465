"""Checks on calculator inputs; each failure is a ValueError that starts with the parameter's name."""


def require_int(name: str, value, low: int, high: int) -> int:
    """Return value when it is a whole number in low..high, else raise ValueError naming the parameter."""
    # bool is a subclass of int, but True is not a number anyone means to type here
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name}: a whole number from {low} to {high}")
    return value


def require_bool(name: str, value) -> bool:
    """Return value when it is True or False, else raise ValueError naming the parameter."""
    if not isinstance(value, bool):
        raise ValueError(f"{name}: true or false")
    return value


def require_choice(name: str, value, choices) -> str:
    """Return value when it is one of choices, else raise ValueError naming the parameter."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name}: one of {', '.join(choices)}")
    return value


def signed(number: int) -> str:
    """Write an integer with its sign, as modifiers are printed: +1, -3, +0."""
    return f"{number:+d}"
