"""Tests for the exact War of the Ring battle chain (webapp.engines.wotr_battle)."""
from collections import Counter
from fractions import Fraction as F
from functools import lru_cache, partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.engines import wotr_battle
from webapp.engines.inputs import InputError
from webapp.engines.wotr_battle import Army, modifier_window, remove_casualties, stand_or_withdraw
from webapp.engines.wotr_combat import combat_roll

# the hand-worked cases compare exact fractions (the engine's default is floating point)
battle = partial(wotr_battle.battle, exact=True)

OUTCOME_NAMES = ("defender_eliminated", "attacker_eliminated", "both_eliminated", "neither_eliminated")


def outcomes(result):
    return tuple(result["outcomes"][name] for name in OUTCOME_NAMES)


# --------------------------------------------------------------------------- casualties


def test_one_hit_removes_a_regular():
    assert remove_casualties(3, 0, 1) == (2, 0)


def test_one_hit_downgrades_an_elite_under_strength_policy():
    # replacing the elite keeps all 3 units (Strength 3) instead of dropping to 2
    assert remove_casualties(2, 1, 1, "strength") == (3, 0)


def test_one_hit_removes_a_regular_under_elites_policy():
    assert remove_casualties(2, 1, 1, "elites") == (1, 1)


def test_two_hits_remove_an_elite_when_keeping_elites():
    # 0 regulars, 2 elites, 2 hits: removing one elite keeps 1 elite; downgrading both keeps none
    assert remove_casualties(0, 2, 2, "elites") == (0, 1)
    # keeping Strength instead downgrades both elites: 2 units stay
    assert remove_casualties(0, 2, 2, "strength") == (2, 0)


def test_two_hits_with_one_elite_and_regulars():
    # options: 2 regulars out -> (0, 1); 1 regular out + elite downgraded -> (2, 0); elite out -> (2, 0)
    assert remove_casualties(2, 1, 2, "strength") == (2, 0)
    assert remove_casualties(2, 1, 2, "elites") == (0, 1)


def test_hits_at_or_beyond_hit_points_eliminate():
    # 1 regular + 1 elite = 3 hit points
    assert remove_casualties(1, 1, 3) == (0, 0)
    assert remove_casualties(1, 1, 5, "elites") == (0, 0)
    # 2 hits on 1 regular + 1 elite: every option (regular out + elite downgraded, or elite out) leaves 1 regular
    assert remove_casualties(1, 1, 2, "elites") == (1, 0)
    assert remove_casualties(1, 1, 2, "strength") == (1, 0)


def test_zero_hits_change_nothing():
    assert remove_casualties(4, 2, 0, "elites") == (4, 2)


def test_unknown_policy():
    with pytest.raises(ValueError, match=r"^policy: one of strength, elites"):
        remove_casualties(1, 1, 1, "random")


# --------------------------------------------------------------------------- 1 against 1, by hand


def test_one_against_one_to_the_end():
    # each round: attacker hits 1/3, defender hits 1/3, independently
    # only attacker hits 2/9, only defender 2/9, both 1/9, neither 4/9 (stay)
    # leaving the state: divide by 5/9 -> 2/5, 2/5, 1/5; rounds geometric with mean 9/5
    result = battle(Army(1, 0), Army(1, 0))
    assert outcomes(result) == (F(2, 5), F(2, 5), F(1, 5), F(0))
    assert result["expected_rounds"] == F(9, 5)
    assert result["attacker_survivors"] == [F(3, 5), F(2, 5)]
    assert result["defender_survivors"] == [F(3, 5), F(2, 5)]
    assert result["expected_attacker_casualties"] == F(3, 5)
    assert result["expected_attacker_elites_lost"] == 0


def test_one_against_one_per_round():
    result = battle(Army(1, 0), Army(1, 0))
    first, second = result["per_round"][0], result["per_round"][1]
    assert first == {"round": 1, "defender_eliminated": F(2, 9), "attacker_eliminated": F(2, 9),
                     "both_eliminated": F(1, 9), "neither_eliminated": F(0), "still_fighting": F(4, 9)}
    # round 2 adds 4/9 * 2/9 to the defender's elimination
    assert second["defender_eliminated"] == F(2, 9) + F(4, 9) * F(2, 9)
    assert second["still_fighting"] == F(16, 81)
    # fought to the end: 20 rounds listed, then the exact final values
    assert len(result["per_round"]) == 21
    final = result["per_round"][-1]
    assert final["round"] is None and final["still_fighting"] == 0
    assert final["defender_eliminated"] == F(2, 5)


def test_round_limit_matches_the_geometric_series():
    # P(defender gone within n rounds) = sum_{k<n} (4/9)^k * 2/9 = 2/5 (1 - (4/9)^n)
    for n in (1, 3, 100):
        result = battle(Army(1, 0), Army(1, 0), rounds=n)
        assert result["outcomes"]["defender_eliminated"] == F(2, 5) * (1 - F(4, 9) ** n)
        assert result["outcomes"]["neither_eliminated"] == F(4, 9) ** n
        # expected rounds = 1 + 4/9 + ... + (4/9)^(n-1)
        assert result["expected_rounds"] == sum(F(4, 9) ** k for k in range(n))


def test_elite_against_regular_to_the_end():
    # elite (2 hit points) vs regular. From the start, leaving the state (5/9):
    #   attacker hits (3/9): defender gone -> 3/5 (the elite is downgraded in 1/9 of those)
    #   only defender hits (2/9): elite becomes a regular -> 1 v 1, 2/5
    # then 1 v 1: 2/5, 2/5, 1/5
    result = battle(Army(0, 1), Army(1, 0))
    assert result["outcomes"]["defender_eliminated"] == F(3, 5) + F(2, 5) * F(2, 5)  # 19/25
    assert result["outcomes"]["attacker_eliminated"] == F(2, 5) * F(2, 5)
    assert result["outcomes"]["both_eliminated"] == F(2, 5) * F(1, 5)
    assert result["expected_rounds"] == F(9, 5) + F(2, 5) * F(9, 5)
    detail = {(row["regulars"], row["elites"]): row["probability"] for row in result["attacker_survivors_detail"]}
    # elite untouched: only attacker hits, (2/9)/(5/9); downgraded: both hit (1/5) or wins the 1 v 1 (4/25)
    assert detail == {(0, 1): F(2, 5), (1, 0): F(1, 5) + F(4, 25), (0, 0): F(6, 25)}
    assert result["expected_attacker_elites_lost"] == F(3, 5)
    assert result["expected_attacker_casualties"] == F(6, 25)


def test_simultaneous_elimination_in_one_round():
    # both hit in round 1: 1/3 * 1/3
    result = battle(Army(1, 0), Army(1, 0), rounds=1)
    assert outcomes(result) == (F(2, 9), F(2, 9), F(1, 9), F(4, 9))


def test_leader_reroll_in_battle():
    # attacker hits 5/9 (with 1 re-roll), defender misses 2/3
    result = battle(Army(1, 0, leadership=1), Army(1, 0), rounds=1)
    assert result["outcomes"]["defender_eliminated"] == F(5, 9) * F(2, 3)


def test_leadership_beyond_five_rerolls_no_more():
    assert outcomes(battle(Army(5, 0, leadership=10), Army(5, 0), rounds=2)) == \
        outcomes(battle(Army(5, 0, leadership=5), Army(5, 0), rounds=2))


