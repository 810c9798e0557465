"""Plans side by side: two or three setups of one calculator on one page, under one permalink.

Plan A's parameters are the calculator's own names; plan B's and plan C's carry the prefixes
``b-`` and ``c-`` (``b-dice``, ``c-attackers-2-attack``). ``plans`` says how many plans the page
holds, and ``plan``, ``b-plan`` and ``c-plan`` name them. A form's "Compare with another plan"
button (``add_plan``) adds a plan copied from the last one, and "Remove plan B" (``remove_plan=B``)
takes one away; both answer with a redirect to the permalink that holds every plan left, landing on the
inputs of the plan just added, or of the plan before the one removed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlencode

from ..errors import ParameterError, quoted_name, without_nul
from .calculator import AFTER, FORM_PROBLEM, NEXT, Headline, working
from .fields import MAX_TEXT, Errors

LETTERS = "ABC"
# In the inputs line a short input wraps whole ("Nazgûl 1" never splits); a longer one flows with the
# line, else it would leave a blank band where it did not fit
LONG_INPUT = 24  # characters

PREFIXES = ("", "b-", "c-")
MAX_PLANS = len(PREFIXES)
NAME = "plan"  # the parameter naming a plan (b-plan, c-plan)
NAME_LENGTH = 40
EDITS = ("add_plan", "remove_plan")
MAX_PERMALINK = 8000  # characters of query: nginx refuses a longer request line (large_client_header_buffers 8k)


@dataclass
class Plan:
    """One plan on the page: what was typed, what was read, and its result (None before or after an error)."""

    letter: str
    prefix: str
    name: str  # what the player called it, else "Plan B"
    typed_name: str
    submitted: bool
    values: dict
    errors: dict
    raw: dict
    result: object
    applying: set
    headline: str
    subline: str  # the headline's smaller second line, if any
    note: str  # the caveat the headline holds only with, if any
    charts: list
    steps: list | None
    summary: list  # the inputs the result was worked out from, in a few words each
    rules_used: list  # [(rule, source)] the result used
    problems: dict  # the errors as the page shows them, a Problem by every name that has one
    differs: bool = False  # the summary lists only what differs from the first plan
    blanks: set = frozenset()  # the counts left blank, which the summary shows as 0
    more_words: str = ""  # the options folded under More options, in a few words
    changed: set = frozenset()  # the fields whose inputs differ from the first plan's (none for the first)

    @property
    def summary_shown(self) -> list:
        """The inputs line's items as [(text, flows)]: a long item flows with the line, a number in it
        never opening a line and its value staying with its last word (no-break spaces)."""
        return [(flowing(item), True) if len(item) > LONG_INPUT else (item, False) for item in self.summary]

    @property
    def form_problem(self):
        """The error about the inputs as a whole, if any (a Problem)."""
        return self.problems.get(FORM_PROBLEM)

    @property
    def problem_list(self) -> list:
        """Each error once, in the form's order."""
        return list(dict.fromkeys(self.problems.values()))


def flowing(item: str) -> str:
    """A long input of the inputs line with no-break spaces before each number and at its last space."""
    text = re.sub(r" (?=[-+−]?\d)", "\u00a0", item)
    last = text.rfind(" ")
    return text if last < 0 else text[:last] + "\u00a0" + text[last + 1:]


def plan_count(args) -> tuple[int, str]:
    """(how many plans, an error message or "") from the ``plans`` parameter (1 when it is absent)."""
    given = args.getlist("plans")
    if not given:
        return 1, ""
    if len(given) == 1 and given[0] in {str(count) for count in range(1, MAX_PLANS + 1)}:
        return int(given[0]), ""
    return 1, f"plans: must be a whole number from 1 to {MAX_PLANS}"


def read_plans(calc, args, count) -> list[Plan]:
    """Every plan of the page: answered when its parameters were submitted, else its empty form."""
    plans = []
    for letter, prefix in zip(LETTERS[:count], PREFIXES):
        typed_name = without_nul(args.get(prefix + NAME, "")[:NAME_LENGTH])
        name = typed_name.strip() or f"Plan {letter}"
        submitted = any(member.given(args, prefix + member.name) for member in calc.fields)
        if submitted:
            values, errors, raw, result = calc.answer(args, prefix)
        else:  # empty boxes, each showing its example greyed until the player types
            values, errors, result = calc.blank_values(), Errors(), None
            raw = {member.name: member.form_value(None) for member in calc.fields}
        applying = calc.applying(values)
        answered = result is not None
        blanks = calc.left_blank(args, prefix) if answered else set()
        headline = calc.headline(result) if answered else Headline("")
        plans.append(Plan(letter=letter, prefix=prefix, name=name, typed_name=typed_name, submitted=submitted,
                          values=values, errors=errors, raw=raw, result=result, applying=applying,
                          headline=headline.main, subline=headline.sub, note=headline.note,
                          charts=calc.charts(result) if answered else [],
                          steps=(calc.page_working or working)(result) if answered else None,
                          summary=calc.summary(values, applying, blanks=blanks) if answered else [], blanks=blanks,
                          rules_used=calc.rules_used(result) if answered else [],
                          problems=calc.problems(errors, prefix, name if count > 1 else "",
                                                 f"inputs-{letter.lower()}"),
                          more_words=calc.more_words(values, applying)))
    first = plans[0]
    for plan in plans[1:]:  # a later plan's form marks what differs from the first's
        plan.changed = {name for name, typed in plan.raw.items() if typed != first.raw[name]}
    for plan in plans[1:]:  # a later plan says only how it differs from the first, field by field
        if plan.summary and first.summary:
            plan.summary = calc.summary(plan.values, plan.applying, blanks=plan.blanks,
                                        unlike=calc.field_summaries(first.values, first.applying, first.blanks)) \
                or ["the same inputs"]
            plan.differs = True
    return plans


