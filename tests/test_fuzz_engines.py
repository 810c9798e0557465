"""Property tests over every engine: random inputs, exact invariants, and bad input refused.

The hand-worked cases and the fixed grids live in tests/test_engine_*.py; here hypothesis
draws the inputs. Every engine works in exact Fractions, so sums are checked with ==.
Every bad input must raise ValueError whose message starts with the parameter's name.
"""
import dataclasses
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.engines import fotf_dice, meq_dominance, wotr_cards
from webapp.engines.meccg import (corruption_check, corruption_removal, council_can_be_called, faction_play,
                                  free_council, influence_attempt, strike)
from webapp.engines.meccg.council import MAX_CALLING_POINTS, PLAYER_COUNTS, SOURCE_RANGE, SOURCES
from webapp.engines.meccg.influence import INFLUENCE_KINDS
from webapp.engines.wotr_battle import Army, battle, modifier_window, remove_casualties
from webapp.engines.wotr_combat import at_least, combat_roll, describe_roll, die_hits, expected_hits

FAST = settings(max_examples=60, deadline=None)
SLOW = settings(max_examples=20, deadline=None)

# --------------------------------------------------------------------------- bad values

# Anything that is not a whole number: each engine must refuse it by name.
NOT_A_NUMBER = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=4), st.binary(max_size=3),
    st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.text(max_size=2), st.integers(0, 3), max_size=2),
    st.fractions(), st.complex_numbers(),
)


def bad_whole(low, high, optional=False):
    """Values a parameter taking a whole number from low to high must refuse."""
    outside = st.integers().filter(lambda v: not low <= v <= high)
    junk = NOT_A_NUMBER.filter(lambda v: v is not None) if optional else NOT_A_NUMBER
    return st.one_of(outside, junk)


def bad_flag():
    return st.one_of(st.integers(), st.text(max_size=5), st.none(), st.floats(), st.lists(st.booleans(), max_size=1))


def bad_choice(choices):
    return st.one_of(NOT_A_NUMBER, st.integers(), st.text(max_size=20)).filter(
        lambda v: not (isinstance(v, str) and v in choices))


def refuses(call, name):
    """call() raises ValueError whose message starts with the parameter's name (and no other exception).

    The name may go on with an index or a key, as in players[1].kill, before the colon.
    """
    with pytest.raises(ValueError) as caught:
        call()
    assert re.match(rf"{re.escape(name)}(\[\d+\])?(\.\w+)?:", str(caught.value)), str(caught.value)


def is_probability(p):
    return isinstance(p, Fraction) and 0 <= p <= 1


def tail(distribution, k):
    """P(at least k) of a list indexed by count."""
    return sum(distribution[k:], Fraction(0))


# --------------------------------------------------------------------------- wotr_combat

ROLL_PARAMS = {"dice": (0, 5), "hit": (1, 7), "modifier": (-5, 5), "rerolls": (0, 5), "reroll_modifier": (-5, 5)}


@FAST
@given(name=st.sampled_from(sorted(ROLL_PARAMS) + ["reroll_hit"]), data=st.data())
def test_combat_roll_refuses_bad_values_by_name(name, data):
    low, high = ROLL_PARAMS.get(name, (1, 7))
    bad = data.draw(bad_whole(low, high, optional=name == "reroll_hit"))
    refuses(lambda: combat_roll(**{"dice": 2, name: bad}), name)
    refuses(lambda: describe_roll(**{"dice": 2, name: bad}), name)


@FAST
@given(hit=st.one_of(st.integers(1, 7), bad_whole(1, 7)), modifier=st.one_of(st.integers(-5, 5), bad_whole(-5, 5)))
def test_die_hits_refuses_bad_values_by_name(hit, modifier):
    hit_ok = isinstance(hit, int) and not isinstance(hit, bool) and 1 <= hit <= 7
    modifier_ok = isinstance(modifier, int) and not isinstance(modifier, bool) and -5 <= modifier <= 5
    if hit_ok and modifier_ok:
        assert is_probability(die_hits(hit, modifier))
    else:
        refuses(lambda: die_hits(hit, modifier), "hit" if not hit_ok else "modifier")


roll_args = st.fixed_dictionaries({
    "dice": st.integers(0, 4), "hit": st.integers(1, 7), "modifier": st.integers(-5, 5),
    "rerolls": st.integers(0, 5), "reroll_modifier": st.integers(-5, 5),
    "reroll_hit": st.one_of(st.none(), st.integers(1, 7)),
})


@FAST
@given(args=roll_args)
def test_one_more_die_never_lowers_the_chance_of_a_hit_whatever_the_reroll(args):
    fewer = combat_roll(**args)
    more = combat_roll(**{**args, "dice": args["dice"] + 1})
    assert all(is_probability(p) for p in more) and sum(more) == 1
    # at least one hit, and every other count, with any re-roll hit number and modifier
    for k in range(args["dice"] + 2):
        assert at_least(more, k) >= at_least(fewer, k)


@FAST
@given(args=roll_args)
def test_a_harder_hit_number_never_raises_the_chance_of_hits(args):
    if args["hit"] == 7:
        return
    easier = combat_roll(**args)
    harder = combat_roll(**{**args, "hit": args["hit"] + 1})
    for k in range(args["dice"] + 1):
        assert at_least(harder, k) <= at_least(easier, k)


