"""Calculator inputs, each declared once.

A field kind states only what differs about it: how its value is read from text (``read_text``) and
what it allows (``allowed``, in words, and ``schema``, the JSON schema a value must fit), and its
widget (``default_widget``, a macro in ``templates/_widgets.html``). Everything else is shared here:
reading a form or a query string (through the widget, which may send several values under one
name), reading a JSON body (checked against the schema), the query string's OpenAPI schema, what a
blank means, and a result's one-line summary of the inputs.

A value a field cannot take is an InputError naming the field, the same exception the engines
raise, so a page shows the message beside the field and the API answers
``{"error": "<name>: <message>"}``.

What a blank or missing value means is the field's ``default``, and only one of three things:
REQUIRED (an error beside the field), None ("not given", whose meaning the field's ``blank`` says
in words, such as "fight to the end") or the kind's zero (0, false, no items) for a count, points
or a modifier, where empty naturally means none; the form, and a result's summary of the inputs,
then show the 0 it used. Nothing else is ever filled in for the player. What the empty form shows
first is the field's ``example``.

A field may apply only while another field has a given value (``shown_when``): a form then shows
it only then (all fields are shown without JavaScript), and a blank there is no error.
"""
from __future__ import annotations

import re
from dataclasses import KW_ONLY, dataclass, replace
from functools import cached_property

from ..engines.inputs import InputError
from ..errors import quoted_name, without_nul
from ..engines.wotr_battle import ROUNDS_ALLOWED, ROUNDS_PATTERN, modifier_window, window_text
from .widgets import BOX_BREAK, MAX_TEXT, ONE_VALUE, WIDGETS, Widget

MAX_RECORD_NUMBER = 999  # the highest number a form's record boxes may carry (<name>-999-<member>)


class _Marker:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


REQUIRED = _Marker("REQUIRED")  # a blank or missing value is an error naming the field
SAME = _Marker("SAME")  # the example is the default
BOOLEAN_WORDS = {"true": True, "1": True, "false": False, "0": False}
SHORT_CHOICE = 5  # choices a form shows as radio buttons rather than in a drop-down
ZEROS = (0, False, (), "")  # the only values a blank may stand for
NUMBER_PATTERN = r"[-+]?\d{1,6}"  # a whole number as a query writes it (see whole_number)


@dataclass(frozen=True)
class When:
    """A condition on another field of the same form, on its value as the form shows it.

    ``When("terrain", "siege")`` holds while terrain is siege; ``When("removal_need", other_than=("",))``
    while removal_need is not blank.
    """

    field: str
    values: tuple = ()
    other_than: tuple = ()

    def __init__(self, field, *values, other_than=()):
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "values", tuple(values))
        object.__setattr__(self, "other_than", tuple(other_than))

    def holds(self, text: str) -> bool:
        return text not in self.other_than if self.other_than else text in self.values

    def as_data(self, prefix="") -> dict:
        """The condition as the form's script reads it (the field's name as the form names it)."""
        return {"field": prefix + self.field, "values": list(self.values), "other_than": list(self.other_than)}


@dataclass(frozen=True)
class Data:
    """A default read from the calculator's content data file: the keys leading to it."""

    keys: tuple

    def __init__(self, *keys):
        object.__setattr__(self, "keys", keys)

    def read(self, data):
        for key in self.keys:
            data = data[key]
        return data


# --------------------------------------------------------------------------- JSON values

JSON_TYPES = {
    "integer": lambda value: isinstance(value, int) and not isinstance(value, bool),
    "boolean": lambda value: isinstance(value, bool),
    "string": lambda value: isinstance(value, str) and "\x00" not in value,
    "array": lambda value: isinstance(value, list),
}


def fits(schema: dict, value) -> bool:
    """Whether a JSON value is one the schema describes (the parts of JSON Schema the fields use)."""
    if not JSON_TYPES[schema["type"]](value):
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if schema["type"] == "integer":
        return schema.get("minimum", value) <= value <= schema.get("maximum", value)
    if schema["type"] == "string":
        return len(value) <= schema.get("maxLength", len(value)) and \
            ("pattern" not in schema or re.search(schema["pattern"], value) is not None)
    if schema["type"] == "array":
        return schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)) and \
            all(fits(schema["items"], item) for item in value) and \
            (not schema.get("uniqueItems") or len(set(value)) == len(value))
    return True


