"""What a calculator is, declared once: its page, its fields, the engine it calls, the result keys
its API returns, the template that shows the result, and its JSON endpoints.

The form, the GET and POST API, the OpenAPI document and every error message are derived from the
declaration. A calculator that reads a content data file (``data``) is declared without it and
bound to the loaded content when the app starts (:meth:`Calculator.bind`): nothing reads content
at import time.

A result is shown answer first: the ``headline`` sentence, the charts not marked ``folded``, the
calculator's own ``template``, then the details folded away (the other charts with their exact
fractions, the working). ``key`` gives the one figure that sets plans side by side, and ``next_step`` a
way on from a result to the next step of the same situation (a battle's next round).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from itertools import zip_longest
from typing import Callable

from ..engines.inputs import InputError
from .fields import REQUIRED, ZEROS, Field, Records, read_query

FORM_PROBLEM = "_form"  # the name a page gives an error about the inputs as a whole (no field has it)
STEPS = "steps"  # where every engine keeps its working: a list of plain sentences
WORKING = "explanation"  # what the API calls that working (its name since the API's first version)


@dataclass(frozen=True)
class Group:
    """Fields a form shows together under a legend; legend and note may read the content data."""

    legend: str | Callable
    fields: tuple
    note: str | Callable = ""
    shown_when: tuple = ()  # When conditions for every field of the group (see Field.shown_when)
    summary: bool = False  # a result's summary of the inputs lists the group's fields after its legend
    more: bool = False  # every field of the group is an option used less often (see Field.more)
    columns: int = 1  # a phone wide enough shows the fields side by side, so many to a row

    def bind(self, data) -> Group:
        return replace(self, legend=self.legend(data) if callable(self.legend) else self.legend,
                       fields=tuple(member.with_data(data) for member in self.fields),
                       note=self.note(data) if callable(self.note) else self.note)


@dataclass(frozen=True)
class Sides:
    """Sides face to face in one table (a battle's Armies, The Free Council's players): a column per
    side, each a Group whose legend heads it, and a row per count, row i holding each side's i-th
    field not folded under More options (a side may have fewer). ``rows`` names the rows; by default
    a row takes its first field's label less that side's legend ("Attacker Elites": "Elites")."""

    sides: tuple
    rows: tuple = ()

    def __init__(self, *sides, rows=()):
        object.__setattr__(self, "sides", tuple(sides))
        object.__setattr__(self, "rows", tuple(rows))

    def bind(self, data) -> Sides:
        return Sides(*(group.bind(data) for group in self.sides), rows=self.rows)


NEXT = "next_step"  # the parameter of the button that answers the next step (a battle's next round)
AFTER = "after-"  # the prefix of the boxes the player sets for the next step


@dataclass(frozen=True)
class NextStep:
    """A result's way on to the next step of the same situation (a battle's next round): the player sets
    ``fields`` as they stand after it, from the values just answered, and ``values`` gives the setup to
    answer next, every other input kept."""

    title: str  # over the boxes: "After this round"
    help: str  # what the player does, in a sentence
    fields: tuple  # the names of the fields the player sets (counts of a Sides table)
    button: Callable  # the values answered -> what the button says ("Fight round 2")
    values: Callable  # (the values answered, the fields as they now stand) -> the next setup; None: no next step
    # the fields as they now stand -> {field: why no next step follows from them} ("the battle is over")
    ends: Callable = lambda now: {}


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
    form: tuple  # fields, Groups and Sides, in the order the form shows them
    compute: Callable  # values (and the data file's values, when ``data`` is set) -> result
    method: str  # how the numbers are worked out, in a sentence or two
    headline: Callable = lambda result: Headline("")  # result -> the answer in a sentence, a Headline
    key: Callable = None  # (result, the first plan's result) -> (what, how much): the figure plans compare
    charts: Callable = lambda result: []  # the first ones (not folded) right under the headline
    template: str = ""  # shows the rest of the result; "" shows only the headline, charts and working
    rules_used: Callable = lambda result: []  # [(rule, source)] the result used, source "summary" or "rulebook"
    page_working: Callable = None  # the working a page shows, when more than the engine's own (see working)
    apis: tuple = ()
    next_step: NextStep | None = None  # a result's way on to the next step (a battle's next round)
    # ((field names, check), ...): a check of those fields together (values -> raises InputError), run
    # as soon as they read well, so a form gives its problems in one go, not one after another
    checks: tuple = ()
    data: str = ""  # a content data file of the calculator's game it reads (content/<game>/data/<data>.yaml)
    content: object = dataclasses.field(default=None, compare=False, repr=False)  # that file's values, once bound

    def __post_init__(self):
        names = [member.name for member in self.fields]
        if len(names) != len(set(names)):
            raise ValueError(f"{self.id}: a field is declared twice")
        for member in self.fields:
            if not member.in_query and not isinstance(member, Records):
                raise ValueError(f"{self.id}: {member.name} cannot be a form field")
            if isinstance(member, Records) and any(api.method == "GET" for api in self.apis):
                raise ValueError(f"{self.id}: records are entered by a form, not a GET endpoint's query")
            for condition in self.conditions(member):
                if condition.field not in names[:names.index(member.name)]:
                    raise ValueError(f"{self.id}: {member.name} is shown when {condition.field}, not a field before it")
            check_blank(self.id, member)
            if self.is_more(member) and member.default is REQUIRED and not any(
                    self.is_more(self.field(condition.field)) for condition in self.conditions(member)):
                raise ValueError(f"{self.id}: {member.name} must be given, so it cannot be folded under More options")

    @cached_property
    def layout(self) -> list:
        """The form's blocks in order: Sides, declared Groups, and loose fields gathered into unnamed Groups."""
        blocks, loose = [], []
        for item in self.form:
            if isinstance(item, Field):
                loose.append(item)
                continue
            if loose:
                blocks.append(Group("", tuple(loose)))
                loose = []
            blocks.append(item)
        if loose:
            blocks.append(Group("", tuple(loose)))
        return blocks

    @cached_property
    def groups(self) -> list:
        """The form's fieldsets: its Groups, a Sides' groups included, in the form's order."""
        return [group for block in self.layout for group in (block.sides if isinstance(block, Sides) else (block,))]

    def group_of(self, member) -> Group:
        return next(group for group in self.groups if member in group.fields)

    def is_more(self, member) -> bool:
        """Whether a field is an option used less often, which a form folds under More options."""
        return member.more or self.group_of(member).more

    def shown_first(self, group) -> tuple:
        """A group's fields a form shows outside More options."""
        return tuple(member for member in group.fields if not self.is_more(member))

    def folded(self, group) -> tuple:
        """A group's fields a form folds under More options."""
        return tuple(member for member in group.fields if self.is_more(member))

    def table_rows(self, sides) -> list:
        """The rows of a Sides table: [(label, (a field or None for each side))]."""
        columns = [self.shown_first(group) for group in sides.sides]
        rows = []
        for index, cells in enumerate(zip_longest(*columns)):
            first, side = next((cell, group) for cell, group in zip(cells, sides.sides) if cell is not None)
            label = sides.rows[index] if index < len(sides.rows) else first.label.removeprefix(f"{side.legend} ")
            rows.append((label, cells))
        return rows

    def table_widgets(self, sides) -> set:
        """The widgets of a Sides table's cells (with steppers or a list's boxes, a row's label goes over them)."""
        return {cell.widget_hint() for _, cells in self.table_rows(sides) for cell in cells if cell is not None}

    def table_notes(self, sides) -> list:
        """What a Sides table says under it: its sides' notes, and that an empty box counts as 0."""
        notes = list(dict.fromkeys(group.note for group in sides.sides if group.note))
        cells = [cell for _, cells in self.table_rows(sides) for cell in cells if cell is not None]
        if all(cell.zero_when_blank and cell.zero_in_summary for cell in cells):
            notes.append("An empty box counts as 0.")
        return notes

    @cached_property
    def has_more(self) -> bool:
        """Whether the form folds options under More options."""
        return any(self.is_more(member) for member in self.fields)

    def more_at_fault(self, problems) -> bool:
        """Whether an error names a field folded under More options (the fold then opens)."""
        return any(self.is_more(member) and any(of_field(name, member.name) for name in problems)
                   for member in self.fields)

    def more_words(self, values, applying) -> str:
        """The options folded under More options, in a few words: each one set, named with its side, and the
        meaning of those left blank, each said once ("none set" when nothing applies)."""
        words = []
        for group in self.groups:
            for member in self.folded(group):
                value = values.get(member.name)
                text = member.summary(value) if member.name in applying else ""
                if text and value is not None and group.summary and group.legend:
                    text = f"{group.legend} {text[0].lower()}{text[1:]}"
                if text and text not in words:
                    words.append(text)
        return " · ".join(words) or "none set"

    def offers_next_step(self, values) -> bool:
        """Whether a result answered from these values offers the next step (a battle not yet over)."""
        return self.next_step is not None and self.next_step.values(values, {}) is not None

    def next_step_heads(self) -> list:
        """The sides a next step's table sets out, as its columns are headed."""
        return [group.legend for group in next(block for block in self.layout if isinstance(block, Sides)).sides]

    def next_step_rows(self, values, args) -> list:
        """The next step's boxes as a table: [(row label, [None or (field, its box's name, its text, its
        error)] per side)], each box showing what was typed there, else the value just answered."""
        fields = self.next_step.fields
        sides = next(block for block in self.layout if isinstance(block, Sides))
        ended = self.next_step_ends(args)
        rows = []
        for label, cells in self.table_rows(sides):
            boxes = []
            for member in cells:
                if member is None or member.name not in fields:
                    boxes.append(None)
                    continue
                name = AFTER + member.name
                text = args.get(name, member.form_value(values.get(member.name)))
                try:
                    member.parse_text(text, member.name)
                    error = ended.get(member.name, "")
                except InputError as problem:
                    error = problem.message
                boxes.append((member, name, text, error))
            if any(boxes):
                rows.append((label, boxes))
        return rows

    def next_step_boxes(self, args) -> dict | None:
        """After the next step's button, its boxes as they read ({field: value}); None when the button was
        not pressed or a box cannot be read."""
        if self.next_step is None or NEXT not in args:
            return None
        try:
            return {name: self.field(name).parse_text(args.get(AFTER + name, ""), name) for name in self.next_step.fields}
        except InputError:
            return None

    def next_step_ends(self, args) -> dict:
        """After the next step's button, {field: why no next step follows} when its boxes read well but
        say the situation is over (an Army with no units left); else {}."""
        now = self.next_step_boxes(args)
        return {} if now is None else self.next_step.ends(now)

    def next_query(self, args) -> list | None:
        """After the next step's button: the parameters of the setup to answer next, or None when the
        button was not pressed, the values answered or the boxes cannot be read (the page then says why)."""
        now = self.next_step_boxes(args)
        if now is None:
            return None
        values, errors, _, result = self.answer(args)
        if errors or result is None or self.next_step.ends(now):
            return None
        following = self.next_step.values(values, now)
        return None if following is None else self.form_query(following)

    def blank_values(self) -> dict:
        """The values of a form left blank, as far as it can be read: each field's zero, else None."""
        return {member.name: None if member.default is REQUIRED else member.default for member in self.fields}

    @cached_property
    def fields(self) -> tuple:
        return tuple(member for group in self.groups for member in group.fields)

    def field(self, name) -> Field:
        return next(member for member in self.fields if member.name == name)

    def conditions(self, member) -> tuple:
        """The When conditions under which a field applies: its own, else its group's."""
        if member.shown_when:
            return member.shown_when
        return self.group_of(member).shown_when

    def condition_text(self, member) -> str:
        """When a field is read, in words ("" when always): a field that must be given says it must be then,
        and every such field that it is neither read nor checked otherwise."""
        conditions = self.conditions(member)
        if not conditions:
            return ""
        words = [f"{condition.field} is {' or '.join(condition.values)}" if condition.values
                 else f"{condition.field} is not {' or '.join(value or 'blank' for value in condition.other_than)}"
                 for condition in conditions]
        then = ", and then required" if member.default is REQUIRED else ""
        return "Read only when " + ", or when ".join(words) + then + "; otherwise neither read nor checked."

    def legend_if_shared(self, member) -> str:
        """The legend of the field's group when another field has the same label (each player's points)."""
        if sum(other.label == member.label for other in self.fields) < 2:
            return ""
        return self.group_of(member).legend

    def applying(self, values) -> set:
        """The names of the fields that apply to these values (a field whose condition's field
        could not be read counts as applying, so its own errors still show)."""
        names = set()
        for member in self.fields:
            conditions = self.conditions(member)
            if not conditions or any(
                    condition.field in names and (condition.field not in values or condition.holds(
                        self.field(condition.field).form_value(values[condition.field])))
                    for condition in conditions):
                names.add(member.name)
        return names

    def prefill(self) -> dict:
        """What the empty form shows, by field name."""
        return {member.name: member.prefill for member in self.fields}

    def form_query(self, values=None, prefix="") -> list:
        """The parameters the form sends for these values (the empty form's, by default), as (name, text)."""
        values = {**self.prefill(), **(values or {})}
        return [pair for member in self.fields for pair in member.form_pairs(prefix + member.name, values[member.name])]

    def left_blank(self, args, prefix="") -> set:
        """The names of the counts a form or query string left blank, each standing for its zero."""
        return {member.name for member in self.fields if member.left_blank(args, prefix + member.name)}

    def field_summaries(self, values, applying, blanks=frozenset()) -> dict:
        """Each applying field's value in a few words, by name ("" for those a summary leaves out);
        a count left blank (``blanks``) says the 0 it stood for, so no blank counts unseen."""
        return {member.name: member.summary_of_blank() if member.name in blanks else member.summary(values.get(member.name))
                for member in self.fields if member.name in applying}

    def summary(self, values, applying, unlike=None, blanks=frozenset()) -> list:
        """The inputs a result was worked out from, each in a few words, for a one-line summary;
        with ``unlike`` (another plan's field_summaries), only what differs from it, a count set back
        to 0 or a switch turned off included ("Leadership 0")."""
        texts_by_name = self.field_summaries(values, applying, blanks)
        parts = []
        for group in self.groups:
            texts = []
            for member in group.fields:
                text = texts_by_name.get(member.name)
                if unlike is not None:
                    if member.name not in texts_by_name or text == unlike.get(member.name):
                        continue
                    text = text or member.summary_as_set(values.get(member.name))
                if text:
                    texts.append(text)
            if group.summary and texts:
                parts.append(f"{group.legend}: {', '.join(texts)}")
            else:
                parts += texts
        return parts

    def problems(self, errors, prefix="", where="", form_anchor="") -> dict:
        """The errors as a page shows them, in the form's order: a Problem by every name that has an
        error (the names of one error share it). ``where`` names the plan, when the page holds several;
        ``form_anchor`` is the id an error about the whole form links to."""
        found = {}
        if errors.form:
            found[FORM_PROBLEM] = Problem(prefix + FORM_PROBLEM, "", errors.form, form_anchor, where)
        for member in self.fields:
            if isinstance(member, Records):
                found.update(record_problems(member, errors, prefix, where))
                continue
            if member.name not in errors or errors.names_of(member.name)[0] != member.name:
                continue
            names = errors.names_of(member.name)
            box = errors.boxes.get(member.name)
            problem = Problem(prefix + member.name, joint_label([self.field(name).label for name in names]),
                              errors[member.name], member.control_id(prefix + member.name, box),
                              ", ".join(filter(None, (where, self.legend_if_shared(member)))), (box,) if box else ())
            found.update({name: problem for name in names})
        return found

    def bind(self, library) -> Calculator:
        """The calculator with what it reads from the loaded content in place."""
        if not self.data:
            return self
        data = library.data[self.game][self.data]
        return replace(self, form=tuple(item.with_data(data) if isinstance(item, Field) else item.bind(data)
                                        for item in self.form), content=data)

    def run(self, values, compute=None):
        """The engine's result for parsed values (raises InputError for what the engine refuses)."""
        compute = compute or self.compute
        return compute(values, self.content) if self.data else compute(values)

    def answer(self, args, prefix=""):
        """(values, errors, raw, result) for a form or query string; result is None after an error.

        A field that does not apply to the other values (see Field.shown_when) is not read: it reads as if
        left blank, whatever it holds (its zero, or None, a required field too), so the engine is never
        asked to use it, and what was typed there is neither checked nor refused (the form keeps it).
        """
        values, errors, raw = read_query(self.fields, args, prefix)
        applying = self.applying(values)
        for member in self.fields:
            if member.name not in applying:
                for name in [name for name in errors if of_field(name, member.name)]:
                    errors.pop(name)
                values[member.name] = None if member.default is REQUIRED else member.default
        result = None
        if errors:
            self.check_what_reads_well(values, errors)
            return values, errors, raw, result
        try:
            result = self.run(values)
        except InputError as problem:  # what only the engine can judge, such as two fields together
            add_problems(problem, values, errors)
        return values, errors, raw, result

    def check_what_reads_well(self, values, errors):
        """Run each of ``checks`` whose fields read well (a record's boxes too: cards-2-attack), adding
        what it finds to ``errors``."""
        for names, check in self.checks:
            if not any(of_field(error, name) for error in errors for name in names):
                try:
                    check(values)
                except InputError as problem:
                    add_problems(problem, values, errors)