@FAST
@given(args=roll_args)
def test_the_reroll_hit_number_and_modifier_only_move_hits_one_way(args):
    base = {**args, "reroll_hit": args["reroll_hit"] or args["hit"]}
    distribution = combat_roll(**base)
    if base["reroll_hit"] < 7:
        harder = combat_roll(**{**base, "reroll_hit": base["reroll_hit"] + 1})
        assert all(at_least(harder, k) <= at_least(distribution, k) for k in range(args["dice"] + 1))
    if base["reroll_modifier"] < 5:
        better = combat_roll(**{**base, "reroll_modifier": base["reroll_modifier"] + 1})
        assert all(at_least(better, k) >= at_least(distribution, k) for k in range(args["dice"] + 1))


@FAST
@given(dice=st.integers(0, 5), hit=st.integers(1, 7), modifier=st.integers(-5, 5))
def test_without_rerolls_the_mean_is_dice_times_one_die(dice, hit, modifier):
    # linearity of expectation: each of the dice hits with die_hits(hit, modifier)
    assert expected_hits(combat_roll(dice, hit, modifier)) == dice * die_hits(hit, modifier)


# --------------------------------------------------------------------------- wotr_battle (small armies)

ARMY_INTS = {"regulars": (0, 30), "elites": (0, 30), "leadership": (0, 10), "modifier": (-5, 5),
             "reroll_modifier": (-5, 5)}
ARMY_CHOICES = {"casualty_policy": ("strength", "elites")}


def is_round_window(value):
    """A modifier_rounds text the engine accepts: all, first, 3, 2-4 or 3- (rounds 1 to 100)."""
    try:
        modifier_window("modifier_rounds", value)
    except ValueError:
        return False
    return True


@FAST
@given(side=st.sampled_from(["attacker", "defender"]),
       field=st.sampled_from(sorted(ARMY_INTS) + sorted(ARMY_CHOICES) + ["modifier_rounds", "replacement_regulars"]),
       data=st.data())
def test_battle_refuses_a_bad_army_value_by_name(side, field, data):
    if field in ARMY_INTS:
        bad = data.draw(bad_whole(*ARMY_INTS[field]))
    elif field == "replacement_regulars":
        bad = data.draw(bad_whole(0, 99, optional=True))
    elif field == "modifier_rounds":
        bad = data.draw(st.one_of(NOT_A_NUMBER, st.integers(), st.text(max_size=8),
                                  st.from_regex(r"[0-9]{1,4}(-[0-9]{0,4})?", fullmatch=True))
                        .filter(lambda v: not is_round_window(v)))
    else:
        bad = data.draw(bad_choice(ARMY_CHOICES[field]))
    armies = {"attacker": Army(1, 1), "defender": Army(1, 0)}
    armies[side] = Army(**{"regulars": 1, "elites": 0, field: bad})
    # named as the API and the form name it: attacker_regulars, defender_policy, ...
    api_name = "policy" if field == "casualty_policy" else field
    refuses(lambda: battle(armies["attacker"], armies["defender"]), f"{side}_{api_name}")


@FAST
@given(name=st.sampled_from(["terrain", "rounds", "attacker_ceases_at", "siege_continue", "attacker", "defender",
                             "withdraw_after", "siege_battles", "exact"]),
       data=st.data())
def test_battle_refuses_bad_settings_by_name(name, data):
    bad = data.draw({
        "terrain": bad_choice(("field", "city", "fortification", "siege")),
        "rounds": bad_whole(1, 100, optional=True),
        "attacker_ceases_at": bad_whole(0, 30, optional=True),
        "siege_continue": bad_flag(),
        "attacker": NOT_A_NUMBER,
        "defender": NOT_A_NUMBER,
        "withdraw_after": bad_whole(0, 99, optional=True),
        "siege_battles": bad_whole(1, 5),
        "exact": bad_flag(),
    }[name])
    arguments = {"attacker": Army(1, 0), "defender": Army(1, 0), name: bad}
    refuses(lambda: battle(**arguments), name)


@FAST
@given(regulars=st.one_of(st.integers(0, 3), NOT_A_NUMBER), elites=st.one_of(st.integers(0, 3), NOT_A_NUMBER),
       hits=st.one_of(st.integers(0, 6), NOT_A_NUMBER), policy=st.one_of(st.sampled_from(["strength", "elites"]),
                                                                           NOT_A_NUMBER))
def test_remove_casualties_refuses_bad_values_by_name(regulars, elites, hits, policy):
    def whole(v):
        return isinstance(v, int) and not isinstance(v, bool)

    checks = [("policy", isinstance(policy, str) and policy in ("strength", "elites")),
              ("regulars", whole(regulars)), ("elites", whole(elites)), ("hits", whole(hits))]
    first_bad = next((name for name, ok in checks if not ok), None)
    if first_bad is None:
        left = remove_casualties(regulars, elites, hits, policy)
        # never more units, never more hit points than were there minus the hits
        assert left[0] + left[1] <= regulars + elites
        assert left[0] + 2 * left[1] <= max(0, regulars + 2 * elites - hits)
    else:
        refuses(lambda: remove_casualties(regulars, elites, hits, policy), first_bad)


def exact_battle(*args, **kwargs):
    """The battle engine in exact fractions, so the invariants below hold with ==."""
    return battle(*args, exact=True, **kwargs)


small_army = st.builds(
    lambda r, e, lead, policy: Army(r if r + e else 1, e, lead, policy),
    st.integers(0, 2), st.integers(0, 2), st.integers(0, 2), st.sampled_from(["strength", "elites"]))


def gone(result, side):
    """P(the side has no units left): eliminated alone or together with the other side."""
    return result["outcomes"][f"{side}_eliminated"] + result["outcomes"]["both_eliminated"]


