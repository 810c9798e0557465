"""Corruption checks and removing corruption cards."""

from fractions import Fraction

import pytest

from webapp.engines.meccg import corruption_check, corruption_removal


def test_corruption_seven_by_hand():
    # pass on 8+ (5+4+3+2+1 = 15), discard on 6 or 7 (5+6 = 11), eliminate on 5 or less (1+2+3+4 = 10)
    result = corruption_check(7)
    assert result["pass"] == Fraction(15, 36)
    assert result["discard"] == Fraction(11, 36)
    assert result["eliminate"] == Fraction(10, 36)


def test_support_adds_one_each():
    # corruption 7 with two supporters: pass on 6+ (26), discard on 4 or 5 (3+4 = 7), eliminate on 2 or 3 (3)
    result = corruption_check(7, support=2)
    assert (result["pass"], result["discard"], result["eliminate"]) == (
        Fraction(26, 36), Fraction(7, 36), Fraction(3, 36))
    # a +2 modifier moves the roll the same way two supporters do
    same = corruption_check(7, modifier=2)
    assert (same["pass"], same["discard"], same["eliminate"]) == (
        result["pass"], result["discard"], result["eliminate"])


def test_corruption_edges():
    # total 13: even 12 is one less, a discard; everything else eliminates
    high = corruption_check(13)
    assert (high["pass"], high["discard"], high["eliminate"]) == (0, Fraction(1, 36), Fraction(35, 36))
    # total 2: only a roll of 2 ties (discard); nothing can be two below
    low = corruption_check(2)
    assert (low["pass"], low["discard"], low["eliminate"]) == (Fraction(35, 36), Fraction(1, 36), 0)
    assert corruption_check(0)["pass"] == 1


def test_corruption_outcomes_sum_to_one_and_worsen_with_corruption():
    previous = Fraction(2)
    for corruption in range(0, 31):
        result = corruption_check(corruption, modifier=-1)
        assert result["pass"] + result["discard"] + result["eliminate"] == 1
        assert result["pass"] <= previous
        previous = result["pass"]


def test_removal_greater_and_at_least():
    # need 6: more than 6 is 7+ (21 of 36); at least 6 adds the five 6s (26 of 36)
    assert corruption_removal(6)["probability"] == Fraction(21, 36)
    assert corruption_removal(6, comparison="at-least")["probability"] == Fraction(26, 36)


def test_removal_staying_untapped_costs_three():
    # need 6, -3: the roll must be 10+ (3+2+1 = 6 of 36)
    result = corruption_removal(6, stay_untapped=True)
    assert result["lowest_roll"] == 10
    assert result["probability"] == Fraction(6, 36)
    # +1 modifier on top: 9+ (4+3+2+1 = 10 of 36)
    assert corruption_removal(6, modifier=1, stay_untapped=True)["probability"] == Fraction(10, 36)


@pytest.mark.parametrize("call, field", [
    (lambda: corruption_check(31), "corruption"),
    (lambda: corruption_check(5, modifier=21), "modifier"),
    (lambda: corruption_check(5, support=-1), "support"),
    (lambda: corruption_removal(-1), "need"),
    (lambda: corruption_removal(6, modifier=-21), "modifier"),
    (lambda: corruption_removal(6, stay_untapped=0), "stay_untapped"),
    (lambda: corruption_removal(6, comparison="less"), "comparison"),
])
def test_corruption_errors_name_the_field(call, field):
    with pytest.raises(ValueError, match=rf"^{field}: "):
        call()
