"""Exact odds for a whole War of the Ring battle, as a Markov chain over the two Armies.

A state is (attacker regulars, attacker elites; defender regulars, defender elites) at
the start of a Combat round. In each round both Armies roll at once: Combat dice equal to
Combat Strength (regulars + elites, at most 5), then the Leader re-roll of up to
min(Leadership, 5) missed dice. Hits are taken as casualties at the same time, so both
Armies can be wiped out in the same round.

Casualties (from the battle rules summary): each hit removes one regular or replaces one
elite with a regular; two hits may instead remove one elite outright. Which option an Army
takes is its `casualty_policy`: "strength" keeps as much Combat Strength (dice) as it can,
then as many elites; "elites" keeps as many elites as it can, then as much Strength. An
Army that takes at least as many hits as its hit points (regulars + 2 x elites) is
eliminated. Replacing an elite needs a spare regular; this module assumes one is always
available (in the reinforcements or among earlier casualties).

Terrain facts come from the War of the Ring 2nd edition rulebook, not from the rules
summary this project quotes:
- "field": both Armies hit on 5+.
- "city", "fortification": in the first round the attacker hits only on 6; afterwards 5+.
- "siege" (a Stronghold under siege): the attacker hits only on 6 in every round, the
  defender on 5+; a siege battle lasts one round unless the attacker downgrades one of its
  elites to a regular to fight one more round; at most 5 units can defend a Stronghold.
Modifiers from Combat cards are inputs (`Army.modifier`, `Army.reroll_modifier`) and can
apply every round or the first round only (`Army.modifier_rounds`).

Exactness and speed: every number is an exact integer over a known denominator and is
only turned into a fractions.Fraction at the end. A round's outcome has denominator 6**20
(each side's roll padded to 6**10). A battle fought to the end is solved as an absorbing
chain: any hit lowers the total hit points, so states are handled from the most hit points
down, and the only way to stay put is a round with no hits on either side, so the chance of
leaving state s for s' is T(s, s') / (1 - T(s, s)). All those chances are kept over one
common denominator built from the distinct values of 1 - T(s, s), so the work is integer
multiplication and one exact division per state.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import prod

from . import wotr_combat
from .inputs import InputError, require_bool, require_choice, require_int
from .wotr_combat import approximately, combat_roll_weights, hit_text

TERRAINS = ("field", "city", "fortification", "siege")
CASUALTY_POLICIES = ("strength", "elites")
MODIFIER_ROUNDS = ("all", "first")
MAX_UNITS = 10  # the rulebook's stacking limit: at most 10 Army units in one region
MAX_LEADERSHIP = 10
MAX_MODIFIER = 5
MAX_ROUNDS = 100
MAX_SIEGE_DEFENDERS = 5  # a Stronghold holds at most 5 Army units
MAX_DICE = 5
MAX_REROLLS = 5
NORMAL_HIT = 5
HARD_HIT = 6  # attacking a City or Fortification in round 1, or a Stronghold under siege
PER_ROUND_SHOWN = 20  # rounds listed in per_round when the battle is fought to the end

SIDE_DENOMINATOR = 6 ** (MAX_DICE + MAX_REROLLS)  # any one side's roll fits over 6**10
ROUND_DENOMINATOR = SIDE_DENOMINATOR * SIDE_DENOMINATOR

_TERRAIN_NAMES = {"field": "the field", "city": "a City", "fortification": "a Fortification",
                  "siege": "a Stronghold under siege"}


@dataclass(frozen=True)
class Army:
    """One side of a battle.

    regulars, elites: Army units. leadership: total Leadership (re-rolls are capped at 5).
    casualty_policy: "strength" keeps the most Combat Strength (dice) first, "elites" keeps
        elites first.
    modifier: added to each Combat roll die (e.g. from a Combat card), -5..5.
    reroll_modifier: added to each Leader re-roll die, -5..5.
    modifier_rounds: "all" applies both modifiers every round, "first" in round 1 only.
    """

    regulars: int
    elites: int
    leadership: int = 0
    casualty_policy: str = "strength"
    modifier: int = 0
    reroll_modifier: int = 0
    modifier_rounds: str = "all"

    @property
    def units(self) -> int:
        return self.regulars + self.elites

    @property
    def strength(self) -> int:
        """Combat Strength: one point per Army unit."""
        return self.regulars + self.elites


# --------------------------------------------------------------------------- validation


def _check_army(side, army):
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
    require_choice(f"{side}_modifier_rounds", army.modifier_rounds, MODIFIER_ROUNDS)


# --------------------------------------------------------------------------- casualties


def hit_points(regulars: int, elites: int) -> int:
    """Hits an Army can absorb before it is gone: 1 per regular, 2 per elite."""
    return regulars + 2 * elites


def remove_casualties(regulars: int, elites: int, hits: int, policy: str = "strength") -> tuple[int, int]:
    """The (regulars, elites) left after taking `hits` casualties under `policy`.

    Every way of absorbing the hits is tried: a regulars removed, b elites replaced by
    regulars, c elites removed at two hits each (a + b + 2c = hits). "strength" picks the
    option with the most Combat Strength, then the most elites; "elites" the most elites,
    then the most Strength. If the hits reach the Army's hit points it is eliminated: (0, 0).
    """
    # checked before the cache: 1.0 or True would otherwise hit a cached answer for 1
    require_choice("policy", policy, CASUALTY_POLICIES)
    require_int("regulars", regulars, 0, MAX_UNITS)
    require_int("elites", elites, 0, MAX_UNITS)
    require_int("hits", hits, 0, 4 * MAX_UNITS)
    return _remove_casualties(regulars, elites, hits, policy)


@lru_cache(maxsize=None)
def _remove_casualties(regulars, elites, hits, policy):
    if hits >= hit_points(regulars, elites):
        return (0, 0)
    best = None
    best_key = None
    for removed_elites in range(min(elites, hits // 2) + 1):
        for downgraded in range(min(elites - removed_elites, hits - 2 * removed_elites) + 1):
            removed_regulars = hits - 2 * removed_elites - downgraded
            if removed_regulars > regulars:
                continue
            left = (regulars - removed_regulars + downgraded, elites - downgraded - removed_elites)
            strength = left[0] + left[1]
            key = (strength, left[1]) if policy == "strength" else (left[1], strength)
            if best_key is None or key > best_key:
                best, best_key = left, key
    return best


# --------------------------------------------------------------------------- one side's tables


@lru_cache(maxsize=None)
def _side_weights(dice, hit, modifier, rerolls, reroll_modifier):
    """P(k hits) for k = 0..5 as integers over SIDE_DENOMINATOR (zeros past `dice`)."""
    weights, denominator = combat_roll_weights(dice, hit, modifier, rerolls, reroll_modifier)
    scale = SIDE_DENOMINATOR // denominator
    return tuple(weight * scale for weight in weights) + (0,) * (MAX_DICE - dice)


@lru_cache(maxsize=None)
def _side_states(regulars, elites, policy, pays_elites):
    """Every (regulars, elites) the Army can reach, with casualty and payment tables.

    Returns (states, casualty, payment): casualty[i][h] is the index reached from state i
    after h hits; payment[i] is the index after downgrading one elite (siege), or -1.
    """
    states = [(regulars, elites)]
    index = {states[0]: 0}
    casualty = []
    payment = []
    i = 0
    while i < len(states):
        r, e = states[i]
        row = []
        for hits in range(MAX_DICE + 1):
            after = _remove_casualties(r, e, hits, policy)
            if after not in index:
                index[after] = len(states)
                states.append(after)
            row.append(index[after])
        casualty.append(tuple(row))
        if pays_elites and e > 0:
            after = (r + 1, e - 1)
            if after not in index:
                index[after] = len(states)
                states.append(after)
            payment.append(index[after])
        else:
            payment.append(-1)
        i += 1
    return tuple(states), tuple(casualty), tuple(payment)


def _roll_setup(army, hit, first_round):
    """(hit, modifier, rerolls, reroll_modifier) an Army uses in a round."""
    use_modifiers = first_round or army.modifier_rounds == "all"
    return (hit, army.modifier if use_modifiers else 0, min(army.leadership, MAX_REROLLS),
            army.reroll_modifier if use_modifiers else 0)


def _attacker_hit(terrain, first_round):
    if terrain == "siege" or (first_round and terrain in ("city", "fortification")):
        return HARD_HIT
    return NORMAL_HIT


def _weights_by_dice(setup):
    hit, modifier, rerolls, reroll_modifier = setup
    return [_side_weights(dice, hit, modifier, rerolls, reroll_modifier) for dice in range(MAX_DICE + 1)]


def clear_caches() -> None:
    """Forget every cached table here and in wotr_combat (for cold-start timing)."""
    _remove_casualties.cache_clear()
    _side_weights.cache_clear()
    _side_states.cache_clear()
    wotr_combat.clear_caches()


# --------------------------------------------------------------------------- the chain


class _Chain:
    """The battle's states and one-round transitions, all weights over ROUND_DENOMINATOR.

    Transient nodes are joint states at the start of a round (after any siege payment);
    absorbing nodes are joint states in which the battle has ended.
    """

    def __init__(self, attacker, defender, terrain, attacker_ceases_at, siege_continue):
        siege = terrain == "siege"
        self.att_states, att_cas, att_pay = _side_states(attacker.regulars, attacker.elites,
                                                         attacker.casualty_policy, siege)
        self.def_states, def_cas, _ = _side_states(defender.regulars, defender.elites,
                                                   defender.casualty_policy, False)
        att_dice = [min(r + e, MAX_DICE) for r, e in self.att_states]
        def_dice = [min(r + e, MAX_DICE) for r, e in self.def_states]
        att_strength = [r + e for r, e in self.att_states]
        att_hp = [hit_points(r, e) for r, e in self.att_states]
        def_hp = [hit_points(r, e) for r, e in self.def_states]

        self.transient = []  # (attacker index, defender index)
        self.transient_index = {}
        self.arrival = []  # the post-round state each transient node is entered from
        self.absorbing = []
        self.absorbing_index = {}
        self.hp_total = []

        def transient_node(a, d, arrived_from):
            key = (a, d)
            node = self.transient_index.get(key)
            if node is None:
                node = self.transient_index[key] = len(self.transient)
                self.transient.append(key)
                self.arrival.append(arrived_from)
                self.hp_total.append(att_hp[a] + def_hp[d])
            return node

        def absorbing_node(a, d):
            key = (a, d)
            node = self.absorbing_index.get(key)
            if node is None:
                node = self.absorbing_index[key] = len(self.absorbing)
                self.absorbing.append(key)
            return node

        classified = {}

        def classify(a, d):
            """(True, transient node) if the battle goes on from post-round state (a, d), else (False, absorbing node)."""
            key = (a, d)
            found = classified.get(key)
            if found is not None:
                return found
            if att_strength[a] == 0 or def_hp[d] == 0:
                found = (False, absorbing_node(a, d))
            elif attacker_ceases_at is not None and att_strength[a] <= attacker_ceases_at:
                found = (False, absorbing_node(a, d))
            elif siege:
                if siege_continue and att_pay[a] >= 0:
                    found = (True, transient_node(att_pay[a], d, key))
                else:
                    found = (False, absorbing_node(a, d))
            else:
                found = (True, transient_node(a, d, key))
            classified[key] = found
            return found

        def round_edges(a, d, att_weights, def_weights):
            """Merged (is_transient, node, weight) for one round fought from (a, d)."""
            merged = defaultdict(int)
            hits_on_defender = att_weights[att_dice[a]]
            hits_on_attacker = def_weights[def_dice[d]]
            att_row = att_cas[a]
            def_row = def_cas[d]
            for dealt, w_att in enumerate(hits_on_defender):
                if not w_att:
                    continue
                d_after = def_row[dealt]
                for taken, w_def in enumerate(hits_on_attacker):
                    if w_def:
                        merged[(att_row[taken], d_after)] += w_att * w_def
            return [classify(post_a, post_d) + (weight,) for (post_a, post_d), weight in merged.items()]

        first_att = _weights_by_dice(_roll_setup(attacker, _attacker_hit(terrain, True), True))
        first_def = _weights_by_dice(_roll_setup(defender, NORMAL_HIT, True))
        later_att = _weights_by_dice(_roll_setup(attacker, _attacker_hit(terrain, False), False))
        later_def = _weights_by_dice(_roll_setup(defender, NORMAL_HIT, False))

        # the opening position is only ever the start of round 1 (or re-entered after a quiet round)
        self.start = transient_node(0, 0, None if siege else (0, 0))
        self.first_transient, self.first_absorbing = [], []
        for is_transient, node, weight in round_edges(0, 0, first_att, first_def):
            (self.first_transient if is_transient else self.first_absorbing).append((node, weight))

        # later rounds, built outward from whatever round 1 can reach
        self.stay = []  # weight of a round with no hits on either side (back to the same node)
        self.moves = []  # [(transient node, weight)] to other transient nodes
        self.ends = []  # [(absorbing node, weight)]
        node = 0
        while node < len(self.transient):
            a, d = self.transient[node]
            stay, moves, ends = 0, [], []
            for is_transient, target, weight in round_edges(a, d, later_att, later_def):
                if not is_transient:
                    ends.append((target, weight))
                elif target == node:
                    stay = weight
                else:
                    moves.append((target, weight))
            self.stay.append(stay)
            self.moves.append(moves)
            self.ends.append(ends)
            node += 1

    # ------------------------------------------------------------------ rounds one by one

    def iterate(self, rounds, categories):
        """Fight at most `rounds` rounds, one at a time.

        Returns (remaining, absorbed, denominator, per_round): numerators over the common
        denominator 6**(20 n) after the last round n played, and per round the cumulative
        numerators of each category in `categories` (a list of absorbing-node categories).
        """
        transient_count = len(self.transient)
        absorbed = [0] * len(self.absorbing)
        remaining = [0] * transient_count
        for node, weight in self.first_transient:
            remaining[node] += weight
        for node, weight in self.first_absorbing:
            absorbed[node] += weight
        denominator = ROUND_DENOMINATOR
        per_round = [self._category_totals(absorbed, categories, denominator)]
        played = 1
        # one edge list per node, the quiet round back to itself included
        steps = [[(node, self.stay[node])] + self.moves[node] if self.stay[node] else self.moves[node]
                 for node in range(transient_count)]
        ends = self.ends
        while played < rounds and any(remaining):
            absorbed = [value * ROUND_DENOMINATOR for value in absorbed]
            after = [0] * transient_count
            for node, mass in enumerate(remaining):
                if not mass:
                    continue
                for target, weight in steps[node]:
                    after[target] += mass * weight
                for target, weight in ends[node]:
                    absorbed[target] += mass * weight
            remaining = after
            denominator *= ROUND_DENOMINATOR
            played += 1
            per_round.append(self._category_totals(absorbed, categories, denominator))
        return remaining, absorbed, denominator, per_round

    @staticmethod
    def _category_totals(absorbed, categories, denominator):
        totals = defaultdict(int)
        for node, mass in enumerate(absorbed):
            totals[categories[node]] += mass
        return {name: Fraction(totals[name], denominator) for name in OUTCOMES}

    # ------------------------------------------------------------------ to the end

    def solve(self):
        """Fight until the battle ends; exact absorption numerators over one denominator.

        Returns (absorbed, denominator, expected_later_rounds).
        """
        transient_count = len(self.transient)
        leave = [ROUND_DENOMINATOR - stay for stay in self.stay]  # (1 - T(s, s)) * 6**20
        # a path visits each value of `leave` at most once per total-hit-point level, so this
        # product is a multiple of every path's denominator
        levels = defaultdict(set)
        for node in range(transient_count):
            levels[leave[node]].add(self.hp_total[node])
        denominator = ROUND_DENOMINATOR * prod(value ** len(found) for value, found in levels.items())
        lift = denominator // ROUND_DENOMINATOR

        reach = [0] * transient_count
        absorbed = [0] * len(self.absorbing)
        for node, weight in self.first_transient:
            reach[node] += weight * lift
        for node, weight in self.first_absorbing:
            absorbed[node] += weight * lift
        visits = 0  # sum of P(reach s) / (1 - T(s, s)) * 6**20-scaled, over `denominator`
        for node in sorted(range(transient_count), key=self.hp_total.__getitem__, reverse=True):
            mass = reach[node]
            if not mass:
                continue
            leaving, remainder = divmod(mass, leave[node])
            if remainder:  # cannot happen: the denominator covers every path
                raise ArithmeticError("common denominator too small")
            visits += leaving
            for target, weight in self.moves[node]:
                reach[target] += leaving * weight
            for target, weight in self.ends[node]:
                absorbed[target] += leaving * weight
        expected_later_rounds = Fraction(visits * ROUND_DENOMINATOR, denominator)
        return absorbed, denominator, expected_later_rounds


OUTCOMES = ("defender_eliminated", "attacker_eliminated", "both_eliminated", "neither_eliminated")


def _outcome(attacker_state, defender_state):
    attacker_gone = sum(attacker_state) == 0
    defender_gone = sum(defender_state) == 0
    if attacker_gone and defender_gone:
        return "both_eliminated"
    if attacker_gone:
        return "attacker_eliminated"
    if defender_gone:
        return "defender_eliminated"
    return "neither_eliminated"


# --------------------------------------------------------------------------- the battle


def battle(attacker: Army, defender: Army, terrain: str = "field", rounds: int | None = None,
           attacker_ceases_at: int | None = None, siege_continue: bool = True) -> dict:
    """Exact outcome of a War of the Ring battle between two Armies.

    terrain: "field", "city", "fortification" or "siege" (see the module docstring).
    rounds: fight at most this many rounds (1..100); None fights until an Army is gone
        (or the attacker ceases, or a siege battle ends), solved exactly.
    attacker_ceases_at: the attacker ceases after any round that leaves its Combat
        Strength at or below this number (0..10); None never ceases.
    siege_continue: in a siege, the attacker pays one elite (downgraded to a regular) for
        each further round while it has one; False ends the siege battle after one round.

    Returns a dict of exact Fractions:
      outcomes: {defender_eliminated, attacker_eliminated, both_eliminated,
          neither_eliminated}, exclusive and summing to 1 (neither = the battle stopped
          with both Armies standing);
      attacker_survivors / defender_survivors: list indexed by surviving units, 0..initial;
      attacker_survivors_detail / defender_survivors_detail: [{regulars, elites, probability}];
      expected_attacker_casualties / expected_defender_casualties: units lost (a
          downgraded elite loses no unit); expected_attacker_elites_lost /
          expected_defender_elites_lost: elites removed or downgraded;
      per_round: [{round, defender_eliminated, attacker_eliminated, both_eliminated,
          neither_eliminated, still_fighting}] cumulative after each round, where
          still_fighting is the chance the battle would go on to another round (after
          the last round allowed by `rounds`, that is the part stopped by the limit);
          the list stops early once still_fighting is 0; with rounds=None it shows at
          most the first 20 rounds, then one entry with round None holding the exact
          final values;
      expected_rounds; explanation: plain sentences.
    """
    _check_army("attacker", attacker)
    _check_army("defender", defender)
    require_choice("terrain", terrain, TERRAINS)
    if rounds is not None:
        require_int("rounds", rounds, 1, MAX_ROUNDS)
    if attacker_ceases_at is not None:
        require_int("attacker_ceases_at", attacker_ceases_at, 0, MAX_UNITS)
    require_bool("siege_continue", siege_continue)
    if terrain == "siege" and defender.units > MAX_SIEGE_DEFENDERS:
        raise InputError("defender_regulars", f"at most {MAX_SIEGE_DEFENDERS} (regulars + elites) "
                                              f"can defend a Stronghold under siege")

    chain = _Chain(attacker, defender, terrain, attacker_ceases_at, siege_continue)
    categories = [_outcome(chain.att_states[a], chain.def_states[d]) for a, d in chain.absorbing]

    # final mass by (attacker state index, defender state index)
    final = defaultdict(Fraction)
    if rounds is None:
        absorbed, denominator, later_rounds = chain.solve()
        expected_rounds = 1 + later_rounds
        for node, mass in enumerate(absorbed):
            if mass:
                final[chain.absorbing[node]] += Fraction(mass, denominator)
        _, _, _, per_round = chain.iterate(PER_ROUND_SHOWN, categories)
    else:
        remaining, absorbed, denominator, per_round = chain.iterate(rounds, categories)
        for node, mass in enumerate(absorbed):
            if mass:
                final[chain.absorbing[node]] += Fraction(mass, denominator)
        for node, mass in enumerate(remaining):
            if mass:  # still fighting when the round limit is reached: stopped, both standing
                final[chain.arrival[node]] += Fraction(mass, denominator)
        expected_rounds = 1 + sum((1 - sum(entry.values())) for entry in per_round[:-1])

    outcomes = {name: Fraction(0) for name in OUTCOMES}
    attacker_detail = defaultdict(Fraction)
    defender_detail = defaultdict(Fraction)
    for (a, d), probability in final.items():
        att_state, def_state = chain.att_states[a], chain.def_states[d]
        outcomes[_outcome(att_state, def_state)] += probability
        attacker_detail[att_state] += probability
        defender_detail[def_state] += probability

    per_round_rows = []
    for number, totals in enumerate(per_round, start=1):
        row = {"round": number, **totals, "still_fighting": 1 - sum(totals.values())}
        per_round_rows.append(row)
    if rounds is None:
        per_round_rows.append({"round": None, **outcomes, "still_fighting": Fraction(0)})

    result = {
        "outcomes": outcomes,
        "attacker_survivors": _by_units(attacker_detail, attacker.units),
        "defender_survivors": _by_units(defender_detail, defender.units),
        "attacker_survivors_detail": _detail_rows(attacker_detail),
        "defender_survivors_detail": _detail_rows(defender_detail),
        "expected_attacker_casualties": _expected_loss(attacker_detail, attacker.units, sum),
        "expected_attacker_elites_lost": _expected_loss(attacker_detail, attacker.elites, lambda s: s[1]),
        "expected_defender_casualties": _expected_loss(defender_detail, defender.units, sum),
        "expected_defender_elites_lost": _expected_loss(defender_detail, defender.elites, lambda s: s[1]),
        "per_round": per_round_rows,
        "expected_rounds": expected_rounds,
    }
    result["explanation"] = _explain(attacker, defender, terrain, rounds, attacker_ceases_at,
                                     siege_continue, result)
    return result


def _by_units(detail, initial_units):
    survivors = [Fraction(0)] * (initial_units + 1)
    for (regulars, elites), probability in detail.items():
        survivors[regulars + elites] += probability
    return survivors


def _detail_rows(detail):
    ordered = sorted(detail.items(), key=lambda item: (-(item[0][0] + item[0][1]), -item[0][1]))
    return [{"regulars": r, "elites": e, "probability": p} for (r, e), p in ordered if p]


def _expected_loss(detail, initial, count):
    return sum((probability * (initial - count(state)) for state, probability in detail.items()), Fraction(0))


# --------------------------------------------------------------------------- explanation


def _percent(value):
    return f"{approximately(value * 100, 1)}%"


def _army_sentence(side, army):
    policy = ("keeps as much Combat Strength as it can (elites are downgraded before units are removed)"
              if army.casualty_policy == "strength"
              else "keeps its elites as long as it can (regulars are removed first)")
    return (f"The {side} has {army.regulars} regular{'s' if army.regulars != 1 else ''} and "
            f"{army.elites} elite{'s' if army.elites != 1 else ''} (Combat Strength {army.strength}, "
            f"Leadership {army.leadership}); when taking casualties it {policy}.")


def _roll_sentence(side, army, hit, first_round):
    _, modifier, rerolls, reroll_modifier = _roll_setup(army, hit, first_round)
    dice = min(army.strength, MAX_DICE)
    sentence = (f"{side.capitalize()} rolls {dice} {'die' if dice == 1 else 'dice'} hitting {hit_text(hit, modifier)} "
                f"with {rerolls} re-roll{'s' if rerolls != 1 else ''}")
    if rerolls and reroll_modifier:
        sentence += f" ({reroll_modifier:+d} added to each re-rolled die)"
    return sentence + "."


def _explain(attacker, defender, terrain, rounds, attacker_ceases_at, siege_continue, result):
    lines = [_army_sentence("attacker", attacker), _army_sentence("defender", defender)]
    if terrain == "field":
        lines.append("Battle in the field: both Armies hit on 5+ in every round.")
    elif terrain in ("city", "fortification"):
        lines.append(f"Round 1 in {_TERRAIN_NAMES[terrain]}: the attacker hits only on 6; "
                     f"from round 2 on it hits on 5+. The defender hits on 5+ throughout.")
    else:
        lines.append("Siege of a Stronghold: the attacker hits only on 6 in every round; the defender hits on 5+.")
        if siege_continue:
            lines.append("After each round the attacker fights on only by downgrading one of its elites "
                         "to a regular; with no elite left, the siege battle ends.")
        else:
            lines.append("The siege battle lasts a single round: the attacker does not pay an elite to go on.")
    first_differs = (_attacker_hit(terrain, True) != _attacker_hit(terrain, False)
                     or "first" in (attacker.modifier_rounds, defender.modifier_rounds))
    label = "Round 1" if first_differs else "Each round"
    lines.append(f"{label}: " + _roll_sentence("attacker", attacker, _attacker_hit(terrain, True), True)
                 + " " + _roll_sentence("defender", defender, NORMAL_HIT, True))
    if first_differs:
        lines.append("Later rounds: " + _roll_sentence("attacker", attacker, _attacker_hit(terrain, False), False)
                     + " " + _roll_sentence("defender", defender, NORMAL_HIT, False))
    lines.append("Both Armies roll in the same round and take their casualties together, "
                 "so both can be eliminated at once.")
    lines.append("Each hit removes a regular or downgrades an elite to a regular; two hits can remove an elite. "
                 "A regular is assumed to be available to replace each downgraded elite.")
    if attacker_ceases_at is not None:
        lines.append(f"The attacker ceases the attack after any round that leaves its Combat Strength "
                     f"at {attacker_ceases_at} or less.")
    if rounds is None:
        lines.append("The battle is fought until it ends, solved exactly as an absorbing Markov chain.")
    else:
        lines.append(f"The battle stops after at most {rounds} round{'s' if rounds != 1 else ''}.")
    outcomes = result["outcomes"]
    wording = {
        "defender_eliminated": "The defender is eliminated",
        "attacker_eliminated": "The attacker is eliminated",
        "both_eliminated": "Both Armies are eliminated",
        "neither_eliminated": "The battle stops with both Armies standing",
    }
    for name in OUTCOMES:
        lines.append(f"{wording[name]}: about {_percent(outcomes[name])}.")
    lines.append(f"Expected number of rounds: about {approximately(result['expected_rounds'])}.")
    return lines