def of_field(name, field_name) -> bool:
    """Whether an error's (or a box's) ``name`` is the field's own or one of its record's boxes
    (cards-2-attack is of cards)."""
    return name == field_name or name.startswith(field_name + "-")


def add_problems(problem, values, errors):
    """An engine's InputError (or InputErrors) in ``errors``: beside its fields, or about the form."""
    for error in getattr(problem, "errors", (problem,)):
        if all(name in values for name in error.fields):
            errors.add(error)
        else:
            errors.form = str(error)


@dataclass(frozen=True)
class Headline:
    """A result's answer: a sentence in large type, a smaller second line, and a caveat the answer
    holds only with, which stays with it in the first screen ("" for none)."""

    main: str
    sub: str = ""
    note: str = ""


@dataclass(frozen=True)
class Problem:
    """An error as a page shows it: beside the first field it names, and in the list of errors at
    the top of the page, linked to the control to change."""

    name: str  # the first field it names, as the form names it (with the plan's prefix; a record's box: cards-2-attack)
    label: str  # the fields it names, in the form's words
    message: str
    anchor: str  # the id of the control the list at the top links to
    where: str = ""  # what the list at the top says first: the plan, the card
    boxes: tuple = ()  # the numbers (from 1) of a list's boxes at fault; none: the whole field

    @property
    def text(self) -> str:
        """The error in the list at the top: where, the fields, what is allowed."""
        said = f"{self.label}: {self.message}" if self.label else self.message
        return f"{self.where} — {said}" if self.where else said