def test_strength_beyond_five_rolls_five_dice():
    # one round, defender of 1 unit: only the attacker's dice matter for the defender's fate
    six = battle(Army(6, 0), Army(1, 0), rounds=1)["outcomes"]
    assert six["defender_eliminated"] + six["both_eliminated"] == 1 - F(2, 3) ** 5


# --------------------------------------------------------------------------- modifiers


def test_modifier_every_round_or_first_round_only():
    # attacker +1: hits 1/2; defender 1/3
    one_round = battle(Army(1, 0, modifier=1), Army(1, 0), rounds=1)
    assert one_round["outcomes"]["defender_eliminated"] == F(1, 2) * F(2, 3)
    # quiet round 1: 1/2 * 2/3 = 1/3. Round 2 defender-only loss: all: 1/2*2/3, first: 1/3*2/3
    every = battle(Army(1, 0, modifier=1, modifier_rounds="all"), Army(1, 0), rounds=2)
    first = battle(Army(1, 0, modifier=1, modifier_rounds="first"), Army(1, 0), rounds=2)
    assert every["outcomes"]["defender_eliminated"] == F(1, 3) + F(1, 3) * F(1, 3)
    assert first["outcomes"]["defender_eliminated"] == F(1, 3) + F(1, 3) * F(2, 9)


def test_reroll_modifier_in_battle():
    # re-roll at +1: 1/3 + 2/3 * 1/2 = 2/3 to hit
    result = battle(Army(1, 0, leadership=1, reroll_modifier=1), Army(1, 0), rounds=1)
    assert result["outcomes"]["defender_eliminated"] == F(2, 3) * F(2, 3)


# --------------------------------------------------------------------------- terrain


@pytest.mark.parametrize("terrain", ["city", "fortification"])
def test_city_and_fortification_first_round_only(terrain):
    # round 1: attacker hits only on 6 (1/6); defender 1/3
    one = battle(Army(1, 0), Army(1, 0), terrain=terrain, rounds=1)
    assert outcomes(one) == (F(1, 6) * F(2, 3), F(5, 6) * F(1, 3), F(1, 6) * F(1, 3), F(5, 6) * F(2, 3))
    # round 2 back to 5+: add P(quiet round 1) * 2/9
    two = battle(Army(1, 0), Army(1, 0), terrain=terrain, rounds=2)
    assert two["outcomes"]["defender_eliminated"] == F(1, 9) + F(5, 9) * F(2, 9)
    # to the end: after round 1 it is the field 1 v 1 (2/5, 2/5, 1/5)
    end = battle(Army(1, 0), Army(1, 0), terrain=terrain)
    assert end["outcomes"]["defender_eliminated"] == F(1, 9) + F(5, 9) * F(2, 5)
    assert end["expected_rounds"] == 1 + F(5, 9) * F(9, 5)


def test_city_helps_the_defender():
    field = battle(Army(4, 1, 1), Army(3, 1, 1))
    city = battle(Army(4, 1, 1), Army(3, 1, 1), terrain="city")
    assert city["outcomes"]["defender_eliminated"] < field["outcomes"]["defender_eliminated"]


def test_siege_single_round():
    # elite attacker hits only on 6 (1/6) and cannot die to 1 die; the battle ends after round 1
    result = battle(Army(0, 1), Army(1, 0), terrain="siege", siege_continue=False)
    assert outcomes(result) == (F(1, 6), F(0), F(0), F(5, 6))
    assert result["expected_rounds"] == 1
    detail = {(row["regulars"], row["elites"]): row["probability"] for row in result["attacker_survivors_detail"]}
    assert detail == {(0, 1): F(2, 3), (1, 0): F(1, 3)}


def test_siege_attacker_without_elites_fights_one_round():
    continuing = battle(Army(2, 0), Army(1, 0), terrain="siege", siege_continue=True)
    # 2 dice on 6: 1 - (5/6)^2 = 11/36
    assert continuing["outcomes"]["defender_eliminated"] == F(11, 36)
    assert continuing["expected_rounds"] == 1


def test_siege_continues_by_paying_elites():
    # attacker 2 elites (2 dice on 6: 11/36 to take the lone regular), defender 1 die (1/3)
    # after round 1 (defender alive, 25/36) the attacker pays an elite:
    #   defender hit (1/3): (1,1) -> (2,0); missed (2/3): (0,2) -> (1,1)
    # round 2: if it was (1,1) and the defender misses (2/3), it pays again -> round 3
    p, q = F(11, 36), F(25, 36)
    result = battle(Army(0, 2), Army(1, 0), terrain="siege")
    assert result["outcomes"]["defender_eliminated"] == p * (1 + q + q * q * F(4, 9))
    assert result["outcomes"]["attacker_eliminated"] == 0
    assert result["expected_rounds"] == 1 + q + q * q * F(4, 9)
    # every elite spent or downgraded unless the defender fell in round 1 with no hit taken
    assert result["expected_attacker_elites_lost"] > 1


def test_siege_round_limit_pays_nothing_after_the_last_round():
    # with one round allowed, the survivors are the same whether or not the attacker would pay
    capped = battle(Army(0, 2), Army(1, 0), terrain="siege", rounds=1)
    single = battle(Army(0, 2), Army(1, 0), terrain="siege", siege_continue=False)
    assert capped["attacker_survivors_detail"] == single["attacker_survivors_detail"]
    assert outcomes(capped) == outcomes(single)
    # two rounds: p (1 + q)
    two = battle(Army(0, 2), Army(1, 0), terrain="siege", rounds=2)
    assert two["outcomes"]["defender_eliminated"] == F(11, 36) * (1 + F(25, 36))


def test_siege_limits_defenders_to_five():
    with pytest.raises(ValueError, match=r"^defender_regulars: at most 5"):
        battle(Army(5, 0), Army(4, 2), terrain="siege")
    battle(Army(5, 0), Army(3, 2), terrain="siege", rounds=1)  # 5 is allowed


# --------------------------------------------------------------------------- cease


def test_cease_threshold():
    # attacker 2 regulars (2 dice: 5/9 to hit at least once) vs 1 regular (1/3)
    # defender gone 5/9; attacker drops to 1 and ceases 4/9 * 1/3 = 4/27; quiet 8/27
    # leaving the state: divide by 19/27
    result = battle(Army(2, 0), Army(1, 0), attacker_ceases_at=1)
    assert outcomes(result) == (F(15, 19), F(0), F(0), F(4, 19))
    # without ceasing the 1 v 1 goes on: 15/19 + 4/19 * 2/5
    assert battle(Army(2, 0), Army(1, 0))["outcomes"]["defender_eliminated"] == F(83, 95)


def test_cease_still_fights_round_one():
    # already at the threshold: round 1 is fought, then the attacker ceases
    result = battle(Army(1, 0), Army(1, 0), attacker_ceases_at=1)
    assert outcomes(result) == (F(2, 9), F(2, 9), F(1, 9), F(4, 9))
    assert result["expected_rounds"] == 1


# --------------------------------------------------------------------------- whole-battle properties


