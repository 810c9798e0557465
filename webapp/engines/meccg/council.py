"""The Free Council: when it can be called, and each player's final marshalling point total.

Reading of the half rule (the source summary gives only "no more than half, rounded up, of the
final total from any one source; reduce the offending source"):
- The total it refers to is the total at that step, before the dead-avatar and duplicate
  penalties that come after it.
- A source over the limit is cut to the largest value that obeys the rule given the other
  sources. With R the sum of the other sources, s <= ceil((s + R) / 2) holds exactly when
  s <= R + 1 (ruleset "seed", half rounded up); s <= (s + R) / 2 holds exactly when s <= R
  (ruleset "council-of-elrond", exact half).
- Negative sources count as 0 for the half rule, in both rulesets: they are never cut and do
  not lower another source's limit, but they still count in full in the player's total.
  Counted literally they could make the rule impossible to satisfy (character 10, item 10,
  misc -5: cutting either source below the other drives both down without end).
- Doubling is literal: a player's own points in a source double when the opponent has 0 or
  less there after dead and imprisoned characters are subtracted, even if they are negative.
"""

from ..words import and_list
from .inputs import InputError, require_bool, require_choice, require_int

SOURCES = ("character", "item", "faction", "ally", "kill", "misc")
# types 1-4: a source doubles when the opponent has nothing in it
DOUBLING_SOURCES = ("character", "item", "faction", "ally")
SOURCE_RANGE = (-100, 100)
PLAYER_COUNTS = {
    "dead_character_points": (0, 100),
    "imprisoned_character_points": (0, 100),
    "duplicates_revealed_by_opponent": (0, 30),
}
PLAYER_FLAGS = ("avatar_eliminated",)
RULESETS = ("seed", "council-of-elrond")
DEAD_AVATAR_PENALTY = 5
PER_DUPLICATE_REVEALED = 1
CALLING_MARSHALLING_POINTS = 25
MAX_DECK_EXHAUSTIONS = 10
# the most marshalling points, either way, that the entries above can add up to for calling
MAX_CALLING_POINTS = (len(SOURCES) * max(map(abs, SOURCE_RANGE)) + PLAYER_COUNTS["dead_character_points"][1]
                      + PLAYER_COUNTS["imprisoned_character_points"][1] + DEAD_AVATAR_PENALTY)


def read_player(player, index: int = 0) -> dict:
    """Check one player's entries and fill in what is missing (0, or False for the avatar).

    Raises InputError naming "players[i].<key>" for an unknown key or a value out of range.
    """
    if not isinstance(player, dict):
        raise InputError(f"players[{index}]", "a mapping of marshalling point entries")
    known = SOURCES + tuple(PLAYER_COUNTS) + PLAYER_FLAGS
    for key in player:
        if key in known:
            continue
        if isinstance(key, str) and key.isidentifier():
            raise InputError(f"players[{index}].{key}", f"not a Free Council entry; allowed keys are {', '.join(known)}")
        # a key that is no name ("", "a b") is named in the message, not in the field's place
        raise InputError(f"players[{index}]", f"{key!r} is not a Free Council entry; allowed keys are {', '.join(known)}")
    entries: dict = {}
    for name in SOURCES:
        entries[name] = require_int(f"players[{index}].{name}", player.get(name, 0), *SOURCE_RANGE)
    for name, (low, high) in PLAYER_COUNTS.items():
        entries[name] = require_int(f"players[{index}].{name}", player.get(name, 0), low, high)
    for name in PLAYER_FLAGS:
        entries[name] = require_bool(f"players[{index}].{name}", player.get(name, False))
    return entries


def _list_sources(sources: dict) -> str:
    return ", ".join(f"{name} {sources[name]}" for name in SOURCES)


def _subtract_lost_characters(sources: dict, points: int, what: str) -> tuple[dict, str]:
    after = dict(sources)
    after["character"] -= points
    if points:
        return after, (f"Subtract {points} for {what} from character points: "
                       f"{sources['character']} to {after['character']}.")
    return after, f"No points to subtract for {what}."


def _double(sources: dict, opponent: dict) -> tuple[dict, str]:
    after = dict(sources)
    doubled = [name for name in DOUBLING_SOURCES if opponent[name] <= 0]
    for name in doubled:
        after[name] = 2 * sources[name]
    if not doubled:
        return after, ("The opponent has points in each of character, item, faction and ally, "
                       "so nothing doubles.")
    changes = [f"{name} {sources[name]} to {after[name]}" for name in doubled if sources[name]]
    result = ("; ".join(changes) + ".") if changes else "you have no points there, so nothing changes."
    double = "it doubles" if len(doubled) == 1 else "those double"
    return after, f"The opponent has 0 or less in {and_list(doubled)}, so {double}: {result}"


