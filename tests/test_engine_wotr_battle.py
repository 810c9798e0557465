"""Tests for the exact War of the Ring battle chain (webapp.engines.wotr_battle)."""
from collections import Counter
from fractions import Fraction as F
from functools import lru_cache, partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.engines import wotr_battle
from webapp.engines.wotr_battle import Army, remove_casualties
from webapp.engines.wotr_combat import combat_roll

# the hand-worked cases compare exact fractions
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
    lines = battle(Army(6, 4, 3), Army(7, 3, 2), terrain="city")["explanation"]
    text = " ".join(lines)
    assert "Round 1 in a City: the attacker hits only on 6" in text
    assert "Attacker rolls 5 dice hitting on 5+ with 3 re-rolls" in text
    assert "Attacker rolls 5 dice hitting only on 6 with 3 re-rolls" in text


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