def test_ten_against_ten_sums_exactly_and_per_round_is_cumulative():
    result = battle(Army(6, 4, 3), Army(7, 3, 2))
    assert sum(result["outcomes"].values()) == 1
    assert sum(result["attacker_survivors"]) == 1
    assert sum(result["defender_survivors"]) == 1
    assert result["outcomes"]["neither_eliminated"] == 0
    rows = result["per_round"]
    for before, after in zip(rows, rows[1:]):
        for name in OUTCOME_NAMES[:3]:
            assert after[name] >= before[name]
        assert after["still_fighting"] <= before["still_fighting"]
    for row in rows:
        assert sum(row[name] for name in OUTCOME_NAMES) + row["still_fighting"] == 1
    assert rows[-1]["round"] is None
    assert {name: rows[-1][name] for name in OUTCOME_NAMES} == result["outcomes"]
    # survivors: P(0 attacker units) is the attacker being eliminated (alone or with the defender)
    assert result["attacker_survivors"][0] == (result["outcomes"]["attacker_eliminated"]
                                               + result["outcomes"]["both_eliminated"])
    # a long cap approaches the exact answer from below
    capped = battle(Army(6, 4, 3), Army(7, 3, 2), rounds=30)
    assert capped["outcomes"]["defender_eliminated"] < result["outcomes"]["defender_eliminated"]
    assert capped["per_round"][19]["defender_eliminated"] == rows[19]["defender_eliminated"]


def test_casualties_match_survivors():
    result = battle(Army(3, 2, 1, "elites"), Army(4, 1, 2))
    expected_units = sum(k * p for k, p in enumerate(result["attacker_survivors"]))
    assert result["expected_attacker_casualties"] == 5 - expected_units
    expected_elites = sum(row["elites"] * row["probability"] for row in result["defender_survivors_detail"])
    assert result["expected_defender_elites_lost"] == 1 - expected_elites


def test_explanation_sentences():
    lines = battle(Army(6, 4, 3), Army(7, 3, 2), terrain="city")["steps"]
    text = " ".join(lines)
    assert "Round 1 in a City: the attacker hits only on 6" in text
    assert "Attacker rolls 5 dice hitting on 5+ with 3 re-rolls" in text
    assert "Attacker rolls 5 dice hitting only on 6 with 3 re-rolls" in text


def test_the_working_never_rounds_a_chance_to_certain_or_impossible():
    # 10 Regulars and 5 Leaders against 1 Regular: the defender falls nearly always, never certainly
    lines = battle(Army(10, 0, 5), Army(1, 0, 0))["steps"]
    assert "The defender is eliminated: over 99.9%." in lines and "The attacker is eliminated: under 0.1%." in lines
    assert not [line for line in lines if "100.0%" in line or "about 0.0%" in line]


def reference_battle(attacker, defender, first_hit):
    """Independent check: recursive Fraction solve of the same chain, round 1 fought explicitly."""

    def rolls(army, hit):
        return combat_roll(min(army[0] + army[1], 5), hit, 0, min(army[2], 5))

    def step(a, d, hit_a):
        dist_a, dist_d = rolls(a, hit_a), rolls(d, 5)
        for dealt, pa in enumerate(dist_a):
            for taken, pd in enumerate(dist_d):
                a2 = remove_casualties(a[0], a[1], taken, a[3]) + a[2:]
                d2 = remove_casualties(d[0], d[1], dealt, d[3]) + d[2:]
                yield pa * pd, a2, d2

    def finished(a2, d2):
        gone_a, gone_d = a2[:2] == (0, 0), d2[:2] == (0, 0)
        if gone_a and gone_d:
            return "both_eliminated"
        if gone_a:
            return "attacker_eliminated"
        if gone_d:
            return "defender_eliminated"
        return None

    @lru_cache(maxsize=None)
    def later(a, d):
        stay = rolls(a, 5)[0] * rolls(d, 5)[0]
        total = Counter()
        for p, a2, d2 in step(a, d, 5):
            if (a2, d2) == (a, d):
                continue
            end = finished(a2, d2)
            for name, value in ({end: F(1)} if end else later(a2, d2)).items():
                total[name] += p / (1 - stay) * value
        return dict(total)

    total = Counter()
    for p, a2, d2 in step(attacker, defender, first_hit):
        end = finished(a2, d2)
        for name, value in ({end: F(1)} if end else later(a2, d2)).items():
            total[name] += p * value
    return total


army_strategy = st.builds(
    lambda r, e, lead, policy: (r, e, lead, policy) if r + e else (1, e, lead, policy),
    st.integers(0, 3), st.integers(0, 2), st.integers(0, 2), st.sampled_from(["strength", "elites"]))


@settings(max_examples=25, deadline=None)
@given(attacker=army_strategy, defender=army_strategy, terrain=st.sampled_from(["field", "city"]))
def test_property_matches_an_independent_solve(attacker, defender, terrain):
    result = battle(Army(*attacker), Army(*defender), terrain=terrain)
    reference = reference_battle(attacker, defender, 6 if terrain == "city" else 5)
    for name in OUTCOME_NAMES[:3]:
        assert result["outcomes"][name] == reference.get(name, 0)


@settings(max_examples=40, deadline=None)
@given(attacker=army_strategy, defender=army_strategy,
       terrain=st.sampled_from(["field", "city", "fortification", "siege"]),
       rounds=st.one_of(st.none(), st.integers(1, 4)),
       ceases=st.one_of(st.none(), st.integers(0, 3)),
       siege_continue=st.booleans())
def test_property_probabilities(attacker, defender, terrain, rounds, ceases, siege_continue):
    result = battle(Army(*attacker), Army(*defender), terrain=terrain, rounds=rounds,
                    attacker_ceases_at=ceases, siege_continue=siege_continue)
    assert sum(result["outcomes"].values()) == 1
    assert all(0 <= p <= 1 for p in result["outcomes"].values())
    for side in ("attacker", "defender"):
        survivors = result[f"{side}_survivors"]
        assert sum(survivors) == 1 and all(0 <= p <= 1 for p in survivors)
        assert sum(row["probability"] for row in result[f"{side}_survivors_detail"]) == 1
    assert result["expected_rounds"] >= 1
    if rounds is not None:
        assert result["expected_rounds"] <= rounds


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize("kwargs, message", [
    ({"attacker": Army(11, 0)}, r"^attacker_regulars: a whole number from 0 to 10"),
    ({"defender": Army(0, -1)}, r"^defender_elites: a whole number from 0 to 10"),
    ({"attacker": Army(0, 0)}, r"^attacker_regulars: regulars \+ elites from 1 to 10"),
    ({"defender": Army(6, 5)}, r"^defender_regulars: regulars \+ elites from 1 to 10"),
    ({"attacker": Army(1, 0, leadership=11)}, r"^attacker_leadership: a whole number from 0 to 10"),
    ({"attacker": Army(1, 0, modifier=6)}, r"^attacker_modifier: a whole number from -5 to 5"),
    ({"defender": Army(1, 0, reroll_modifier=-6)}, r"^defender_reroll_modifier: a whole number from -5 to 5"),
    ({"defender": Army(1, 0, casualty_policy="random")}, r"^defender_policy: one of strength, elites"),
    ({"attacker": Army(1, 0, modifier_rounds="second")}, r"^attacker_modifier_rounds: all, first, a round such as 3"),
    ({"terrain": "forest"}, r"^terrain: one of field, city, fortification, siege"),
    ({"rounds": 0}, r"^rounds: a whole number from 1 to 100"),
    ({"rounds": 101}, r"^rounds: a whole number from 1 to 100"),
    ({"attacker_ceases_at": -1}, r"^attacker_ceases_at: a whole number from 0 to 10"),
    ({"siege_continue": "yes"}, r"^siege_continue: true or false"),
])
def test_bad_input_names_the_parameter(kwargs, message):
    arguments = {"attacker": Army(1, 0), "defender": Army(1, 0), **kwargs}
    with pytest.raises(ValueError, match=message):
        battle(**arguments)


