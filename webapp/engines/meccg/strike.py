"""One strike against a character: modified prowess, the 2d6 outcome, and the body checks that follow."""

from fractions import Fraction

from ..words import counted
from .dice import HIGHEST_ROLL, LOWEST_ROLL, TWO_D6_OUTCOMES, chance_greater, describe_chance, rolls_for, two_d6
from .inputs import MAX_MODIFIER, MAX_SUPPORT, InputError, require_bool, require_int, signed

TAPPED_PENALTY = -1
WOUNDED_PENALTY = -2
REMAIN_UNTAPPED_PENALTY = -3
PER_UNUSED_STRIKE = -1
PER_SUPPORTING_CHARACTER = +1
BODY_CHECK_ALREADY_WOUNDED = +1

PROWESS_RANGE = (-20, 20)  # a character's prowess
STRIKE_PROWESS_RANGE = (-20, 30)  # a strike's prowess
MAX_UNUSED_STRIKES = 20
MAX_BODY = 20


def strike(prowess: int, strike_prowess: int, tapped: bool = False, wounded: bool = False,
           stay_untapped: bool = False, unused_strikes: int = 0, support: int = 0,
           resource_modifier: int = 0, other_modifiers: int = 0, body: int | None = None,
           already_wounded: bool | None = None, creature_body: int | None = None) -> dict:
    """Exact outcome chances of one strike against a character.

    Modified prowess = prowess, -1 if tapped, -2 if wounded, -3 if the untapped character
    chooses to remain untapped, +1 per unassigned character tapped in support, -1 per unused
    strike the attacker allocates, + resource_modifier (at most one resource card that needs
    a skill) + other_modifiers (any other resource or hazard cards). 2d6 + modified prowess
    against the strike's prowess, in the game's words: higher defeats the strike, equal makes it
    ineffectual, lower makes it successful (the character is wounded and makes a body check).
    Only a character that is neither tapped nor wounded may choose to remain untapped.

    A body check fails, eliminating the character, when the opponent's 2d6 is more than
    `body`; the roll gets +1 if the character was wounded before this strike
    (`already_wounded`, which follows `wounded` when left as None). When the strike is defeated
    and `creature_body` is given, the creature is defeated if a 2d6 roll is more than it.

    Returns {"defeated", "ineffectual", "successful": Fractions summing to 1,
    "modified_prowess": int, "need": int (smallest 2d6 total that defeats the strike),
    "body_check_fail": P(body check fails | strike successful) or None, "character_eliminated":
    P(strike successful and body check fails) or None, "creature_defeated": P(strike defeated
    and the creature's body check fails) or None, "distribution": {2d6 total: Fraction},
    "steps": [str]}.
    """
    already_wounded = wounded if already_wounded is None else already_wounded
    _check(prowess, strike_prowess, tapped, wounded, stay_untapped, unused_strikes, support, resource_modifier,
           other_modifiers, body, already_wounded, creature_body)
    modified, steps = _modified_prowess(prowess, tapped, wounded, stay_untapped, unused_strikes, support,
                                        resource_modifier, other_modifiers)
    steps.append(f"Modified prowess {modified} against strike prowess {strike_prowess}.")

    distribution = two_d6()
    # the strike is defeated when roll + modified > strike_prowess, i.e. roll > tie_roll
    tie_roll = strike_prowess - modified
    defeated = chance_greater(distribution, tie_roll)
    ineffectual = distribution.get(tie_roll, Fraction(0))
    successful = 1 - defeated - ineffectual
    steps.append(rolls_for([(tie_roll + 1, HIGHEST_ROLL, "defeats the strike"),
                            (tie_roll, tie_roll, "makes it ineffectual"),
                            (LOWEST_ROLL, tie_roll - 1, "makes it successful (the character is wounded)")]))
    steps.append(f"Strike defeated {describe_chance(defeated, TWO_D6_OUTCOMES)}, ineffectual "
                 f"{describe_chance(ineffectual, TWO_D6_OUTCOMES)}, successful "
                 f"{describe_chance(successful, TWO_D6_OUTCOMES)}.")

    body_check_fail, character_eliminated = _body_check(distribution, successful, body, already_wounded, steps)
    creature_defeated = _creature_body_check(distribution, defeated, creature_body, steps)

    return {"defeated": defeated, "ineffectual": ineffectual, "successful": successful,
            "modified_prowess": modified, "need": tie_roll + 1,
            "body_check_fail": body_check_fail, "character_eliminated": character_eliminated,
            "creature_defeated": creature_defeated, "distribution": distribution, "steps": steps}


