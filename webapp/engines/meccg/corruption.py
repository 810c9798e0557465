"""Corruption checks and attempts to remove a corruption card, with exact 2d6 odds."""

from fractions import Fraction

from ..words import counted
from .dice import (HIGHEST_ROLL, LOWEST_ROLL, TWO_D6_OUTCOMES, chance_at_least, chance_greater, describe_chance,
                   roll_needed, rolls_for, two_d6)
from .inputs import MAX_MODIFIER, MAX_SUPPORT, require_bool, require_choice, require_int, signed

PER_SUPPORTING_CHARACTER = +1
REMAIN_UNTAPPED_PENALTY = -3
REMOVAL_COMPARISONS = ("greater", "at-least")
MAX_CORRUPTION = 30  # corruption points, or the number a corruption card prints for its removal


def corruption_check(corruption: int, modifier: int = 0, support: int = 0) -> dict:
    """Exact outcome chances of a corruption check.

    2d6 + modifier + support (+1 per character tapped in support) is compared with the
    character's corruption total: more than the total passes, equal to it or one less means
    the character is discarded, two or more below it means the character is eliminated.
    Returns {"pass", "discard", "eliminate": Fractions summing to 1, "steps": [str]}.
    """
    require_int("corruption", corruption, 0, MAX_CORRUPTION)
    require_int("modifier", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    require_int("support", support, 0, MAX_SUPPORT)

    bonus = modifier + PER_SUPPORTING_CHARACTER * support
    if support:
        on_roll = (f"modifier {signed(modifier)} and {signed(PER_SUPPORTING_CHARACTER * support)} from "
                   f"{counted(support, 'supporting character')} give {signed(bonus)} on the roll")
    else:
        on_roll = f"modifier {signed(modifier)} on the roll" if modifier else "nothing modifies the roll"
    steps = [f"Corruption total {corruption}; {on_roll}."]
    # the roll that exactly equals the corruption total once the bonus is added
    equal_roll = corruption - bonus
    distribution = two_d6()
    passed = chance_greater(distribution, equal_roll)
    discard = distribution.get(equal_roll, Fraction(0)) + distribution.get(equal_roll - 1, Fraction(0))
    eliminate = 1 - passed - discard
    steps.append(rolls_for([(equal_roll + 1, HIGHEST_ROLL, "passes"),
                            (equal_roll - 1, equal_roll, "discards the character"),
                            (LOWEST_ROLL, equal_roll - 2, "eliminates him")]))
    steps.append(f"Pass {describe_chance(passed, TWO_D6_OUTCOMES)}, discard "
                 f"{describe_chance(discard, TWO_D6_OUTCOMES)}, eliminate "
                 f"{describe_chance(eliminate, TWO_D6_OUTCOMES)}.")
    return {"pass": passed, "discard": discard, "eliminate": eliminate, "steps": steps}


def corruption_removal(need: int, modifier: int = 0, stay_untapped: bool = False,
                       comparison: str = "greater") -> dict:
    """Exact chance that an attempt to remove a corruption card succeeds.

    Each corruption card prints its own number for removal, so it is the input `need`. Whether
    the card asks for a roll greater than that number or at least that number also varies by
    card and is the input `comparison`: "greater" (the default; 2d6 + modifiers > need) or
    "at-least" (2d6 + modifiers >= need). A character who chooses to remain untapped while
    trying takes -3. Returns {"probability": Fraction, "lowest_roll": int (smallest 2d6 total
    that removes the card), "steps": [str]}.
    """
    require_int("need", need, 0, MAX_CORRUPTION)
    require_int("modifier", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    require_bool("stay_untapped", stay_untapped)
    require_choice("comparison", comparison, REMOVAL_COMPARISONS)

    bonus = modifier + (REMAIN_UNTAPPED_PENALTY if stay_untapped else 0)
    steps = [f"Modifier {signed(modifier)}"
             + (f", {signed(REMAIN_UNTAPPED_PENALTY)} for remaining untapped" if stay_untapped else "")
             + f": {signed(bonus)} on the roll."]
    lowest_roll = need - bonus + (1 if comparison == "greater" else 0)
    wording = "more than" if comparison == "greater" else "at least"
    probability = chance_at_least(two_d6(), lowest_roll)
    needed = roll_needed(lowest_roll, every="every roll removes it", none="no roll removes it",
                         some="you need {need} or more on 2d6")
    steps.append(f"The roll plus {signed(bonus)} must be {wording} {need}, so {needed}.")
    steps.append(f"Rolls that remove the card: {describe_chance(probability, TWO_D6_OUTCOMES)}.")
    return {"probability": probability, "lowest_roll": lowest_roll, "steps": steps}
