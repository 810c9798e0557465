"""The slowest inputs of every calculator's JSON endpoint within the API's bounds, found by a random
search (run: python bench/slowest_inputs.py).

In process, through Flask's test client, so a figure is a whole request: reading the query or
body, the engine, the answer as JSON. Every request is timed cold (the engines' caches cleared
first) by the process's CPU time (time.process_time, which other work on the machine inflates
less than the wall clock).

For each endpoint the search draws inputs at random from its declared fields (counts, choices,
switches, round windows, lists and records, each from its own bounds, the ends of a range drawn
more often), then climbs from the slowest it found: it changes one input at a time, keeping a
change that makes the request slower. The battle's search also starts from the corners the
battle bench finds slowest (10 units a side, modifiers at -5, standing and withdrawing compared).
Every search also starts from the inputs its form shows when empty, which are valid where random
ones seldom are (Fate of the Fellowship's die faces must add up to 6, so the search draws a die's
faces together). The slowest requests are then timed again (best of 3), and the slowest of them
is printed with how many inputs were tried and how many of them the endpoint answered (the
others are refused with a 400, which costs little). Goal: every endpoint's slowest under 20 ms
of CPU.

`--tries N` draws N random inputs per endpoint (and N // 2 changes while climbing); `--seed` fixes
the draw (the same inputs every run by default).
"""

import argparse
import json
import os
import random
import sys
import time
from importlib import import_module
from pkgutil import walk_packages

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp import create_app, engines  # noqa: E402
from webapp.state import state_of  # noqa: E402
from webapp.engines.fotf_dice import DIE_FACES, DIE_SIDES  # noqa: E402
from webapp.calculators.fields import (Boolean, Choice, ChoiceList, Integer, IntegerList, Records,  # noqa: E402
                                       RoundWindow, Text)

GOAL_MS = 20
KEPT = 8  # the slowest inputs kept to climb from and to time again
FACTIONS = ("Rohan", "Gondor", "Mordor", "Isengard", "Elves", "Dwarves", "North", "Southrons")

# where the battle bench finds the slowest battles: the climb starts here too
BATTLE_CORNERS = [
    {"attacker_regulars": 0, "attacker_elites": 10, "defender_regulars": 0, "defender_elites": 10,
     "attacker_policy": "elites", "defender_policy": "elites", "attacker_modifier": -5, "defender_modifier": -5,
     "attacker_reroll_modifier": -5, "defender_reroll_modifier": -5, "attacker_modifier_rounds": rounds,
     "defender_modifier_rounds": rounds, "terrain": "field", "defender_choice": "compare", "withdraw_after": 3,
     "siege_battles": 5, "siege_continue": "true", **extra}
    for rounds in ("1-99", "all") for extra in ({}, {"rounds": 100}, {"attacker_replacement_regulars": 5})]


def engine_caches():
    """Every cached function of the engines (functools.lru_cache), to be cleared before each request."""
    found = []
    for module_info in walk_packages(engines.__path__, engines.__name__ + "."):
        module = import_module(module_info.name)
        found += [value for value in vars(module).values() if hasattr(value, "cache_clear")]
    return found


def draw_integer(member, rng):
    if rng.random() < 0.3:
        return rng.choice((member.minimum, member.maximum))
    return rng.randint(member.minimum, member.maximum)


def draw_window(member, rng):
    first = rng.choice((1, 2, rng.randint(1, member.maximum)))
    last = rng.choice((first, member.maximum - 1, member.maximum, rng.randint(first, member.maximum)))
    return rng.choice(("all", "first", f"{first}", f"{first}-", f"{first}-{max(first, last)}"))


def draw(member, rng, body):
    """A value within the field's bounds, as a query string (text) or a JSON body (body=True) gives it;
    None to leave it out."""
    if member.default is not None and not isinstance(member, Records) and rng.random() < 0.1:
        return None  # left out: its default, or an error when it is required
    if isinstance(member, Boolean):
        value = rng.random() < 0.5
        return value if body else ("true" if value else "false")
    if isinstance(member, Integer):
        return draw_integer(member, rng)
    if isinstance(member, Choice):
        return rng.choice(member.values)
    if isinstance(member, ChoiceList):
        chosen = rng.sample(member.values, rng.randint(0, len(member.values)))
        return chosen if body else ",".join(chosen)
    if isinstance(member, RoundWindow):
        return draw_window(member, rng)
    if isinstance(member, IntegerList):
        count = member.count or rng.randint(0, member.max_items or 5)
        numbers = [draw_integer(member, rng) for _ in range(count)]
        return numbers if body else ",".join(map(str, numbers))
    if isinstance(member, Text):
        return rng.choice(FACTIONS + ("",))
    if isinstance(member, Records):
        count = rng.choice((member.min_items, member.max_items, rng.randint(member.min_items, member.max_items)))
        records = []
        for _ in range(count):
            record = {field.name: draw(field, rng, True) for field in member.fields}
            records.append({name: value for name, value in record.items() if value is not None})
        return records
    raise TypeError(f"no way to draw {type(member).__name__} {member.name}")