def whole_number(text: str):
    """An int from text such as 3, -2 or +4 (ASCII digits only, at most 6), or None."""
    text = text.strip()
    sign = text[:1] if text[:1] in ("+", "-") else ""
    digits = text[len(sign):]
    if not digits.isascii() or not digits.isdigit() or len(digits) > 6:
        return None
    return int(text)


# --------------------------------------------------------------------------- the field: what every kind shares


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    _: KW_ONLY
    help: str = ""  # for players: no query, JSON or parameter names (api_help holds those)
    api_help: str = ""  # what a program needs besides the help (how a query or a JSON body writes it); OpenAPI only
    default: object = REQUIRED  # what a blank or missing value means: REQUIRED, None or the kind's zero
    blank: str = ""  # with default None: what a blank means, in words that stand alone ("fought to the end")
    example: object = SAME  # what the empty form shows first
    widget: str = ""  # how a form shows it (a key of WIDGETS); "" lets the kind choose (see widget_hint)
    shown_when: tuple = ()  # When conditions: the field applies (and a form shows it) while any holds
    short: str = ""  # the label in a result's one-line summary of the inputs, when shorter than the label
    source: tuple = ()  # where the rules behind the field come from, as the engine says: "summary", "rulebook"
    more: bool = False  # an option used less often: a form folds it under one "More options" line

    kind = "field"
    default_widget = "text"  # the widget the kind is shown with (a key of WIDGETS)
    in_query = True  # can be given in a query string (a list of records only by a form, card by card)
    zero_in_summary = False  # a count or list left blank: a result's summary says the 0 it stood for
    summary_joiner = " "  # between the label and the value in a summary: "Elites 2"; ": " gives "Where: City"
    json_words = ""  # what a JSON body may give, where it differs from allowed()

    # --- what each kind states about itself

    def allowed(self) -> str:
        """What the field accepts, in words, for every error message."""
        raise NotImplementedError

    def read_text(self, text: str, path: str):
        """The value of non-blank form or query text; raises InputError naming ``path``."""
        raise NotImplementedError

    def schema(self) -> dict:
        """The JSON schema of a value: a JSON body's value must fit it, and OpenAPI gives it."""
        raise NotImplementedError

    def from_json(self, value, path: str):
        """The value of a JSON body's member that fits the schema (for a kind that keeps it otherwise)."""
        return value

    def form_value(self, value) -> str:
        """A value as a form box shows it."""
        return "" if value is None else str(value)

    def words(self, value) -> str:
        """A value in a result's one-line summary of the inputs."""
        return self.form_value(value)

    def widget_hint(self) -> str:
        """The widget a form shows the field with."""
        return self.widget or self.default_widget

    # --- reading a form, a query string or a JSON body

    @property
    def form_widget(self) -> Widget:
        """How the widget's controls send the field (one value under its name, unless WIDGETS says otherwise)."""
        return WIDGETS.get(self.widget_hint(), ONE_VALUE)

    def refusal(self, path, words=None) -> InputError:
        return InputError(path, f"must be {words or self.allowed()}")

    def when_blank(self, path):
        """The value of a blank or missing input: the default, or an error when there is none."""
        if self.default is REQUIRED:
            raise InputError(path, f"required: {self.allowed()}")
        return self.default

    def parse_text(self, text: str, path: str | None = None):
        """The value of one form or query value as typed ("" when it was not given)."""
        path = path or self.name
        if len(text) > MAX_TEXT or "\x00" in text:
            raise self.refusal(path)
        if not text.strip():
            return self.when_blank(path)
        return self.read_text(text, path)

    def read_args(self, args, name: str):
        """The value from a form or query string: the texts its widget's controls sent, read as one."""
        return self.parse_text(self.form_widget.join(self, args.getlist(name), name), name)

    def read_form(self, args, name: str):
        """(the value, []) from a form or query string, or (None, [the InputError]) when it cannot be read."""
        try:
            return self.read_args(args, name), []
        except InputError as error:
            return None, [error]

    def read_json(self, value, path: str):
        """The value of a member of a JSON body (never None here): one that fits the schema."""
        if not fits(self.schema(), value):
            raise self.refusal(path, self.json_words or None)
        return self.from_json(value, path)

    def parse_json(self, value, path: str | None = None):
        """The value of a JSON body's member (null only where blank means "not given")."""
        path = path or self.name
        if value is None and self.default is None:
            return None
        if value is None:
            raise self.refusal(path, self.json_words or None)
        return self.read_json(value, path)

    # --- what a form shows

    def typed(self, args, name: str) -> str:
        """What was typed for the field, for the form to show again (a NUL, which no page may hold, as U+FFFD)."""
        return without_nul(self.form_widget.typed(args.getlist(name)))

    def given(self, args, name: str) -> bool:
        """Whether a form or query string has a parameter for the field (even a blank one)."""
        return name in args

    def shown(self, text: str) -> str:
        """What a form shows again after reading ``text``: the 0 a blank stood for, else what was typed."""
        if self.zero_when_blank and not text.strip():
            return self.form_value(self.default)
        return text

    def form_pairs(self, name, value) -> list:
        """The parameters a browser sends for the value in this field's form widget."""
        return self.form_widget.pairs(self, name, value)

    def control_id(self, name, box=None) -> str:
        """The id of the form control a link to the field goes to: its first, or the list's box ``box``."""
        return self.form_widget.first_control(self, name, box)

    @property
    def form_help(self) -> str:
        """The help a form shows: what the field is, and the 0 a blank box stands for."""
        zero = f"Blank: {self.form_value(self.default) or 'none'}." if self.zero_in_summary and self.zero_when_blank else ""
        return " ".join(filter(None, (self.help, zero)))

    @property
    def zero_when_blank(self) -> bool:
        """Whether a blank stands for the kind's zero (a count, points, a modifier)."""
        return self.default is not REQUIRED and self.default is not None

    @property
    def prefill(self):
        """The example a form shows in an empty box: the example, else the default (none when it is required)."""
        if self.example is not SAME:
            return self.example
        return None if self.default is REQUIRED else self.default

    @property
    def placeholder(self) -> str:
        """The example as an empty box shows it, greyed, until the player types ("" for none)."""
        return "" if self.prefill is None else self.form_value(self.prefill)

    # --- a result's one-line summary of the inputs

    def summary(self, value) -> str:
        """The value in a result's one-line summary of the inputs ("" leaves it out)."""
        if value is None:
            return self.blank
        if self.zero_when_blank and value == self.default:
            return ""
        words = self.words(value)
        return f"{self.short or self.label}{self.summary_joiner}{words}" if words else ""

    def stated(self, value) -> str:
        """The value in a summary's words, a 0 (or none) too."""
        return f"{self.short or self.label}{self.summary_joiner}{self.form_value(value) or 'none'}"

    def summary_as_set(self, value) -> str:
        """The value in a summary even where ``summary`` leaves it out (a count at 0): how a later plan
        says it set back what the first plan had."""
        return self.summary(value) or self.stated(value)

    def summary_of_blank(self) -> str:
        """The field left blank, in a result's summary: the 0 (or none) it stood for."""
        return self.stated(self.default)

    def left_blank(self, args, name: str) -> bool:
        """Whether a form or query string left this count blank (or out), so it stood for its zero."""
        if not (self.zero_in_summary and self.zero_when_blank):
            return False
        typed = self.typed(args, name)
        return not typed if isinstance(typed, list) else not typed.replace(",", "").strip()

    # --- OpenAPI

    def query_schema(self) -> dict:
        """The schema of a query parameter: the value's, but a list as one comma-separated text."""
        schema = self.schema()
        if schema["type"] != "array":
            return schema
        items = schema["items"]
        one = "(" + "|".join(map(re.escape, items["enum"])) + ")" if "enum" in items else NUMBER_PATTERN
        low, high = schema.get("minItems"), schema.get("maxItems")
        repeat = "*" if high is None else f"{{{high - 1}}}" if low == high else f"{{0,{high - 1}}}"
        pattern = f"{one}(,{one}){repeat}"
        if self.default is None:
            pattern = f"({pattern})?"
        return {"type": "string", "pattern": f"^{pattern}$", "maxLength": MAX_TEXT, "description": self.allowed()}

    def openapi_schema(self, query=False) -> dict:
        schema = self.query_schema() if query else self.schema()
        if self.default is not REQUIRED and self.default is not None:
            schema["default"] = self.form_value(self.default) if query and schema.get("type") == "string" \
                else self.default
        if query and self.prefill is not None and self.prefill != self.default:  # what the form is prefilled with
            schema["example"] = self.form_value(self.prefill) if schema.get("type") == "string" else self.prefill
        return schema

    # --- declaring

    def but(self, **changes) -> Field:
        """The same field with some attributes changed (another default, a prefixed name...)."""
        return replace(self, **changes)

    def with_data(self, data) -> Field:
        """The field with defaults read from the calculator's content data resolved."""
        changes = {name: getattr(self, name).read(data) for name in ("default", "example")
                   if isinstance(getattr(self, name), Data)}
        return replace(self, **changes) if changes else self