def test_remove_casualties_validates_numbers():
    with pytest.raises(ValueError, match=r"^hits: a whole number from 0"):
        remove_casualties(1, 1, -1)
    with pytest.raises(ValueError, match=r"^elites: a whole number from 0 to 10"):
        remove_casualties(1, 31, 1)


# --------------------------------------------------------------------------- Regulars to replace Elites


def test_an_elite_is_eliminated_for_want_of_a_regular():
    # one hit on a lone Elite with no Regular at hand: it cannot be downgraded, so it is gone
    assert remove_casualties(0, 1, 1, replacements=0) == (0, 0)
    assert remove_casualties(0, 1, 1) == (1, 0)
    assert remove_casualties(0, 2, 1, replacements=0) == (0, 1)
    # a Regular lost to the same hits can replace the Elite: remove it first, then downgrade
    assert remove_casualties(1, 1, 2, replacements=0) == (1, 0)
    # one hit on 1 Regular + 1 Elite, none at hand: removing the Regular keeps the Elite
    assert remove_casualties(1, 1, 1, "strength", replacements=0) == (0, 1)


def test_an_elite_without_replacements_falls_like_a_regular():
    # regular against a lone defending Elite. With a Regular at hand the Elite takes two hits
    # (the mirror of test_elite_against_regular_to_the_end); with none it falls to the first hit,
    # so the battle is the 1 v 1: 2/5, 2/5, 1/5
    enough = battle(Army(1, 0), Army(0, 1))
    assert outcomes(enough) == (F(4, 25), F(19, 25), F(2, 25), F(0))
    none_at_hand = battle(Army(1, 0), Army(0, 1, replacement_regulars=0))
    assert outcomes(none_at_hand) == (F(2, 5), F(2, 5), F(1, 5), F(0))
    assert none_at_hand["defender_survivors_detail"] == [{"regulars": 0, "elites": 1, "probability": F(2, 5)},
                                                         {"regulars": 0, "elites": 0, "probability": F(3, 5)}]
    # one Regular is as good as any number for a single Elite
    assert outcomes(battle(Army(1, 0), Army(0, 1, replacement_regulars=1))) == outcomes(enough)
    assert any(row["source"] == "summary" and "Elite" in row["rule"] for row in none_at_hand["sources"])
    assert "an elite with none to replace it is eliminated (summary)" in " ".join(none_at_hand["steps"])


def test_siege_payment_needs_a_regular():
    # two attacking Elites, no Regular at hand: the attacker cannot pay to go on, so one round
    result = battle(Army(0, 2, replacement_regulars=0), Army(1, 0), terrain="siege")
    assert result["outcomes"]["defender_eliminated"] == F(11, 36)
    assert result["expected_rounds"] == 1


# --------------------------------------------------------------------------- stand or withdraw


def test_withdraw_before_round_one_against_standing():
    # 1 v 1. Standing in the field to the end, the defender holds only if the attacker falls: 2/5.
    # Withdrawing at once, one siege round: attacker hits on 6 (1/6), defender on 5+ (1/3);
    # the defender holds unless hit: 5/6.
    plans = stand_or_withdraw(Army(1, 0), Army(1, 0), exact=True)
    assert plans["stand"]["headline"] == {"defender_holds": F(2, 5), "defender_destroyed": F(3, 5),
                                          "attacker_destroyed": F(3, 5)}
    withdraw = plans["withdraw"]
    assert outcomes(withdraw) == (F(1, 6) * F(2, 3), F(5, 6) * F(1, 3), F(1, 6) * F(1, 3), F(5, 6) * F(2, 3))
    assert withdraw["headline"]["defender_holds"] == F(5, 6)
    assert withdraw["withdrew"] == 1 and plans["stand"]["withdrew"] == 0
    assert plans["difference"]["defender_holds"] == F(5, 6) - F(2, 5)
    assert withdraw["expected_rounds"] == 1
    text = " ".join(withdraw["steps"])
    assert "retreats into its Stronghold before round 1" in text and "(rulebook)" in text


def test_withdraw_after_one_round_in_the_field():
    # round 1 in the field: attacker gone 2/9 (the defender holds), battle on 4/9 -> siege round 2
    result = battle(Army(1, 0), Army(1, 0), withdraw_after=1)
    assert result["headline"]["defender_holds"] == F(2, 9) + F(4, 9) * F(5, 6)
    assert result["withdrew"] == F(4, 9)
    assert result["expected_rounds"] == 1 + F(4, 9)
    assert result["per_round"][0]["still_fighting"] == F(4, 9)
    # the siege round is round 2 of the plan
    assert result["per_round"][1]["defender_eliminated"] == F(2, 9) + F(4, 9) * F(1, 6) * F(2, 3)


def test_several_siege_battles_in_a_row():
    # no Elite to pay with: each siege battle is one round. The defender falls in a round with
    # chance 1/6; the next battle comes only if both still stand (5/9).
    one = battle(Army(1, 0), Army(1, 0), withdraw_after=0)
    two = battle(Army(1, 0), Army(1, 0), withdraw_after=0, siege_battles=2)
    assert one["headline"]["defender_holds"] == F(5, 6)
    assert two["headline"]["defender_holds"] == 1 - F(1, 6) - F(5, 9) * F(1, 6)
    assert two["expected_rounds"] == 1 + F(5, 9)
    # the same battles with terrain "siege"
    assert outcomes(battle(Army(1, 0), Army(1, 0), terrain="siege", siege_battles=2)) == outcomes(two)


def test_withdrawal_sends_the_units_beyond_five_to_the_reinforcements():
    # 6 regulars and 2 elites withdraw at once: 2 elites and 3 regulars stay inside
    result = battle(Army(3, 0), Army(6, 2), withdraw_after=0)
    assert result["expected_defender_to_reinforcements"] == 3
    assert all(row["regulars"] + row["elites"] <= 5 for row in result["defender_survivors_detail"])
    assert result["defender_survivors_detail"][0] == {"regulars": 3, "elites": 2, "probability": F(5, 6) ** 3}
    # 3 dice on 6; only 3 hits (1/216) cost the garrison a unit: 2 downgrades and 1 regular removed
    assert result["expected_defender_casualties"] == F(1, 216)
    assert result["expected_defender_elites_lost"] == sum(
        row["probability"] * (2 - row["elites"]) for row in result["defender_survivors_detail"])