def _check(prowess, strike_prowess, tapped, wounded, stay_untapped, unused_strikes, support, resource_modifier,
           other_modifiers, body, already_wounded, creature_body):
    """Refuse what the engine cannot take or the rules forbid, naming the input."""
    require_int("prowess", prowess, *PROWESS_RANGE)
    require_int("strike_prowess", strike_prowess, *STRIKE_PROWESS_RANGE)
    require_bool("tapped", tapped)
    require_bool("wounded", wounded)
    require_bool("stay_untapped", stay_untapped)
    require_int("unused_strikes", unused_strikes, 0, MAX_UNUSED_STRIKES)
    require_int("support", support, 0, MAX_SUPPORT)
    require_int("resource_modifier", resource_modifier, -MAX_MODIFIER, MAX_MODIFIER)
    require_int("other_modifiers", other_modifiers, -MAX_MODIFIER, MAX_MODIFIER)
    if body is not None:
        require_int("body", body, 0, MAX_BODY)
    require_bool("already_wounded", already_wounded)
    if creature_body is not None:
        require_int("creature_body", creature_body, 0, MAX_BODY)
    if stay_untapped and (tapped or wounded):
        raise InputError("stay_untapped", "only a character that is neither tapped nor wounded can choose to "
                                          "remain untapped")


def _modified_prowess(prowess, tapped, wounded, stay_untapped, unused_strikes, support, resource_modifier,
                      other_modifiers) -> tuple[int, list]:
    """(the modified prowess, the steps that get there), each modification in the order the rules give."""
    modified = prowess
    steps = [f"Start with the character's prowess, {prowess}."]
    for applies, change, reason in (
        (tapped, TAPPED_PENALTY, "tapped"),
        (wounded, WOUNDED_PENALTY, "wounded"),
        (stay_untapped, REMAIN_UNTAPPED_PENALTY, "chooses to remain untapped"),
        (unused_strikes, PER_UNUSED_STRIKE * unused_strikes,
         f"{counted(unused_strikes, 'unused strike')} allocated by the attacker"),
        (support, PER_SUPPORTING_CHARACTER * support,
         f"{counted(support, 'unassigned character')} tapped in support"),
        (resource_modifier, resource_modifier, "one resource card that needs a skill"),
        (other_modifiers, other_modifiers, "other resource and hazard cards"),
    ):
        if applies:
            modified += change
            steps.append(f"{signed(change)} for {reason}: {modified}.")
    return modified, steps


def _body_check(distribution, successful, body, already_wounded, steps):
    """(P(body check fails), P(character eliminated)) after a successful strike; (None, None) without a body."""
    if body is None:
        return None, None
    bonus = BODY_CHECK_ALREADY_WOUNDED if already_wounded else 0
    body_check_fail = chance_greater(distribution, body - bonus)
    character_eliminated = successful * body_check_fail
    bonus_note = f" (with {signed(bonus)} because he was wounded before this strike)" if bonus else ""
    steps.append(f"After a successful strike the opponent's body check roll{bonus_note} must be "
                 f"more than body {body} to eliminate the character: "
                 f"{describe_chance(body_check_fail, TWO_D6_OUTCOMES)}.")
    steps.append(f"Chance the character is eliminated: successful strike {successful} times "
                 f"{body_check_fail} = {character_eliminated}.")
    return body_check_fail, character_eliminated


def _creature_body_check(distribution, defeated, creature_body, steps):
    """P(strike defeated and the creature's body check fails), or None without the creature's body."""
    if creature_body is None:
        return None
    creature_check_fail = chance_greater(distribution, creature_body)
    creature_defeated = defeated * creature_check_fail
    steps.append(f"After the strike is defeated the creature's body check fails on a roll "
                 f"more than {creature_body}: {describe_chance(creature_check_fail, TWO_D6_OUTCOMES)}; "
                 f"chance the creature is defeated: {defeated} times {creature_check_fail} "
                 f"= {creature_defeated}.")
    return creature_defeated