@SLOW
@given(attacker=small_army, defender=small_army, terrain=st.sampled_from(["field", "city", "fortification"]),
       rounds=st.integers(1, 3))
def test_a_round_limit_is_the_start_of_the_battle_fought_to_the_end(attacker, defender, terrain, rounds):
    limited = exact_battle(attacker, defender, terrain=terrain, rounds=rounds)
    longer = exact_battle(attacker, defender, terrain=terrain, rounds=rounds + 1)
    full = exact_battle(attacker, defender, terrain=terrain)
    for side in ("attacker", "defender"):
        assert gone(limited, side) <= gone(longer, side) <= gone(full, side)
        # fighting n rounds gives exactly the n-th row of the round-by-round table
        assert gone(limited, side) == full["per_round"][rounds - 1][f"{side}_eliminated"] + \
            full["per_round"][rounds - 1]["both_eliminated"]
    for result in (limited, full):
        assert sum(result["outcomes"].values()) == 1
        for side in ("attacker", "defender"):
            # no units left is the same event as the side being eliminated
            assert result[f"{side}_survivors"][0] == gone(result, side)
            units = (attacker if side == "attacker" else defender).units
            assert 0 <= result[f"expected_{side}_casualties"] <= units
    stopped = [row["still_fighting"] for row in full["per_round"] if row["round"] is not None]
    assert stopped == sorted(stopped, reverse=True) and all(is_probability(p) for p in stopped)


@SLOW
@given(attacker=small_army, defender=small_army, extra=st.sampled_from(["leadership", "modifier", "reroll_modifier"]))
def test_in_round_one_the_attackers_own_help_only_moves_the_defenders_losses(attacker, defender, extra):
    base = exact_battle(attacker, defender, rounds=1)
    bump = {"leadership": 1, "modifier": 1, "reroll_modifier": 1}[extra]
    helped = exact_battle(dataclasses.replace(attacker, **{extra: getattr(attacker, extra) + bump}), defender, rounds=1)
    # both roll at once, so the attacker's dice cannot change what the defender does to it
    assert gone(helped, "attacker") == gone(base, "attacker")
    assert gone(helped, "defender") >= gone(base, "defender")


@SLOW
@given(attacker=small_army, defender=small_army, terrain=st.sampled_from(["city", "fortification", "siege"]))
def test_walls_never_help_the_attacker_in_round_one(attacker, defender, terrain):
    if terrain == "siege" and defender.units > 5:
        return
    field = exact_battle(attacker, defender, rounds=1)
    walls = exact_battle(attacker, defender, terrain=terrain, rounds=1)
    assert gone(walls, "defender") <= gone(field, "defender")
    assert gone(walls, "attacker") == gone(field, "attacker")


# --------------------------------------------------------------------------- fotf_dice

search_faces = st.fixed_dictionaries({name: st.integers(0, 4) for name in fotf_dice.SEARCH_FACES}).filter(
    lambda faces: sum(faces.values()) > 0)
battle_faces = st.fixed_dictionaries({name: st.integers(0, 4) for name in fotf_dice.BATTLE_FACES}).filter(
    lambda faces: sum(faces.values()) > 0)


@FAST
@given(dice=st.integers(0, 5), faces=search_faces, in_haven=st.booleans(), nazgul_present=st.booleans(),
       in_mordor=st.booleans(), rerolls=st.integers(0, 3), nazgul=st.one_of(st.none(), st.integers(0, 9)))
def test_search_roll_is_a_distribution_and_rerolls_only_save_hope(dice, faces, in_haven, nazgul_present, in_mordor,
                                                                  rerolls, nazgul):
    if nazgul is not None and ((nazgul > 0) != nazgul_present or nazgul > dice < fotf_dice.MAX_SEARCH_DICE):
        refuses(lambda: fotf_dice.search_roll(dice, faces, nazgul_present=nazgul_present, nazgul=nazgul), "nazgul")
        return
    kwargs = dict(in_haven=in_haven, nazgul_present=nazgul_present, in_mordor=in_mordor, nazgul=nazgul)
    result = fotf_dice.search_roll(dice, faces, rerolls=rerolls, **kwargs)
    more = fotf_dice.search_roll(dice, faces, rerolls=rerolls + 1, **kwargs)
    for r in (result, more):
        assert len(r["hope_lost"]) == len(r["recall"]) == dice + 1
        assert sum(r["hope_lost"]) == 1 and sum(r["recall"]) == 1
        assert all(is_probability(p) for p in r["hope_lost"] + r["recall"])
    for k in range(dice + 1):
        assert tail(more["hope_lost"], k) <= tail(result["hope_lost"], k)
    if in_mordor or not nazgul_present:
        assert result["recall"][0] == 1
    if nazgul is not None:
        assert all(p == 0 for p in result["recall"][nazgul + 1:])


@FAST
@given(dice=st.integers(1, 3), faces=battle_faces, friendly=st.integers(0, 5), shadow=st.integers(0, 5),
       in_haven=st.booleans(), nazgul_present=st.booleans(), rerolls=st.integers(0, 3))