@pytest.mark.parametrize("kwargs, message", [
    ({"withdraw_after": 1, "terrain": "city"}, r"^withdraw_after: only a defender in the field"),
    ({"withdraw_after": 100}, r"^withdraw_after: a whole number from 0 to 99"),
    ({"siege_battles": 2}, r"^siege_battles: more than 1 only for a siege"),
    ({"siege_battles": 6, "terrain": "siege"}, r"^siege_battles: a whole number from 1 to 5"),
    ({"attacker": Army(1, 0, replacement_regulars=-1)}, r"^attacker_replacement_regulars: a whole number from 0"),
    ({"defender": Army(1, 0, modifier_rounds="3-2")}, r"^defender_modifier_rounds: all, first"),
    ({"defender": Army(1, 0, modifier_rounds="101")}, r"^defender_modifier_rounds: all, first"),
    ({"defender": Army(1, 0, modifier_rounds=" 2")}, r"^defender_modifier_rounds: all, first"),
    ({"exact": 1}, r"^exact: true or false"),
])
def test_bad_new_options_name_the_parameter(kwargs, message):
    arguments = {"attacker": Army(1, 0), "defender": Army(1, 0), **kwargs}
    with pytest.raises(InputError, match=message):
        battle(**arguments)


# --------------------------------------------------------------------------- modifiers for some rounds


def test_a_modifier_for_one_round():
    # attacker +1 in round 2 only: hits 1/3, then 1/2, then 1/3 again; defender 1/3 throughout
    # two rounds: defender alone falls 2/9 in round 1, then quiet (4/9) x 1/2 x 2/3 in round 2
    two = battle(Army(1, 0, modifier=1, modifier_rounds="2"), Army(1, 0), rounds=2)
    assert two["outcomes"]["defender_eliminated"] == F(2, 9) + F(4, 9) * F(1, 3)
    # to the end: after a quiet round 2 (1/2 x 2/3 = 1/3) it is the field 1 v 1 (2/5)
    end = battle(Army(1, 0, modifier=1, modifier_rounds="2"), Army(1, 0))
    assert end["outcomes"]["defender_eliminated"] == F(2, 9) + F(4, 9) * (F(1, 3) + F(1, 3) * F(2, 5))
    lines = " ".join(end["steps"])
    assert "modifiers apply in round 2 only" in lines
    assert "Round 2: Attacker rolls 1 die hitting on 4+" in lines


def test_a_modifier_from_a_late_round_to_the_end():
    # 1 v 1, attacker +1 from round 25 on: 24 rounds of the plain 1 v 1, then from a quiet
    # stretch ((4/9)^24) the attacker hits 1/2: defender alone falls 1/3, attacker alone 1/6,
    # both 1/6, quiet 1/3; leaving that state: 1/2, 1/4, 1/4
    quiet = F(4, 9) ** 24
    result = battle(Army(1, 0, modifier=1, modifier_rounds="25-"), Army(1, 0))
    assert outcomes(result) == (F(2, 5) * (1 - quiet) + quiet * F(1, 2), F(2, 5) * (1 - quiet) + quiet * F(1, 4),
                                F(1, 5) * (1 - quiet) + quiet * F(1, 4), F(0))
    assert result["expected_rounds"] == F(9, 5) * (1 - quiet) + quiet * F(3, 2)


@pytest.mark.parametrize("spec, window", [("all", (1, None)), ("first", (1, 1)), ("3", (3, 3)),
                                          ("2-4", (2, 4)), ("3-", (3, None)), ("100", (100, 100))])
def test_modifier_windows(spec, window):
    assert modifier_window("modifier_rounds", spec) == window


def test_modifier_windows_that_mean_the_same_give_the_same_battle():
    base = dict(modifier=2, reroll_modifier=-1, leadership=1)
    for same in (("all", "1-"), ("first", "1"), ("first", "1-1")):
        left, right = (battle(Army(2, 1, **base, modifier_rounds=spec), Army(2, 1), rounds=4) for spec in same)
        assert outcomes(left) == outcomes(right)
    # from round 2 on is every round except the first
    later = battle(Army(2, 1, modifier=1, modifier_rounds="2-"), Army(2, 1), rounds=3)
    by_hand = battle(Army(2, 1, modifier=1), Army(2, 1), rounds=3)
    assert outcomes(later) != outcomes(by_hand)
    assert later["per_round"][0]["defender_eliminated"] == battle(Army(2, 1), Army(2, 1), rounds=1)["outcomes"][
        "defender_eliminated"]


# --------------------------------------------------------------------------- an independent check of every option


def reference_rounds(attacker, defender, terrain="field", rounds=4, attacker_ceases_at=None, siege_continue=True,
                     withdraw_after=None, siege_battles=1, start_round=1):
    """Fight `rounds` rounds by brute force over every state, in exact fractions.

    Written from the rules, apart from the engine's pass: a state is (where, battles left,
    attacker, defender, what the attacker does before the next round). Returns the final
    {(attacker, defender): chance} (the battle over or stopped by the limit), the cumulative
    {outcome: chance} after each round, the chance still fighting after each round, and the
    chance the defender withdrew.
    """
    first_a, last_a = modifier_window("", attacker.modifier_rounds)
    first_d, last_d = modifier_window("", defender.modifier_rounds)

    def at_hand(army, regulars):
        if army.replacement_regulars is None:
            return None
        return army.replacement_regulars + army.regulars - regulars

    def hits(army, units, hit, t, first, last):
        t += start_round - 1  # the battle's own round number
        on = first <= t and (last is None or t <= last)
        return combat_roll(min(units, 5), hit, army.modifier if on else 0, min(army.leadership, 5),
                           army.reroll_modifier if on else 0)

    start = "siege" if terrain == "siege" else "field"
    states = {(start, siege_battles, (attacker.regulars, attacker.elites), (defender.regulars, defender.elites),
               None): F(1)}
    final = Counter()
    cumulative, still, withdrew = [], [], F(0)
    done = Counter()
    for t in range(1, rounds + 1):
        after = Counter()
        for (where, left, a, d, pending), p in states.items():
            if pending == "pay":
                a = (a[0] + 1, a[1] - 1)
            elif pending == "next":
                left -= 1
            if where == "field" and withdraw_after is not None and t == withdraw_after + 1:
                withdrew += p
                kept_elites = min(d[1], 5)
                d = (min(d[0], 5 - kept_elites), kept_elites)
                where, left = "siege", siege_battles
            hit = 6 if where == "siege" or (t + start_round - 1 == 1 and terrain in ("city", "fortification")) else 5
            on_defender = hits(attacker, sum(a), hit, t, first_a, last_a)
            on_attacker = hits(defender, sum(d), 5, t, first_d, last_d)
            for dealt, pa in enumerate(on_defender):
                d2 = remove_casualties(*d, dealt, defender.casualty_policy, at_hand(defender, d[0]))
                for taken, pd in enumerate(on_attacker):
                    a2 = remove_casualties(*a, taken, attacker.casualty_policy, at_hand(attacker, a[0]))
                    chance = p * pa * pd
                    a_gone, d_gone = sum(a2) == 0, sum(d2) == 0
                    if a_gone or d_gone or (attacker_ceases_at is not None and sum(a2) <= attacker_ceases_at):
                        final[(a2, d2)] += chance
                        done[{(True, True): "both_eliminated", (True, False): "attacker_eliminated",
                              (False, True): "defender_eliminated", (False, False): "neither_eliminated"}[
                            (a_gone, d_gone)]] += chance
                    elif where == "field":
                        after[("field", left, a2, d2, None)] += chance
                    else:
                        spare = at_hand(attacker, a2[0])
                        if siege_continue and a2[1] and (spare is None or spare > 0):
                            after[("siege", left, a2, d2, "pay")] += chance
                        elif left > 1:
                            after[("siege", left, a2, d2, "next")] += chance
                        else:
                            final[(a2, d2)] += chance
                            done["neither_eliminated"] += chance
        states = after
        cumulative.append({name: done[name] for name in OUTCOME_NAMES})
        still.append(sum(states.values(), F(0)))
    for (_, _, a, d, _), p in states.items():
        final[(a, d)] += p
    return final, cumulative, still, withdrew