def record_problems(member, errors, prefix, where) -> dict:
    """The errors of a list of records entered one by one: the list's own, then record by record."""
    found = {}
    if member.name in errors:
        found[member.name] = Problem(prefix + member.name, member.label, errors[member.name],
                                     member.control_id(prefix + member.name), where)
    order = [field.name for field in member.fields]
    keys = []
    for name in errors:
        number, _, part = name.removeprefix(member.name + "-").partition("-")
        if name.startswith(member.name + "-") and number.isdigit() and part in order:
            keys.append((int(number), order.index(part), name))
    for number, index, name in sorted(keys):
        field = member.fields[index]
        card = f"{member.label}, {member.item} {number}"
        found[name] = Problem(prefix + name, field.label, errors[name], field.control_id(prefix + name),
                              f"{where}, {card}" if where else card)
    return found


def joint_label(labels) -> str:
    """The labels of fields named together, their shared first words said once:
    "Faces showing slip by, weary and recall"."""
    if len(labels) == 1:
        return labels[0]
    words = [label.split() for label in labels]
    shared = 0
    while all(len(split) > shared + 1 and split[shared] == words[0][shared] for split in words):
        shared += 1
    rest = [" ".join(split[shared:]) for split in words]
    return " ".join([*words[0][:shared], ", ".join(rest[:-1]) + " and " + rest[-1]])