def _half_of(total: int, ruleset: str) -> str:
    """Half a total as the ruleset counts it, in words: "half of 29 rounded up is 15"."""
    if ruleset == "seed":
        return f"half of {total} rounded up is {-(-total // 2)}"
    return f"half of {total} is {total // 2}" + (" and a half" if total % 2 else "")


def _half_rule(sources: dict, ruleset: str) -> tuple[dict, str]:
    after = dict(sources)
    counted = {name: max(value, 0) for name, value in sources.items()}
    counted_total = sum(counted.values())
    limit_text = _half_of(counted_total, ruleset)
    cuts = []
    for name in SOURCES:
        # with no negative values at most one source can be over the limit, so order does not matter
        others = sum(counted.values()) - counted[name]
        limit = others + 1 if ruleset == "seed" else others
        if counted[name] > limit:
            cuts.append(f"{name} {counted[name]} is over it, and cutting it lowers the total too, so it drops to "
                        f"{limit}: with the other sources' {others}, the new total is {others + limit}, and "
                        + _half_of(others + limit, ruleset))
            after[name] = counted[name] = limit
    rounding = "rounded up" if ruleset == "seed" else "with no rounding"
    negatives = [name for name in SOURCES if sources[name] < 0]
    negative_note = (f" Negative sources ({', '.join(negatives)}) count as 0 for this rule."
                     if negatives else "")
    if not cuts:
        return after, (f"No source may give more than half the total, {rounding}: {limit_text}, "
                       f"and no source is above it.{negative_note}")
    return after, (f"No source may give more than half the total, {rounding}: {limit_text}; "
                   + "; ".join(cuts) + f". New total {sum(after.values())}.{negative_note}")


def _score_player(entries: dict, opponent_after_losses: dict, ruleset: str) -> dict:
    steps = []

    def record(step: str, description: str, before, after) -> None:
        total = sum(after.values()) if isinstance(after, dict) else after
        # copies, so changing one step's numbers cannot change another's
        steps.append({"step": step, "description": description,
                      "before": dict(before) if isinstance(before, dict) else before,
                      "after": dict(after) if isinstance(after, dict) else after, "total": total})

    given = {name: entries[name] for name in SOURCES}
    record("sources", f"Marshalling points by source: {_list_sources(given)}; "
                      f"total {sum(given.values())}.", given, given)
    after_dead, text = _subtract_lost_characters(given, entries["dead_character_points"],
                                                 "dead key characters")
    record("dead characters", text, given, after_dead)
    after_prison, text = _subtract_lost_characters(after_dead, entries["imprisoned_character_points"],
                                                   "imprisoned characters")
    record("imprisoned characters", text, after_dead, after_prison)
    after_doubling, text = _double(after_prison, opponent_after_losses)
    record("doubling", text, after_prison, after_doubling)
    after_half, text = _half_rule(after_doubling, ruleset)
    record("half rule", text, after_doubling, after_half)

    total = sum(after_half.values())
    if entries["avatar_eliminated"]:
        record("avatar", f"Subtract {DEAD_AVATAR_PENALTY} because the avatar was eliminated: "
                         f"{total} to {total - DEAD_AVATAR_PENALTY}.", total, total - DEAD_AVATAR_PENALTY)
        total -= DEAD_AVATAR_PENALTY
    else:
        record("avatar", "The avatar was not eliminated, so nothing is subtracted.", total, total)
    duplicates = entries["duplicates_revealed_by_opponent"]
    penalty = PER_DUPLICATE_REVEALED * duplicates
    if duplicates:
        record("duplicates", f"Subtract {PER_DUPLICATE_REVEALED} for each unique card the opponent reveals a "
                             f"duplicate of ({duplicates}): {total} to {total - penalty}.",
               total, total - penalty)
    else:
        record("duplicates", "The opponent reveals no duplicates of unique cards.", total, total)
    total -= penalty
    return {"total": total, "sources": after_half, "steps": steps}


