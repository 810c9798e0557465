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


def rolls_named(sentence):
    """The 2d6 totals a sentence of the working names, as numbers."""
    import re
    return [int(number) for number in re.findall(r"(?<![+\d-])-?\d+", sentence.replace("2d6", ""))]


@pytest.mark.parametrize("corruption", range(0, 16))
@pytest.mark.parametrize("bonus", [-4, 0, 3])
def test_the_working_names_only_rolls_two_dice_can_show_and_every_outcome_they_give(corruption, bonus):
    result = corruption_check(corruption, modifier=bonus)
    rolls = result["steps"][1]
    assert all(2 <= roll <= 12 for roll in rolls_named(rolls)), rolls
    for outcome, words in (("pass", "passes"), ("discard", "discards"), ("eliminate", "eliminates")):
        assert (words in rolls) == (result[outcome] > 0), (outcome, rolls)


def test_corruption_0_passes_on_every_roll_and_no_support_says_nothing_of_support():
    # the player's report: "A 2d6 roll of 1 or more passes, -1 or 0 discards", "+0 from 0 supporting character(s)"
    steps = corruption_check(0)["steps"]
    assert steps[:2] == ["Corruption total 0; nothing modifies the roll.", "Every 2d6 roll passes."]
    assert corruption_check(5, modifier=1, support=1)["steps"][0] == \
        "Corruption total 5; modifier +1 and +1 from 1 supporting character give +2 on the roll."
    assert "from 2 supporting characters give +2" in corruption_check(5, support=2)["steps"][0]


def test_a_removal_roll_names_no_impossible_roll():
    assert "so every roll removes it." in corruption_removal(1)["steps"][1]
    assert "so no roll removes it." in corruption_removal(12)["steps"][1]
    assert "so you need 7 or more on 2d6." in corruption_removal(6)["steps"][1]