# --------------------------------------------------------------------------- the kinds


@dataclass(frozen=True)
class Integer(Field):
    _: KW_ONLY
    minimum: int
    maximum: int
    signed: bool = False  # a modifier: a summary shows +1

    kind = "integer"
    default_widget = "stepper"
    zero_in_summary = True

    def allowed(self):
        blank = " (or blank)" if self.default is None else ""
        return f"a whole number from {self.minimum} to {self.maximum}{blank}"

    def read_text(self, text, path):
        number = whole_number(text)
        if number is None or not fits(self.schema(), number):
            raise self.refusal(path)
        return number

    def schema(self):
        return {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}

    def words(self, value):
        return f"+{value}" if self.signed and value > 0 else str(value)


@dataclass(frozen=True)
class Boolean(Field):
    kind = "boolean"
    default_widget = "switch"
    json_words = "true or false"

    def allowed(self):
        return "true or false (also 1 or 0)"

    def read_text(self, text, path):
        if text not in BOOLEAN_WORDS:
            raise self.refusal(path)
        return BOOLEAN_WORDS[text]

    def schema(self):
        return {"type": "boolean"}

    def form_value(self, value):
        return "" if value is None else ("true" if value else "false")

    def summary(self, value):
        return (self.short or self.label) if value else ""

    def stated(self, value):
        return self.summary(value) or f"{self.short or self.label}: no"