def check_blank(calc_id, member):
    """A blank may only stand for the kind's zero, or be "not given" with its meaning in words."""
    members = member.fields if isinstance(member, Records) else ()
    for field in (member, *members):
        if field.default is None and not field.blank:
            raise ValueError(f"{calc_id}: {field.name} may be blank but does not say what a blank means")
        if field.default not in (REQUIRED, None) and not any(
                field.default == zero and type(field.default) is type(zero) for zero in ZEROS):
            raise ValueError(f"{calc_id}: a blank {field.name} would silently stand for {field.default!r}")


# --------------------------------------------------------------------------- results


SOURCE_NAMES = {"summary": "rules summary", "rulebook": "published rulebook"}


def source_text(sources) -> str:
    """Where rules come from, in a few words: "Source: published rulebook"."""
    return "Source: " + " and ".join(SOURCE_NAMES[source] for source in sources)


def working(result) -> list | None:
    """The engine's working, in plain sentences (None when the engine shows none)."""
    return result.get(STEPS)


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
    """A probability as a player reads it: 43%, 5.4%, 0.3%, <0.1%, >99.9%; 0% and 100% only when exact."""
    if probability == 0:
        return "0%"
    if probability == 1:
        return "100%"
    value = float(probability) * 100
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    if 10 <= value <= 99:  # whole percents read best in the middle; the details hold the exact figure
        return f"{value:.0f}%"
    return f"{value:.1f}%".replace(".0%", "%")


