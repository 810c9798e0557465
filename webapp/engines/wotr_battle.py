"""Odds for a whole War of the Ring battle, as a Markov chain over the two Armies.

A state is (attacker regulars, attacker elites; defender regulars, defender elites) at
the start of a Combat round. In each round both Armies roll at once: Combat dice equal to
Combat Strength (regulars + elites, at most 5), then the Leader re-roll of up to
min(Leadership, 5) missed dice. Hits are taken as casualties at the same time, so both
Armies can be wiped out in the same round.

Where each rule comes from. From the battle rules summary:
- casualties: each hit removes one regular or replaces one elite with a regular; two hits
  may instead remove one elite outright. Which option an Army takes is its
  `casualty_policy`: "strength" keeps as much Combat Strength (dice) as it can, then as
  many elites; "elites" keeps as many elites as it can, then as much Strength;
- the Regular that replaces an Elite comes from earlier casualties or the reinforcements;
  when there is none, the Elite is simply eliminated (`Army.replacement_regulars`: how
  many are at hand when the battle starts; None: always one);
- a Combat card's effect lasts for the round it is played unless it says otherwise, so
  modifiers are inputs with the rounds they cover (`Army.modifier_rounds`);
- a defender in a region with its own Stronghold may retreat into it at the start of any
  Combat round (`withdraw_after`); a retreat ends the battle, the attacker may move in,
  and an enemy Stronghold with units inside is then besieged.
From the War of the Ring 2nd edition rulebook, not the summary:
- "field": both Armies hit on 5+; a region's Stronghold gives no help to an Army that
  fights outside it;
- "city", "fortification": in the first round the attacker hits only on 6; afterwards 5+;
- "siege" (a Stronghold under siege): the attacker hits only on 6, the defender on 5+; a
  siege battle lasts one round unless the attacker downgrades one of its elites to a
  regular to fight one more round; at most 5 Army units (any number of Leaders) fit
  inside, and when a siege begins the units beyond 5 go back to the reinforcements;
- attacking a besieged Stronghold is a new battle, a siege.

Method. The field battle is solved in order of remaining hit points (regulars + 2 x
elites over both Armies): every hit lowers them, so the only way to stay in a state is a
round with no hits on either side, and that self-loop is closed in one step (a geometric
number of quiet rounds). Each state carries the chance of being there at the start of each
round, so one pass gives the whole round-by-round curve; a battle fought to the end keeps
the rounds shown one by one and the rest as one tail. A siege (a Stronghold under siege, or
after a withdrawal) all begins in one round and lasts at most 15 rounds, each round ending a
siege battle or costing the attacker an Elite, so it is fought forward round by round, the
chances still in it carried from one round to the next (see _Solver._fight_sieges). What
keeps the work short:
- the opening: until either Army's Combat dice change (5 dice while it has 5 units or more),
  each Army's losses depend only on its own state, so the two Armies are independent and
  those rounds are fought on each Army alone; a pair of states gets the product of the two
  Armies' chances (see _Solver._open_field);
- standing and withdrawing compared share one pass: the rounds before the withdrawal are
  the same battle either way (see _Solver);
- after a withdrawal, the chance of holding out with every plan of the attacker's for the
  Stronghold (1 to 5 siege battles, going on or not) comes from the same siege: a plan of
  fewer siege battles is the start of one of five, and where nothing in the siege depends
  on the round, the plans not asked for are fought without it (see _Solver._steady_siege).
A battle in progress (start_round) is fought from its own round: the rules tied to a round
(a City's first round, the modifiers' rounds) follow the battle's numbering (see _regime).
Everything is exact in method, with no sampling. `exact=True` works in fractions.Fraction
throughout; the default works in floating point, which the tests hold within 1e-12 of the
fractions, and drops any state's chance below 1e-20 in a round (at most a few times 1e-15
in all, see FLOAT_NEGLIGIBLE).
"""

from __future__ import annotations

import re
from collections import defaultdict
from copy import copy
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from itertools import compress, count
from typing import NamedTuple

from . import wotr_combat
from .inputs import InputError, raise_any, require_bool, require_choice, require_int
from .wotr_combat import approximately, combat_roll_weights, hit_text

TERRAINS = ("field", "city", "fortification", "siege")
WALLED = ("city", "fortification")
CASUALTY_POLICIES = ("strength", "elites")
MODIFIER_ROUNDS = ("all", "first")  # or a round "3", rounds "2-4", or from a round on "3-"
MAX_UNITS = 10  # the rulebook's stacking limit: at most 10 Army units in one region
MAX_LEADERSHIP = 10
MAX_MODIFIER = 5
MAX_ROUNDS = 100
MAX_REPLACEMENT_REGULARS = 99  # not a game fact: any count at or above the Elites is "enough"
MAX_SIEGE_BATTLES = 5
MAX_SIEGE_DEFENDERS = 5  # a Stronghold holds at most 5 Army units
MAX_DICE = 5
MAX_REROLLS = 5
NORMAL_HIT = 5
HARD_HIT = 6  # attacking a City or Fortification in round 1, or a Stronghold under siege
PER_ROUND_SHOWN = 20  # rounds listed in per_round when the battle is fought to the end
# In floating point a state's chance below this in one round is dropped, and so is the
# opening once both Armies' chance of still being in it is. A battle has at most a few
# thousand states and 102 round slots, so all that is dropped stays below 1e-14.
FLOAT_NEGLIGIBLE = 1e-20

SIDE_DENOMINATOR = 6 ** (MAX_DICE + MAX_REROLLS)  # any one side's roll fits over 6**10

OUTCOMES = ("defender_eliminated", "attacker_eliminated", "both_eliminated", "neither_eliminated")
HEADLINE = ("defender_holds", "defender_destroyed", "attacker_destroyed")

_TERRAIN_NAMES = {"field": "the field", "city": "a City", "fortification": "a Fortification",
                  "siege": "a Stronghold under siege"}
ROUNDS_PATTERN = re.compile(r"([1-9][0-9]{0,2})(-([1-9][0-9]{0,2})?)?")


@dataclass(frozen=True)
class Army:
    """One side of a battle.

    regulars, elites: Army units. leadership: total Leadership (re-rolls are capped at 5).
    casualty_policy: "strength" keeps the most Combat Strength (dice) first, "elites" keeps
        elites first.
    modifier: added to each Combat roll die (e.g. from a Combat card), -5..5.
    reroll_modifier: added to each Leader re-roll die, -5..5.
    modifier_rounds: the rounds both modifiers apply in: "all", "first", one round "3",
        rounds "2-4", or a round and every later one "3-" (rounds 1..100, counted on
        through any siege battles that follow a withdrawal).
    replacement_regulars: Regulars at hand (in the reinforcements or among earlier
        casualties) when the battle starts, to replace downgraded Elites, 0..99; None: always
        one at hand. Regulars this Army loses become available too.
    """

    regulars: int
    elites: int
    leadership: int = 0
    casualty_policy: str = "strength"
    modifier: int = 0
    reroll_modifier: int = 0
    modifier_rounds: str = "all"
    replacement_regulars: int | None = None

    @property
    def units(self) -> int:
        return self.regulars + self.elites

    @property
    def strength(self) -> int:
        """Combat Strength: one point per Army unit."""
        return self.regulars + self.elites


# --------------------------------------------------------------------------- validation


ROUNDS_ALLOWED = ("all, first, a round such as 3, rounds such as 2-4, or a round and every later one such as 3- "
                  "(rounds 1 to {last_round})")  # what a modifier_rounds text may be, for every error message


def modifier_window(name: str, spec, last_round: int = MAX_ROUNDS) -> tuple[int, int | None]:
    """The (first, last) rounds a `modifier_rounds` text covers; last None: to the end.

    "all" is (1, None), "first" (1, 1), "3" (3, 3), "2-4" (2, 4), "3-" (3, None); rounds from 1
    to `last_round`. Anything else is an InputError naming `name`.
    """
    window = _window(spec, last_round) if isinstance(spec, str) else None
    if window is None:
        raise InputError(name, ROUNDS_ALLOWED.format(last_round=last_round))
    return window


def window_text(first: int, last: int | None) -> str:
    """The shortest `modifier_rounds` text for rounds first..last (last None: to the end)."""
    if first == 1 and last in (None, 1):
        return "all" if last is None else "first"
    return f"{first}-" if last is None else (f"{first}" if first == last else f"{first}-{last}")


@lru_cache(maxsize=256)
def _window(spec, last_round):
    if spec == "all":
        return 1, None
    if spec == "first":
        return 1, 1
    match = ROUNDS_PATTERN.fullmatch(spec)
    if match:
        first = int(match.group(1))
        last = first if match.group(2) is None else (int(match.group(3)) if match.group(3) else None)
        if first <= last_round and (last is None or first <= last <= last_round):
            return first, last
    return None


def check_army(side: str, army: Army) -> None:
    """Check one Army; errors name the field as the API and the form do (attacker_regulars, ...)."""
    if not isinstance(army, Army):
        raise InputError(side, "an Army")
    require_int(f"{side}_regulars", army.regulars, 0, MAX_UNITS)
    require_int(f"{side}_elites", army.elites, 0, MAX_UNITS)
    if not 1 <= army.units <= MAX_UNITS:
        # regulars and elites together: named by the first of the two
        raise InputError(f"{side}_regulars", f"regulars + elites from 1 to {MAX_UNITS}")
    require_int(f"{side}_leadership", army.leadership, 0, MAX_LEADERSHIP)
    require_choice(f"{side}_policy", army.casualty_policy, CASUALTY_POLICIES)
    require_int(f"{side}_modifier", army.modifier, -MAX_MODIFIER, MAX_MODIFIER)
    require_int(f"{side}_reroll_modifier", army.reroll_modifier, -MAX_MODIFIER, MAX_MODIFIER)
    modifier_window(f"{side}_modifier_rounds", army.modifier_rounds)
    if army.replacement_regulars is not None:
        require_int(f"{side}_replacement_regulars", army.replacement_regulars, 0, MAX_REPLACEMENT_REGULARS)


def check_armies(attacker: Army, defender: Army) -> None:
    """Check both Armies, each one's first problem named (both, when both are wrong): InputError."""
    problems = []
    for side, army in (("attacker", attacker), ("defender", defender)):
        try:
            check_army(side, army)
        except InputError as problem:
            problems.append(problem)
    raise_any(problems)


