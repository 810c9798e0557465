"""Exact chances for the 2d6 rolls Middle-earth CCG uses for strikes, checks and influence."""

from fractions import Fraction

TWO_D6_OUTCOMES = 36
LOWEST_ROLL, HIGHEST_ROLL = 2, 12  # the totals two dice can show
DIFFERENCE_OUTCOMES = TWO_D6_OUTCOMES * TWO_D6_OUTCOMES


def _two_d6_counts() -> dict[int, int]:
    counts: dict[int, int] = {}
    for first in range(1, HIGHEST_ROLL // 2 + 1):
        for second in range(1, HIGHEST_ROLL // 2 + 1):
            counts[first + second] = counts.get(first + second, 0) + 1
    return counts


def two_d6() -> dict[int, Fraction]:
    """Chance of each total 2..12 on two six-sided dice (a fresh dict, keys in order)."""
    return {total: Fraction(count, TWO_D6_OUTCOMES)
            for total, count in sorted(_two_d6_counts().items())}


def two_d6_difference() -> dict[int, Fraction]:
    """Chance of each value -10..10 of one 2d6 roll minus another, independent, 2d6 roll."""
    counts = _two_d6_counts()
    differences: dict[int, int] = {}
    for mine, my_count in counts.items():
        for theirs, their_count in counts.items():
            differences[mine - theirs] = differences.get(mine - theirs, 0) + my_count * their_count
    return {value: Fraction(count, DIFFERENCE_OUTCOMES)
            for value, count in sorted(differences.items())}


def chance_at_least(distribution: dict[int, Fraction], threshold: int) -> Fraction:
    """Chance that a roll from distribution is threshold or more."""
    return sum((p for value, p in distribution.items() if value >= threshold), Fraction(0))


def chance_greater(distribution: dict[int, Fraction], threshold: int) -> Fraction:
    """Chance that a roll from distribution is strictly more than threshold."""
    return chance_at_least(distribution, threshold + 1)


def roll_needed(lowest: int, every: str = "any roll", none: str = "no roll",
                some: str = "a roll of {need} or more") -> str:
    """The lowest 2d6 total that does it, in words: ``every`` when any roll does, ``none`` when no
    roll can, else ``some`` with the total as {need}."""
    return every if lowest <= LOWEST_ROLL else none if lowest > HIGHEST_ROLL else some.format(need=lowest)


def roll_range(low: int, high: int) -> str:
    """The 2d6 totals from low to high that can be rolled, in words: '7 or more', '5 or 6', '2 to 4',
    '12'; '' when none can."""
    low, high = max(low, LOWEST_ROLL), min(high, HIGHEST_ROLL)
    if low > high:
        return ""
    if low == high:
        return str(low)
    if high == low + 1:
        return f"{low} or {high}"
    if high == HIGHEST_ROLL:
        return f"{low} or more"
    if low == LOWEST_ROLL:
        return f"{high} or less"
    return f"{low} to {high}"


def rolls_for(outcomes) -> str:
    """Which 2d6 rolls give each outcome, naming only rolls two dice can show: outcomes are
    (lowest roll, highest roll, what it does), best first. 'A 2d6 roll of 8 or more defeats the
    strike, 7 makes it ineffectual, 6 or less makes it successful.'; 'Every 2d6 roll passes.'"""
    said = [(roll_range(low, high), what) for low, high, what in outcomes]
    said = [(rolls, what) for rolls, what in said if rolls]
    if len(said) == 1:
        return f"Every 2d6 roll {said[0][1]}."
    return "A 2d6 roll of " + ", ".join(f"{rolls} {what}" for rolls, what in said) + "."


def describe_chance(probability: Fraction, outcomes: int) -> str:
    """Say a chance as a count of equally likely outcomes and as a reduced fraction: '15 of 36 (5/12)'."""
    return f"{probability * outcomes} of {outcomes} ({probability})"