def free_council(players: list, ruleset: str = "seed") -> dict:
    """Final marshalling point totals of both players at The Free Council, and the winner.

    Each player is a dict with integer character, item, faction, ally, kill, misc,
    dead_character_points, imprisoned_character_points, duplicates_revealed_by_opponent and
    boolean avatar_eliminated (missing entries are 0 or False). In order: take the six
    sources; subtract dead key characters' and imprisoned characters' points from character;
    double each of character, item, faction and ally in which the opponent has 0 or less;
    apply the half rule (`ruleset` "seed": half rounded up; "council-of-elrond": exact half;
    see the module notes); subtract 5 for an eliminated avatar; subtract 1 per unique card the
    opponent reveals a duplicate of.

    Returns {"ruleset", "players": [{"total": int, "sources": {six sources after the half
    rule}, "steps": [{"step", "description", "before", "after", "total"}]} for each player],
    "winner": 0 or 1 (index of the higher total) or None for a tie}.
    """
    require_choice("ruleset", ruleset, RULESETS)
    if not isinstance(players, (list, tuple)) or len(players) != 2:
        raise InputError("players", "a list of exactly two players")
    entries = [read_player(player, index) for index, player in enumerate(players)]
    after_losses = [
        dict((name, player[name]) for name in SOURCES) | {
            "character": player["character"] - player["dead_character_points"]
            - player["imprisoned_character_points"]}
        for player in entries
    ]
    scored = [_score_player(entries[i], after_losses[1 - i], ruleset) for i in (0, 1)]
    first, second = scored[0]["total"], scored[1]["total"]
    winner = None if first == second else (0 if first > second else 1)
    return {"ruleset": ruleset, "players": scored, "winner": winner}


def marshalling_points_for_calling(player: dict) -> dict:
    """Marshalling points that count toward the 25 needed to call the council after one exhaustion.

    Only the source totals, the dead and imprisoned characters' points and the dead-avatar
    penalty count here; doubling, the half rule and revealed duplicates do not.
    Returns {"total": int, "steps": [str]}.
    """
    entries = read_player(player)
    raw = sum(entries[name] for name in SOURCES)
    total = raw - entries["dead_character_points"] - entries["imprisoned_character_points"]
    steps = [f"Sources {_list_sources(entries)}: {raw}.",
             f"Less {entries['dead_character_points']} for dead key characters and "
             f"{entries['imprisoned_character_points']} for imprisoned characters: {total}."]
    if entries["avatar_eliminated"]:
        total -= DEAD_AVATAR_PENALTY
        steps.append(f"Less {DEAD_AVATAR_PENALTY} for the eliminated avatar: {total}.")
    return {"total": total, "steps": steps}


def council_can_be_called(deck_exhaustions: int, marshalling_points: int,
                          opponent_deck_exhaustions: int) -> dict:
    """Whether The Free Council is called, and when it is held.

    Both play decks exhausted twice: it is called at the end of the current turn. Otherwise a
    player who has exhausted his deck twice, or once with at least 25 marshalling points
    (counted as in marshalling_points_for_calling), may call it at the end of his turn, and it
    is held at the end of the opponent's next turn. Returns {"can_call": bool, "when": str
    ("" when it cannot be called), "reason": str}.
    """
    require_int("deck_exhaustions", deck_exhaustions, 0, MAX_DECK_EXHAUSTIONS)
    require_int("marshalling_points", marshalling_points, -MAX_CALLING_POINTS, MAX_CALLING_POINTS)
    require_int("opponent_deck_exhaustions", opponent_deck_exhaustions, 0, MAX_DECK_EXHAUSTIONS)

    later = "at the end of your opponent's next turn, if you call it at the end of your turn"
    if deck_exhaustions >= 2 and opponent_deck_exhaustions >= 2:
        return {"can_call": True, "when": "at the end of the current turn",
                "reason": "Both play decks have been exhausted twice, so the council is called "
                          "without anyone choosing to."}
    if deck_exhaustions >= 2:
        return {"can_call": True, "when": later,
                "reason": "You have exhausted your play deck twice."}
    if deck_exhaustions == 1 and marshalling_points >= CALLING_MARSHALLING_POINTS:
        return {"can_call": True, "when": later,
                "reason": f"You have exhausted your play deck once and have {marshalling_points} "
                          f"marshalling points, at least {CALLING_MARSHALLING_POINTS}."}
    if deck_exhaustions == 1:
        return {"can_call": False, "when": "",
                "reason": f"After one exhaustion you need {CALLING_MARSHALLING_POINTS} marshalling "
                          f"points; you have {marshalling_points}."}
    return {"can_call": False, "when": "",
            "reason": "Your play deck has not been exhausted yet."}