small_armies = st.builds(
    lambda r, e, lead, policy, mod, reroll_mod, window, spare: Army(r if r + e else 1, e, lead, policy, mod, reroll_mod,
                                                                    window, spare),
    st.integers(0, 4), st.integers(0, 2), st.integers(0, 2), st.sampled_from(["strength", "elites"]),
    st.integers(-2, 2), st.integers(-1, 1), st.sampled_from(["all", "first", "2", "2-3", "3-"]),
    st.sampled_from([None, 0, 1]))


@settings(max_examples=60, deadline=None)
@given(attacker=small_armies, defender=small_armies,
       terrain=st.sampled_from(["field", "city", "fortification", "siege"]), rounds=st.integers(1, 5),
       ceases=st.one_of(st.none(), st.integers(0, 2)), siege_continue=st.booleans(),
       withdraw_after=st.one_of(st.none(), st.integers(0, 3)), siege_battles=st.integers(1, 3))
def test_every_option_matches_a_brute_force_count(attacker, defender, terrain, rounds, ceases, siege_continue,
                                                  withdraw_after, siege_battles):
    if terrain != "field":
        withdraw_after = None
    if terrain == "siege" and defender.units > 5:
        return
    if terrain != "siege" and withdraw_after is None:
        siege_battles = 1
    options = dict(terrain=terrain, attacker_ceases_at=ceases, siege_continue=siege_continue,
                   withdraw_after=withdraw_after, siege_battles=siege_battles)
    result = battle(attacker, defender, rounds=rounds, **options)
    final, cumulative, still, withdrew = reference_rounds(attacker, defender, rounds=rounds, **options)
    detail = Counter()
    for row in result["defender_survivors_detail"]:
        detail[(row["regulars"], row["elites"])] += row["probability"]
    by_defender = Counter()
    for (_, d), p in final.items():
        by_defender[d] += p
    assert +detail == +by_defender
    for row, totals, on in zip(result["per_round"], cumulative, still):
        assert {name: row[name] for name in OUTCOME_NAMES} == totals
        assert row["still_fighting"] == on
    assert len(result["per_round"]) == next((n + 1 for n, on in enumerate(still) if not on), rounds)
    assert result["withdrew"] == withdrew
    assert result["expected_rounds"] == 1 + sum(still[:-1])
    # the same chain fought to the end starts with the same rounds
    full = battle(attacker, defender, **options)
    for row, totals, on in zip(full["per_round"][:-1], cumulative, still):
        assert {name: row[name] for name in OUTCOME_NAMES} == totals
        assert row["still_fighting"] == on
    assert sum(full["outcomes"].values()) == 1
    # and ends within what is still undecided after 12 rounds
    deep = battle(attacker, defender, rounds=12, **options)
    undecided = deep["per_round"][-1]["still_fighting"]
    for name in OUTCOME_NAMES[:3]:
        assert deep["outcomes"][name] <= full["outcomes"][name] <= deep["outcomes"][name] + undecided


# --------------------------------------------------------------------------- floating point against fractions


FLOAT_CASES = [
    (Army(3, 2, 2, "elites", 1, -1, "first"), Army(4, 1, 1), {}),
    (Army(5, 5, 3), Army(4, 6, 2, "elites"), {"rounds": 30}),
    (Army(2, 3, 1, modifier=-2, modifier_rounds="2-4"), Army(3, 2, 2, reroll_modifier=1), {"terrain": "city"}),
    (Army(4, 3, 2, "elites", replacement_regulars=1), Army(2, 4, 1, replacement_regulars=0), {}),
    (Army(3, 4, 2, "elites"), Army(2, 3, 1), {"terrain": "siege", "siege_battles": 3}),
    (Army(3, 4, 2, replacement_regulars=2), Army(5, 3, 1, "elites"), {"withdraw_after": 2, "siege_battles": 2}),
    (Army(6, 2, 3, modifier=1, modifier_rounds="3-"), Army(5, 2, 2), {"terrain": "fortification", "rounds": 12,
                                                                      "attacker_ceases_at": 3}),
    (Army(2, 2, 0, modifier=-5), Army(1, 3, 0, "elites", -5), {"rounds": 40}),
    (Army(4, 2, 1), Army(3, 3, 2), {"withdraw_after": 0, "siege_battles": 4, "siege_continue": False}),
    # a siege whose rolls change while it is on, five siege battles going on
    (Army(0, 10, 3, "elites", -5, -5, "2-4"), Army(1, 4, 2, "strength", 1, 0, "3-"), {"terrain": "siege",
                                                                                     "siege_battles": 5}),
]


def numbers(result):
    """Every figure of a battle's result, in a fixed order."""
    yield from result["outcomes"].values()
    yield from result["headline"].values()
    yield from result["attacker_survivors"] + result["defender_survivors"]
    for key in ("expected_rounds", "withdrew", "expected_attacker_casualties", "expected_defender_casualties",
                "expected_attacker_elites_lost", "expected_defender_elites_lost", "expected_defender_to_reinforcements"):
        yield result[key]
    for row in result["per_round"]:
        yield from (value for name, value in row.items() if name != "round")
    for row in result["hold_out_by_siege_battles"] or ():
        yield row["defender_holds"]


@pytest.mark.parametrize("attacker, defender, options", FLOAT_CASES)
def test_floating_point_agrees_with_fractions(attacker, defender, options):
    exact = battle(attacker, defender, **options)
    fast = wotr_battle.battle(attacker, defender, **options)
    assert isinstance(fast["outcomes"]["defender_eliminated"], float)

    pairs = list(zip(numbers(exact), numbers(fast)))
    assert len(pairs) == len(list(numbers(exact))) == len(list(numbers(fast)))
    assert max(abs(F(x) - F(y)) for x, y in pairs) < F(1, 10 ** 12)


# standing and withdrawing compared: the rounds before the withdrawal are solved once for both
COMPARE_CASES = [
    (Army(2, 5, 2, "elites"), Army(4, 4, 1), {"withdraw_after": 3, "siege_battles": 3, "rounds": 15}),
    (Army(2, 5, 2, "elites"), Army(4, 4, 1), {"withdraw_after": 3, "siege_battles": 3}),
    (Army(3, 2, 1, modifier=1, modifier_rounds="2-3"), Army(2, 3, 2, "elites"), {"withdraw_after": 0,
                                                                                 "siege_battles": 2}),
    (Army(4, 2, 1, replacement_regulars=1), Army(3, 3, 1, replacement_regulars=0),
     {"withdraw_after": 1, "rounds": 6, "siege_continue": False}),
    (Army(5, 1, 2), Army(2, 2, 0), {"withdraw_after": 2, "attacker_ceases_at": 3, "siege_battles": 2}),
    (Army(2, 0), Army(3, 0), {"withdraw_after": 2, "attacker_ceases_at": 2}),  # ceases after any round
    (Army(2, 1), Army(1, 1), {"withdraw_after": 30, "rounds": 20}),  # the round limit comes first
    (Army(2, 1), Army(1, 1), {"withdraw_after": 4, "rounds": 5}),  # withdrawing for the last round allowed
    (Army(4, 3, 1, "elites"), Army(3, 3, 1), {"withdraw_after": 24, "siege_battles": 2}),  # after the rounds shown
]