def comparison(calc, plans) -> str:
    """The plans' key figures in one sentence ("Plan A: defender destroyed 71%; Plan B: 48%."), or ""
    unless every plan has a result."""
    if len(plans) < 2 or calc.key is None or any(plan.result is None for plan in plans):
        return ""
    first = plans[0].result
    keys = [calc.key(plan.result, first) for plan in plans]
    parts = [f"{plan.name}: {how}" if (index and what == keys[0][0]) or not what else f"{plan.name}: {what} {how}"
             for index, (plan, (what, how)) in enumerate(zip(plans, keys))]
    return "; ".join(parts) + "."


def _plan_of(key) -> int:
    return next((index for index, prefix in enumerate(PREFIXES) if prefix and key.startswith(prefix)), 0)


def _reads(calc):
    """Whether the calculator reads a parameter (without its plan's prefix): a field's, a plan's name, or a
    box of a list of records (defenders-2-defence)."""
    names = {member.name for member in calc.fields} | {NAME}
    rows = tuple(member.name + "-" for member in calc.fields if member.kind == "records")
    return lambda name: name in names or name.startswith(rows)


def stray_parameter(calc, args) -> str:
    """The message for the first parameter of the address that the page reads for no plan (a box's
    name misspelt by hand: "strenght=3"), or "": such a box is refused rather than read as blank."""
    reads = _reads(calc)
    controls = {"plans", *EDITS, NEXT, *(AFTER + name for name in (calc.next_step.fields if calc.next_step else ()))}
    for key in args:
        if key in controls or reads(key.removeprefix(PREFIXES[_plan_of(key)])):
            continue
        return f"The address holds “{quoted_name(key)}”, which this calculator does not read: correct it or take it out"
    return ""


def edited_query(calc, args) -> tuple[list, str] | None:
    """(the permalink's parameters, the id of the inputs to land on) after an add or remove button,
    or None when none was pressed. Only the calculator's own parameters are kept, and a permalink too
    long to follow is a ParameterError. A plan whose boxes are all empty stays an empty form: not yet
    submitted, so it is not answered (nor its required boxes refused) before the player asks."""
    if not any(edit in args for edit in EDITS):
        return None
    count, _ = plan_count(args)
    by_plan = [[] for _ in range(MAX_PLANS)]
    reads = _reads(calc)
    for key, value in args.items(multi=True):
        plan = _plan_of(key)
        name = key.removeprefix(PREFIXES[plan])
        if reads(name):
            by_plan[plan].append((name, value[:MAX_TEXT]))
    kept = [pairs if any(value.strip() for _, value in pairs) else [] for pairs in by_plan[:count]]
    removed = args.get("remove_plan", "")
    landing = len(kept) - 1  # a button that changes nothing: the last plan's inputs, where the buttons are
    if removed and removed in LETTERS[1:count]:
        del kept[LETTERS.index(removed)]
        landing = LETTERS.index(removed) - 1  # the plan that stood before it, which the player may change next
    elif "add_plan" in args and count < MAX_PLANS:
        copy = [(key, value) for key, value in kept[-1] if key != NAME]
        kept.append(copy)
        landing = len(kept) - 1  # the new plan: the inputs the player is about to change
    query = [("plans", str(len(kept)))] if len(kept) > 1 else []
    for prefix, pairs in zip(PREFIXES, kept):
        query += [(prefix + key, value) for key, value in pairs]
    if len(urlencode(query)) > MAX_PERMALINK:
        raise ParameterError(f"plans: the inputs are too long to keep in one address (at most {MAX_PERMALINK} "
                             "characters); give each box once")
    return query, f"inputs-{LETTERS[landing].lower()}"


def api_query(calc, plan) -> str:
    """The plan's parameters as its GET endpoint takes them."""
    pairs = []
    for member in calc.fields:
        if member.name in plan.applying:
            value = plan.values.get(member.name)
            if value is not None:
                pairs.append((member.name, member.form_value(value)))
    return urlencode(pairs)