def exact_heading(values) -> str:
    """The details' column of exact figures: fractions, or (worked out in floating point) 10 decimals."""
    return "exact value" if all(isinstance(value, (Fraction, int)) for value in values) else "to 10 places"


def exact(probability) -> str:
    """A probability exactly, for the details: a fraction while it stays readable, else 10 decimals."""
    if isinstance(probability, Fraction) and probability.denominator <= 10 ** 9:
        return str(probability)
    return f"{float(probability):.10f}"


def decimal(value, places=2) -> str:
    """An expected count: 1.94."""
    return f"{float(value):.{places}f}"


def at_least(distribution, count):
    """The chance of at least ``count`` from a list of chances indexed by count."""
    if count <= 0:
        return Fraction(1)  # every count is at least 0, whatever the rounding of floating-point chances
    return sum(distribution[count:], Fraction(0)) if count < len(distribution) else Fraction(0)


def usual_count(distribution, first=1):
    """The count players ask about first: the highest reached at least half the time (else the
    lowest possible from ``first``); None when no count from ``first`` on is possible."""
    possible = [count for count in range(first, len(distribution)) if at_least(distribution, count) > 0]
    if not possible:
        return None
    likely = [count for count in possible if at_least(distribution, count) >= Fraction(1, 2)]
    return likely[-1] if likely else possible[0]