@pytest.mark.parametrize("attacker, defender, options", COMPARE_CASES)
def test_comparing_gives_the_battles_fought_one_by_one(attacker, defender, options):
    both = stand_or_withdraw(attacker, defender, exact=True, **options)
    standing = {name: value for name, value in options.items() if name not in ("withdraw_after", "siege_battles")}
    assert both["stand"] == battle(attacker, defender, **standing)
    assert both["withdraw"] == battle(attacker, defender, **options)
    assert both["difference"] == {key: both["withdraw"]["headline"][key] - both["stand"]["headline"][key]
                                  for key in wotr_battle.HEADLINE}


# the longest battles the API allows: ten Elites a side hitting on 6 only (modifiers -5) must be fought round by
# round to round 100, where little of the battle is still on but what is must still count (in fractions these
# take seconds: marked slow)
LONG_CASES = [
    # the modifiers end after round 99 with about 3 chances in 10**10 still fighting; Regulars at hand run short
    pytest.param(Army(0, 10, 0, "elites", -5, -5, "1-99", 5), Army(0, 10, 0, "elites", -5, -5, "1-99", 5),
                 {"withdraw_after": 3, "siege_battles": 5}, marks=pytest.mark.slow),
    # the round limit stops what is still on after round 100
    pytest.param(Army(0, 10, 0, "elites", -5, -5), Army(0, 10, 0, "elites", -5, -5),
                 {"withdraw_after": 3, "siege_battles": 5, "siege_continue": False, "rounds": 100},
                 marks=pytest.mark.slow),
    # the modifiers end after round 3, with nearly all of the battle still on
    (Army(5, 5, 2, "strength", -5, -5, "1-3"), Army(4, 6, 1, "elites", -4, -5, "1-3"),
     {"withdraw_after": 2, "siege_battles": 5}),
]


@pytest.mark.parametrize("attacker, defender, options", COMPARE_CASES + [
    (Army(0, 10, 0, "elites", -5, -5), Army(0, 10, 0, "elites", -5, -5), {"withdraw_after": 4, "rounds": 25}),
    # the hold-out table's plans fought without the round (the siege's rolls never change), five siege battles
    (Army(0, 8, 1, "elites", -1, -1), Army(3, 5, 1, "elites", 1, 0), {"withdraw_after": 2, "siege_battles": 5}),
] + LONG_CASES)
def test_comparing_in_floating_point_agrees_with_fractions(attacker, defender, options):
    exact = stand_or_withdraw(attacker, defender, exact=True, **options)
    fast = stand_or_withdraw(attacker, defender, **options)
    for plan in ("stand", "withdraw"):
        pairs = list(zip(numbers(exact[plan]), numbers(fast[plan])))
        assert len(pairs) == len(list(numbers(exact[plan]))) == len(list(numbers(fast[plan])))
        assert max(abs(F(x) - F(y)) for x, y in pairs) < F(1, 10 ** 12)


def test_a_late_change_of_rolls_is_counted_in_floating_point():
    # eight Elites a side hitting on 6 only until round 79: a few chances in a billion are still fighting when the
    # modifiers end; what they change, the floats must find as the fractions do (ignoring it is off by far more)
    late, always = Army(0, 8, 0, "elites", -5, -5, "1-79"), Army(0, 8, 0, "elites", -5, -5)
    exact_change = [F(x) - F(y) for x, y in zip(numbers(battle(late, late)), numbers(battle(always, always)))]
    float_change = [F(x) - F(y) for x, y in zip(numbers(wotr_battle.battle(late, late)),
                                                numbers(wotr_battle.battle(always, always)))]
    assert len(exact_change) == len(float_change)
    assert F(1, 10 ** 10) < max(abs(change) for change in exact_change) < F(1, 10 ** 7)
    assert max(abs(x - y) for x, y in zip(exact_change, float_change)) < F(2, 10 ** 12)


@pytest.mark.parametrize("attacker, defender, terrain", [
    (Army(0, 10, 1, "elites", -1, 0), Army(0, 10, 0, "elites", 0, -2), "field"),  # 5 dice a side for many rounds
    (Army(6, 4, 0), Army(7, 3, 2, "elites"), "fortification"),
    (Army(0, 4, 2, "strength", 1, 0, "2-3"), Army(3, 0, 1), "city"),  # fewer than 5 dice from the start
])
def test_large_armies_match_a_brute_force_count(attacker, defender, terrain):
    # the opening rounds, while neither Army's dice change, are fought on each Army alone
    result = battle(attacker, defender, terrain=terrain, rounds=6)
    final, cumulative, still, _ = reference_rounds(attacker, defender, terrain, rounds=6)
    by_attacker = Counter()
    for (a, _), p in final.items():
        by_attacker[a] += p
    assert {(row["regulars"], row["elites"]): row["probability"]
            for row in result["attacker_survivors_detail"]} == +by_attacker
    for row, totals, on in zip(result["per_round"], cumulative, still):
        assert {name: row[name] for name in OUTCOME_NAMES} == totals
        assert row["still_fighting"] == on


def test_repeated_battles_come_from_the_cache():
    wotr_battle.clear_caches()
    first = wotr_battle.battle(Army(5, 5, 2), Army(6, 4, 1), rounds=50)
    first["summary"] = "changed by a caller"
    again = wotr_battle.battle(Army(5, 5, 2), Army(6, 4, 1), rounds=50)
    assert wotr_battle._solved.cache_info().hits == 1
    assert "summary" not in again and again["outcomes"] == first["outcomes"]
    assert wotr_battle._solved.cache_info().maxsize is not None


def test_comparing_keeps_both_battles_in_the_cache(monkeypatch):
    wotr_battle.clear_caches()
    solved = []
    solver = wotr_battle._Solver
    monkeypatch.setattr(wotr_battle, "_Solver", lambda plan: solved.append(plan) or solver(plan))
    attacker, defender = Army(4, 2, 1), Army(3, 3, 1)
    both = stand_or_withdraw(attacker, defender, withdraw_after=2)
    assert [plan.compare for plan in solved] == [True]  # one pass for both
    assert wotr_battle.battle(attacker, defender) == both["stand"]
    assert wotr_battle.battle(attacker, defender, withdraw_after=2) == both["withdraw"]
    assert len(solved) == 1  # both from the cache
    # withdrawing at another time: standing is known, so only the withdrawal is solved
    other = stand_or_withdraw(attacker, defender, withdraw_after=0)
    assert len(solved) == 2 and not solved[1].compare and solved[1].withdraw_after == 0
    assert other["stand"] == both["stand"] and other["withdraw"] != both["withdraw"]


# --------------------------------------------------------------------------- properties


@settings(max_examples=25, deadline=None)
@given(attacker=small_armies, defender=small_armies, withdraw_after=st.integers(0, 2), battles=st.integers(1, 2))
def test_more_siege_battles_never_help_the_defender(attacker, defender, withdraw_after, battles):
    fewer = battle(attacker, defender, withdraw_after=withdraw_after, siege_battles=battles)
    more = battle(attacker, defender, withdraw_after=withdraw_after, siege_battles=battles + 1)
    assert more["headline"]["defender_destroyed"] >= fewer["headline"]["defender_destroyed"]
    assert more["headline"]["attacker_destroyed"] >= fewer["headline"]["attacker_destroyed"]
    assert more["withdrew"] == fewer["withdrew"]
    for result in (fewer, more):
        assert sum(result["outcomes"].values()) == 1
        assert result["headline"]["defender_holds"] + result["headline"]["defender_destroyed"] == 1