def _side(army):
    """The arguments of _side_table for an Army (a small key, quick to hash)."""
    return army.regulars, army.elites, army.casualty_policy, _enough(army.replacement_regulars, army.elites)


def _enough(replacements, elites):
    """None when `replacements` can never run out for this many elites (one cache entry)."""
    return None if replacements is None or replacements >= elites else replacements


# --------------------------------------------------------------------------- casualties


def hit_points(regulars: int, elites: int) -> int:
    """Hits an Army can absorb before it is gone: 1 per regular, 2 per elite."""
    return regulars + 2 * elites


def remove_casualties(regulars: int, elites: int, hits: int, policy: str = "strength",
                      replacements: int | None = None) -> tuple[int, int]:
    """The (regulars, elites) left after taking `hits` casualties under `policy`.

    Every way of absorbing the hits is tried: a regulars removed, b elites replaced by
    regulars, c elites removed at two hits each, d elites eliminated by one hit each for
    want of a Regular (a + b + 2c + d = hits). `replacements` is how many Regulars are at
    hand for the b replacements (None: always enough); the regulars removed by these hits
    count too, the player taking them first. d is only possible once every Regular at hand
    is used. "strength" picks the option with the most Combat Strength, then the most
    elites; "elites" the most elites, then the most Strength. Hits that reach the Army's
    hit points eliminate it: (0, 0).
    """
    # checked before the cache: 1.0 or True would otherwise hit a cached answer for 1
    require_choice("policy", policy, CASUALTY_POLICIES)
    require_int("regulars", regulars, 0, MAX_UNITS)
    require_int("elites", elites, 0, MAX_UNITS)
    require_int("hits", hits, 0, 4 * MAX_UNITS)
    if replacements is not None:
        require_int("replacements", replacements, 0, MAX_REPLACEMENT_REGULARS)
    return _remove_casualties(regulars, elites, hits, policy, _enough(replacements, elites))