class Endpoint:
    """One JSON endpoint, asked with inputs {field name: value} and timed cold."""

    def __init__(self, client, calc, api, caches):
        self.client, self.calc, self.api, self.caches = client, calc, api, caches
        self.fields = api.fields if api.method == "POST" else calc.fields
        self.tried = self.answered = 0

    def example(self):
        """The inputs the calculator's empty form shows (valid where random ones seldom are: a die's
        faces must add up to 6), as the endpoint takes them."""
        if self.api.method == "POST":
            shown = {member.name: member.prefill for member in self.fields if member.prefill is not None}
            return json.loads(json.dumps(shown))
        shown = {member.name: member.form_value(member.prefill) for member in self.fields}
        return {name: text for name, text in shown.items() if text != ""}

    def draw(self, rng):
        inputs = {member.name: draw(member, rng, self.api.method == "POST") for member in self.fields}
        return self.faces_of_one_die({name: value for name, value in inputs.items() if value is not None}, rng)

    def faces_of_one_die(self, inputs, rng):
        """A Fate of the Fellowship die's faces drawn together, adding up to its sides, as the endpoint
        requires (each drawn alone they seldom do)."""
        for faces in DIE_FACES.values():
            if all(name in inputs for name in faces) and rng.random() < 0.8:
                cuts = sorted(rng.randint(0, DIE_SIDES) for _ in range(len(faces) - 1))
                counts = [high - low for low, high in zip([0, *cuts], [*cuts, DIE_SIDES])]
                inputs.update(zip(faces, counts))
        return inputs

    def change(self, inputs, rng):
        """The inputs with one field drawn again (or left out)."""
        member = rng.choice(self.fields)
        changed = dict(inputs)
        value = draw(member, rng, self.api.method == "POST")
        if value is None:
            changed.pop(member.name, None)
        else:
            changed[member.name] = value
        if any(member.name in faces for faces in DIE_FACES.values()):
            changed = self.faces_of_one_die(changed, rng)
        return changed

    def cpu_ms(self, inputs, count=True):
        for cache in self.caches:
            cache.cache_clear()
        start = time.process_time()
        if self.api.method == "POST":
            response = self.client.post(self.api.path, json=inputs)
        else:
            response = self.client.get(self.api.path, query_string=inputs)
        spent = (time.process_time() - start) * 1000
        if count:
            self.tried += 1
            self.answered += response.status_code == 200
        return spent if response.status_code == 200 else 0.0  # a refusal is not what the search is after

    def search(self, rng, tries, starts=()):
        """[(ms, inputs)], the slowest first, after drawing `tries` inputs and climbing from the slowest."""
        timed = [(self.cpu_ms(inputs), inputs) for inputs in starts]
        timed += [(self.cpu_ms(inputs), inputs) for inputs in (self.draw(rng) for _ in range(tries))]
        kept = sorted(timed, key=lambda row: row[0], reverse=True)[:KEPT]
        for _ in range(tries // 2):
            index = rng.randrange(len(kept))
            ms, inputs = kept[index]
            changed = self.change(inputs, rng)
            changed_ms = self.cpu_ms(changed)
            if changed_ms > ms:
                kept[index] = (changed_ms, changed)
        again = [(min(self.cpu_ms(inputs, count=False) for _ in range(3)), inputs) for _, inputs in kept]
        return sorted(again, key=lambda row: row[0], reverse=True)


def load_line():
    return "load average " + " ".join(f"{load:.2f}" for load in os.getloadavg()) + f" on {os.cpu_count()} cores"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=400, help="random inputs drawn per endpoint")
    parser.add_argument("--seed", type=int, default=26, help="the draw's seed")
    parser.add_argument("--only", help="only the endpoints whose path contains this")
    args = parser.parse_args(argv)
    app = create_app({"TESTING": True})
    client, caches = app.test_client(), engine_caches()
    rng = random.Random(args.seed)
    print(f"Slowest inputs by a random search, {args.tries} drawn per endpoint and {args.tries // 2} changes "
          f"climbing from the slowest; CPU ms of one cold request, best of 3 ({load_line()} at the start)")
    worst = 0.0
    for calc in state_of(app).calculators.values():
        for api in calc.apis:
            if args.only and args.only not in api.path:
                continue
            endpoint = Endpoint(client, calc, api, caches)
            starts = [endpoint.example()] + (BATTLE_CORNERS if api.path == "/api/wotr/battle" else [])
            slowest = endpoint.search(rng, args.tries, starts)
            ms, inputs = slowest[0]
            worst = max(worst, ms)
            print(f"{api.method} {api.path}: tried {endpoint.tried} inputs ({endpoint.answered} answered), "
                  f"slowest {ms:.2f} ms CPU")
            print(f"    {json.dumps(inputs, sort_keys=True)}")
    verdict = "meets" if worst < GOAL_MS else "MISSES"
    print(f"slowest of all: {worst:.1f} ms CPU; {verdict} the {GOAL_MS} ms goal ({load_line()} at the end)")


if __name__ == "__main__":
    main()