def choice_labels(labels: dict) -> dict:
    """The ``choices`` and ``shorts`` of a Choice or ChoiceList from {value: label}, where a label
    may be (short label, aside): a form shows "short (aside)", a summary the short label."""
    pairs = {value: label if isinstance(label, tuple) else (label, "") for value, label in labels.items()}
    return {"choices": tuple((value, f"{short} ({aside})" if aside else short) for value, (short, aside) in pairs.items()),
            "shorts": tuple((value, short) for value, (short, aside) in pairs.items() if aside)}


@dataclass(frozen=True)
class Choice(Field):
    _: KW_ONLY
    choices: tuple  # ((value, label), ...)
    shorts: tuple = ()  # ((value, label), ...): a shorter label for a result's summary, where the form's has an aside

    kind = "choice"
    summary_joiner = ": "

    @property
    def values(self):
        return tuple(value for value, _ in self.choices)

    def short_label(self, value) -> str:
        """A choice's label as a result's summary gives it."""
        return dict(self.shorts).get(value) or dict(self.choices)[value]

    def label_parts(self, value) -> tuple:
        """(the short label, the aside in brackets or "") of a choice, as a form sets them apart."""
        label, short = dict(self.choices)[value], dict(self.shorts).get(value)
        return (short, label[len(short) + 1:]) if short and label.startswith(short + " (") else (label, "")

    def allowed(self):
        return "one of " + ", ".join(self.values) + (" (or blank)" if self.default == "" else "")

    def when_blank(self, path):
        """As every field's, but a form that left every option unticked is asked to tick one, as its
        options are labelled, not by the values the API takes."""
        if self.default is REQUIRED:
            raise InputError(path, f"required: {self.allowed()}", on_form="required: choose one of the options")
        return self.default

    def read_text(self, text, path):
        if not fits(self.schema(), text.strip()):
            raise self.refusal(path)
        return text.strip()

    def schema(self):
        return {"type": "string", "enum": list(self.values) + ([""] if self.default == "" else [])}

    def widget_hint(self):
        return self.widget or ("radio" if len(self.choices) <= SHORT_CHOICE else "select")

    words = short_label