def test_battle_roll_marginals_come_from_the_joint_distribution(dice, faces, friendly, shadow, in_haven,
                                                                 nazgul_present, rerolls):
    if not friendly or not shadow:  # a battle needs troops of both sides
        refuses(lambda: fotf_dice.battle_roll(dice, faces, friendly, shadow), "friendly_troops" if not friendly
                else "shadow_troops")
        return
    r = fotf_dice.battle_roll(dice, faces, friendly, shadow, in_haven=in_haven, nazgul_present=nazgul_present,
                              rerolls=rerolls)
    joint = r["joint"]
    assert sum(cell["probability"] for cell in joint) == 1
    assert all(is_probability(cell["probability"]) for cell in joint)
    assert len(r["shadow_removed"]) == min(dice, shadow) + 1
    assert len(r["friendly_removed"]) == min(2 * dice, friendly) + 1
    for k, p in enumerate(r["shadow_removed"]):
        assert p == sum((c["probability"] for c in joint if c["shadow"] == k), Fraction(0))
    for k, p in enumerate(r["friendly_removed"]):
        assert p == sum((c["probability"] for c in joint if c["friendly"] == k), Fraction(0))
    if in_haven:
        assert is_probability(r["haven_lost"])
        assert (r["haven_lost"] == 0) if shadow == 0 else True
    else:
        assert r["haven_lost"] is None
    assert 0 <= r["expected_rerolls_spent"] <= rerolls


@FAST
@given(nazgul=st.integers(0, 8), shadow=st.integers(0, 3), hope=st.integers(1, 6), missing=st.integers(0, 3),
       faces=search_faces, rerolls=st.integers(0, 2))
def test_ring_roll_more_dice_never_help_and_hope_and_rerolls_never_hurt(nazgul, shadow, hope, missing, faces,
                                                                        rerolls):
    r = fotf_dice.ring_roll(nazgul, shadow, hope, missing, faces, rerolls=rerolls)
    assert is_probability(r["win"]) and sum(r["hope_lost"]) == 1
    assert r["win"] == sum(r["hope_lost"][:hope], Fraction(0))
    assert fotf_dice.ring_roll(nazgul + 1, shadow, hope, missing, faces, rerolls=rerolls)["win"] <= r["win"]
    assert fotf_dice.ring_roll(nazgul, shadow, hope + 1, missing, faces, rerolls=rerolls)["win"] >= r["win"]
    assert fotf_dice.ring_roll(nazgul, shadow, hope, missing, faces, rerolls=rerolls + 1)["win"] >= r["win"]


FOTF_CALLS = {
    "search_roll": (lambda **kw: fotf_dice.search_roll(**{"dice": 2, "faces": {n: 1 for n in fotf_dice.SEARCH_FACES},
                                                         **kw}),
                    {"dice": bad_whole(0, 7), "rerolls": bad_whole(0, 7), "nazgul": bad_whole(0, 9, optional=True),
                     "in_haven": bad_flag(), "nazgul_present": bad_flag(), "in_mordor": bad_flag()}),
    "battle_roll": (lambda **kw: fotf_dice.battle_roll(**{"dice": 2, "faces": {n: 1 for n in fotf_dice.BATTLE_FACES},
                                                         "friendly_troops": 2, "shadow_troops": 2, **kw}),
                    {"dice": bad_whole(1, 3), "friendly_troops": bad_whole(0, 99), "shadow_troops": bad_whole(0, 39),
                     "rerolls": bad_whole(0, 7), "in_haven": bad_flag(), "nazgul_present": bad_flag()}),
    "ring_roll": (lambda **kw: fotf_dice.ring_roll(**{"nazgul": 1, "shadow_troops": 1, "hope": 3, "hope_missing": 1,
                                                     "faces": {n: 1 for n in fotf_dice.SEARCH_FACES}, **kw}),
                  {"nazgul": bad_whole(0, 9), "shadow_troops": bad_whole(0, 39), "hope": bad_whole(1, 30),
                   "hope_missing": bad_whole(0, 30), "rerolls": bad_whole(0, 7)}),
    "battle_dice": (lambda **kw: fotf_dice.battle_dice(**{"initiator": "attack", "friendly_troops": 1,
                                                         "shadow_troops": 1, **kw}),
                    {"initiator": bad_choice(("attack", "shadow", "skies-darken")),
                     "friendly_troops": bad_whole(0, 99), "shadow_troops": bad_whole(1, 39)}),
}


@FAST
@given(function=st.sampled_from(sorted(FOTF_CALLS)), data=st.data())
def test_fotf_rolls_refuse_bad_values_by_name(function, data):
    call, params = FOTF_CALLS[function]
    name = data.draw(st.sampled_from(sorted(params)))
    bad = data.draw(params[name])
    refuses(lambda: call(**{name: bad}), name)


@FAST
@given(function=st.sampled_from(["search_roll", "battle_roll", "ring_roll"]),
       faces=st.one_of(NOT_A_NUMBER, st.dictionaries(st.one_of(st.text(max_size=8), st.integers(), st.none()),
                                                     st.one_of(st.integers(-2, 3), NOT_A_NUMBER), max_size=5)))
def test_fotf_rolls_refuse_bad_face_counts_by_name(function, faces):
    die = "battle" if function == "battle_roll" else "search"
    names = fotf_dice.SEARCH_FACES if die == "search" else fotf_dice.BATTLE_FACES
    counts = faces.get(die, faces) if isinstance(faces, dict) else faces
    valid = (isinstance(counts, dict) and set(counts) == set(names)
             and all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts.values())
             and sum(counts.values()) > 0)
    if valid:
        return
    refuses(lambda: FOTF_CALLS[function][0](faces=faces), "faces")


# --------------------------------------------------------------------------- meccg

influence_args = st.fixed_dictionaries({
    "kind": st.sampled_from(INFLUENCE_KINDS), "direct_influence": st.integers(0, 29), "modifiers": st.integers(-20, 19),
    "opponent_general_influence": st.integers(0, 29), "controller_direct_influence": st.integers(0, 29),
    "mind": st.integers(0, 29), "identical": st.booleans(),
}).map(lambda a: {**a, "identical": True} if a["kind"] == "item" else a)


