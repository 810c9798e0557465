"""Widgets: how a form shows a field and how its controls send it back.

Each widget is drawn by the macro of the same name in templates/_widgets.html. Most send one value
under the field's name (a box, a stepper, a drop-down, radio buttons: the plain Widget); those whose
controls send several values, or none, say here how those values make the field's one text, and how
a value makes them. A field kind names its widget (Field.default_widget); the field's reading,
checking and summary are its own (see fields.py).
"""
from ..engines.inputs import InputError

MAX_TEXT = 200  # the most characters a form box or query parameter holds


class Widget:
    """How a form's controls send a field: one control, one value under the field's name (a box, a
    stepper, a drop-down, radio buttons). Each widget is drawn by the macro of the same name in
    templates/_widgets.html; those whose controls send several values, or none, say so below."""

    def join(self, field, given: list, name: str) -> str:
        """The one text of what the controls sent under ``name``."""
        if len(given) > 1:
            raise InputError(name, "give it only once")
        return given[0] if given else ""

    def typed(self, given: list) -> str:
        """What was typed, for the form to show again."""
        return given[0][:MAX_TEXT] if given else ""

    def pairs(self, field, name, value) -> list:
        """The parameters the controls send for a value."""
        return [(name, field.form_value(value))]

    def first_control(self, field, name, box=None) -> str:
        """The id of the control a link to the field goes to."""
        return f"f-{name}"


class Radio(Widget):
    def first_control(self, field, name, box=None):
        return f"f-{name}-{field.values[0]}"


class Switch(Widget):
    def pairs(self, field, name, value):
        return [(name, "true")] if value else []  # an unchecked switch sends nothing


class Ticks(Radio):
    """A box to tick for each choice: one value per ticked box (a query may give them comma-separated)."""

    def join(self, field, given, name):
        if len(given) > 1 and any("," in text for text in given):
            raise InputError(name, "give it only once")
        return ",".join(given)

    def typed(self, given):
        return ",".join(given)[:MAX_TEXT]

    def pairs(self, field, name, value):
        return [(name, item) for item in value or ()]  # an unticked box sends nothing


class Boxes(Widget):
    """One box per number of a fixed count (a query may give them comma-separated)."""

    def join(self, field, given, name):
        if field.count > 1 and len(given) > 1:
            if len(given) != field.count or any("," in text for text in given):
                raise field.refusal(name, f"{field.allowed()}: one value for each of the {field.count} boxes, "
                                          f"or all in one, comma-separated (got {len(given)} values)")
            return ",".join(given) if any(text.strip() for text in given) else ""
        return super().join(field, given, name)

    def typed(self, given):
        return ",".join(given)[:MAX_TEXT]

    def pairs(self, field, name, value):
        return [(name, str(number)) for number in value] if value else [(name, "")] * field.count

    def first_control(self, field, name, box=None):
        return f"f-{name}-{box or 1}"


BOX_BREAK = "\n"  # between the texts of a form's two boxes, as a form shows them again (no box holds one)


class Window(Widget):
    """Two boxes under one name: the round it starts in and for how many rounds (see RoundWindow)."""

    def join(self, field, given, name):
        return field.read_boxes(*given, name) if len(given) == 2 else super().join(field, given, name)

    def typed(self, given):
        return BOX_BREAK.join(text[:MAX_TEXT] for text in given[:2])

    def pairs(self, field, name, value):
        return [(name, text) for text in field.box_texts("" if value is None else value)]

    def first_control(self, field, name, box=None):
        return f"f-{name}-from"


ONE_VALUE = Widget()
# the widgets whose controls send something else than one value under the field's name, or whose first
# control's id is not f-<name>; any other macro of templates/_widgets.html sends one value
WIDGETS = {"radio": Radio(), "switch": Switch(), "checks": Ticks(), "boxes": Boxes(), "window": Window()}