@dataclass(frozen=True)
class ChoiceList(Field):
    """Some of a few choices, each at most once, in the order they count: "nazgul,exchange" in a
    query, ["nazgul", "exchange"] in JSON. A form ticks them, in the order declared."""

    _: KW_ONLY
    choices: tuple  # ((value, label), ...), in the order a form lists them
    shorts: tuple = ()  # as Choice's

    kind = "choice_list"
    default_widget = "checks"
    summary_joiner = ": "
    values = Choice.values
    short_label = Choice.short_label
    label_parts = Choice.label_parts

    def allowed(self):
        return f"some of {', '.join(self.values)}, separated by commas, each at most once"

    def read_text(self, text, path):
        return self.read_json([part.strip() for part in text.split(",")], path)

    def from_json(self, value, path):
        return tuple(value)

    def schema(self):
        return {"type": "array", "items": {"type": "string", "enum": list(self.values)}, "uniqueItems": True,
                "maxItems": len(self.values)}

    def form_value(self, value):
        return "" if value is None else ",".join(value)

    def words(self, value):
        return ", ".join(self.short_label(item) for item in value)


@dataclass(frozen=True)
class RoundWindow(Field):
    """The rounds something applies in: "all", "first", "3" (round 3 only), "2-4" (rounds 2 to 4) or
    "3-" (round 3 and every later one), as an engine takes them. A form shows two boxes under the
    one name, the round it starts in and for how many rounds (blank: to the end), so a player
    steps through "only round 1" or "from round 2" without typing. The value is the text, written
    the shortest way ("all" rather than "1-", "first" rather than "1")."""

    _: KW_ONLY
    maximum: int  # the last round there is

    kind = "round_window"
    default_widget = "window"
    summary_joiner = ": "

    def allowed(self):
        return ROUNDS_ALLOWED.format(last_round=self.maximum)

    def boxes_allowed(self):
        return (f"a round from 1 to {self.maximum} to start from, and how many rounds (blank: to the end), "
                f"ending by round {self.maximum}")

    def window(self, value) -> tuple:
        """(first, last or None) of a value, "all" and "first" included."""
        return modifier_window(self.name, value, self.maximum)

    def read_text(self, text, path):
        try:
            return window_text(*self.window(text.strip()))
        except InputError:
            raise self.refusal(path) from None

    from_json = read_text

    def read_boxes(self, start, count, name) -> str:
        """The text of the form's two boxes, the first round and how many rounds ("" for both blank)."""
        start, count = start.strip(), count.strip()
        if not start and not count:
            if self.default is REQUIRED:
                raise InputError(name, f"required: {self.boxes_allowed()}")
            return ""
        first, rounds = whole_number(start), whole_number(count) if count else None
        if first is None or not 1 <= first <= self.maximum or (count and (
                rounds is None or not 1 <= rounds <= self.maximum - first + 1)):
            raise self.refusal(name, self.boxes_allowed())
        return window_text(first, None if rounds is None else first + rounds - 1)

    def box_texts(self, typed) -> tuple:
        """What the form's two boxes show for what was typed: both boxes, or one text read into them."""
        if BOX_BREAK in typed:
            start, _, count = typed.partition(BOX_BREAK)
            return start, count
        try:
            first, last = self.window(self.read_text(typed, self.name))
        except InputError:
            return typed, ""
        return str(first), "" if last is None else str(last - first + 1)

    def schema(self):
        return {"type": "string", "pattern": f"^(all|first|{ROUNDS_PATTERN.pattern})$",
                "maxLength": 7, "description": self.allowed()}

    def words(self, value):
        first, last = self.window(value)
        if last is None:
            return "every round" if first == 1 else f"from round {first} on"
        return f"round {first} only" if first == last else f"rounds {first}–{last}"


