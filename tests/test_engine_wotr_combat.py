"""Tests for the exact War of the Ring Combat roll (webapp.engines.wotr_combat)."""
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.engines.wotr_combat import (
    at_least,
    combat_roll,
    combat_roll_weights,
    describe_roll,
    die_hits,
    expected_hits,
)


# --------------------------------------------------------------------------- one die


def test_one_die_hits_on_5_or_6():
    # faces 5 and 6 of six
    assert die_hits(5, 0) == F(1, 3)


def test_plus_one_modifier_lets_a_4_hit():
    # faces 4, 5, 6
    assert die_hits(5, 1) == F(1, 2)


def test_six_always_hits_even_with_minus_five():
    # 5 - 5 = 0 < 5, but a natural 6 still hits: 1 face in 6
    assert die_hits(5, -5) == F(1, 6)
    assert die_hits(7, 0) == F(1, 6)


def test_one_always_misses_even_with_plus_five():
    # faces 2..6 hit (2 + 5 = 7 >= 5); the 1 misses anyway
    assert die_hits(5, 5) == F(5, 6)
    assert die_hits(1, 5) == F(5, 6)


def test_hit_on_6_only():
    # a City or siege attacker: only the 6
    assert die_hits(6, 0) == F(1, 6)
    # with +1, a 5 reaches 6 as well
    assert die_hits(6, 1) == F(1, 3)


# --------------------------------------------------------------------------- small rolls


def test_one_die_no_reroll():
    assert combat_roll(1) == [F(2, 3), F(1, 3)]


def test_one_die_one_reroll():
    # hit = 1/3 + 2/3 * 1/3 = 5/9
    assert combat_roll(1, rerolls=1) == [F(4, 9), F(5, 9)]


def test_one_die_plus_one_modifier():
    assert combat_roll(1, modifier=1) == [F(1, 2), F(1, 2)]


def test_two_dice():
    # binomial: (2/3)^2, 2*(1/3)(2/3), (1/3)^2
    assert combat_roll(2) == [F(4, 9), F(4, 9), F(1, 9)]


def test_reroll_modifier_only_changes_the_reroll():
    # 1/3 + 2/3 * 1/2 = 2/3
    assert combat_roll(1, rerolls=1, reroll_modifier=1) == [F(1, 3), F(2, 3)]


def test_reroll_hit_number():
    # re-roll only hits on 6: 1/3 + 2/3 * 1/6 = 4/9
    assert combat_roll(1, rerolls=1, reroll_hit=6)[1] == F(4, 9)


def test_reroll_defaults_to_the_combat_roll_hit_number():
    # City first round: hit on 6, re-roll also on 6: 1/6 + 5/6 * 1/6 = 11/36
    assert combat_roll(1, hit=6, rerolls=1)[1] == F(11, 36)


def test_rerolls_never_exceed_missed_dice():
    # one die can be re-rolled at most once, whatever the Leadership
    assert combat_roll(1, rerolls=5) == combat_roll(1, rerolls=1)
    assert combat_roll(2, rerolls=3) == combat_roll(2, rerolls=2)


def test_zero_dice():
    assert combat_roll(0, rerolls=3) == [F(1)]


# --------------------------------------------------------------------------- the seed's example


def test_seed_example_five_units_three_leaders_all_five_hits():
    # 5 dice, 3 re-rolls: 5 hits needs at most 3 misses, all re-rolled and all hitting:
    # 0 misses: (1/3)^5                      = 27/6561
    # 1 miss:   5 (1/3)^4 (2/3) * 1/3        = 90/6561
    # 2 misses: 10 (1/3)^3 (2/3)^2 * (1/3)^2 = 120/6561
    # 3 misses: 10 (1/3)^2 (2/3)^3 * (1/3)^3 = 80/6561
    assert combat_roll(5, rerolls=3)[5] == F(317, 6561)


def test_seed_example_four_hits():
    # 3 first hits (as in the example: 1, 3, 5, 5, 6) leave 2 misses, and only those 2 are re-rolled.
    # P(4) = P1(4)*P(0 of 1) + P1(3)*P(1 of 2) + P1(2)*P(2 of 3) + P1(1)*P(3 of 3)
    #      = 10/243*2/3 + 40/243*4/9 + 80/243*2/9 + 80/243*1/27
    #      = (180 + 480 + 480 + 80)/6561
    assert combat_roll(5, rerolls=3)[4] == F(1220, 6561)


def test_expected_hits():
    assert expected_hits(combat_roll(5)) == F(5, 3)
    assert expected_hits(combat_roll(1, rerolls=1)) == F(5, 9)
    # the re-roll adds 1/3 per re-rolled die: E[min(3, misses)] / 3 on top of 5/3
    misses = combat_roll(5)  # misses = 5 - hits
    extra = sum(p * min(3, 5 - k) for k, p in enumerate(misses)) * F(1, 3)
    assert expected_hits(combat_roll(5, rerolls=3)) == F(5, 3) + extra


def test_weights_share_one_power_of_six():
    weights, denominator = combat_roll_weights(3, rerolls=2)
    assert denominator == 6**5
    assert sum(weights) == denominator


# --------------------------------------------------------------------------- whole-grid properties


