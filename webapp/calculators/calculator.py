"""What a calculator is, declared once: its page, its fields, the engine it calls, the result keys
its API returns, the template that shows the result, and its JSON endpoints.

The form, the GET and POST API, the OpenAPI document and every error message are derived from the
declaration. A calculator that reads a content data file (``data``) is declared without it and
bound to the loaded content when the app starts (:meth:`Calculator.bind`): nothing reads content
at import time.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Callable

from ..engines.inputs import InputError
from .fields import Field, read_query

WORKING = "explanation"  # what the API calls an engine's working, whatever the engine calls it
WORKING_KEYS = ("steps", "explanation")  # what the engines call it


@dataclass(frozen=True)
class Group:
    """Fields a form shows together under a legend; legend and note may read the content data."""

    legend: str | Callable
    fields: tuple
    note: str | Callable = ""

    def bind(self, data) -> Group:
        return Group(legend=self.legend(data) if callable(self.legend) else self.legend,
                     fields=tuple(member.with_data(data) for member in self.fields),
                     note=self.note(data) if callable(self.note) else self.note)


@dataclass(frozen=True)
class Api:
    """One JSON endpoint of a calculator.

    A GET endpoint reads the calculator's own fields from the query string. A POST endpoint reads
    ``fields`` from a JSON body (lists of records included) and may call its own ``compute``.
    ``result`` names the keys of the engine's result the endpoint returns; the working is added
    under WORKING. A key may be (name, keys) for a part of the result with its own working.
    """

    path: str
    summary: str
    result: tuple
    method: str = "GET"
    fields: tuple = ()
    compute: Callable | None = None

    @property
    def id(self):
        return self.path.removeprefix("/api/").replace("/", "_").replace("-", "_")


@dataclass(frozen=True)
class Calculator:
    id: str
    game: str
    slug: str
    title: str
    form: tuple  # fields and Groups, in the order the form shows them
    compute: Callable  # values (and the data file's values, when ``data`` is set) -> result
    method: str  # how the numbers are worked out, in a sentence or two
    headline: Callable = lambda result: ""  # the answer in a sentence, above everything else
    charts: Callable = lambda result: []
    template: str = ""  # shows the rest of the result; "" shows only the headline, charts and working
    apis: tuple = ()
    data: str = ""  # a content data file of the calculator's game it reads (content/<game>/data/<data>.yaml)
    content: object = dataclasses.field(default=None, compare=False, repr=False)  # that file's values, once bound

    def __post_init__(self):
        names = [member.name for member in self.fields]
        if len(names) != len(set(names)):
            raise ValueError(f"{self.id}: a field is declared twice")
        for member in self.fields:
            if not member.in_query:
                raise ValueError(f"{self.id}: {member.name} cannot be a form field")
            if member.shown_when and member.shown_when[0] not in names:
                raise ValueError(f"{self.id}: {member.name} is shown when {member.shown_when[0]}, not a field")

    @cached_property
    def groups(self) -> list:
        """The form's fieldsets: declared Groups, and loose fields gathered into unnamed ones."""
        groups, loose = [], []
        for item in self.form:
            if isinstance(item, Field):
                loose.append(item)
                continue
            if loose:
                groups.append(Group("", tuple(loose)))
                loose = []
            groups.append(item)
        if loose:
            groups.append(Group("", tuple(loose)))
        return groups

    @cached_property
    def fields(self) -> tuple:
        return tuple(member for group in self.groups for member in group.fields)

    def field(self, name) -> Field:
        return next(member for member in self.fields if member.name == name)

    def prefill(self) -> dict:
        """What the empty form shows, by field name."""
        return {member.name: member.prefill for member in self.fields}

    def bind(self, library) -> Calculator:
        """The calculator with what it reads from the loaded content in place."""
        if not self.data:
            return self
        data = library.data[self.game][self.data]
        return replace(self, form=tuple(item.bind(data) if isinstance(item, Group) else item.with_data(data)
                                        for item in self.form), content=data)

    def run(self, values, compute=None):
        """The engine's result for parsed values (raises InputError for what the engine refuses)."""
        compute = compute or self.compute
        return compute(values, self.content) if self.data else compute(values)

    def answer(self, args, prefix=""):
        """(values, errors, raw, result) for a form or query string; result is None after an error."""
        values, errors, raw = read_query(self.fields, args, prefix)
        result = None
        if not errors:
            try:
                result = self.run(values)
            except InputError as error:  # what only the engine can judge, such as two fields together
                if error.field in values:
                    errors[error.field] = error.message
                else:
                    errors["_form"] = str(error)
        return values, errors, raw, result


# --------------------------------------------------------------------------- results


def working(result) -> list | None:
    """The engine's working, in plain sentences, whichever key the engine keeps it under."""
    for key in WORKING_KEYS:
        if isinstance(result.get(key), list):
            return result[key]
    return None


def api_body(result, keys) -> dict:
    """The declared keys of a result, made JSON-ready, with the working under WORKING."""
    body = {}
    for key in keys:
        if isinstance(key, tuple):
            name, inner = key
            body[name] = None if result[name] is None else api_body(result[name], inner)
        else:
            body[key] = plain(result[key])
    steps = working(result)
    if steps is not None:
        body[WORKING] = steps
    return body


def plain(value):
    """Engine results made JSON-ready: exact fractions become floats, tuples lists."""
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def percent(probability) -> str:
    """A probability as a player reads it: 33.3%, <0.1% or 100%."""
    value = float(probability) * 100
    if value == 0:
        return "0%"
    if value < 0.1:
        return "<0.1%"
    if 99.9 < value < 100:
        return ">99.9%"
    return f"{value:.1f}%".replace(".0%", "%")


# --------------------------------------------------------------------------- charts


@dataclass(frozen=True)
class Bar:
    label: str
    value: float  # 0..1, the bar's length
    text: str  # what is printed beside the bar


@dataclass(frozen=True)
class Chart:
    title: str
    bars: tuple
    caption: str = ""


def distribution_chart(title, distribution, label=str, caption=""):
    """Bars for a list of probabilities indexed by count."""
    top = max((float(probability) for probability in distribution), default=0) or 1
    bars = tuple(Bar(label(count), float(probability) / top, percent(probability))
                 for count, probability in enumerate(distribution))
    return Chart(title=title, bars=bars, caption=caption)


def outcome_chart(title, outcomes, caption=""):
    """Bars for named probabilities [(label, probability), ...], scaled to 100%."""
    bars = tuple(Bar(label, float(probability), percent(probability)) for label, probability in outcomes)
    return Chart(title=title, bars=bars, caption=caption)