@FAST
@given(args=influence_args)
def test_influence_moves_the_right_way_with_every_number(args):
    p = influence_attempt(**args)["probability"]
    assert is_probability(p)
    for name, direction in (("direct_influence", +1), ("modifiers", +1), ("opponent_general_influence", -1),
                            ("controller_direct_influence", -1), ("mind", -1)):
        q = influence_attempt(**{**args, name: args[name] + 1})["probability"]
        assert (q >= p) if direction > 0 else (q <= p), name


INFLUENCE_BAD = {"kind": bad_choice(INFLUENCE_KINDS), "direct_influence": bad_whole(0, 30),
                 "modifiers": bad_whole(-20, 20), "opponent_general_influence": bad_whole(0, 30),
                 "controller_direct_influence": bad_whole(0, 30), "mind": bad_whole(0, 30), "identical": bad_flag()}


@FAST
@given(name=st.sampled_from(sorted(INFLUENCE_BAD)), data=st.data())
def test_influence_refuses_bad_values_by_name(name, data):
    bad = data.draw(INFLUENCE_BAD[name])
    refuses(lambda: influence_attempt(**{"kind": "character", "direct_influence": 3, name: bad}), name)


@FAST
@given(di=st.integers(0, 29), modifiers=st.integers(-20, 19), number=st.integers(0, 29),
       name=st.sampled_from(["direct_influence", "modifiers", "faction_number"]), data=st.data())
def test_faction_play_is_monotone_and_refuses_bad_values(di, modifiers, number, name, data):
    p = faction_play(di, modifiers, number)["probability"]
    assert is_probability(p)
    assert faction_play(di + 1, modifiers, number)["probability"] >= p
    assert faction_play(di, modifiers + 1, number)["probability"] >= p
    assert faction_play(di, modifiers, number + 1)["probability"] <= p
    args = {"direct_influence": di, "modifiers": modifiers, "faction_number": number}
    args[name] = data.draw(bad_whole(-20, 20) if name == "modifiers" else bad_whole(0, 30))
    refuses(lambda: faction_play(**args), name)


strike_args = st.fixed_dictionaries({
    "prowess": st.integers(-20, 20), "strike_prowess": st.integers(-20, 30), "tapped": st.booleans(),
    "wounded": st.booleans(), "stay_untapped": st.booleans(), "unused_strikes": st.integers(0, 20),
    "support": st.integers(0, 19), "resource_modifier": st.integers(-20, 20), "other_modifiers": st.integers(-20, 20),
    "body": st.one_of(st.none(), st.integers(0, 20)), "creature_body": st.one_of(st.none(), st.integers(0, 20)),
}).map(lambda a: {**a, "stay_untapped": False} if a["tapped"] or a["wounded"] else a)


@FAST
@given(args=strike_args)
def test_strike_outcomes_partition_and_support_only_helps(args):
    r = strike(**args)
    assert r["defeated"] + r["ineffectual"] + r["successful"] == 1
    assert all(is_probability(r[k]) for k in ("defeated", "ineffectual", "successful"))
    if args["body"] is None:
        assert r["character_eliminated"] is None
    else:
        assert is_probability(r["body_check_fail"]) and r["character_eliminated"] <= r["successful"]
    if args["creature_body"] is None:
        assert r["creature_defeated"] is None
    else:
        assert r["creature_defeated"] <= r["defeated"]
    helped = strike(**{**args, "support": args["support"] + 1})
    assert helped["defeated"] >= r["defeated"] and helped["successful"] <= r["successful"]
    if not args["tapped"] and not args["stay_untapped"]:
        tapped = strike(**{**args, "tapped": True})
        assert tapped["defeated"] <= r["defeated"]


STRIKE_BAD = {"prowess": bad_whole(-20, 20), "strike_prowess": bad_whole(-20, 30), "tapped": bad_flag(),
              "wounded": bad_flag(), "stay_untapped": bad_flag(), "unused_strikes": bad_whole(0, 20),
              "support": bad_whole(0, 20), "resource_modifier": bad_whole(-20, 20),
              "other_modifiers": bad_whole(-20, 20), "body": bad_whole(0, 20, optional=True),
              "already_wounded": bad_flag().filter(lambda v: v is not None),
              "creature_body": bad_whole(0, 20, optional=True)}


@FAST
@given(name=st.sampled_from(sorted(STRIKE_BAD)), data=st.data())
def test_strike_refuses_bad_values_by_name(name, data):
    bad = data.draw(STRIKE_BAD[name])
    refuses(lambda: strike(**{"prowess": 5, "strike_prowess": 8, name: bad}), name)


@FAST
@given(corruption=st.integers(0, 29), modifier=st.integers(-20, 19), support=st.integers(0, 19))
def test_more_corruption_never_raises_the_chance_to_pass(corruption, modifier, support):
    r = corruption_check(corruption, modifier, support)
    assert r["pass"] + r["discard"] + r["eliminate"] == 1
    assert all(is_probability(r[k]) for k in ("pass", "discard", "eliminate"))
    worse = corruption_check(corruption + 1, modifier, support)
    assert worse["pass"] <= r["pass"] and worse["eliminate"] >= r["eliminate"]
    assert corruption_check(corruption, modifier + 1, support)["pass"] >= r["pass"]
    assert corruption_check(corruption, modifier, support + 1)["pass"] >= r["pass"]