# --------------------------------------------------------------------------- a battle in progress


ARMY_PAIRS = [
    (Army(3, 1, 1), Army(2, 1, 1)),
    (Army(4, 2, 2, "elites"), Army(3, 3, 1)),
    (Army(0, 4, 2, modifier=1, modifier_rounds="3"), Army(5, 0, 1, "elites", -1, 1, "2-")),
    (Army(2, 2, 0, replacement_regulars=1), Army(1, 3, 2, "elites", replacement_regulars=0)),
]
IN_PROGRESS_OPTIONS = [{}, {"rounds": 3}, {"attacker_ceases_at": 2}, {"rounds": 5, "withdraw_after": 1},
                       {"withdraw_after": 0, "siege_battles": 2}]


def without_labels(result):
    """A result's figures, without its working, its sources and the round numbers."""
    kept = {key: value for key, value in result.items() if key not in ("steps", "sources", "per_round", "start_round")}
    kept["per_round"] = [{name: value for name, value in row.items() if name != "round"} for row in result["per_round"]]
    return kept


@pytest.mark.parametrize("terrain", ["city", "fortification"])
@pytest.mark.parametrize("attacker, defender", ARMY_PAIRS)
@pytest.mark.parametrize("options", IN_PROGRESS_OPTIONS)
def test_a_walled_battle_from_round_two_is_the_open_field_battle(terrain, attacker, defender, options):
    # the attacker's round-1 rule is over: from round 2 a City or Fortification is fought as the field
    if terrain != "field" and "withdraw_after" in options:
        options = {name: value for name, value in options.items() if name not in ("withdraw_after", "siege_battles")}
    walled = battle(attacker, defender, terrain=terrain, start_round=2, **options)
    field = battle(attacker, defender, terrain="field", start_round=2, **options)
    assert {key: value for key, value in walled.items() if key != "steps"} == \
        {key: value for key, value in field.items() if key != "steps"}
    assert walled["start_round"] == 2 and walled["per_round"][0]["round"] == 2
    if attacker.modifier_rounds == defender.modifier_rounds == "all":  # nothing else moves with the round
        assert without_labels(walled) == without_labels(battle(attacker, defender, **options))
    assert walled != battle(attacker, defender, terrain=terrain, **options)  # round 1 itself is not the field


def test_a_battle_from_round_two_keeps_the_modifiers_rounds():
    # a Combat card for round 3 only, in a battle from round 2: it counts in the second round fought
    later = battle(Army(3, 1, 1, modifier=1, modifier_rounds="3"), Army(3, 1, 1), start_round=2)
    shifted = battle(Army(3, 1, 1, modifier=1, modifier_rounds="2"), Army(3, 1, 1))
    assert without_labels(later) == without_labels(shifted)
    # a card for round 1 only is over by round 2
    over = battle(Army(3, 1, 1, modifier=2, modifier_rounds="first"), Army(3, 1, 1), start_round=2)
    assert without_labels(over) == without_labels(battle(Army(3, 1, 1), Army(3, 1, 1)))
    assert [row["round"] for row in later["per_round"][:3]] == [2, 3, 4]


@settings(max_examples=30, deadline=None)
@given(attacker=small_armies, defender=small_armies, terrain=st.sampled_from(["field", "city", "fortification"]),
       rounds=st.integers(1, 4), start_round=st.integers(1, 4), withdraw_after=st.one_of(st.none(), st.integers(0, 2)))
def test_a_battle_in_progress_matches_a_brute_force_count(attacker, defender, terrain, rounds, start_round,
                                                         withdraw_after):
    if terrain != "field":
        withdraw_after = None
    options = dict(terrain=terrain, withdraw_after=withdraw_after)
    result = battle(attacker, defender, rounds=rounds, start_round=start_round, **options)
    final, cumulative, still, withdrew = reference_rounds(attacker, defender, rounds=rounds, start_round=start_round,
                                                          **options)
    by_attacker = Counter()
    for (a, _), p in final.items():
        by_attacker[a] += p
    assert {(row["regulars"], row["elites"]): row["probability"]
            for row in result["attacker_survivors_detail"]} == +by_attacker
    for number, (row, totals, on) in enumerate(zip(result["per_round"], cumulative, still)):
        assert row["round"] == start_round + number
        assert {name: row[name] for name in OUTCOME_NAMES} == totals
        assert row["still_fighting"] == on
    assert result["withdrew"] == withdrew


@pytest.mark.parametrize("start_round", [0, 101, 1.0, True])
def test_start_round_is_a_round_of_the_battle(start_round):
    with pytest.raises(InputError, match=r"^start_round: a whole number from 1 to 100"):
        battle(Army(1, 0), Army(1, 0), start_round=start_round)


# --------------------------------------------------------------------------- the attacker's plan for the Stronghold


@pytest.mark.parametrize("attacker, defender, options", [
    (Army(4, 2, 2), Army(4, 2, 2), {"withdraw_after": 0}),
    (Army(3, 3, 1, "elites"), Army(2, 3, 1), {"withdraw_after": 1, "siege_battles": 3, "siege_continue": False}),
    (Army(2, 3, 1, replacement_regulars=1), Army(3, 2, 2, "elites"), {"withdraw_after": 2, "rounds": 6}),
    (Army(3, 2, 0, modifier=1, modifier_rounds="2-3"), Army(4, 2, 1), {"withdraw_after": 1, "start_round": 2,
                                                                        "attacker_ceases_at": 1}),
])
def test_holding_out_by_siege_battles_is_each_plan_fought_on_its_own(attacker, defender, options):
    table = battle(attacker, defender, **options)["hold_out_by_siege_battles"]
    assert [(row["siege_battles"], row["siege_continue"]) for row in table] == \
        [(battles, goes_on) for battles in range(1, 6) for goes_on in (False, True)]
    for row in table:
        plan = {**options, "siege_battles": row["siege_battles"], "siege_continue": row["siege_continue"]}
        assert row["defender_holds"] == battle(attacker, defender, **plan)["headline"]["defender_holds"]
    for goes_on in (False, True):
        holds = [row["defender_holds"] for row in table if row["siege_continue"] is goes_on]
        assert holds == sorted(holds, reverse=True)  # another siege battle never helps the defender


def test_holding_out_by_siege_battles_only_with_a_withdrawal():
    assert battle(Army(3, 1), Army(2, 1))["hold_out_by_siege_battles"] is None
    assert battle(Army(3, 1), Army(2, 1), terrain="siege", siege_battles=2)["hold_out_by_siege_battles"] is None
    compared = stand_or_withdraw(Army(4, 2, 1), Army(3, 3, 1), withdraw_after=1, exact=True)
    assert compared["stand"]["hold_out_by_siege_battles"] is None
    assert compared["withdraw"]["hold_out_by_siege_battles"] == battle(
        Army(4, 2, 1), Army(3, 3, 1), withdraw_after=1)["hold_out_by_siege_battles"]
