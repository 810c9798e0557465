"""A strike against a character: prowess modifiers, outcome chances and body checks."""

from fractions import Fraction

import pytest

from webapp.engines.meccg import strike


def test_plain_strike_by_hand():
    # prowess 5 against 9: the tie is a roll of 4 (3 ways); 2 or 3 fail (1 + 2 ways); the other 30 win
    result = strike(5, 9)
    assert result["modified_prowess"] == 5
    assert result["need"] == 5
    assert result["defeated"] == Fraction(30, 36)
    assert result["ineffectual"] == Fraction(3, 36)
    assert result["successful"] == Fraction(3, 36)
    assert result["body_check_fail"] is None
    assert result["character_eliminated"] is None
    assert result["creature_defeated"] is None
    assert sum(result["distribution"].values()) == 1


@pytest.mark.parametrize("kwargs, prowess", [
    ({"tapped": True}, 4),
    ({"wounded": True}, 3),
    ({"stay_untapped": True}, 2),
    ({"unused_strikes": 2}, 3),
    ({"support": 3}, 8),
    ({"resource_modifier": 2}, 7),
    ({"other_modifiers": -1}, 4),
    # all together: 5 - 1 - 2 - 1 + 2 + 3 - 4 = 2
    ({"tapped": True, "wounded": True, "unused_strikes": 1, "support": 2,
      "resource_modifier": 3, "other_modifiers": -4}, 2),
])
def test_each_prowess_modifier(kwargs, prowess):
    assert strike(5, 9, **kwargs)["modified_prowess"] == prowess


def test_body_check_and_elimination_by_hand():
    # prowess 3 against 9: tie roll 6 (5 ways), fail on 5 or less (1+2+3+4 = 10 ways), win 21 ways
    # body 8: the check fails on 9+ = 4+3+2+1 = 10 ways; eliminated = 10/36 * 10/36
    result = strike(3, 9, body=8)
    assert (result["defeated"], result["ineffectual"], result["successful"]) == (
        Fraction(21, 36), Fraction(5, 36), Fraction(10, 36))
    assert result["body_check_fail"] == Fraction(10, 36)
    assert result["character_eliminated"] == Fraction(100, 1296)


def test_earlier_wound_adds_one_to_body_check():
    # +1 turns "more than 8" into 8 or more: 5+4+3+2+1 = 15 of 36
    assert strike(3, 9, body=8, already_wounded=True)["body_check_fail"] == Fraction(15, 36)


def test_already_wounded_follows_wounded_unless_given():
    assert strike(5, 9, wounded=True, body=8)["body_check_fail"] == Fraction(15, 36)
    assert strike(5, 9, wounded=True, body=8, already_wounded=False)["body_check_fail"] == Fraction(10, 36)


def test_creature_body_check_by_hand():
    # prowess 6 against 9: win on 4+ (33 ways); creature body 7 fails on 8+ (15 ways)
    result = strike(6, 9, creature_body=7)
    assert result["defeated"] == Fraction(33, 36)
    assert result["creature_defeated"] == Fraction(33, 36) * Fraction(15, 36)


def test_outcomes_sum_to_one_and_rise_with_prowess():
    previous = Fraction(-1)
    for prowess in range(-5, 20):
        result = strike(prowess, 9)
        assert result["defeated"] + result["ineffectual"] + result["successful"] == 1
        assert result["defeated"] >= previous
        previous = result["defeated"]
    assert strike(-5, 9)["defeated"] == 0
    assert strike(19, 9)["defeated"] == 1


def test_ineffectual_only_on_exact_tie():
    # prowess 0 against 12: only double six ties, nothing wins
    result = strike(0, 12)
    assert result["ineffectual"] == Fraction(1, 36)
    assert result["defeated"] == 0


def test_tapped_character_cannot_choose_to_remain_untapped():
    with pytest.raises(ValueError, match=r"^stay_untapped: only a character that is neither tapped nor wounded"):
        strike(5, 9, tapped=True, stay_untapped=True)
    # a wounded character cannot tap either, so it cannot choose to remain untapped
    with pytest.raises(ValueError, match=r"^stay_untapped: only a character that is neither tapped nor wounded"):
        strike(5, 9, wounded=True, stay_untapped=True)


@pytest.mark.parametrize("kwargs, field", [
    ({"prowess": 21}, "prowess"),
    ({"strike_prowess": 31}, "strike_prowess"),
    ({"tapped": 1}, "tapped"),
    ({"wounded": None}, "wounded"),
    ({"unused_strikes": -1}, "unused_strikes"),
    ({"support": 21}, "support"),
    ({"resource_modifier": -21}, "resource_modifier"),
    ({"other_modifiers": "2"}, "other_modifiers"),
    ({"body": -1}, "body"),
    ({"already_wounded": "no"}, "already_wounded"),
    ({"creature_body": 25}, "creature_body"),
])
def test_strike_errors_name_the_field(kwargs, field):
    arguments = {"prowess": 5, "strike_prowess": 9} | kwargs
    with pytest.raises(ValueError, match=rf"^{field}: "):
        strike(**arguments)


@pytest.mark.parametrize("strike_prowess", range(-5, 25, 2))
def test_the_working_names_only_rolls_two_dice_can_show_and_every_outcome_they_give(strike_prowess):
    import re
    result = strike(6, strike_prowess)
    rolls = next(step for step in result["steps"] if "2d6 roll" in step)
    assert all(2 <= int(roll) <= 12 for roll in re.findall(r"(?<![+\d-])-?\d+", rolls.replace("2d6", ""))), rolls
    for outcome, words in (("defeated", "defeats"), ("ineffectual", "ineffectual"), ("successful", "successful")):
        assert (words in rolls) == (result[outcome] > 0), (outcome, rolls)


def test_unused_strikes_and_supporters_are_counted_in_words():
    steps = strike(5, 9, unused_strikes=1, support=2)["steps"]
    assert "-1 for 1 unused strike allocated by the attacker: 4." in steps
    assert "+2 for 2 unassigned characters tapped in support: 6." in steps
    assert "-2 for 2 unused strikes allocated by the attacker: 3." in strike(5, 9, unused_strikes=2)["steps"]
