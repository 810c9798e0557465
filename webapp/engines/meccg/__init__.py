"""Exact Middle-earth CCG calculators: influence attempts, strikes, corruption and The Free Council."""

from .corruption import corruption_check, corruption_removal
from .council import (council_can_be_called, free_council, marshalling_points_for_calling,
                      read_player)
from .dice import two_d6, two_d6_difference
from .influence import faction_play, influence_attempt
from .strike import strike

__all__ = [
    "corruption_check", "corruption_removal", "council_can_be_called", "faction_play",
    "free_council", "influence_attempt", "marshalling_points_for_calling", "read_player",
    "strike", "two_d6", "two_d6_difference",
]