@dataclass(frozen=True)
class IntegerList(Field):
    """Whole numbers, one per card or marker: "2,1,1" in a form or query, [2, 1, 1] in JSON."""

    _: KW_ONLY
    minimum: int
    maximum: int
    count: int | None = None  # exactly this many numbers (a form shows a box for each)
    max_items: int | None = None  # at most this many (when the count is not fixed)
    item: str = ""  # what each number belongs to ("marker"), for a fixed count

    kind = "integer_list"
    zero_in_summary = True

    def allowed(self):
        blank = " (or blank)" if self.default is None else ""
        if self.count is not None:
            return f"{self.count} whole numbers from {self.minimum} to {self.maximum}, one per {self.item}{blank}"
        return f"whole numbers from {self.minimum} to {self.maximum}, separated by commas{blank}"

    def widget_hint(self):
        return self.widget or ("boxes" if self.count else "text")

    def check_length(self, numbers, path):
        if self.count is not None and len(numbers) != self.count:
            raise InputError(path, f"must be {self.allowed()} (got {len(numbers)})")
        if self.max_items is not None and len(numbers) > self.max_items:
            raise InputError(path, f"must be at most {self.max_items} numbers (got {len(numbers)})")
        return numbers

    def read_text(self, text, path):
        numbers = [whole_number(part) for part in text.split(",")]
        if self.count is not None and len(numbers) != self.count:
            raise InputError(path, f"must be {self.allowed()} (got {len(numbers)})")
        for number, (part, value) in enumerate(zip(text.split(","), numbers), start=1):
            if value is None or not self.minimum <= value <= self.maximum:
                if self.count is None:
                    raise self.refusal(path)
                # one box per number: say which, so the form marks that box alone
                got = "is blank" if not part.strip() else f"is {quoted_name(part.strip())}"
                raise InputError(path, f"must be {self.allowed()} ({self.item} {number} {got})", item=number)
        return self.check_length(numbers, path)

    def read_json(self, value, path):
        """As every field's, but a number at fault is named by its place in the list."""
        if not isinstance(value, list):
            raise self.refusal(path, f"a list of whole numbers from {self.minimum} to {self.maximum}")
        for index, number in enumerate(value):
            if not fits(self.schema()["items"], number):
                raise InputError(f"{path}[{index}]", f"must be a whole number from {self.minimum} to {self.maximum}")
        return self.check_length(list(value), path)

    def schema(self):
        schema = {"type": "array", "items": {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}}
        if self.count is not None:
            schema.update(minItems=self.count, maxItems=self.count)
        elif self.max_items is not None:
            schema["maxItems"] = self.max_items
        return schema

    def form_value(self, value):
        return "" if value is None else ",".join(str(number) for number in value)

    def words(self, value):
        return ", ".join(map(str, value))


@dataclass(frozen=True)
class Text(Field):
    _: KW_ONLY
    max_length: int = MAX_TEXT

    kind = "text"

    def allowed(self):
        return f"text of at most {self.max_length} characters"

    def read_text(self, text, path):
        if not fits(self.schema(), text):
            raise self.refusal(path)
        return text

    def schema(self):
        return {"type": "string", "maxLength": self.max_length}


