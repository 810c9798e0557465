"""Checks on what an engine is given: each failure is an InputError naming the field."""


class InputError(ValueError):
    """An engine input outside what the rules or the engine allow.

    ``field`` is the parameter's name as the API and the form know it (for example
    ``attacker_regulars``); ``message`` says what is allowed, without the name. Inputs that are
    wrong only together (the faces of one die) name the others too (``together``); an error about
    one number of a list says which (``item``, counted from 1). ``on_form`` says the same in a
    form's words where they differ from the API's (the options' labels rather than their values).
    """

    def __init__(self, field: str, message: str, *together: str, item: int | None = None,
                 on_form: str | None = None):
        self.field = field
        self.fields = (field, *together)
        self.message = message
        self.on_form = on_form or message
        self.item = item
        super().__init__(f"{', '.join(self.fields)}: {message}")


class InputErrors(InputError):
    """Several InputErrors found at once, each about its own fields (each side of a battle): it reads
    as the first (the API says the first problem, as for any request), and a form shows each beside
    its field (``errors``)."""

    def __init__(self, errors):
        first = errors[0]
        super().__init__(first.field, first.message, *first.fields[1:], item=first.item, on_form=first.on_form)
        self.errors = tuple(errors)


def raise_any(errors) -> None:
    """Raise the InputError in ``errors`` (a list), or InputErrors for several; nothing for none."""
    if errors:
        raise errors[0] if len(errors) == 1 else InputErrors(errors)


def require_int(name: str, value, low: int, high: int) -> int:
    """Return value when it is a whole number in low..high, else raise InputError naming it."""
    # bool is a subclass of int, but True is not a number anyone means to type here
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(name, f"a whole number from {low} to {high}")
    return value


def require_bool(name: str, value) -> bool:
    """Return value when it is True or False, else raise InputError naming it."""
    if not isinstance(value, bool):
        raise InputError(name, "true or false")
    return value


def require_choice(name: str, value, choices) -> str:
    """Return value when it is one of choices, else raise InputError naming it."""
    if not isinstance(value, str) or value not in choices:
        raise InputError(name, f"one of {', '.join(choices)}")
    return value
