"""Influence attempts on an opponent's cards, and playing a faction at a site, with exact 2d6 odds."""

from .dice import (DIFFERENCE_OUTCOMES, HIGHEST_ROLL, LOWEST_ROLL, TWO_D6_OUTCOMES, chance_at_least, describe_chance,
                   roll_needed, two_d6, two_d6_difference)
from .inputs import (MAX_INFLUENCE, MAX_MODIFIER, InputError, require_bool, require_choice, require_int,
                     signed)

INFLUENCE_KINDS = ("character", "follower", "faction", "ally", "item")
# these cards sit under an opponent's character, whose unused direct influence resists the attempt
CONTROLLED_KINDS = ("follower", "ally", "item")
TARGET_NUMBER_SOURCE = {
    "character": "the character's mind",
    "follower": "the follower's mind",
    "faction": "the faction's target number",
    "ally": "the ally's mind",
    "item": "the controlling character's mind",
}


def influence_attempt(kind: str, direct_influence: int, modifiers: int = 0,
                      opponent_general_influence: int = 0, controller_direct_influence: int = 0,
                      mind: int = 0, identical: bool = False) -> dict:
    """Exact chance that an influence attempt on an opponent's card succeeds.

    The attempt's result is the influencer's unused direct influence + modifiers + your 2d6
    - the opponent's unused general influence - the opponent's 2d6, and for a follower, ally
    or item also - the controlling character's unused direct influence (ignored for the other
    kinds). It succeeds when the result is strictly greater than the target number: `mind`,
    which is the target's mind (character, follower, ally), the faction's target number
    (faction) or the controlling character's mind (item). Revealing an identical card first
    (identical=True) makes the target number 0; an item can only be influenced that way.

    Returns {"kind", "probability": Fraction, "target": int, "base": int (everything except
    the two rolls), "need": int (your roll minus theirs must be at least this; below -10 means
    every roll succeeds, above 10 means none can), "distribution": {your roll minus theirs:
    Fraction} for -10..10, "steps": [str]}.
    """
    require_choice("kind", kind, INFLUENCE_KINDS)
    require_int("direct_influence", direct_influence, 0, MAX_INFLUENCE)
    require_int("modifiers", modifiers, -MAX_MODIFIER, MAX_MODIFIER)
    require_int("opponent_general_influence", opponent_general_influence, 0, MAX_INFLUENCE)
    require_int("controller_direct_influence", controller_direct_influence, 0, MAX_INFLUENCE)
    require_int("mind", mind, 0, MAX_INFLUENCE)
    require_bool("identical", identical)
    if kind == "item" and not identical:
        raise InputError("identical", "an influence attempt on an item requires revealing an identical card")

    steps = [f"Start with the influencing character's unused direct influence, {direct_influence}."]
    base = direct_influence + modifiers
    steps.append(f"Modifiers from cards and abilities {signed(modifiers)}: {base}.")
    base -= opponent_general_influence
    steps.append(f"Subtract the opponent's unused general influence, {opponent_general_influence}: {base}.")
    if kind in CONTROLLED_KINDS:
        base -= controller_direct_influence
        steps.append(f"Subtract the controlling character's unused direct influence, "
                     f"{controller_direct_influence}: {base}.")
    elif controller_direct_influence:
        steps.append(f"A controlling character's direct influence ({controller_direct_influence}) "
                     f"does not count against an attempt on a {kind}, so it is left out.")

    if identical:
        target = 0
        steps.append(f"Revealing an identical card first drops the target number from "
                     f"{mind} ({TARGET_NUMBER_SOURCE[kind]}) to 0.")
    else:
        target = mind
        steps.append(f"The target number is {TARGET_NUMBER_SOURCE[kind]}, {target}.")

    need = target - base + 1
    steps.append(f"Success needs {base} + your roll - their roll to be more than {target}, "
                 f"so your roll minus theirs must be at least {need}.")
    distribution = two_d6_difference()
    probability = chance_at_least(distribution, need)
    if need <= -10:
        steps.append("Even the worst pair of rolls (2 against 12) is enough, so the attempt always succeeds.")
    elif need > 10:
        steps.append("Even the best pair of rolls (12 against 2) falls short, so the attempt cannot succeed.")
    steps.append(f"Pairs of rolls that succeed: {describe_chance(probability, DIFFERENCE_OUTCOMES)}.")
    return {"kind": kind, "probability": probability, "target": target, "base": base,
            "need": need, "distribution": distribution, "steps": steps}


def faction_play(direct_influence: int, modifiers: int, faction_number: int) -> dict:
    """Exact chance of playing a faction at its site by the ordinary influence check.

    Succeeds when 2d6 + the influencing character's direct influence + modifiers is strictly
    greater than the faction's number. Returns {"probability": Fraction, "need": int (the
    smallest 2d6 total that succeeds; 2 or less means any roll, over 12 means none),
    "steps": [str]}.
    """
    require_int("direct_influence", direct_influence, 0, MAX_INFLUENCE)
    require_int("modifiers", modifiers, -MAX_MODIFIER, MAX_MODIFIER)
    require_int("faction_number", faction_number, 0, MAX_INFLUENCE)

    base = direct_influence + modifiers
    need = faction_number - base + 1
    probability = chance_at_least(two_d6(), need)
    steps = [
        f"Direct influence {direct_influence}, modifiers {signed(modifiers)}: {base} before the roll.",
        f"The roll plus {base} must be more than the faction's number {faction_number}"
        + roll_needed(need, every=".", none=".", some=", so you need {need} or more on 2d6."),
    ]
    if need <= LOWEST_ROLL:
        steps.append("Every roll is enough, so the faction always comes into play.")
    elif need > HIGHEST_ROLL:
        steps.append("No roll is high enough, so the faction cannot be played this way.")
    steps.append(f"Rolls that succeed: {describe_chance(probability, TWO_D6_OUTCOMES)}.")
    return {"probability": probability, "need": need, "steps": steps}
