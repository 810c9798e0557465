"""What a calculator is made of: its inputs, the engine call, its result page and API shape."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from .registry import CALCULATORS


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


@dataclass
class CalculatorSpec:
    id: str
    fields: tuple
    compute: Callable[[dict], dict]  # parsed inputs -> engine result (exact)
    to_json: Callable[[dict, dict], dict]  # (inputs, result) -> API body
    charts: Callable[[dict, dict], list] = lambda values, result: []
    method: str = ""  # how the numbers are computed, in a sentence or two
    template: str = "calc/_generic.html"  # the result block
    api_path: str = ""
    api_method: str = "GET"
    api_summary: str = ""
    groups: tuple = field(default_factory=tuple)  # ((legend, (field names...)), ...) for the form
    # POST endpoints take a JSON body: read_json checks it and returns the engine inputs
    # (raising ValueError("field: what is allowed")); json_schema describes it for OpenAPI.
    read_json: Callable[[object], dict] | None = None
    compute_json: Callable[[dict], dict] | None = None
    json_schema: dict | None = None
    # A page with more than one JSON endpoint lists the others here, each a CalculatorSpec with
    # its own id (used for the route and the OpenAPI operation) and calculator_id naming the page.
    endpoints: tuple = ()
    calculator_id: str = ""

    @property
    def calculator(self):
        return CALCULATORS[self.calculator_id or self.id]

    def api_paths(self):
        """Every JSON endpoint of this page: {path: the spec that serves it}."""
        paths = {self.api_path: self} if self.api_path else {}
        for endpoint in self.endpoints:
            paths.update(endpoint.api_paths())
        return paths

    def field(self, name):
        return next(f for f in self.fields if f.name == name)

    def defaults(self):
        return {f.name: f.default for f in self.fields}

    def fieldsets(self):
        if not self.groups:
            return [("", self.fields)]
        return [(legend, tuple(self.field(n) for n in names)) for legend, names in self.groups]


def plain(value):
    """Engine results made JSON-ready: exact fractions become floats, tuples lists."""
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def percent(p):
    """A probability as a player reads it: 33.3%, <0.1% or 100%."""
    value = float(p) * 100
    if value == 0:
        return "0%"
    if value < 0.1:
        return "<0.1%"
    if value > 99.9 and value < 100:
        return ">99.9%"
    return f"{value:.1f}%".replace(".0%", "%")


def distribution_chart(title, distribution, label=lambda k: str(k), caption=""):
    """Bars for a list of probabilities indexed by count."""
    top = max((float(p) for p in distribution), default=0) or 1
    bars = tuple(Bar(label(k), float(p) / top, percent(p)) for k, p in enumerate(distribution))
    return Chart(title=title, bars=bars, caption=caption)


def outcome_chart(title, outcomes, caption=""):
    """Bars for named probabilities [(label, p), ...], scaled to 100%."""
    bars = tuple(Bar(label, float(p), percent(p)) for label, p in outcomes)
    return Chart(title=title, bars=bars, caption=caption)


def json_object(body, required=(), optional=()):
    """The members of a JSON request body, checked against the names it may have.

    Returns {name: value} for the names present; raises ValueError naming the first name
    that is missing or not allowed, or "body" when the body is not a JSON object.
    """
    if not isinstance(body, dict):
        raise ValueError("body: must be a JSON object")
    allowed = tuple(required) + tuple(optional)
    for name in body:
        if name not in allowed:
            raise ValueError(f"{name[:50]}: not a field of this request; allowed fields are {', '.join(allowed)}")
    for name in required:
        if name not in body:
            raise ValueError(f"{name}: required")
    return dict(body)