def at_least_ladder(distribution, noun, verb, first=1, most=3) -> tuple[str, str]:
    """("74% to score at least 2 hits", "94% at least 1; 43% at least 3"): the usual count, and its
    neighbours; ("", "") when no count from ``first`` on is possible."""
    main = usual_count(distribution, first)
    if main is None:
        return "", ""
    possible = [count for count in range(first, len(distribution)) if at_least(distribution, count) > 0]
    others = [count for count in possible if count != main and abs(count - main) < most][:most - 1]
    return (f"{percent(at_least(distribution, main))} to {verb} at least {noun(main)}",
            "; ".join(f"{percent(at_least(distribution, count))} at least {count}" for count in others))


# --------------------------------------------------------------------------- charts


@dataclass(frozen=True)
class Bar:
    label: str
    value: float  # 0..1, the bar's length
    text: str  # what is printed beside the bar


@dataclass(frozen=True)
class Chart:
    """Bars (kind "bars") or lines over rounds (kind "line"), with a table for the details.

    ``table`` is (column headings, rows of cells): exact fractions, at least / at most.
    A folded chart sits in the details; the others under the headline.
    """

    title: str
    bars: tuple = ()
    caption: str = ""
    table: tuple = ()
    folded: bool = False
    kind: str = "bars"
    series: tuple = ()  # line: ((name, (value after round 1, after round 2, ...)), ...), values 0..1
    x_label: str = ""
    first: int = 1  # line: the number of the first round shown (a battle in progress starts later)

    @property
    def ticks(self) -> list:
        """The rounds a line chart labels (counted from 0): about ten, always the last."""
        rounds = len(self.series[0][1]) if self.series else 0
        every = max(1, -(-rounds // 10))
        ticks = list(range(0, rounds, every))
        if ticks and ticks[-1] != rounds - 1:
            if rounds - 1 - ticks[-1] < every:
                ticks[-1] = rounds - 1
            else:
                ticks.append(rounds - 1)
        return ticks


def distribution_chart(title, distribution, noun=str, caption="", folded=False):
    """A distribution as players ask about it: bars for "at least N" (N from 1), and in the details a
    table of exactly / at least / at most N with the exact fractions. Impossible counts are left out."""
    bars = tuple(Bar(f"at least {noun(count)}", float(at_least(distribution, count)),
                     percent(at_least(distribution, count)))
                 for count in range(1, len(distribution)) if at_least(distribution, count) > 0)
    if not bars:
        caption = caption or f"Always {noun(0)}."
    rows = tuple((noun(count), percent(probability), percent(at_least(distribution, count)),
                  percent(1 - at_least(distribution, count + 1)), exact(probability))
                 for count, probability in enumerate(distribution) if probability > 0)
    return Chart(title=title, bars=bars, caption=caption, folded=folded,
                 table=(("", "exactly", "at least", "at most", exact_heading(distribution)), rows))


def outcome_chart(title, outcomes, caption="", folded=False):
    """Bars for named probabilities [(label, probability), ...] out of 100%; impossible ones left out."""
    shown = [(label, probability) for label, probability in outcomes if probability > 0]
    bars = tuple(Bar(label, float(probability), percent(probability)) for label, probability in shown)
    rows = tuple((label, percent(probability), exact(probability)) for label, probability in shown)
    return Chart(title=title, bars=bars, caption=caption, folded=folded,
                 table=(("", "chance", exact_heading([probability for _, probability in shown])), rows))


def line_chart(title, series, x_label="round", caption="", folded=True, first=1):
    """Lines over rounds: series is ((name, (value after round `first`, ...)), ...), values from 0 to 1."""
    return Chart(title=title, kind="line", caption=caption, folded=folded, x_label=x_label, first=first,
                 series=tuple((name, tuple(float(value) for value in values)) for name, values in series))
