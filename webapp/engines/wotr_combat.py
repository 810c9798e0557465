"""Exact odds for one War of the Ring Combat roll with its Leader re-roll.

An Army rolls one Combat die per point of Combat Strength, at most five. A die scores a
hit when its result plus any modifier reaches the hit number (normally 5). A natural 6
is always a hit and a natural 1 always a miss, whatever the modifiers. After the roll,
the Leader re-roll picks up as many missed dice as the Army's Leadership (at most five,
and never more than the dice that missed) and rolls them again; by default the re-roll
needs the same hit number as the Combat roll, and it may carry its own modifier.

Everything is exact: probabilities are fractions.Fraction, built from integer counts
over a power of 6 (every die has six equally likely faces), never by sampling.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from .inputs import require_int

FACES = 6
MAX_DICE = 5  # Combat Strength beyond 5 still rolls 5 dice
MAX_REROLLS = 5  # the Leader re-roll never picks up more than 5 dice
MIN_HIT, MAX_HIT = 1, 7  # 7: no unmodified face 2-5 reaches it, so without a plus modifier only a 6 hits
MAX_MODIFIER = 5  # a modifier beyond +-5 cannot change any face's outcome


# --------------------------------------------------------------------------- validation


def _check_roll(dice, hit, modifier, rerolls, reroll_modifier, reroll_hit):
    require_int("dice", dice, 0, MAX_DICE)
    require_int("hit", hit, MIN_HIT, MAX_HIT)
    require_int("modifier", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    require_int("rerolls", rerolls, 0, MAX_REROLLS)
    require_int("reroll_modifier", reroll_modifier, -MAX_MODIFIER, MAX_MODIFIER)
    if reroll_hit is not None:
        require_int("reroll_hit", reroll_hit, MIN_HIT, MAX_HIT)


# --------------------------------------------------------------------------- one die


def _hitting_faces(hit, modifier):
    """How many of the six faces hit: 6 always, 1 never, 2-5 when face + modifier >= hit."""
    return 1 + sum(1 for face in range(2, 6) if face + modifier >= hit)


def die_hits(hit: int, modifier: int) -> Fraction:
    """Chance that one Combat die scores a hit, as an exact Fraction.

    A 6 always hits and a 1 always misses; a 2 to 5 hits when face + modifier >= hit.
    """
    require_int("hit", hit, MIN_HIT, MAX_HIT)
    require_int("modifier", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    return Fraction(_hitting_faces(hit, modifier), FACES)


# --------------------------------------------------------------------------- whole roll


@lru_cache(maxsize=1024)  # a battle or a page asks for a few dozen; the bound keeps odd requests from piling up
def _roll_weights(dice, hit, modifier, rerolls, reroll_modifier, reroll_hit):
    """Integer weights of 0..dice total hits over the common denominator 6**(dice + R).

    R = min(rerolls, dice) is the most dice the re-roll can ever pick up; a roll that
    re-rolls fewer dice is scaled up so every outcome shares one denominator.
    """
    first = _hitting_faces(hit, modifier)
    second = _hitting_faces(reroll_hit, reroll_modifier)
    most_rerolled = min(rerolls, dice)
    weights = [0] * (dice + 1)
    for first_hits in range(dice + 1):
        # ways the first roll shows exactly first_hits hits (out of 6**dice)
        ways_first = comb(dice, first_hits) * first**first_hits * (FACES - first) ** (dice - first_hits)
        rerolled = min(rerolls, dice - first_hits)
        pad = FACES ** (most_rerolled - rerolled)  # puts this branch over 6**most_rerolled
        for second_hits in range(rerolled + 1):
            ways_second = comb(rerolled, second_hits) * second**second_hits * (FACES - second) ** (rerolled - second_hits)
            weights[first_hits + second_hits] += ways_first * ways_second * pad
    return tuple(weights), FACES ** (dice + most_rerolled)


def combat_roll_weights(dice: int, hit: int = 5, modifier: int = 0, rerolls: int = 0,
                        reroll_modifier: int = 0, reroll_hit: int | None = None) -> tuple[tuple[int, ...], int]:
    """The combat_roll distribution as integers: (weights, denominator).

    weights[k] / denominator is the chance of exactly k hits; the weights sum to the
    denominator, which is a power of 6. Cached, so repeated calls are free.
    """
    _check_roll(dice, hit, modifier, rerolls, reroll_modifier, reroll_hit)
    return _roll_weights(dice, hit, modifier, rerolls, reroll_modifier,
                         hit if reroll_hit is None else reroll_hit)


def combat_roll(dice: int, hit: int = 5, modifier: int = 0, rerolls: int = 0,
                reroll_modifier: int = 0, reroll_hit: int | None = None) -> list[Fraction]:
    """Exact distribution of total hits from a Combat roll plus its Leader re-roll.

    dice: Combat dice rolled, already capped (min(Combat Strength, 5)), 0..5.
    hit: number a die must reach (1..7; 7 means only a natural 6 hits unless a plus modifier lifts a 2-5 to 7).
    modifier: added to each die of the Combat roll (-5..5).
    rerolls: Leadership available for re-rolls, already capped (min(Leadership, 5)), 0..5;
        after the roll, min(rerolls, missed dice) missed dice are rolled again.
    reroll_modifier: added to each re-rolled die (-5..5).
    reroll_hit: hit number for the re-roll; None means the same as hit.

    Returns a list of length dice + 1 whose entry k is P(exactly k hits); it sums to 1.
    """
    weights, denominator = combat_roll_weights(dice, hit, modifier, rerolls, reroll_modifier, reroll_hit)
    return [Fraction(weight, denominator) for weight in weights]


def expected_hits(distribution) -> Fraction:
    """Mean number of hits of a distribution indexed by hits (entry k = P(k hits))."""
    return sum((Fraction(k) * Fraction(p) for k, p in enumerate(distribution)), Fraction(0))


def at_least(distribution, hits: int) -> Fraction:
    """P(at least `hits` hits) from a distribution indexed by hits."""
    return sum((Fraction(p) for p in distribution[max(hits, 0):]), Fraction(0))


def clear_caches() -> None:
    """Forget every cached roll (for cold-start timing)."""
    _roll_weights.cache_clear()


# --------------------------------------------------------------------------- explanation


def approximately(value: Fraction, places: int = 2) -> str:
    """A Fraction as a rounded decimal string, computed exactly (no floats)."""
    scale = 10**places
    scaled = round(Fraction(value) * scale)
    sign = "-" if scaled < 0 else ""
    whole, part = divmod(abs(scaled), scale)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


def hit_text(hit: int, modifier: int = 0) -> str:
    """How a die hits, in plain words: 'on 5+', 'only on 6', or with the modifier spelled out."""
    needed = min(max(hit - modifier, 2), 6)  # 1 always misses, 6 always hits
    words = "only on 6" if needed == 6 else f"on {needed}+"
    if modifier:
        # hit 7 is still a number the modified die must reach: with +2 a 5 makes it
        words += f" ({hit}+ needed, {modifier:+d} added to each die)"
    return words


def _dice_word(count):
    return "1 die" if count == 1 else f"{count} dice"


def describe_roll(dice: int, hit: int = 5, modifier: int = 0, rerolls: int = 0,
                  reroll_modifier: int = 0, reroll_hit: int | None = None) -> list[str]:
    """Plain sentences showing how combat_roll works out these dice, ending with the mean."""
    _check_roll(dice, hit, modifier, rerolls, reroll_modifier, reroll_hit)
    if dice == 0:
        return ["No Combat dice are rolled, so no hits are scored."]
    second_hit = hit if reroll_hit is None else reroll_hit
    first = _hitting_faces(hit, modifier)
    sentences = [f"{_dice_word(dice)} {'hits' if dice == 1 else 'hit'} {hit_text(hit, modifier)} "
                 f"({first} in 6 each)."]
    picked_up = min(rerolls, dice)
    if picked_up:
        second = _hitting_faces(second_hit, reroll_modifier)
        sentences.append(f"Leader re-roll: up to {picked_up} missed {'die is' if picked_up == 1 else 'dice are'} "
                         f"re-rolled, hitting {hit_text(second_hit, reroll_modifier)} ({second} in 6 each).")
    else:
        sentences.append("No Leader re-roll.")
    mean = expected_hits(combat_roll(dice, hit, modifier, rerolls, reroll_modifier, reroll_hit))
    sentences.append(f"Expected hits: {mean} (about {approximately(mean)}).")
    return sentences