@FAST
@given(need=st.integers(0, 29), modifier=st.integers(-20, 20), untapped=st.booleans())
def test_removal_roll_is_monotone(need, modifier, untapped):
    greater = corruption_removal(need, modifier, untapped, "greater")["probability"]
    at_least_p = corruption_removal(need, modifier, untapped, "at-least")["probability"]
    assert is_probability(greater) and greater <= at_least_p
    assert corruption_removal(need + 1, modifier, untapped)["probability"] <= greater
    assert corruption_removal(need, modifier, True)["probability"] <= corruption_removal(need, modifier)["probability"]


CORRUPTION_CALLS = {
    "corruption_check": (corruption_check, {"corruption": 5},
                         {"corruption": bad_whole(0, 30), "modifier": bad_whole(-20, 20), "support": bad_whole(0, 20)}),
    "corruption_removal": (corruption_removal, {"need": 5},
                           {"need": bad_whole(0, 30), "modifier": bad_whole(-20, 20), "stay_untapped": bad_flag(),
                            "comparison": bad_choice(("greater", "at-least"))}),
    "council_can_be_called": (council_can_be_called,
                              {"deck_exhaustions": 1, "marshalling_points": 20, "opponent_deck_exhaustions": 0},
                              {"deck_exhaustions": bad_whole(0, 10), "marshalling_points": bad_whole(-MAX_CALLING_POINTS, MAX_CALLING_POINTS),
                               "opponent_deck_exhaustions": bad_whole(0, 10)}),
}


@FAST
@given(function=st.sampled_from(sorted(CORRUPTION_CALLS)), data=st.data())
def test_corruption_and_calling_refuse_bad_values_by_name(function, data):
    call, base, params = CORRUPTION_CALLS[function]
    name = data.draw(st.sampled_from(sorted(params)))
    bad = data.draw(params[name])
    refuses(lambda: call(**{**base, name: bad}), name)


player = st.fixed_dictionaries({}, optional={
    **{name: st.integers(*SOURCE_RANGE) for name in SOURCES},
    **{name: st.integers(low, high) for name, (low, high) in PLAYER_COUNTS.items()},
    "avatar_eliminated": st.booleans(),
})


@FAST
@given(first=player, second=player, ruleset=st.sampled_from(["seed", "council-of-elrond"]))
def test_free_council_is_the_same_with_the_players_swapped(first, second, ruleset):
    result = free_council([first, second], ruleset)
    swapped = free_council([second, first], ruleset)
    totals = [p["total"] for p in result["players"]]
    assert [p["total"] for p in swapped["players"]] == totals[::-1]
    assert all(isinstance(t, int) for t in totals)
    expected = None if totals[0] == totals[1] else totals.index(max(totals))
    assert result["winner"] == expected
    # no source above the limit after the half rule (negative sources count as 0)
    for p in result["players"]:
        counted = {k: max(v, 0) for k, v in p["sources"].items()}
        for name, value in counted.items():
            others = sum(counted.values()) - value
            assert value <= (others + 1 if ruleset == "seed" else others)


@FAST
@given(index=st.integers(0, 1), key=st.sampled_from(SOURCES + tuple(PLAYER_COUNTS) + ("avatar_eliminated",)),
       data=st.data())
def test_free_council_refuses_a_bad_entry_by_its_place(index, key, data):
    if key == "avatar_eliminated":
        bad = data.draw(bad_flag().filter(lambda v: v is not None))
    else:
        bad = data.draw(bad_whole(*(SOURCE_RANGE if key in SOURCES else PLAYER_COUNTS[key])).filter(
            lambda v: v is not None))
    players = [{}, {}]
    players[index] = {key: bad}
    refuses(lambda: free_council(players), f"players[{index}].{key}")


@FAST
@given(players=st.one_of(NOT_A_NUMBER, st.lists(st.one_of(st.just({}), NOT_A_NUMBER), max_size=3)),
       ruleset=st.one_of(st.just("seed"), bad_choice(("seed", "council-of-elrond"))))
def test_free_council_refuses_bad_shapes_by_name(players, ruleset):
    if ruleset != "seed":
        refuses(lambda: free_council([{}, {}], ruleset), "ruleset")
        return
    if isinstance(players, (list, tuple)) and len(players) == 2 and all(isinstance(p, dict) for p in players):
        return
    refuses(lambda: free_council(players, ruleset), "players")


# --------------------------------------------------------------------------- meq_dominance

spaces = st.integers(0, meq_dominance.MAX_SPACES)
three = st.lists(spaces, min_size=3, max_size=3)


@FAST
@given(hero=spaces, to_finale=three, to_falls=three, first_turn=st.booleans())
def test_dominance_follows_the_lower_count(hero, to_finale, to_falls, first_turn):
    r = meq_dominance.dominance(hero, to_finale, to_falls, first_turn=first_turn)
    sauron = min(min(to_finale), sum(to_falls))
    assert (r["heroes"], r["sauron"]) == (hero, sauron)
    assert r["dominant"] == ("heroes" if hero < sauron else "sauron" if sauron < hero else "none")
    assert r["ringwraiths_modifier"] == {"heroes": -sauron, "sauron": hero, "none": 0}[r["dominant"]]
    assert r["event"] == ("draw-one" if first_turn else {"heroes": "lowest", "sauron": "highest",
                                                         "none": "draw-one"}[r["dominant"]])
    if r["dominant"] == "heroes" and hero > 0:
        # moving the heroes' marker closer to the Finale keeps them dominant
        assert meq_dominance.dominance(hero - 1, to_finale, to_falls)["dominant"] == "heroes"