# every (regulars, elites) of one Army, 0 to 5 hits, both policies, Regulars at hand None or 0-9: 11*11*6*2*11
@lru_cache(maxsize=16384)
def _remove_casualties(regulars, elites, hits, policy, replacements):
    if hits >= hit_points(regulars, elites):
        return (0, 0)
    best = None
    best_key = None
    for removed in range(min(elites, hits // 2) + 1):  # c: two hits each
        for replaced in range(min(elites - removed, hits - 2 * removed) + 1):  # b
            # d: only once no Regular is at hand, never with one always at hand
            most_lost = 0 if replacements is None else min(elites - removed - replaced, hits - 2 * removed - replaced)
            for lost in range(most_lost + 1):
                regulars_out = hits - 2 * removed - replaced - lost  # a
                if regulars_out > regulars:
                    continue
                if replacements is not None:
                    at_hand = replacements + regulars_out
                    if replaced > at_hand or (lost and replaced < at_hand):
                        continue
                elif lost:
                    continue
                left = (regulars - regulars_out + replaced, elites - replaced - removed - lost)
                strength = left[0] + left[1]
                key = (strength, left[1]) if policy == "strength" else (left[1], strength)
                if best_key is None or key > best_key:
                    best, best_key = left, key
    return best


def stronghold_garrison(regulars: int, elites: int) -> tuple[int, int]:
    """The (regulars, elites) that stay inside a Stronghold: at most 5 units, Elites first.

    An Elite is never worth less than a Regular (same die, two hits to remove), so the
    units sent back to the reinforcements are Regulars first.
    """
    kept_elites = min(elites, MAX_SIEGE_DEFENDERS)
    return min(regulars, MAX_SIEGE_DEFENDERS - kept_elites), kept_elites


# --------------------------------------------------------------------------- one side's tables


@lru_cache(maxsize=1024)  # a battle asks for at most 6 dice counts x 2 hit numbers x modifiers on or off
def _hit_chances(dice, hit, modifier, rerolls, reroll_modifier, exact):
    """P(k hits) for k = 0..5 (zeros past `dice`), as Fractions or floats."""
    weights, denominator = combat_roll_weights(dice, hit, modifier, rerolls, reroll_modifier)
    padded = tuple(weights) + (0,) * (MAX_DICE - dice)
    if exact:
        return tuple(Fraction(weight, denominator) for weight in padded)
    return tuple(weight / denominator for weight in padded)


class _SideTable(NamedTuple):
    """One Army's states and the moves between them (see _side_table)."""

    states: tuple  # (regulars, elites), the Army as it starts first
    casualty: tuple  # [state][hits] -> the state after that many hits
    payment: tuple  # [state] -> the state after paying an Elite to fight on in a siege, or -1
    garrison: tuple  # [state] -> the state once the units beyond a Stronghold's 5 have left


@lru_cache(maxsize=256)
def _side_table(regulars, elites, policy, replacements):
    """Every (regulars, elites) one Army can come to, and the moves between them.

    Returns (states, casualty, payment, garrison): casualty[i][h] is the index reached
    from state i after h hits; payment[i] the index after downgrading one elite to fight
    on in a siege (-1 without an elite or a Regular to replace it); garrison[i] the index
    after the units beyond a Stronghold's 5 leave. Regulars at hand in state (r, e) are
    replacements + regulars - r: each regular lost adds one, each replacement uses one.
    """
    states = [(regulars, elites)]
    index = {states[0]: 0}

    def found(state):
        if state not in index:
            index[state] = len(states)
            states.append(state)
        return index[state]

    casualty, payment, garrison = [], [], []
    i = 0
    while i < len(states):
        r, e = states[i]
        at_hand = None if replacements is None else replacements + regulars - r
        casualty.append(tuple(found(_remove_casualties(r, e, hits, policy, _enough(at_hand, e)))
                              for hits in range(MAX_DICE + 1)))
        payment.append(found((r + 1, e - 1)) if e and (at_hand is None or at_hand > 0) else -1)
        garrison.append(found(stronghold_garrison(r, e)))
        i += 1
    return _SideTable(tuple(states), tuple(casualty), tuple(payment), tuple(garrison))


@lru_cache(maxsize=512)
def _losses(side, opponent_setup, exact):
    """For each state of the side's table and each number of opposing dice: [(state reached, chance)].

    side: the arguments of _side_table (a small key, quick to hash).
    """
    states, casualty, _, _ = _side_table(*side)
    by_dice = [_hit_chances(dice, *opponent_setup, exact) for dice in range(MAX_DICE + 1)]
    rows = []
    for i in range(len(states)):
        row = []
        for chances in by_dice:
            merged = {}
            for hits, chance in enumerate(chances):
                if chance:
                    target = casualty[i][hits]
                    merged[target] = merged.get(target, 0) + chance
            row.append(tuple(merged.items()))
        rows.append(tuple(row))
    return tuple(rows)


def clear_caches() -> None:
    """Forget every cached table and battle here and in wotr_combat (for cold-start timing)."""
    for cached in (_remove_casualties, _hit_chances, _side_table, _losses, _solved):
        cached.cache_clear()
    wotr_combat.clear_caches()


# --------------------------------------------------------------------------- the chain


@dataclass(frozen=True)
class _Plan:
    """Everything the chain depends on, validated and hashable (the cache key)."""

    attacker: Army
    defender: Army
    terrain: str
    rounds: int | None
    attacker_ceases_at: int | None
    siege_continue: bool
    withdraw_after: int | None
    siege_battles: int
    exact: bool
    compare: bool = False  # solve standing in the field as well as withdrawing (see _Solver)
    start_round: int = 1  # the battle's own number of the round it starts in (see _regime)


def _table_plans(plan):
    """[(the attacker goes on, siege battles)]: the attacker's plans for the Stronghold the hold-out
    table weighs after a withdrawal, both ways with the most siege battles there can be (a plan of
    fewer siege battles is the start of one of these, ending where the next siege battle would
    begin, see _Solver.withdrawing); none without a withdrawal."""
    if plan.withdraw_after is None:
        return []
    return [(True, MAX_SIEGE_BATTLES), (False, MAX_SIEGE_BATTLES)]


def _roll_changes(plan):
    """The rounds fought (1: the first, see _regime) in which the rolls may differ from the round
    before, and round 1, in order."""
    offset = plan.start_round - 1
    changes = {1, 2} if plan.terrain in WALLED and offset == 0 else {1}
    for army in (plan.attacker, plan.defender):
        first, last = modifier_window("modifier_rounds", army.modifier_rounds)
        changes.update(round_ - offset for round_ in (first, None if last is None else last + 1)
                       if round_ is not None and round_ > plan.start_round)
    return sorted(changes)


def _regime(plan, kind, t):
    """(attacker's hit number, attacker's modifiers on, defender's modifiers on) in the t-th round
    fought. The battle's own round number is t + start_round - 1: a City's or Fortification's first
    round and the modifiers' rounds follow it, so a battle that starts in round 2 is fought as
    from round 2.

    kind: "field" or "siege" (a Stronghold under siege, including after a withdrawal).
    """
    round_ = t + plan.start_round - 1
    hit = HARD_HIT if kind == "siege" or (round_ == 1 and plan.terrain in WALLED) else NORMAL_HIT

    def on(army):
        first, last = modifier_window("modifier_rounds", army.modifier_rounds)
        return first <= round_ and (last is None or round_ <= last)

    return hit, on(plan.attacker), on(plan.defender)


def _setup(army, hit, modifiers_on):
    """(hit, modifier, rerolls, reroll_modifier) an Army rolls with."""
    return (hit, army.modifier if modifiers_on else 0, min(army.leadership, MAX_REROLLS),
            army.reroll_modifier if modifiers_on else 0)


class _Tally:
    """What one stretch of a battle adds to its result (see _Solver)."""

    def __init__(self, zero, pairs, shown):
        self.final = [zero] * pairs  # attacker index * def_count + defender index -> chance of ending there
        self.by_round = {name: [zero] * (shown + 1) for name in OUTCOMES}  # ended in round t
        self.present = [zero] * (shown + 2)  # the battle is on at the start of round t
        self.stopped = zero  # still on after the last round allowed
        self.occupancy = zero  # expected rounds
        self.withdrew = self.to_reinforcements = self.elites_to_reinforcements = zero

    def __add__(self, other):
        both = copy(self)
        both.final = list(self.final)
        for pair in compress(count(), other.final):  # the few pairs where a battle can end
            both.final[pair] += other.final[pair]
        both.by_round = {name: [x + y for x, y in zip(column, other.by_round[name])]
                         for name, column in self.by_round.items()}
        both.present = [x + y for x, y in zip(self.present, other.present)]
        for name in ("stopped", "occupancy", "withdrew", "to_reinforcements", "elites_to_reinforcements"):
            setattr(both, name, getattr(self, name) + getattr(other, name))
        return both

    def end(self, pair, outcome, chance, t):
        """The battle ends at `pair` after round t this often."""
        self.final[pair] += chance
        column = self.by_round[outcome]
        if t < len(column):
            column[t] += chance

    def stop(self, pair, chance):
        """The round limit stops the battle at `pair`, both Armies standing, this often."""
        self.final[pair] += chance
        self.stopped += chance

    def count_rounds(self, first, last, present, shown):
        """The battle is on at the start of rounds first..last with these chances."""
        if first <= last:
            upto = min(last, shown + 1)
            column = self.present
            for t in range(first, upto + 1):
                column[t] += present[t]
            self.occupancy += sum(present[first:last + 1])

    def count_siege_round(self, t, chance, ended):
        """A siege round: the battle is on at the start of round t with this chance, and ends in it
        as `ended` says (chances in the order of _SIEGE_ENDS)."""
        self.occupancy += chance
        if t < len(self.present):
            self.present[t] += chance
        if t < len(self.by_round["neither_eliminated"]):
            for outcome, chance in zip(_SIEGE_ENDS, ended):
                self.by_round[outcome][t] += chance

    def count_ends(self, first, last, present, ends, by_outcome, shown):
        """The battle ends from here in rounds first..last: ends [(pair, chance)], by_outcome {outcome: chance}."""
        if first <= last:
            total = sum(present[first:last + 1])
            final = self.final
            for pair, chance in ends:
                final[pair] += chance * total
            upto = min(last, shown)
            if first <= upto:
                for outcome, chance in by_outcome.items():
                    column = self.by_round[outcome]
                    for t in range(first, upto + 1):
                        column[t] += chance * present[t]


class _Solver:
    """The field battle in one pass over its states in order of falling hit points, then each siege
    plan round by round.

    In the field a node is a pair (attacker state, defender state), numbered as one int.
    arrivals[pair][t] is the chance of coming to the pair from elsewhere at the start of round t;
    slot last + 1 is the tail (every round after `last`) when the battle is fought to the end. A
    pair is visited once, after every pair that leads to it: pairs wait in buckets by hit points,
    and every move goes to a later bucket but a quiet round (no hit on either side), which is
    closed in one step. A siege (of a Stronghold under siege, or after a withdrawal) all begins in
    one round and lasts at most 15 rounds, so it is fought forward round by round instead (see
    _fight_sieges): a siege node is (phase, pair), each siege plan fought round by round (see
    _fought_by_round) having a phase for each of its siege battles.

    What the pass finds goes to tallies: `before`, the field battle before the defender
    withdraws (all of it when it does not); `withdrawal`; by siege phase, `siege_tallies` (what happens
    in that siege battle) and `closing` (the siege ending after it, as a plan with no more
    siege battles ends); and, when standing and withdrawing are compared (plan.compare),
    `after`, the field battle from the round the defender would have withdrawn on, had it
    stood. The rounds before a withdrawal are the same battle either way, so they are fought
    once: withdrawing is before + withdrawal + the siege battles, standing before + after.
    The hold-out table's plans not fought round by round are fought afterwards, without the
    round (see _steady_siege).
    """

    def __init__(self, plan: _Plan):
        """What the pass reads for this plan: each Army's table of states and what each state
        rolls, loses and is worth; the rounds fought one by one (_horizon); the siege plans and
        their phases; the stretches of rounds with the same rolls (_segments). solve() does the
        pass and sets up the tallies it fills."""
        self.plan = plan
        attacker, defender = plan.attacker, plan.defender
        self.exact = plan.exact
        self.zero = Fraction(0) if plan.exact else 0.0
        self.one = Fraction(1) if plan.exact else 1.0
        self.negligible = 0 if plan.exact else FLOAT_NEGLIGIBLE
        self.att_side, self.def_side = _side(attacker), _side(defender)
        self.att_table, self.def_table = _side_table(*self.att_side), _side_table(*self.def_side)
        self.att_count, self.def_count = len(self.att_table.states), len(self.def_table.states)
        self.pairs = self.att_count * self.def_count
        self.att_units = [r + e for r, e in self.att_table.states]
        self.def_units = [r + e for r, e in self.def_table.states]
        self.att_dice = [min(units, MAX_DICE) for units in self.att_units]
        self.def_dice = [min(units, MAX_DICE) for units in self.def_units]
        self.att_hp = [hit_points(r, e) for r, e in self.att_table.states]
        self.def_hp = [hit_points(r, e) for r, e in self.def_table.states]
        self.att_gone = [units == 0 for units in self.att_units]
        self.def_gone = [units == 0 for units in self.def_units]
        self.top_hp = self.att_hp[0] + self.def_hp[0]  # every move keeps or lowers hit points
        ceases = plan.attacker_ceases_at
        self.ceases = -1 if ceases is None else ceases
        # only a field round can bring no hit and leave the battle as it was, and not once the
        # attacker is at the strength where it ceases (it stops after any round)
        self.can_be_quiet = [units > self.ceases for units in self.att_units]

        self._horizon()
        self.table = _table_plans(plan)
        self.sieges = self._fought_by_round()  # [(the attacker goes on, siege battles)], each its own phases
        self.battles = max((battles for _, battles in self.sieges), default=0)
        # the siege battle after which the plan asked for ends for want of another, when the plan
        # fought round by round goes on: the siege ending there (closing) is counted only for it
        self.closing_phases = {self._siege_phase(number, plan.siege_battles)
                               for number, (goes_on, battles) in enumerate(self.sieges)
                               if goes_on == plan.siege_continue and plan.siege_battles < battles}
        self.segments = self._segments()
        self.tail_regime = _regime(plan, "field", self.last + 1)
        self.rolls = {}
        self.defender_outcomes = {}  # regime -> _defender_outcomes(regime)
        self.going = {}  # phase -> _going(phase)
        self.gone_d = self.def_gone.index(True) if True in self.def_gone else -1  # the defender eliminated

    def _horizon(self):
        """The rounds fought one by one (1..last; when the battle is fought to the end, the rest at
        once as the tail), the rounds shown one by one, and the rounds of the withdrawal."""
        plan = self.plan
        steady_from = _roll_changes(plan)[-1]  # from this round on the rolls no longer change
        self.withdraws_at = None if plan.withdraw_after is None else plan.withdraw_after + 1
        if plan.rounds is not None:
            self.last = self.shown = plan.rounds
            self.tail = False
        else:
            self.last = max(PER_ROUND_SHOWN + 1, steady_from - 1, self.withdraws_at or 0)
            self.shown = PER_ROUND_SHOWN
            self.tail = True
        if self.withdraws_at is not None and self.withdraws_at > self.last:
            self.withdraws_at = None  # the round limit comes first
        # field rounds from `split` on count as standing after the withdrawal would have come
        self.split = self.withdraws_at if plan.compare and self.withdraws_at is not None else self.last + 2
        # the last field round fought: the round before the withdrawal, unless standing is counted too
        self.field_until = self.last if self.split <= self.last or self.withdraws_at is None else self.withdraws_at - 1

    def _fought_by_round(self):
        """The siege plans fought round by round: the one asked for, and the hold-out table's others
        unless nothing in the siege depends on the round (then they are fought without it)."""
        plan = self.plan
        asked = [(plan.siege_continue, plan.siege_battles)] if plan.terrain == "siege" or self.table else []
        if not self.table or self._siege_is_steady(self.withdraws_at or 1):
            return asked
        return self.table

    def _siege_is_steady(self, siege_from):
        """Whether nothing in the siege depends on the round: no round limit and the same rolls in every
        round it can last (every round of it ends a siege battle or costs the attacker an Elite)."""
        until = siege_from + MAX_SIEGE_BATTLES + self.plan.attacker.elites - 1
        if not self.tail and self.last < until:
            return False
        return len({_regime(self.plan, "siege", t) for t in range(siege_from, until + 1)}) == 1

    def _segments(self):
        """[(first round, last round, regime)] covering field rounds 1..last, equal rounds merged: the
        rolls stay the same from one round of _roll_changes to the next."""
        segments = []
        changes = [t for t in _roll_changes(self.plan) if t <= self.last]
        for t, upto in zip(changes, changes[1:] + [self.last + 1]):
            regime = _regime(self.plan, "field", t)
            if segments and segments[-1][2] == regime:
                segments[-1][1] = upto - 1
            else:
                segments.append([t, upto - 1, regime])
        return segments

    def _arrivals(self, pair):
        """The field pair's arrival slots, created (and put in its bucket) on first use."""
        arrivals = self.arrivals[pair] = [self.zero] * (self.last + 2)
        a, d = divmod(pair, self.def_count)
        self.buckets[self.top_hp - self.att_hp[a] - self.def_hp[d]].append(pair)
        return arrivals

    def _rolls(self, regime):
        """(attacker's losses, defender's losses, attacker's and defender's chance of no hit by dice)."""
        found = self.rolls.get(regime)
        if found is None:
            hit, att_on, def_on = regime
            att_setup = _setup(self.plan.attacker, hit, att_on)
            def_setup = _setup(self.plan.defender, NORMAL_HIT, def_on)
            found = self.rolls[regime] = (
                _losses(self.att_side, def_setup, self.exact), _losses(self.def_side, att_setup, self.exact),
                [_hit_chances(dice, *att_setup, self.exact)[0] for dice in range(MAX_DICE + 1)],
                [_hit_chances(dice, *def_setup, self.exact)[0] for dice in range(MAX_DICE + 1)])
        return found

    def _quiet(self, a, d, regime):
        """The chance a field round from (a, d) brings no hit on either side."""
        _, _, att_misses, def_misses = self._rolls(regime)
        return att_misses[self.att_dice[a]] * def_misses[self.def_dice[d]]

    def _fight(self, a, d, regime, feeding, stops=None):
        """A field round fought from (a, d) with these rolls, once for each round in `feeding`.

        feeding: [(slot the round leads to, chance of fighting it)]; each chance moves on to the
        pairs the round leads to, leaving out a quiet round (no hit on either side: back to the
        same pair, see _visit). stops: the chance of fighting a round `last` the round limit
        stops: where the battle would have gone on, it ends. Returns (ends, by_outcome): ends,
        [(pair, chance)] where the battle is over after the round; by_outcome, {outcome: chance}
        summing them.
        """
        att_losses, def_losses, _, _ = self._rolls(regime)
        going = self.going.get(0) or self._going(0)
        att_gone, def_gone, def_count, zero = self.att_gone, self.def_gone, self.def_count, self.zero
        all_arrivals = self.arrivals
        defender_rolls = def_losses[d][self.att_dice[a]]
        ends = []
        by_outcome = {}
        for a2, p in att_losses[a][self.def_dice[d]]:
            row = a2 * def_count
            going_on = going[a2]
            for d2, q in defender_rolls:
                chance = p * q
                if going_on is None or def_gone[d2]:
                    ends.append((row + d2, chance))
                    outcome = _OUTCOME_OF[att_gone[a2]][def_gone[d2]]
                    by_outcome[outcome] = by_outcome.get(outcome, zero) + chance
                elif a2 != a or d2 != d:
                    if feeding:
                        target = all_arrivals[row + d2] or self._arrivals(row + d2)
                        for slot, here in feeding:  # plain loops beat list comprehensions on short stretches
                            target[slot] += chance * here
                    if stops is not None:
                        self._stop(0, row + d2, chance * stops)
        return ends, by_outcome

    def _going(self, phase):
        """For each attacker state after a round in this phase, where the battle goes on: the first
        node of its row (add the defender's state), or None where the battle is over."""
        payment, pairs, def_count = self.att_table.payment, self.pairs, self.def_count
        goes_on, battle, battles = self._battle_of(phase) if phase else (False, 0, 0)
        going = []
        for a2, units in enumerate(self.att_units):
            if units == 0 or units <= self.ceases:
                going.append(None)  # the attacker is gone or ceases the attack
            elif phase == 0:
                going.append(a2 * def_count)
            elif goes_on and payment[a2] >= 0:  # it pays an Elite to fight on
                going.append(phase * pairs + payment[a2] * def_count)
            elif battle < battles:  # the next siege battle
                going.append((phase + 1) * pairs + a2 * def_count)
            else:
                going.append(None)  # the last siege battle ends after this round
        self.going[phase] = going
        return going

    def _battle_of(self, phase):
        """(the attacker goes on, siege battle from 1, siege battles) of a siege phase."""
        number, battle = divmod(phase - 1, self.battles)
        goes_on, battles = self.sieges[number]
        return goes_on, battle + 1, battles

    def _siege_phase(self, number, battle):
        """The phase of siege battle `battle` (from 1) of the siege plan numbered `number` (in self.sieges)."""
        return 1 + number * self.battles + battle - 1

    def _stop(self, phase, pair, chance):
        """The round limit stops the battle at `pair` in this phase's tally, both Armies standing."""
        tally = self.siege_tallies[phase] if phase else self._field_tally(self.last)
        tally.final[pair] += chance
        tally.stopped += chance

    # ------------------------------------------------------------------ the pass

    def solve(self):
        """The pass: the field battle from its first pair, pair by pair in order of falling hit
        points, then each siege round by round, then the hold-out table's other siege plans.
        Returns the solver, its tallies filled."""
        plan = self.plan
        phases = 1 + len(self.sieges) * self.battles
        self.arrivals = [None] * self.pairs
        self.buckets = [[] for _ in range(self.top_hp + 1)]
        self.before, self.after, self.withdrawal = (_Tally(self.zero, self.pairs, self.shown) for _ in range(3))
        # by phase (0 unused): what happens in each siege battle, and the siege ending after it
        self.siege_tallies = [_Tally(self.zero, self.pairs, self.shown) for _ in range(phases)]
        self.closing = [_Tally(self.zero, self.pairs, self.shown) for _ in range(phases)]
        self.entering = {}  # pair -> the chance the siege begins there (the defender withdraws into its Stronghold)
        if self.withdraws_at == 1 and not plan.compare:
            self._withdraw(0, 0, 1, self.one)
        elif plan.terrain == "siege":
            self.entering[0] = self.one
        elif not self._open_field():
            self._arrivals(0)[1] = self.one
        for bucket in self.buckets:  # a visit only adds to later buckets
            for pair in bucket:
                self._visit(pair)
        self._fight_sieges()
        self.falls = {goes_on: self._steady_siege(goes_on) for goes_on, _ in self.table}
        return self

    def _withdraw(self, a, d, t, mass):
        """The defender pulls back into its Stronghold at the start of round t (always withdraws_at):
        a siege begins."""
        inside = self.def_table.garrison[d]
        (r, e), (r_in, e_in) = self.def_table.states[d], self.def_table.states[inside]
        tally = self.withdrawal
        tally.withdrew += mass
        tally.to_reinforcements += mass * (r + e - r_in - e_in)
        tally.elites_to_reinforcements += mass * (e - e_in)
        self.entering[a * self.def_count + inside] = self.entering.get(a * self.def_count + inside, self.zero) + mass

    def _field_tally(self, t):
        return self.before if t < self.split else self.after

    def as_planned(self):
        """The tally of the battle as the plan fights it (standing, when compared, is before + after)."""
        if not self.sieges:
            return self.before
        return self.withdrawing(self.plan.siege_battles, self.plan.siege_continue)

    def withdrawing(self, battles, goes_on):
        """The tally of the battle with this siege after the withdrawal (or in the Stronghold under
        siege): `battles` siege battles, the attacker going on or not."""
        number = next(number for number, (on, _) in enumerate(self.sieges) if on == goes_on)
        tally = self.before + self.withdrawal
        for battle in range(1, battles + 1):
            tally += self.siege_tallies[self._siege_phase(number, battle)]
        if battles < self.sieges[number][1]:  # the siege ends where the next battle would begin
            tally += self.closing[self._siege_phase(number, battles)]
        return tally

    def hold_out(self):
        """The chance the defender holds out with each plan of the attacker's for the Stronghold:
        ((siege battles, the attacker goes on, chance), ...), 1 to 5 siege battles, not going on
        and going on."""
        rows = []
        for goes_on, battles in self.table:
            lost = self._destroyed(self.before)
            for battle, falls in enumerate(self._falls_by_battle(goes_on), start=1):
                lost += falls
                rows.append((battle, goes_on, self.one - lost))
        return tuple(sorted(rows))

    def _destroyed(self, tally):
        """The chance the defender is destroyed in what a tally counts."""
        final = tally.final
        return sum((final[pair] for pair in compress(count(), final) if self.def_gone[pair % self.def_count]),
                   self.zero)

    def _falls_by_battle(self, goes_on):
        """The chance the defender falls in each siege battle of the table's plan, going on or not:
        the battles fought round by round, then those fought without the round."""
        number = next((number for number, (on, _) in enumerate(self.sieges) if on == goes_on), None)
        by_round = [] if number is None else [self._destroyed(self.siege_tallies[self._siege_phase(number, battle)])
                                              for battle in range(1, self.sieges[number][1] + 1)]
        return by_round + self.falls[goes_on]

    def _tallies(self, first, last):
        """[(tally, first, last)]: field rounds first..last, split between `before` and `after`."""
        split = self.split
        return (self.before, first, min(last, split - 1)), (self.after, max(first, split), last)

    def _open_field(self):
        """The opening of a field battle: every round until either Army's Combat dice change.

        While the attacker keeps rolling the dice it started with (and has not ceased) and so
        does the defender, each Army's losses depend on its own state and the other's fixed
        dice only, so the two Armies' states are independent: their chance together is the
        product of each Army's own. Those rounds are fought on each Army alone, and each pair
        of states that leaves the opening gets the product of the two Armies' chances, round
        by round. Returns False when there is no opening (an attacker that ceases at once).
        """
        att_dice, def_dice = self.att_dice[0], self.def_dice[0]
        att_inside = [dice == att_dice and units > self.ceases for dice, units in zip(self.att_dice, self.att_units)]
        def_inside = [dice == def_dice for dice in self.def_dice]
        if not att_inside[0]:
            return False
        att_flow, def_flow = {}, {}  # state -> (first round, [chance of coming to it in round t])
        fought, att_mass, def_mass = self._fight_opening(att_inside, def_inside, att_flow, def_flow)
        stops = not self.tail and fought == self.last  # the round limit stops what is still on after round `last`
        for a2, att_column in att_flow.items():
            for d2, def_column in def_flow.items():
                if not (att_inside[a2] and def_inside[d2]):
                    self._leave_opening(a2, d2, att_column, def_column, fought, stops)
        if fought == self.field_until:  # still in the opening after its last round (not dropped)
            self._after_opening(att_mass, def_mass, fought + 1, stops)
        return True

    def _fight_opening(self, att_inside, def_inside, att_flow, def_flow):
        """The opening's rounds, each Army alone, until neither is left in it (or, in floating point,
        too little to count) or the last field round. Returns (rounds fought, the attacker's and the
        defender's chances of still being in the opening after them)."""
        zero, negligible = self.zero, self.negligible
        regimes = [None] + [regime for t0, t1, regime in self.segments for _ in range(t0, t1 + 1)]
        att_mass, def_mass = {0: self.one}, {0: self.one}
        inside = [zero] * (self.last + 2)  # the chance both Armies are still in the opening at the start of round t
        t = 1
        while t <= self.field_until:
            inside[t] = sum(att_mass.values(), zero) * sum(def_mass.values(), zero)
            if inside[t] <= negligible:
                inside[t] = zero
                att_mass = def_mass = {}  # dropped: negligible in floating point
                break
            if t == self.withdraws_at:  # standing compared with withdrawing: these pairs withdraw too
                self._after_opening(att_mass, def_mass, t, False)
            att_losses, def_losses, _, _ = self._rolls(regimes[t])
            att_mass = self._one_side(att_mass, att_losses, self.def_dice[0], att_inside, att_flow, t)
            def_mass = self._one_side(def_mass, def_losses, self.att_dice[0], def_inside, def_flow, t)
            t += 1
        for tally, first, until in self._tallies(1, t - 1):
            tally.count_rounds(first, until, inside, self.shown)
        return t - 1, att_mass, def_mass

    def _one_side(self, mass, losses, opposing_dice, inside, flow, t):
        """One Army's chances after round t, inside the opening; flow[state] records every state it came to."""
        zero = self.zero
        after = {}
        for state, chance in mass.items():
            for state2, p in losses[state][opposing_dice]:
                moved = chance * p
                found = flow.get(state2)
                if found is None:
                    found = flow[state2] = (t, [zero] * (self.last + 2))
                found[1][t] += moved
                if inside[state2]:
                    after[state2] = after.get(state2, zero) + moved
        return after

    def _leave_opening(self, a2, d2, att_flow, def_flow, fought, stops):
        """The pair (a2, d2), which rounds of the opening lead out of it: the battle ends there or goes
        on in the pass, each round's chance the product of the two Armies' own."""
        (att_first, att_column), (def_first, def_column) = att_flow, def_flow
        first = max(att_first, def_first)
        pair = a2 * self.def_count + d2
        attacker_gone, defender_gone = self.att_units[a2] == 0, self.def_units[d2] == 0
        if attacker_gone or defender_gone or self.att_units[a2] <= self.ceases:
            chances = [self.zero] * first + [x * y for x, y in zip(att_column[first:fought + 1],
                                                                  def_column[first:fought + 1])]
            by_outcome = {_OUTCOME_OF[attacker_gone][defender_gone]: self.one}
            for tally, start, until in self._tallies(first, fought):
                tally.count_ends(start, until, chances, [(pair, self.one)], by_outcome, self.shown)
            return
        feeds_until = fought - 1 if stops else fought
        if first <= feeds_until:
            target = self.arrivals[pair] or self._arrivals(pair)
            for t in range(first, feeds_until + 1):
                target[t + 1] += att_column[t] * def_column[t]
        if stops:
            self._stop(0, pair, att_column[self.last] * def_column[self.last])

    def _after_opening(self, att_mass, def_mass, t, stops):
        """The pairs still in the opening at the start of round t: they withdraw into the Stronghold,
        are stopped by the round limit, or fight on in the pass."""
        for a, att_chance in att_mass.items():
            for d, def_chance in def_mass.items():
                pair, chance = a * self.def_count + d, att_chance * def_chance
                if t == self.withdraws_at:
                    self._withdraw(a, d, t, chance)
                elif stops:
                    self._stop(0, pair, chance)
                else:
                    (self.arrivals[pair] or self._arrivals(pair))[t] += chance

    def _visit(self, pair):
        """Fight every round the field battle can be at this pair in, and send each chance on."""
        arrivals = self.arrivals[pair]
        self.arrivals[pair] = None
        start = next(compress(count(), arrivals), None)  # the first round anything arrives
        if start is None:
            return
        a, d = divmod(pair, self.def_count)
        fights_until = self.field_until
        stretches = [(max(t0, start), min(t1, fights_until), regime) for t0, t1, regime in self.segments
                     if t1 >= start and t0 <= fights_until]
        present = arrivals  # turned into the chance of being here at the start of each round, in place
        end, carried = self._present(a, d, present, start, stretches, fights_until)
        for tally, first, until in self._tallies(start, end):
            tally.count_rounds(first, until, present, self.shown)
        tail = self._tail_here(a, d, arrivals[self.last + 1] + carried, fights_until)
        for t0, t1, regime in stretches:
            if t0 > min(t1, end):
                break
            tail = self._fight_stretch(a, d, t0, min(t1, end), regime, present, carried, tail)
        if tail is not None:
            regime, rounds_here = tail
            ends, _ = self._fight(a, d, regime, [(self.last + 1, rounds_here)])
            self._count_tail(ends, rounds_here)
        if self.withdraws_at is not None and start <= self.withdraws_at:
            self._withdraw_from(a, d, present, end, carried, fights_until)

    def _present(self, a, d, present, start, stretches, fights_until):
        """Turn the pair's arrivals into the chance of being here at the start of each round, in place:
        a round with no hit on either side leaves the battle here (arrivals[t] is read before
        present[t] is written), worked out only as far as the chance is not negligible.
        Returns (end, carried): the last round with a chance worth fighting, and what quiet rounds
        carry on past `fights_until` (0 unless the chance is still worth fighting there)."""
        zero, negligible = self.zero, self.negligible
        arrived_until = len(present) - 1 - next(compress(count(), reversed(present)))
        carried = zero
        reached = min(arrived_until, fights_until)
        if self.can_be_quiet[a]:
            for t0, t1, regime in stretches:
                if t0 > arrived_until and carried <= negligible:
                    break
                quiet = self._quiet(a, d, regime)
                until = min(t1, arrived_until)
                for t in range(t0, until + 1):
                    carried = present[t] = present[t] + carried
                    carried *= quiet
                t = max(t0, until + 1)
                while t <= t1 and carried > negligible:
                    present[t] = carried
                    carried *= quiet
                    t += 1
                reached = max(reached, t - 1)
        end = reached
        while end >= start and present[end] <= negligible:  # exact zeros, or negligible floats
            end -= 1
        return end, (carried if end >= fights_until else zero)

    def _tail_here(self, a, d, coming, fights_until):
        """Every round after `last` at once, when the battle is fought to the end: the rolls no longer
        change, so the quiet rounds are geometric. Returns (regime, expected rounds here) or None;
        coming: the chance of coming to the tail here."""
        if not (self.tail and fights_until == self.last and coming):
            return None
        regime = self.tail_regime
        if self.can_be_quiet[a]:
            coming /= 1 - self._quiet(a, d, regime)
        return regime, coming

    def _fight_stretch(self, a, d, t0, t1, regime, present, carried, tail):
        """Rounds t0..t1, fought with the same rolls, and the tail if it is fought with them too.
        Returns the tail still to fight (None once fought)."""
        last = self.last
        # with a round limit, round `last` leads to no further round
        feeds_until = t1 if self.tail or t1 < last else last - 1
        feeding = [(t + 1, here) for t, here in zip(range(t0, feeds_until + 1), present[t0:feeds_until + 1]) if here]
        with_tail = tail is not None and t1 == last and regime == tail[0]
        if with_tail:  # the same round goes on in the tail
            feeding.append((last + 1, tail[1]))
        stops = present[last] if not self.tail and t1 == last else None  # the round limit stops what goes on
        ends, by_outcome = self._fight(a, d, regime, feeding, stops)
        if ends:
            for tally, first, until in self._tallies(t0, t1):
                tally.count_ends(first, until, present, ends, by_outcome, self.shown)
        if stops is not None and carried:  # a quiet last round: stopped where it is
            self._stop(0, a * self.def_count + d, carried)
        if with_tail:
            self._count_tail(ends, tail[1])
            return None
        return tail

    def _withdraw_from(self, a, d, present, end, carried, fights_until):
        """The chance the battle is at (a, d) when the defender withdraws goes into the Stronghold."""
        withdraws_at = self.withdraws_at
        if withdraws_at <= fights_until:  # standing compared: this chance withdraws too
            leaving = present[withdraws_at] if withdraws_at <= end else self.zero
        else:
            leaving = present[withdraws_at] + carried
        if leaving:
            self._withdraw(a, d, withdraws_at, leaving)

    def _count_tail(self, ends, rounds_here):
        """The tail's rounds here, and where they end."""
        tally = self._field_tally(self.last + 1)
        tally.occupancy += rounds_here
        for pair, chance in ends:
            tally.final[pair] += chance * rounds_here

    # ------------------------------------------------------------------ the siege, round by round

    def _fight_sieges(self):
        """Each siege plan fought round by round (see _fought_by_round), forward from the round the
        siege begins: all of it begins in that one round (the withdrawal's, or the first of a battle
        at a Stronghold already under siege), and it lasts at most 15 rounds, each round ending a
        siege battle or costing the attacker an Elite. So the chances still in the siege are carried
        from one round to the next, by row: {phase * pairs + attacker state * def_count: [chance by
        defender state]}. Rounds after `last` are fought the same way (the rolls no longer change)
        unless the round limit stops them."""
        begins = 1 if self.plan.terrain == "siege" else self.withdraws_at
        self.siege_going = [None] + [self._going(phase) for phase in range(1, len(self.siege_tallies))]
        dc = self.def_count
        for number in range(len(self.sieges)):
            first = self._siege_phase(number, 1) * self.pairs
            rows = {}
            for pair, chance in self.entering.items():
                row = rows.setdefault(first + pair - pair % dc, [self.zero] * dc)
                row[pair % dc] += chance
            t = begins
            while rows:
                rows = self._siege_round(rows, t)
                t += 1

    def _siege_round(self, rows, t):
        """Round t of the siege from rows of chances at its start (see _fight_sieges): what ends in it
        goes to its siege battle's tally; returns the rows at the start of round t + 1. With a round
        limit, what would go on after round `last` is stopped, in this siege battle's tally or the
        next one's where it would have begun. Where the plan asked for has no more siege battles
        after this one (closing_phases), the next battle's beginning ends it (closing)."""
        regime = _regime(self.plan, "siege", t)
        att_losses = self._rolls(regime)[0]
        standing, falling, standing_sum = self._defender_outcomes(regime)
        pairs, dc, zero, negligible, gone_d = self.pairs, self.def_count, self.zero, self.negligible, self.gone_d
        def_dice, att_gone = self.def_dice, self.att_gone
        stops = not self.tail and t == self.last
        goings, finals = self.siege_going, [tally.final for tally in self.siege_tallies]
        here = [zero] * len(finals)  # by phase: the chance the battle is there at the start of round t
        ended = [zero] * (4 * len(finals))  # by phase and _SIEGE_ENDS: what ends in round t
        coming = {}
        for node, column in rows.items():
            phase, a = divmod(node, pairs)
            a //= dc
            going, final, base, alpha = goings[phase], finals[phase], 4 * phase, self.att_dice[a]
            special = stops or phase in self.closing_phases
            for d in compress(count(), column):
                chance = column[d]
                if chance <= negligible:  # negligible floats
                    continue
                here[phase] += chance
                stand, fall = standing[d][alpha], falling[d][alpha]
                for a2, p in att_losses[a][def_dice[d]]:
                    moved, row = chance * p, a2 * dc
                    if fall:  # the defender is eliminated: the siege is over
                        final[row + gone_d] += moved * fall
                        ended[base + att_gone[a2]] += moved * fall
                    target = going[a2]
                    if target is None:  # the attacker is gone or ceases, or the last siege battle is over
                        for d2, q in stand:
                            final[row + d2] += moved * q
                        # _SIEGE_ENDS from 2: the siege over with the defender standing
                        ended[base + 2 + att_gone[a2]] += moved * standing_sum[d][alpha]
                    elif special:
                        self._siege_moves(phase, row, target, moved, stand, t, stops, coming)
                    else:
                        goes_on = coming.get(target) or coming.setdefault(target, [zero] * dc)
                        for d2, q in stand:
                            goes_on[d2] += moved * q
        for phase, chance in enumerate(here):
            if chance:
                self.siege_tallies[phase].count_siege_round(t, chance, ended[4 * phase:4 * phase + 4])
        return coming

    def _siege_moves(self, phase, row, target, moved, stand, t, stops, coming):
        """The moves of _siege_round that go on, where the next siege battle's beginning ends a plan
        with no more battles (closing) or the round limit stops the battle where it stands (in the
        tally of the siege battle it would have been in). row: the attacker's state after the round;
        target: the node row it goes on in."""
        next_battle = target >= (phase + 1) * self.pairs
        closing = self.closing[phase] if next_battle and phase in self.closing_phases else None
        for d2, q in stand:
            if closing is not None:
                closing.end(row + d2, "neither_eliminated", moved * q, t)
            if stops:
                self._stop(phase + next_battle, row + d2, moved * q)
            else:
                goes_on = coming.get(target) or coming.setdefault(target, [self.zero] * self.def_count)
                goes_on[d2] += moved * q

    def _defender_outcomes(self, regime):
        """(standing, falling, standing_sum), each [defender state][attacker's dice]: where a round
        with these rolls leaves the defender still standing, [(state, chance)]; the chance it is
        eliminated; and the chance it still stands."""
        found = self.defender_outcomes.get(regime)
        if found is None:
            def_losses, def_gone, zero = self._rolls(regime)[1], self.def_gone, self.zero
            standing = [[tuple((d2, q) for d2, q in by_dice if not def_gone[d2]) for by_dice in row]
                        for row in def_losses]
            falling = [[sum((q for d2, q in by_dice if def_gone[d2]), zero) for by_dice in row] for row in def_losses]
            standing_sum = [[sum((q for _, q in outcomes), zero) for outcomes in row] for row in standing]
            found = self.defender_outcomes[regime] = standing, falling, standing_sum
        return found

    # ------------------------------------------------------------------ the hold-out table's other plans

    def _steady_siege(self, goes_on):
        """The chance the defender falls in each siege battle of the table's plan (going on or not)
        after those fought round by round, when nothing in the siege depends on the round (see
        _fought_by_round). With no round to keep, each pair is fought once, carrying the chance
        of ever being there, in order of the attacker's falling hit points: a round of a siege
        battle ends it or costs the attacker an Elite, so it never comes back to a pair."""
        number = next((number for number, (on, _) in enumerate(self.sieges) if on == goes_on), None)
        fought = 0 if number is None else self.sieges[number][1]
        if fought == MAX_SIEGE_BATTLES or not self.entering:
            return [self.zero] * (MAX_SIEGE_BATTLES - fought)
        pairs = self.entering if number is None else self._going_on_after(number, fought)
        regime, routes = _regime(self.plan, "siege", self.withdraws_at or 1), self._siege_routes(goes_on)
        falls = []
        for battle in range(fought, MAX_SIEGE_BATTLES):
            fallen, pairs = self._steady_battle(pairs, regime, routes, battle + 1 < MAX_SIEGE_BATTLES)
            falls.append(fallen)
        return falls

    def _going_on_after(self, number, battle):
        """{pair: chance} where the siege plan fought round by round ends for want of another siege
        battle after `battle`: both Armies standing and the attacker not ceasing."""
        final = self.siege_tallies[self._siege_phase(number, battle)].final
        return {pair: final[pair] for pair in compress(count(), final)
                if not self.def_gone[pair % self.def_count] and self.att_units[pair // self.def_count] > self.ceases}

    def _siege_routes(self, goes_on):
        """Where a siege battle goes after a round, by attacker state: None where the attacker is gone
        or ceases, the state it pays an Elite to fight on in, or -1 for the next siege battle."""
        payment = self.att_table.payment
        return [None if units == 0 or units <= self.ceases else (payment[a2] if goes_on else -1)
                for a2, units in enumerate(self.att_units)]

    def _steady_battle(self, pairs, regime, routes, more):
        """One siege battle from `pairs` {pair: chance of beginning there}, with no round to keep:
        (the chance the defender falls in it, {pair: chance the next battle begins there}).
        routes: where the battle goes after a round, by attacker state (see _siege_routes); more:
        whether another siege battle follows."""
        zero, dc, att_dice, def_dice, att_hp, def_gone = \
            self.zero, self.def_count, self.att_dice, self.def_dice, self.att_hp, self.def_gone
        att_losses, def_losses, _, _ = self._rolls(regime)
        buckets = [{} for _ in range(att_hp[0] + 1)]  # by the attacker's hit points
        for pair, chance in pairs.items():
            buckets[att_hp[pair // dc]][pair] = chance
        falls, moving = zero, {}
        for bucket in reversed(buckets):  # fought highest first
            for pair, chance in bucket.items():
                a, d = divmod(pair, dc)
                defender_rolls = def_losses[d][att_dice[a]]
                for a2, p in att_losses[a][def_dice[d]]:
                    route, moved = routes[a2], chance * p
                    if route is None or (route < 0 and not more):  # over: only the defender's fall counts
                        falls += sum((moved * q for d2, q in defender_rolls if def_gone[d2]), zero)
                        continue
                    # the next battle, or the attacker pays an Elite: fewer hit points, a later bucket
                    target, base = (moving, a2 * dc) if route < 0 else (buckets[att_hp[route]], route * dc)
                    for d2, q in defender_rolls:
                        if def_gone[d2]:
                            falls += moved * q
                        else:
                            target[base + d2] = target.get(base + d2, zero) + moved * q
        return falls, moving


_OUTCOME_OF = (("neither_eliminated", "defender_eliminated"), ("attacker_eliminated", "both_eliminated"))
# how a siege round can end, by (the defender eliminated or the siege over with it standing) and the attacker gone
_SIEGE_ENDS = ("defender_eliminated", "both_eliminated", "neither_eliminated", "attacker_eliminated")


def _outcome(attacker_gone, defender_gone):
    return _OUTCOME_OF[attacker_gone][defender_gone]


def _numbers(solver, tally, hold_out=None):
    """A solved battle's numbers, as immutable tuples (kept in a bounded cache)."""
    att_states, def_states = solver.att_table.states, solver.def_table.states
    final = tuple((att_states[pair // solver.def_count], def_states[pair % solver.def_count], tally.final[pair])
                  for pair in compress(count(), tally.final))
    rows = []
    totals = {name: solver.zero for name in OUTCOMES}
    for t in range(1, solver.shown + 1):
        for name in OUTCOMES:
            totals[name] += tally.by_round[name][t]
        still = tally.stopped if (not solver.tail and t == solver.last) else tally.present[t + 1]
        rows.append((t + solver.plan.start_round - 1, *(totals[name] for name in OUTCOMES), still))
        if not still:
            break
    return (final, tuple(rows), tally.occupancy, tally.withdrew, tally.to_reinforcements,
            tally.elites_to_reinforcements, hold_out)


@lru_cache(maxsize=128)
def _solved(plan: _Plan) -> dict:
    """The place for one battle's numbers ({"numbers": ...} once solved), kept for the 128 battles
    asked for last. A dict rather than the numbers themselves, so that comparing standing and
    withdrawing can keep the standing battle it solves on the way."""
    return {}


def _solve(plan: _Plan):
    """The battle's numbers (see _numbers), from the cache or solved."""
    place = _solved(plan)
    if "numbers" not in place:
        solver = _Solver(plan).solve()
        place["numbers"] = _numbers(solver, solver.as_planned(), _hold_out(solver))
    return place["numbers"]


def _hold_out(solver):
    """The hold-out table of a battle with a withdrawal, else None."""
    return solver.hold_out() if solver.plan.withdraw_after is not None else None


def _solve_both(withdrawing: _Plan, standing: _Plan):
    """(withdrawing's numbers, standing's numbers), in one pass unless one is already known."""
    withdraw_place, stand_place = _solved(withdrawing), _solved(standing)
    if "numbers" in stand_place or "numbers" in withdraw_place:
        return _solve(withdrawing), _solve(standing)
    solver = _Solver(replace(withdrawing, compare=True)).solve()
    withdraw_place["numbers"] = _numbers(solver, solver.as_planned(), _hold_out(solver))
    stand_place["numbers"] = _numbers(solver, solver.before + solver.after)
    return withdraw_place["numbers"], stand_place["numbers"]


# --------------------------------------------------------------------------- the battle


def battle(attacker: Army, defender: Army, terrain: str = "field", rounds: int | None = None,
           attacker_ceases_at: int | None = None, siege_continue: bool = True,
           withdraw_after: int | None = None, siege_battles: int = 1, exact: bool = False,
           start_round: int = 1) -> dict:
    """The outcome of a War of the Ring battle between two Armies (see the module docstring).

    terrain: "field", "city", "fortification" or "siege".
    start_round: the round the battle is in (1..100), for a battle in progress: the Armies as
        they stand at its start. A City's or Fortification's first-round rule applies only
        when it is 1, and modifier_rounds count the battle's own rounds, so a battle from
        round 2 in a City is fought as the same Armies in the field from round 2. `rounds`
        and `withdraw_after` count the rounds fought from here; per_round numbers them as
        the battle does (start_round, start_round + 1, ...).
    rounds: fight at most this many rounds (1..100), counted on through any siege battles;
        None fights until the battle (and any siege after it) ends.
    attacker_ceases_at: the attacker ceases after any round that leaves its Combat
        Strength at or below this number (0..10); None never ceases.
    siege_continue: in a siege, the attacker pays one elite (downgraded to a regular) for
        each further round while it has one; False ends each siege battle after one round.
    withdraw_after: with terrain "field" in a region with the defender's own Stronghold:
        the defender fights this many rounds (0..99) in the field and then, if the battle is
        still on, retreats into the Stronghold at the start of the next round (summary). The
        retreat ends the field battle; the attacker moves in with its whole Army and the
        Stronghold is besieged (summary); at most 5 Army units fit inside, Elites kept first
        and the rest sent back to the reinforcements, and the siege is a new battle
        (rulebook). None: the defender never withdraws.
    siege_battles: how many siege battles the attacker fights in a row (1..5), with terrain
        "siege" or after a withdrawal; each lasts one round plus one per Elite it pays.
    exact: True works in fractions.Fraction (slower); False in floating point.

    Returns a dict of probabilities (Fractions when exact, else floats):
      outcomes: {defender_eliminated, attacker_eliminated, both_eliminated,
          neither_eliminated}, exclusive and summing to 1 (neither = both Armies still
          stand at the end: the attacker ceased, a siege ended or the round limit came);
      headline: {defender_holds (the defender still has Army units, in the field or in its
          Stronghold), defender_destroyed, attacker_destroyed}, the same keys for every
          setup, so plans can be compared;
      withdrew: the chance the defender retreated into its Stronghold (0 without withdraw_after);
      attacker_survivors / defender_survivors: list indexed by units left, 0..initial;
      attacker_survivors_detail / defender_survivors_detail: [{regulars, elites, probability}];
      expected_attacker_casualties / expected_defender_casualties: units lost (a
          downgraded elite loses no unit, a unit sent back to the reinforcements from a
          full Stronghold is not lost); expected_attacker_elites_lost /
          expected_defender_elites_lost: elites removed or downgraded;
      expected_defender_to_reinforcements: units that did not fit in the Stronghold;
      per_round: [{round, defender_eliminated, attacker_eliminated, both_eliminated,
          neither_eliminated, still_fighting}] cumulative after each round, where
          still_fighting is the chance the battle goes on to another round (after the
          last round allowed by `rounds`, that is the part stopped by the limit); the list
          stops early once still_fighting is 0; with rounds=None it shows at most the first
          20 rounds, then one entry with round None holding the final values;
      expected_rounds; sources: [{rule, source}] for the rules this battle used, source
          "summary" or "rulebook"; steps: plain sentences (the working).
    """
    plan = _plan(attacker, defender, terrain, rounds, attacker_ceases_at, siege_continue, withdraw_after,
                 siege_battles, exact, start_round)
    return _result(plan, _solve(plan))


def _plan(attacker, defender, terrain, rounds, attacker_ceases_at, siege_continue, withdraw_after, siege_battles,
          exact, start_round):
    """The checked inputs of battle(), as the chain's cache key."""
    check_armies(attacker, defender)
    require_choice("terrain", terrain, TERRAINS)
    require_int("start_round", start_round, 1, MAX_ROUNDS)
    if rounds is not None:
        require_int("rounds", rounds, 1, MAX_ROUNDS)
    if attacker_ceases_at is not None:
        require_int("attacker_ceases_at", attacker_ceases_at, 0, MAX_UNITS)
    require_bool("siege_continue", siege_continue)
    if withdraw_after is not None:
        require_int("withdraw_after", withdraw_after, 0, MAX_ROUNDS - 1)
        if terrain != "field":
            raise InputError("withdraw_after", "only a defender in the field (terrain field) can retreat into "
                                               "its Stronghold")
    require_int("siege_battles", siege_battles, 1, MAX_SIEGE_BATTLES)
    if siege_battles > 1 and terrain != "siege" and withdraw_after is None:
        raise InputError("siege_battles", "more than 1 only for a siege: terrain siege, or a withdrawal "
                                          "into the Stronghold")
    require_bool("exact", exact)
    if terrain == "siege" and defender.units > MAX_SIEGE_DEFENDERS:
        raise InputError("defender_regulars", f"at most {MAX_SIEGE_DEFENDERS} (regulars + elites) "
                                              f"can defend a Stronghold under siege")

    return _Plan(attacker, defender, terrain, rounds, attacker_ceases_at, siege_continue, withdraw_after,
                 siege_battles, exact, start_round=start_round)


def _result(plan, numbers):
    """battle()'s result from the chain's numbers (see _numbers)."""
    final, rows, expected_rounds, withdrew, to_reinforcements, elites_to_reinforcements, hold_out = numbers
    attacker, defender = plan.attacker, plan.defender
    zero = Fraction(0) if plan.exact else 0.0

    outcomes = {name: zero for name in OUTCOMES}
    attacker_detail = defaultdict(lambda: zero)
    defender_detail = defaultdict(lambda: zero)
    for att_state, def_state, probability in final:
        outcomes[_outcome(sum(att_state) == 0, sum(def_state) == 0)] += probability
        attacker_detail[att_state] += probability
        defender_detail[def_state] += probability

    per_round = [{"round": t, **dict(zip(OUTCOMES, values)), "still_fighting": still}
                 for t, *values, still in rows]
    if plan.rounds is None:
        per_round.append({"round": None, **outcomes, "still_fighting": zero})

    defender_destroyed = outcomes["defender_eliminated"] + outcomes["both_eliminated"]
    result = {
        "outcomes": outcomes,
        "headline": {
            "defender_holds": outcomes["attacker_eliminated"] + outcomes["neither_eliminated"],
            "defender_destroyed": defender_destroyed,
            "attacker_destroyed": outcomes["attacker_eliminated"] + outcomes["both_eliminated"],
        },
        "start_round": plan.start_round,
        "withdrew": withdrew,
        "attacker_survivors": _by_units(attacker_detail, attacker.units, zero),
        "defender_survivors": _by_units(defender_detail, defender.units, zero),
        "attacker_survivors_detail": _detail_rows(attacker_detail),
        "defender_survivors_detail": _detail_rows(defender_detail),
        "expected_attacker_casualties": _expected_loss(attacker_detail, attacker.units, sum, zero),
        "expected_attacker_elites_lost": _expected_loss(attacker_detail, attacker.elites, lambda s: s[1], zero),
        "expected_defender_casualties":
            _expected_loss(defender_detail, defender.units, sum, zero) - to_reinforcements,
        "expected_defender_elites_lost":
            _expected_loss(defender_detail, defender.elites, lambda s: s[1], zero) - elites_to_reinforcements,
        "expected_defender_to_reinforcements": to_reinforcements,
        "per_round": per_round,
        "expected_rounds": expected_rounds,
        "hold_out_by_siege_battles": None if hold_out is None else [
            {"siege_battles": battles, "siege_continue": goes_on, "defender_holds": chance}
            for battles, goes_on, chance in hold_out],
    }
    result["sources"] = _sources(plan)
    result["steps"] = _explain(plan, result)
    return result


def stand_or_withdraw(attacker: Army, defender: Army, withdraw_after: int = 0, siege_battles: int = 1,
                      rounds: int | None = None, attacker_ceases_at: int | None = None,
                      siege_continue: bool = True, exact: bool = False, start_round: int = 1) -> dict:
    """"Stand or withdraw?" for a defender in a region with its own Stronghold.

    Fights the same battle two ways: standing in the field to the end (terrain "field"),
    and withdrawing into the Stronghold after `withdraw_after` rounds, followed by
    `siege_battles` siege battles (see battle()); the rounds before the withdrawal are
    solved once for both, and a battle already solved (standing, say, asked for before)
    comes from the cache. Returns {"stand": result, "withdraw": result, "difference":
    {headline key: withdraw minus stand}}, each result as battle() gives it.
    """
    withdrawing = _plan(attacker, defender, "field", rounds, attacker_ceases_at, siege_continue, withdraw_after,
                        siege_battles, exact, start_round)
    standing = replace(withdrawing, withdraw_after=None, siege_battles=1)
    withdraw_numbers, stand_numbers = _solve_both(withdrawing, standing)
    stand, withdraw = _result(standing, stand_numbers), _result(withdrawing, withdraw_numbers)
    return {"stand": stand, "withdraw": withdraw,
            "difference": {key: withdraw["headline"][key] - stand["headline"][key] for key in HEADLINE}}


def _by_units(detail, initial_units, zero):
    survivors = [zero] * (initial_units + 1)
    for (regulars, elites), probability in detail.items():
        survivors[regulars + elites] += probability
    return survivors


def _detail_rows(detail):
    ordered = sorted(detail.items(), key=lambda item: (-(item[0][0] + item[0][1]), -item[0][1]))
    return [{"regulars": r, "elites": e, "probability": p} for (r, e), p in ordered if p]


def _expected_loss(detail, initial, count, zero):
    return sum((probability * (initial - count(state)) for state, probability in detail.items()), zero)


# --------------------------------------------------------------------------- sources and explanation


# The rules behind each part of a battle, and where each comes from: the battle rules "summary"
# or the published "rulebook". A result's `sources` lists the ones it used; a form labels each
# option with where its rules come from (option_sources).
RULES = {
    "rolls": ("Combat roll, Leader re-roll and casualties", "summary"),
    "replacement_regulars": ("An Elite with no Regular to replace it is eliminated", "summary"),
    "modifier_rounds": ("A Combat card's effect lasts for its round unless it says otherwise", "summary"),
    "walls": ("The attacker hits only on 6 in round 1 against a City or Fortification", "rulebook"),
    "withdraw": ("A defender may retreat into its own Stronghold at the start of any round; the retreat ends the "
                 "battle, the attacker may move in, and the Stronghold is besieged", "summary"),
    "stronghold": ("Attacking the Stronghold is a new battle; at most 5 Army units (any number of Leaders) fit "
                   "inside, the rest going back to the reinforcements", "rulebook"),
    "siege": ("A siege battle: the attacker hits only on 6, one round unless it downgrades an Elite (which needs a "
              "Regular at hand to take the Elite's place)", "rulebook"),
}
OPTION_RULES = {  # each option of battle() and Army (as the API names it) and the rules it brings in
    "terrain": ("rolls", "walls", "siege"),
    "replacement_regulars": ("replacement_regulars",),
    "modifier_rounds": ("modifier_rounds",),
    "withdraw_after": ("withdraw", "stronghold", "siege"),
    "siege_battles": ("stronghold", "siege"),
    "siege_continue": ("siege", "replacement_regulars"),
}
SOURCES = ("summary", "rulebook")


def option_sources(option: str) -> tuple:
    """Where the rules behind one option come from: ("summary",), ("rulebook",) or both, in that order."""
    found = {RULES[key][1] for key in OPTION_RULES[option]}
    return tuple(source for source in SOURCES if source in found)


def _sources(plan):
    """The rules this battle used, each with where it comes from."""
    used = ["rolls"]
    sieged = plan.terrain == "siege" or plan.withdraw_after is not None
    if any(army.replacement_regulars is not None for army in (plan.attacker, plan.defender)) or \
            (sieged and plan.siege_continue):  # downgrading an Elite to go on needs a Regular at hand
        used.append("replacement_regulars")
    if any(army.modifier_rounds != "all" for army in (plan.attacker, plan.defender)):
        used.append("modifier_rounds")
    if plan.terrain in WALLED and plan.start_round == 1:
        used.append("walls")
    if plan.withdraw_after is not None:
        used += ["withdraw", "stronghold"]
    if sieged:
        used.append("siege")
    return [{"rule": RULES[key][0], "source": RULES[key][1]} for key in used]


def _percent(value):
    """A chance as the working says it: "about 43.2%"; never "about 100.0%" for what is not certain."""
    if value == 0 or value == 1:
        return f"{int(value) * 100}%"
    if value * 100 < 0.05:
        return "under 0.1%"
    if value * 100 >= 99.95:
        return "over 99.9%"
    return f"about {approximately(value * 100, 1)}%"


def _army_sentence(side, army):
    policy = ("keeps as much Combat Strength as it can (elites are downgraded before units are removed)"
              if army.casualty_policy == "strength"
              else "keeps its elites as long as it can (regulars are removed first)")
    sentence = (f"The {side} has {army.regulars} regular{'s' if army.regulars != 1 else ''} and "
                f"{army.elites} elite{'s' if army.elites != 1 else ''} (Combat Strength {army.strength}, "
                f"Leadership {army.leadership}); when taking casualties it {policy}.")
    if army.replacement_regulars is not None:
        count = army.replacement_regulars
        sentence += (f" It has {count} Regular{'s' if count != 1 else ''} at hand to replace downgraded elites, "
                     f"plus any regulars it loses; an elite with none to replace it is eliminated (summary).")
    return sentence


def _window_words(army):
    first, last = modifier_window("modifier_rounds", army.modifier_rounds)
    if last is None:
        return "in every round" if first == 1 else f"from round {first} on"
    return f"in round {first}" if first == last else f"in rounds {first} to {last}"


def _roll_sentence(side, army, hit, modifiers_on):
    _, modifier, rerolls, reroll_modifier = _setup(army, hit, modifiers_on)
    dice = min(army.strength, MAX_DICE)
    sentence = (f"{side.capitalize()} rolls {dice} {'die' if dice == 1 else 'dice'} hitting {hit_text(hit, modifier)} "
                f"with {rerolls} re-roll{'s' if rerolls != 1 else ''}")
    if rerolls and reroll_modifier:
        sentence += f" ({reroll_modifier:+d} added to each re-rolled die)"
    return sentence + "."


def _roll_sentences(plan, kind, prefix, first_round=1, last_round=None):
    """One sentence per stretch of rounds fought (within first_round..last_round, see _regime) with
    the same rolls, each named by the battle's own round numbers."""
    starts = sorted({first_round, *(t for t in _roll_changes(plan)
                                    if first_round < t and (last_round is None or t <= last_round))})
    stretches = []  # [first, last or None, regime]
    for number, first in enumerate(starts):
        last = starts[number + 1] - 1 if number + 1 < len(starts) else last_round
        regime = _regime(plan, kind, first)
        if stretches and stretches[-1][2] == regime:
            stretches[-1][1] = last
        else:
            stretches.append([first, last, regime])
    offset = plan.start_round - 1
    lines = []
    for first, last, (hit, att_on, def_on) in stretches:
        label = prefix + _rounds_words(first + offset, None if last is None else last + offset, plan.start_round)
        lines.append(f"{label[0].upper()}{label[1:]}: " + _roll_sentence("attacker", plan.attacker, hit, att_on) + " "
                     + _roll_sentence("defender", plan.defender, NORMAL_HIT, def_on))
    return lines


def _rounds_words(first, last, start_round):
    """Rounds first..last (last None: to the end) in words; "each round" when that is all of them."""
    if last is None:
        return "each round" if first == start_round else f"from round {first} on"
    return f"round {first}" if first == last else f"rounds {first} to {last}"


def _explain(plan, result):
    """The working: the Armies, where and how they fight, the rolls round by round, the results."""
    lines = [_army_sentence("attacker", plan.attacker), _army_sentence("defender", plan.defender)]
    lines += _battlefield_sentences(plan)
    lines += _modifier_sentences(plan)
    lines += _rolls_sentences(plan)
    lines.append("Both Armies roll in the same round and take their casualties together, "
                 "so both can be eliminated at once.")
    lines.append("Each hit removes a regular or downgrades an elite to a regular; two hits can remove an elite.")
    if plan.attacker_ceases_at is not None:
        lines.append(f"The attacker ceases the attack after any round that leaves its Combat Strength "
                     f"at {plan.attacker_ceases_at} or less.")
    if plan.rounds is None:
        lines.append("The battle is fought until it ends, solved as an absorbing Markov chain.")
    else:
        lines.append(f"The battle stops after at most {plan.rounds} round{'s' if plan.rounds != 1 else ''}.")
    return lines + _result_sentences(plan, result)


def _battlefield_sentences(plan):
    """Where the battle is fought, from which round, and any withdrawal and siege."""
    terrain, start = plan.terrain, plan.start_round
    lines = []
    if start > 1:
        lines.append(f"The battle is already in round {start}: the Armies are as they stand at its start, and its "
                     f"rounds are counted on from round {start}.")
    if terrain == "field":
        lines.append("Battle in the field: both Armies hit on 5+ in every round.")
    elif terrain in WALLED and start == 1:
        lines.append(f"Round 1 in {_TERRAIN_NAMES[terrain]}: the attacker hits only on 6; "
                     f"from round 2 on it hits on 5+. The defender hits on 5+ throughout (rulebook).")
    elif terrain in WALLED:
        lines.append(f"In {_TERRAIN_NAMES[terrain]} the attacker hits only on 6 in round 1 (rulebook); from round "
                     f"{start} both Armies hit on 5+, as in the field.")
    if plan.withdraw_after is not None:
        k = plan.withdraw_after
        when = f"before round {start}" if k == 0 else f"after {k} round{'s' if k != 1 else ''} in the field"
        lines.append(f"The defender retreats into its Stronghold {when}, if the battle is still on. The retreat "
                     f"ends the field battle; the attacker moves in with its whole Army and the Stronghold is "
                     f"besieged (summary). Attacking it is a new battle (rulebook).")
        lines.append("At most 5 Army units fit in the Stronghold, with any number of Leaders; the defender keeps "
                     "its elites first and the units beyond 5 go back to the reinforcements (rulebook).")
    if terrain == "siege" or plan.withdraw_after is not None:
        lines += _siege_sentences(plan)
    return lines


def _siege_sentences(plan):
    battles = plan.siege_battles
    lines = [f"Siege of a Stronghold: the attacker hits only on 6 in every round; the defender hits on 5+ "
             f"(rulebook). The attacker fights {battles} siege battle{'s' if battles != 1 else ''} in a row."]
    if plan.siege_continue:
        lines.append("A siege battle lasts one round; the attacker fights on only by downgrading one of its "
                     "elites to a regular after each round, which needs a Regular at hand to take the elite's "
                     "place; with no elite or no Regular to spare, that siege battle ends.")
    else:
        lines.append("Each siege battle lasts a single round: the attacker does not downgrade an elite to go on.")
    return lines


def _modifier_sentences(plan):
    sieged_after_field = plan.withdraw_after is not None
    return [f"The {side}'s modifiers apply {_window_words(army)} only"
            f"{' (rounds counted on through the siege)' if sieged_after_field else ''}; "
            f"a Combat card's effect lasts for its round unless it says otherwise (summary)."
            for side, army in (("attacker", plan.attacker), ("defender", plan.defender))
            if army.modifier_rounds != "all" and (army.modifier or army.reroll_modifier)]


def _rolls_sentences(plan):
    if plan.terrain == "siege":
        return _roll_sentences(plan, "siege", "")
    if plan.withdraw_after is None:
        return _roll_sentences(plan, "field", "")
    lines = []
    if plan.withdraw_after:
        lines += _roll_sentences(plan, "field", "in the field, ", 1, plan.withdraw_after)
    return lines + _roll_sentences(plan, "siege", "in the siege, ", plan.withdraw_after + 1)


def _result_sentences(plan, result):
    sieged = plan.terrain == "siege" or plan.withdraw_after is not None
    wording = {
        "defender_eliminated": "The defender is eliminated",
        "attacker_eliminated": "The attacker is eliminated",
        "both_eliminated": "Both Armies are eliminated",
        "neither_eliminated": ("Both Armies still stand when the fighting ends" if sieged
                               else "The battle stops with both Armies standing"),
    }
    lines = []
    if plan.withdraw_after is not None:
        lines.append(f"The defender withdraws into the Stronghold: {_percent(result['withdrew'])}.")
    lines += [f"{wording[name]}: {_percent(result['outcomes'][name])}." for name in OUTCOMES]
    lines.append(f"The defender still holds out (in the field or its Stronghold): "
                 f"{_percent(result['headline']['defender_holds'])}.")
    lines.append(f"Expected number of rounds: about {approximately(result['expected_rounds'])}.")
    return lines