@dataclass(frozen=True)
class Records(Field):
    """A list of records, each with its own fields: the cards in a combat, the players at a council.

    ``item`` names one record in messages ("card", "player"). With ``shorthand``, a bare value in
    the list stands for a record giving only that field (a defending card as its defence icons).
    With ``brief`` (a record to a few words), the inputs line under an answer lists the records one
    by one ("Defending cards: 2 icons; 1 icon"), else it counts them. A form enters the records one
    by one, their fields under numbered names (<name>-1-<member>, <name>-2-<member>, ...).
    """

    _: KW_ONLY
    fields: tuple
    item: str
    min_items: int = 0
    max_items: int
    shorthand: str = ""
    brief: object = None  # a record -> its few words in the inputs line

    kind = "records"
    default_widget = "records"  # drawn by the records macro of templates/_fields.html, one record at a time
    in_query = False  # no GET endpoint takes them; a form enters them one by one (see read_form)
    zero_in_summary = True
    summary_joiner = ": "

    def allowed(self):
        if self.min_items == self.max_items:
            return f"a list of {self.max_items} {self.item}s"
        return f"a list of at most {self.max_items} {self.item}s"

    @property
    def form_help(self):
        return self.help

    def row_texts(self, args, name) -> list:
        """What was typed for each record, in the order of their numbers; rows left blank are no record."""
        numbers = {number for number in (self.box_number(key, name) for key in args) if number is not None}
        rows = []
        for number in sorted(numbers):
            texts = {member.name: ",".join(args.getlist(f"{name}-{number}-{member.name}")) for member in self.fields}
            if any(text.strip() for text in texts.values()):
                rows.append(texts)
        return rows

    def read_args(self, args, name):
        """The records a form gives, numbered from 1 again once blank rows are dropped."""
        records, errors = self.read_form(args, name)
        if errors:
            raise errors[0]
        return records

    def box_number(self, key, name) -> int | None:
        """The record number of one of the field's boxes, <name>-<number>-<member> with the number from 1
        to MAX_RECORD_NUMBER written plainly (no sign, no leading 0); None for any other parameter."""
        rest = key.removeprefix(name + "-")
        number, _, member = rest.partition("-")
        plain = (rest != key and number.isascii() and number.isdigit() and not number.startswith("0")
                 and len(number) <= len(str(MAX_RECORD_NUMBER)))
        if not plain or int(number) > MAX_RECORD_NUMBER or member not in self.member_names:
            return None
        return int(number)

    @cached_property
    def member_names(self) -> tuple:
        return tuple(member.name for member in self.fields)

    def box_fault(self, args, name) -> InputError | None:
        """What is wrong with the parameters under the field's name as boxes, or None: one the form never
        draws (refused, not read as no card: the bare name too), or a box given twice."""
        for key in args:
            if key != name and not key.startswith(name + "-"):
                continue
            if self.box_number(key, name) is None:
                return InputError(name, f"{quoted_name(key)} is not a box of this form: each {self.item} has "
                                        f"boxes {name}-<number>-<{'|'.join(self.member_names)}>, the number from "
                                        f"1 to {MAX_RECORD_NUMBER}")
            if len(args.getlist(key)) > 1:
                return InputError(name, f"{quoted_name(key)}: give it only once")
        return None

    def read_form(self, args, name):
        """(the records, []) or (None, an InputError for every box at fault, card by card)."""
        fault = self.box_fault(args, name)
        if fault is not None:
            return None, [fault]
        rows = self.row_texts(args, name)
        if not rows:
            try:
                return self.when_blank(name), []
            except InputError as error:
                return None, [error]
        if not self.min_items <= len(rows) <= self.max_items:
            return None, [InputError(name, f"must be {self.allowed()} (got {len(rows)})")]
        records, errors = [], []
        for number, texts in enumerate(rows, start=1):
            record = {}
            for member in self.fields:
                try:
                    record[member.name] = member.parse_text(texts[member.name], f"{name}-{number}-{member.name}")
                except InputError as error:
                    errors.append(error)
            records.append(record)
        return (None, errors) if errors else (records, [])

    def typed(self, args, name):
        return [{member: without_nul(text[:MAX_TEXT]) for member, text in row.items()}
                for row in self.row_texts(args, name)]

    def given(self, args, name):
        return any(key == name or key.startswith(name + "-") for key in args)

    def control_id(self, name, box=None):
        first = self.fields[0]
        return first.control_id(f"{name}-1-{first.name}")

    def shown(self, rows):
        return [{member.name: member.shown(row[member.name]) for member in self.fields} for row in rows]

    def form_pairs(self, name, value):
        return [pair for number, record in enumerate(value or (), start=1) for member in self.fields
                for pair in member.form_pairs(f"{name}-{number}-{member.name}",
                                              record.get(member.name, member.prefill))]

    def form_value(self, value):
        """Records as a form's rows show them: one mapping of texts per record."""
        return [{member.name: member.form_value(record.get(member.name, member.prefill)) for member in self.fields}
                for record in value or ()]

    def words(self, value):
        if not value:
            return ""
        return str(len(value)) if self.brief is None else "; ".join(self.brief(record) for record in value)

    def read_json(self, value, path):
        if not isinstance(value, list) or not self.min_items <= len(value) <= self.max_items:
            raise self.refusal(path)
        records = []
        for index, record in enumerate(value):
            where = f"{path}[{index}]"
            if self.shorthand and not isinstance(record, dict):
                record = {self.shorthand: record}
            records.append(read_json(self.fields, record, where, what=f"a {self.item}"))
        return records

    def schema(self):
        items = object_schema(self.fields)
        if self.shorthand:
            short = next(member for member in self.fields if member.name == self.shorthand)
            items = {"oneOf": [short.schema(), items]}
        schema = {"type": "array", "items": items, "maxItems": self.max_items}
        if self.min_items:
            schema["minItems"] = self.min_items
        return schema