@FAST
@given(name=st.sampled_from(["hero_to_finale", "sauron_to_finale", "sauron_to_shadow_falls", "first_turn"]),
       data=st.data())
def test_dominance_refuses_bad_values_by_name(name, data):
    bad_list = st.one_of(
        NOT_A_NUMBER.filter(lambda v: not (isinstance(v, list) and len(v) == 3)),
        st.lists(spaces, max_size=5).filter(lambda v: len(v) != 3),
        st.tuples(spaces, spaces, bad_whole(0, meq_dominance.MAX_SPACES)),
    )
    bad = data.draw({"hero_to_finale": bad_whole(0, meq_dominance.MAX_SPACES), "sauron_to_finale": bad_list,
                     "sauron_to_shadow_falls": bad_list, "first_turn": bad_flag()}[name])
    args = {"hero_to_finale": 5, "sauron_to_finale": [6, 7, 8], "sauron_to_shadow_falls": [1, 1, 1], name: bad}
    refuses(lambda: meq_dominance.dominance(**args), name)


# --------------------------------------------------------------------------- wotr_cards

icons = st.integers(0, 12)
defender_card = st.one_of(icons, st.fixed_dictionaries({"defence": icons, "items": st.lists(icons, max_size=2)}))


def card_icons(card):
    return card if isinstance(card, int) else card["defence"] + sum(card["items"])


@FAST
@given(attack=icons, path_defence=icons, defenders=st.lists(defender_card, max_size=5), points=icons)
def test_path_combat_accounts_for_every_attack_and_card(attack, path_defence, defenders, points):
    given_order = wotr_cards.path_combat(attack, path_defence, defenders, path_points=points)
    fewest = wotr_cards.path_combat(attack, path_defence, defenders, path_points=points, order="fewest-losses")
    total = sum(card_icons(c) for c in defenders)
    for r in (given_order, fewest):
        assert sorted(r["eliminated"] + r["cycled"]) == list(range(len(defenders)))
        assert r["uncancelled"] == max(0, attack - path_defence - total)
        assert (r["winner"] == "free-peoples") == (r["uncancelled"] == 0)
        assert r["shadow_corruption"] == r["uncancelled"]
        assert r["free_peoples_points"] == (points if r["winner"] == "free-peoples" else 0)
        assert r["eliminated"] == r["order"][:len(r["eliminated"])]
        # every attack is cancelled by the path or a card, or left: the page's table adds up
        assert r["attack"] == r["cancelled_by_path"] + r["cancelled_by_defenders"] + r["uncancelled"]
        assert r["cancelled_by_defenders"] <= sum(card_icons(defenders[i]) for i in r["eliminated"])
    # giving up the strongest cards first never loses more cards
    assert len(fewest["eliminated"]) <= len(given_order["eliminated"])


attacker_card = st.fixed_dictionaries({"attack": icons}, optional={
    "leadership": icons, "faction": st.sampled_from(["", "orc", "elf"]), "is_army": st.booleans()})


@FAST
@given(owner=st.sampled_from(wotr_cards.TEAMS), attackers=st.lists(attacker_card, max_size=4), defence=icons,
       defenders=st.lists(defender_card, max_size=4), reactivated=st.booleans(), points=icons)
def test_battleground_combat_counts_leadership_once(owner, attackers, defence, defenders, reactivated, points):
    r = wotr_cards.battleground_combat(owner, attackers, defence, defenders, reactivated=reactivated, points=points)
    assert r["attack"] == r["attack_icons"] + r["leadership_counted"]
    assert r["leadership_counted"] + r["leadership_ignored"] == sum(a.get("leadership", 0) for a in attackers)
    assert r["attack_icons"] == sum(a["attack"] for a in attackers)
    assert r["attackers_eliminated"] == list(range(len(attackers)))
    assert (r["winner"] == "defenders") == (r["uncancelled"] == 0)
    assert (r["winning_team"] == owner) == (r["winner"] == "defenders")
    assert r["free_peoples_points"] + r["shadow_points"] == points
    if reactivated:
        assert r["cancelled_by_battleground"] == 0
    assert r["attack"] == r["cancelled_by_battleground"] + r["cancelled_by_defenders"] + r["uncancelled"]
    assert r["cancelled_by_defenders"] <= sum(card_icons(defenders[i]) for i in r["eliminated"])


@FAST
@given(fp=st.integers(0, 999), sp=st.integers(0, 999), corruption=st.integers(0, 999))
def test_victory_needs_a_lead_of_ten(fp, sp, corruption):
    r = wotr_cards.victory_check(fp, sp, corruption)
    assert r["shadow"] == sp + corruption and r["lead"] == abs(fp - sp - corruption)
    assert (r["winner"] is not None) == (r["lead"] >= 10)
    if r["winner"]:
        assert r["winner"] == r["leader"]


# The largest combats the engine takes: MAX_CARDS cards a side, MAX_ITEMS items a card, the most icons.
full_icons = st.integers(0, wotr_cards.MAX_ICONS)
full_side = st.lists(st.one_of(full_icons, st.fixed_dictionaries({"defence": full_icons, "items": st.lists(
    full_icons, min_size=wotr_cards.MAX_ITEMS, max_size=wotr_cards.MAX_ITEMS)})),
    min_size=wotr_cards.MAX_CARDS, max_size=wotr_cards.MAX_CARDS)
longest_names = ["", "a" * wotr_cards.MAX_FACTION_CHARS, "b" * wotr_cards.MAX_FACTION_CHARS]
full_attackers = st.lists(st.fixed_dictionaries({
    "attack": full_icons, "leadership": full_icons, "is_army": st.booleans(), "faction": st.sampled_from(longest_names)}),
    min_size=wotr_cards.MAX_CARDS, max_size=wotr_cards.MAX_CARDS)


