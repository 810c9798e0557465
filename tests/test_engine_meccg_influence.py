"""Influence attempts on an opponent's cards and ordinary faction play."""

from fractions import Fraction

import pytest

from webapp.engines.meccg import faction_play, influence_attempt

# counts of (your 2d6 - their 2d6) = d out of 1296, by hand: sum over totals of count(t) * count(t - d)
DIFFERENCE_COUNTS = {0: 146, 1: 140, 2: 125, 3: 104, 4: 80, 5: 56, 6: 35, 7: 20, 8: 10, 9: 4, 10: 1}


def at_least(d):
    """Pairs out of 1296 with difference at least d (symmetry fills in the negatives)."""
    return sum(DIFFERENCE_COUNTS[abs(v)] for v in range(-10, 11) if v >= d)


def test_difference_table_used_here_is_right():
    assert at_least(-10) == 1296
    assert at_least(1) == (1296 - 146) // 2


def test_character_attempt_by_hand():
    # 3 direct influence + 1 modifier - 2 general influence = 2; beat mind 5, so difference >= 4
    # pairs: 80 + 56 + 35 + 20 + 10 + 4 + 1 = 206
    result = influence_attempt("character", 3, modifiers=1, opponent_general_influence=2, mind=5)
    assert result["base"] == 2
    assert result["target"] == 5
    assert result["need"] == 4
    assert result["probability"] == Fraction(206, 1296)
    assert sum(result["distribution"].values()) == 1
    assert all(isinstance(s, str) for s in result["steps"])
    assert "unused direct influence, 3" in result["steps"][0]


def test_success_is_strictly_greater_than_target():
    # base 5 against mind 5: a tie on the dice leaves 5, not more than 5, so difference >= 1
    tie_fails = influence_attempt("character", 5, mind=5)
    assert tie_fails["need"] == 1
    assert tie_fails["probability"] == Fraction(575, 1296)  # (1296 - 146) / 2
    # one lower target lets a tie through: 575 + 146 = 721
    assert influence_attempt("character", 5, mind=4)["probability"] == Fraction(721, 1296)


@pytest.mark.parametrize("kind", ["follower", "ally", "item"])
def test_controller_direct_influence_counts_for_controlled_cards(kind):
    # 4 - 1 general - 2 controller = 1; identical card makes the target 0, so difference >= 0
    result = influence_attempt(kind, 4, opponent_general_influence=1,
                               controller_direct_influence=2, mind=6, identical=True)
    assert result["base"] == 1
    assert result["need"] == 0
    assert result["probability"] == Fraction(721, 1296)


@pytest.mark.parametrize("kind", ["character", "faction"])
def test_controller_direct_influence_ignored_for_character_and_faction(kind):
    with_controller = influence_attempt(kind, 4, controller_direct_influence=2, mind=6)
    without = influence_attempt(kind, 4, mind=6)
    assert with_controller["base"] == without["base"] == 4
    assert with_controller["probability"] == without["probability"]
    assert any("left out" in step for step in with_controller["steps"])


def test_identical_card_drops_target_to_zero():
    # follower, 2 direct influence, mind 6 -> 0: base 2 must beat 0, difference >= -1: 721 + 140 = 861
    plain = influence_attempt("follower", 2, mind=6)
    revealed = influence_attempt("follower", 2, mind=6, identical=True)
    assert plain["target"] == 6
    assert revealed["target"] == 0
    assert revealed["need"] == -1
    assert revealed["probability"] == Fraction(861, 1296)
    assert revealed["probability"] > plain["probability"]


def test_item_requires_identical_card():
    with pytest.raises(ValueError) as error:
        influence_attempt("item", 5, mind=4)
    assert str(error.value) == "identical: an influence attempt on an item requires revealing an identical card"


def test_certain_and_impossible_attempts():
    assert influence_attempt("character", 20, mind=0)["probability"] == 1
    never = influence_attempt("character", 0, opponent_general_influence=20, mind=10)
    assert never["probability"] == 0
    assert any("cannot succeed" in step for step in never["steps"])


def test_more_direct_influence_never_hurts():
    chances = [influence_attempt("ally", di, mind=7, controller_direct_influence=1)["probability"]
               for di in range(0, 20)]
    assert chances == sorted(chances)
    assert chances[0] < chances[-1]


@pytest.mark.parametrize("kwargs, field", [
    ({"kind": "ring"}, "kind"),
    ({"direct_influence": -1}, "direct_influence"),
    ({"direct_influence": 31}, "direct_influence"),
    ({"direct_influence": 2.5}, "direct_influence"),
    ({"direct_influence": True}, "direct_influence"),
    ({"modifiers": 21}, "modifiers"),
    ({"opponent_general_influence": -1}, "opponent_general_influence"),
    ({"controller_direct_influence": 40}, "controller_direct_influence"),
    ({"mind": -2}, "mind"),
    ({"identical": "yes"}, "identical"),
])
def test_influence_errors_name_the_field(kwargs, field):
    arguments = {"kind": "character", "direct_influence": 3} | kwargs
    with pytest.raises(ValueError, match=rf"^{field}: "):
        influence_attempt(**arguments)


def test_faction_play_by_hand():
    # 2 direct influence + 1 = 3 must beat 9: roll 7+ = 6+5+4+3+2+1 = 21 of 36
    result = faction_play(2, 1, 9)
    assert result["need"] == 7
    assert result["probability"] == Fraction(21, 36)


def test_faction_play_tie_fails():
    # 3 + 7 = 10 is not more than 10, so 8+ only: 5+4+3+2+1 = 15 of 36
    assert faction_play(3, 0, 10)["probability"] == Fraction(15, 36)


def test_faction_play_extremes():
    assert faction_play(0, 0, 0)["probability"] == 1
    assert faction_play(0, 0, 30)["probability"] == 0


@pytest.mark.parametrize("args, field", [
    ((-1, 0, 9), "direct_influence"),
    ((2, 25, 9), "modifiers"),
    ((2, 0, 31), "faction_number"),
])
def test_faction_play_errors_name_the_field(args, field):
    with pytest.raises(ValueError, match=rf"^{field}: "):
        faction_play(*args)