ALL_ROLLS = [
    (dice, hit, modifier, rerolls)
    for dice in range(6)
    for hit in range(1, 8)
    for modifier in range(-5, 6)
    for rerolls in range(6)
]


def test_every_distribution_sums_to_one_and_has_dice_plus_one_entries():
    for dice, hit, modifier, rerolls in ALL_ROLLS:
        distribution = combat_roll(dice, hit, modifier, rerolls)
        assert len(distribution) == dice + 1
        assert sum(distribution) == 1
        assert all(0 <= p <= 1 for p in distribution)


def test_more_dice_never_lower_the_chance_of_k_hits():
    for dice, hit, modifier, rerolls in ALL_ROLLS:
        if dice == 5:
            continue
        fewer = combat_roll(dice, hit, modifier, rerolls)
        more = combat_roll(dice + 1, hit, modifier, rerolls)
        for k in range(dice + 2):
            assert at_least(more, k) >= at_least(fewer, k)


def test_more_rerolls_never_lower_the_chance_of_k_hits():
    for dice, hit, modifier, rerolls in ALL_ROLLS:
        if rerolls == 5:
            continue
        fewer = combat_roll(dice, hit, modifier, rerolls)
        more = combat_roll(dice, hit, modifier, rerolls + 1)
        for k in range(dice + 1):
            assert at_least(more, k) >= at_least(fewer, k)


def test_a_higher_modifier_never_lowers_the_chance_of_k_hits():
    for dice, hit, modifier, rerolls in ALL_ROLLS:
        if modifier == 5:
            continue
        lower = combat_roll(dice, hit, modifier, rerolls)
        higher = combat_roll(dice, hit, modifier + 1, rerolls)
        for k in range(dice + 1):
            assert at_least(higher, k) >= at_least(lower, k)


def test_cached_result_is_not_shared():
    first = combat_roll(3, rerolls=1)
    first[0] = F(99)
    assert combat_roll(3, rerolls=1)[0] != F(99)


@settings(max_examples=60, deadline=None)
@given(dice=st.integers(0, 5), hit=st.integers(1, 7), modifier=st.integers(-5, 5),
       rerolls=st.integers(0, 5), reroll_modifier=st.integers(-5, 5),
       reroll_hit=st.one_of(st.none(), st.integers(1, 7)))
def test_property_distribution_is_a_distribution(dice, hit, modifier, rerolls, reroll_modifier, reroll_hit):
    distribution = combat_roll(dice, hit, modifier, rerolls, reroll_modifier, reroll_hit)
    assert len(distribution) == dice + 1
    assert sum(distribution) == 1
    assert all(0 <= p <= 1 for p in distribution)
    # the re-roll can only add hits: never below the plain roll's chance of k or more
    plain = combat_roll(dice, hit, modifier)
    for k in range(dice + 1):
        assert at_least(distribution, k) >= at_least(plain, k)


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize("kwargs, name", [
    ({"dice": 6}, "dice"),
    ({"dice": -1}, "dice"),
    ({"dice": 2, "hit": 0}, "hit"),
    ({"dice": 2, "hit": 8}, "hit"),
    ({"dice": 2, "modifier": 6}, "modifier"),
    ({"dice": 2, "rerolls": 6}, "rerolls"),
    ({"dice": 2, "reroll_modifier": -6}, "reroll_modifier"),
    ({"dice": 2, "reroll_hit": 9}, "reroll_hit"),
    ({"dice": True}, "dice"),
    ({"dice": 2.0}, "dice"),
])
def test_bad_input_names_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name}: a whole number from"):
        combat_roll(**kwargs)


def test_die_hits_validates():
    with pytest.raises(ValueError, match=r"^modifier:"):
        die_hits(5, 9)
    with pytest.raises(ValueError, match=r"^hit:"):
        die_hits(0, 0)


# --------------------------------------------------------------------------- explanation


def test_describe_roll_seed_example():
    lines = describe_roll(5, rerolls=3)
    assert lines[0] == "5 dice hit on 5+ (2 in 6 each)."
    assert "up to 3 missed dice are re-rolled, hitting on 5+ (2 in 6 each)" in lines[1]
    mean = expected_hits(combat_roll(5, rerolls=3))
    assert str(mean) in lines[2]


def test_describe_roll_modifier_and_hard_hit():
    assert describe_roll(2, modifier=1)[0] == "2 dice hit on 4+ (5+ needed, +1 added to each die) (3 in 6 each)."
    assert describe_roll(1, hit=6)[0] == "1 die hits only on 6 (1 in 6 each)."
    assert describe_roll(1)[1] == "No Leader re-roll."
    assert describe_roll(0) == ["No Combat dice are rolled, so no hits are scored."]


def test_describe_roll_hit_seven_with_plus_modifier_does_not_claim_a_natural_six():
    # hit 7, +2: a 5 becomes 7 and hits, so 5 and 6 hit (2 in 6); the words must agree
    assert combat_roll(1, hit=7, modifier=2) == [F(4, 6), F(2, 6)]
    line = describe_roll(2, hit=7, modifier=2)[0]
    assert line == "2 dice hit on 5+ (7+ needed, +2 added to each die) (2 in 6 each)."
    assert "natural 6" not in line


def test_describe_roll_caps_rerolls_at_dice():
    assert "up to 2 missed dice" in describe_roll(2, rerolls=5)[1]