@SLOW
@given(attack=full_icons, path_defence=full_icons, defenders=full_side, order=st.sampled_from(wotr_cards.ORDERS))
def test_path_combat_at_the_largest_allowed_inputs(attack, path_defence, defenders, order):
    r = wotr_cards.path_combat(attack, path_defence, defenders, path_points=wotr_cards.MAX_ICONS, order=order)
    assert sorted(r["eliminated"] + r["cycled"]) == list(range(wotr_cards.MAX_CARDS))
    assert r["uncancelled"] == max(0, attack - path_defence - sum(card_icons(c) for c in defenders))
    # one line of working per card eliminated, and a fixed few more
    assert len(r["steps"]) == len(r["eliminated"]) + (6 if r["cycled"] else 5)


@SLOW
@given(owner=st.sampled_from(wotr_cards.TEAMS), attackers=full_attackers, defenders=full_side,
       reactivated=st.booleans())
def test_battleground_combat_at_the_largest_allowed_inputs(owner, attackers, defenders, reactivated):
    r = wotr_cards.battleground_combat(owner, attackers, wotr_cards.MAX_ICONS, defenders, reactivated=reactivated,
                                       points=wotr_cards.MAX_ICONS, order="fewest-losses")
    armies = {a["faction"] for a in attackers if a["is_army"] and a["faction"]}
    assert r["leadership_counted"] == sum(a["leadership"] for a in attackers if a["faction"] in armies)
    assert sorted(r["eliminated"] + r["cycled"]) == list(range(wotr_cards.MAX_CARDS))
    assert r["attackers_eliminated"] == list(range(wotr_cards.MAX_CARDS))


ONE_TOO_MANY = wotr_cards.MAX_CARDS + 1


@pytest.mark.parametrize("name, call", [
    ("defenders", lambda: wotr_cards.path_combat(1, 0, [0] * ONE_TOO_MANY)),
    ("defenders", lambda: wotr_cards.path_combat(1, 0, [0] * 32_700)),  # a whole 64 KB request of them
    ("defenders", lambda: wotr_cards.path_combat(1, 0, [{"defence": 0, "items": [0] * (wotr_cards.MAX_ITEMS + 1)}])),
    ("defenders", lambda: wotr_cards.fewest_losses_order([1] * ONE_TOO_MANY)),
    ("attackers", lambda: wotr_cards.battleground_combat("shadow", [{"attack": 1}] * ONE_TOO_MANY, 0, [])),
    ("attackers", lambda: wotr_cards.battleground_combat(
        "shadow", [{"attack": 1, "faction": "a" * (wotr_cards.MAX_FACTION_CHARS + 1)}], 0, [])),
    ("defenders", lambda: wotr_cards.battleground_combat("shadow", [{"attack": 1}], 0, [1] * ONE_TOO_MANY)),
])
def test_card_combat_refuses_more_than_its_limits_by_name(name, call):
    refuses(call, name)


CARD_CALLS = {
    "path_combat": (wotr_cards.path_combat, {"shadow_attack_icons": 2, "path_defence": 1, "defenders": [1]},
                    {"shadow_attack_icons": bad_whole(0, 99), "path_defence": bad_whole(0, 99),
                     "path_points": bad_whole(0, 99), "order": bad_choice(wotr_cards.ORDERS),
                     "defenders": st.one_of(NOT_A_NUMBER.filter(lambda v: not isinstance(v, (list, tuple))),
                                            st.lists(bad_whole(0, 99).filter(lambda v: not isinstance(v, dict)),
                                                     min_size=1, max_size=2),
                                            st.lists(st.fixed_dictionaries({"items": NOT_A_NUMBER.filter(
                                                lambda v: not isinstance(v, list))}), min_size=1, max_size=1))}),
    "battleground_combat": (wotr_cards.battleground_combat,
                            {"owner": "shadow", "attackers": [{"attack": 1}], "battleground_defence": 0,
                             "defenders": [1]},  # with a defending card, so that the order is needed
                            {"owner": bad_choice(wotr_cards.TEAMS), "battleground_defence": bad_whole(0, 99),
                             "points": bad_whole(0, 99), "reactivated": bad_flag(),
                             "order": bad_choice(wotr_cards.ORDERS),
                             "attackers": st.one_of(
                                 NOT_A_NUMBER.filter(lambda v: not isinstance(v, (list, tuple))),
                                 st.lists(NOT_A_NUMBER, min_size=1, max_size=2),
                                 st.lists(st.fixed_dictionaries({"attack": bad_whole(0, 99)}), min_size=1, max_size=1),
                                 st.lists(st.fixed_dictionaries({"attack": icons, "faction": NOT_A_NUMBER.filter(
                                     lambda v: not isinstance(v, str))}), min_size=1, max_size=1))}),
    "victory_check": (wotr_cards.victory_check, {"free_peoples_points": 1, "shadow_points": 1},
                      {"free_peoples_points": bad_whole(0, 999), "shadow_points": bad_whole(0, 999),
                       "shadow_corruption": bad_whole(0, 999)}),
}


@FAST
@given(function=st.sampled_from(sorted(CARD_CALLS)), data=st.data())
def test_card_game_refuses_bad_values_by_name(function, data):
    call, base, params = CARD_CALLS[function]
    name = data.draw(st.sampled_from(sorted(params)))
    bad = data.draw(params[name])
    refuses(lambda: call(**{**base, name: bad}), name)
