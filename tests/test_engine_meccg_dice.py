"""Exact 2d6 distributions behind every Middle-earth CCG calculator."""

from fractions import Fraction

from webapp.engines.meccg import two_d6, two_d6_difference
from webapp.engines.meccg.dice import chance_at_least, chance_greater


def test_two_d6_totals_by_hand():
    dist = two_d6()
    assert list(dist) == list(range(2, 13))
    # 7 = 1+6, 2+5, 3+4, 4+3, 5+2, 6+1: six of 36
    assert dist[7] == Fraction(6, 36)
    assert dist[2] == dist[12] == Fraction(1, 36)
    assert dist[4] == Fraction(3, 36)
    assert sum(dist.values()) == 1


def test_two_d6_difference_by_hand():
    dist = two_d6_difference()
    assert list(dist) == list(range(-10, 11))
    # 0: same total on both, sum of squared counts 1+4+9+16+25+36+25+16+9+4+1 = 146
    assert dist[0] == Fraction(146, 1296)
    # 1: sum of neighbouring counts 1*2+2*3+3*4+4*5+5*6+6*5+5*4+4*3+3*2+2*1 = 140
    assert dist[1] == dist[-1] == Fraction(140, 1296)
    # 10: only 12 against 2
    assert dist[10] == dist[-10] == Fraction(1, 1296)
    assert all(dist[d] == dist[-d] for d in range(11))
    assert sum(dist.values()) == 1


def test_chance_helpers_are_strict_and_inclusive():
    dist = two_d6()
    # more than 7: 8..12 = 5+4+3+2+1 = 15 of 36; at least 7 adds the 6 sevens
    assert chance_greater(dist, 7) == Fraction(15, 36)
    assert chance_at_least(dist, 7) == Fraction(21, 36)
    assert chance_at_least(dist, 2) == 1
    assert chance_greater(dist, 12) == 0


def test_distributions_are_fresh_copies():
    first = two_d6()
    first[7] = Fraction(0)
    assert two_d6()[7] == Fraction(6, 36)