# --------------------------------------------------------------------------- reading many fields


class Errors(dict):
    """Error messages by field name, as a form names the field less a plan's prefix (a record's
    box: cards-2-attack). An error that names several fields (wrong only together) is under each
    of them, and ``together`` gives each of those names all of them, first name first; an error
    about one box of a list gives the box's number in ``boxes``. An error about the inputs as a
    whole, which names no field of the form, is ``form`` ("" when there is none)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.together = {}
        self.boxes = {}
        self.form = ""
        self.in_api_words = {}  # name -> the message as the API gives it, where a form words it otherwise

    def __bool__(self):
        return bool(len(self) or self.form)

    def add(self, error: InputError, prefix=""):
        names = tuple(name.removeprefix(prefix) for name in error.fields)
        for name in names:
            self[name] = error.on_form
            if error.on_form != error.message:
                self.in_api_words[name] = error.message
            if len(names) > 1:
                self.together[name] = names
        if error.item is not None:
            self.boxes[names[0]] = error.item

    def names_of(self, name) -> tuple:
        """Every field the error under ``name`` names."""
        return self.together.get(name, (name,))

    def first(self) -> str:
        """The first error as the API gives it: "name: message" (several names, comma-separated)."""
        if not len(self):
            return self.form
        name, message = next(iter(self.items()))
        return f"{', '.join(self.names_of(name))}: {self.in_api_words.get(name, message)}"


def read_query(fields, args, prefix=""):
    """Read fields from a form or query string (a mapping of lists, such as request.args).

    Returns (values, errors, raw): values by field name, the Errors of the fields that could not
    be read, and the text typed into each field (so a form can show it again; for a blank that
    stood for 0, the 0). ``prefix`` qualifies every parameter name, so several plans can share
    one query string.
    """
    values, errors, raw = {}, Errors(), {}
    for member in fields:
        name = prefix + member.name
        raw[member.name] = member.shown(member.typed(args, name))
        value, found = member.read_form(args, name)
        if found:
            for error in found:
                errors.add(error, prefix)
        else:
            values[member.name] = value
    return values, errors, raw


def read_json(fields, body, path="", what="this request"):
    """Read fields from a JSON object; raises InputError naming the first member at fault."""
    if not isinstance(body, dict):
        raise InputError(path or "body", f"must be {'a JSON object' if not path else what}: an object with "
                                         f"{', '.join(member.name for member in fields)}")
    names = [member.name for member in fields]
    for key in body:
        if key not in names:
            raise InputError(_member(path, str(key)[:50]),
                             f"not a field of {what}; allowed fields are {', '.join(names)}")
    return {member.name: member.parse_json(body[member.name], _member(path, member.name))
            if member.name in body else member.when_blank(_member(path, member.name)) for member in fields}


def _member(path, name):
    return f"{path}.{name}" if path else name


def object_schema(fields) -> dict:
    """The JSON schema of an object holding these fields."""
    schema = {"type": "object",
              "properties": {member.name: {**member.openapi_schema(), "description": describe(member)}
                             for member in fields},
              "additionalProperties": False}
    required = [member.name for member in fields if member.default is REQUIRED]
    if required:
        schema["required"] = required
    return schema


def describe(member) -> str:
    """A field's label and help, what each choice means and what leaving it out means, for OpenAPI."""
    words = member.label + (f" — {member.help}" if member.help else "") + (f" {member.api_help}" if member.api_help else "")
    if getattr(member, "choices", ()):
        words += " (" + "; ".join(f"{value}: {label}" for value, label in member.choices) + ")"
    if member.default is None:
        words += f" Left out or blank: {member.blank}."
    elif member.zero_when_blank:
        words += f" Left out or blank: {member.form_value(member.default) or 'none'}."
    if member.source:
        words += f" Its rules come from the {' and the '.join(member.source)}."
    return words
