"""Calculator inputs: one declaration per field drives the HTML form, the API and OpenAPI.

Parsing never raises on bad input: it returns the values it could read, an error message per
field naming what is allowed, and the raw text the player typed so a form can show it again.
"""
from __future__ import annotations

from dataclasses import dataclass

TRUE_WORDS = ("true", "1", "on", "yes")
FALSE_WORDS = ("false", "0", "off", "no")
MAX_RAW = 200


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    kind: str = "int"  # int, bool, choice, int_list
    default: object = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple = ()  # ((value, label), ...)
    count: int | None = None  # int_list: exactly this many values (None: any number)
    help: str = ""
    optional: bool = False  # may be left blank (value None)

    def allowed(self):
        """What the field accepts, in words (used in every error message)."""
        if self.kind == "bool":
            return "true or false (also 1 or 0)"
        if self.kind == "choice":
            return "one of " + ", ".join(value for value, _ in self.choices)
        span = f"from {self.minimum} to {self.maximum}"
        blank = " (or blank)" if self.optional else ""
        if self.kind == "int_list":
            if self.count is None:
                return f"whole numbers {span}, separated by commas{blank}"
            return f"{self.count} whole numbers {span}, separated by commas{blank}"
        return f"a whole number {span}{blank}"

    def form_value(self, value):
        """A parsed value as the form shows it."""
        if value is None:
            return ""
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind == "int_list":
            return ",".join(str(v) for v in value)
        return str(value)

    def parse(self, raw):
        """(value, error message or None) for one raw text value; None means use the default."""
        text = raw.strip()
        if self.kind == "bool":
            if text == "":
                return self.default, None
            lowered = text.lower()
            if lowered in TRUE_WORDS:
                return True, None
            if lowered in FALSE_WORDS:
                return False, None
            return None, f"must be {self.allowed()}"
        if self.kind == "choice":
            if text == "":
                return self.default, None
            if text in (value for value, _ in self.choices):
                return text, None
            return None, f"must be {self.allowed()}"
        if self.kind == "int_list":
            if text == "":
                if self.optional:
                    return None, None
                if self.default is not None:
                    return list(self.default), None
                return None, f"required: {self.allowed()}"
            parts = [p.strip() for p in text.split(",")]
            values = []
            for part in parts:
                number = _whole_number(part)
                if number is None or not self.minimum <= number <= self.maximum:
                    return None, f"must be {self.allowed()}"
                values.append(number)
            if self.count is not None and len(values) != self.count:
                return None, f"must be {self.allowed()} (got {len(values)})"
            return values, None
        if text == "":
            if self.optional:
                return None, None
            if self.default is not None:
                return self.default, None
            return None, f"required: {self.allowed()}"
        number = _whole_number(text)
        if number is None or not self.minimum <= number <= self.maximum:
            return None, f"must be {self.allowed()}"
        return number, None

    def openapi_schema(self):
        if self.kind == "bool":
            return {"type": "boolean", **({"default": self.default} if self.default is not None else {})}
        if self.kind == "choice":
            schema = {"type": "string", "enum": [value for value, _ in self.choices]}
        elif self.kind == "int_list":
            number = r"-?\d{1,3}"
            repeat = "*" if self.count is None else f"{{{self.count - 1}}}"
            pattern = f"{number}(,{number}){repeat}"
            if self.optional:
                pattern = f"({pattern})?"
            schema = {"type": "string", "pattern": f"^{pattern}$", "description": self.allowed()}
        else:
            schema = {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}
        if self.default is not None:
            schema["default"] = self.form_value(self.default) if self.kind == "int_list" else self.default
        return schema


def _whole_number(text):
    sign = text[:1] in "+-" and text[:1] or ""
    digits = text[len(sign):]
    if not digits.isascii() or not digits.isdigit() or len(digits) > 6:
        return None
    return int(text)


def parse_fields(fields, args):
    """Read every field from a mapping of lists (request.args); (values, errors, raw)."""
    values, errors, raw = {}, {}, {}
    for field in fields:
        given = args.getlist(field.name) if hasattr(args, "getlist") else (
            [args[field.name]] if field.name in args else [])
        text = given[0] if given else ""
        raw[field.name] = text[:MAX_RAW]
        if len(given) > 1:
            errors[field.name] = "give it only once"
            continue
        if "\x00" in text or len(text) > MAX_RAW:
            errors[field.name] = f"must be {field.allowed()}"
            continue
        value, error = field.parse(text)
        if error:
            errors[field.name] = error
        else:
            values[field.name] = value
    return values, errors, raw


def field_of_error(message, fields):
    """Split an engine's "name: message" ValueError into (field name or None, message)."""
    name, _, rest = str(message).partition(":")
    name = name.strip().replace(".", "_")
    names = {f.name for f in fields}
    if rest and name in names:
        return name, rest.strip()
    return None, str(message)
