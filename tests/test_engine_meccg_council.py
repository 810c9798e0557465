"""The Free Council: each scoring step alone, both rulesets, winners, and when it can be called."""

import math

import pytest
from hypothesis import given, strategies as st

from webapp.engines.inputs import InputError
from webapp.engines.meccg import council_can_be_called, free_council, marshalling_points_for_calling
from webapp.engines.meccg.council import SOURCES

STEP_ORDER = ["sources", "dead characters", "imprisoned characters", "doubling", "half rule",
              "avatar", "duplicates"]
# one point in every source: nothing doubles, nothing breaks the half rule
EVEN = {name: 1 for name in SOURCES}


def score(player, opponent=EVEN, ruleset="seed"):
    return free_council([player, opponent], ruleset)["players"][0]


def step(result, name):
    return next(s for s in result["steps"] if s["step"] == name)


def test_steps_come_in_order_with_before_and_after():
    result = score(EVEN)
    assert [s["step"] for s in result["steps"]] == STEP_ORDER
    assert all(isinstance(s["description"], str) and s["description"] for s in result["steps"])
    assert isinstance(step(result, "half rule")["after"], dict)
    assert isinstance(step(result, "avatar")["after"], int)


def test_sources_are_added():
    # 1 in each of six sources, nothing else applies
    result = score(EVEN)
    assert result["total"] == 6
    assert result["sources"] == EVEN
    assert step(result, "sources")["total"] == 6


def test_missing_entries_count_as_zero():
    # kill 2 only; opponent has 1 everywhere so nothing doubles; kill 2 alone is cut by the half rule to 1
    result = score({"kill": 2})
    assert step(result, "sources")["after"] == {"character": 0, "item": 0, "faction": 0,
                                                "ally": 0, "kill": 2, "misc": 0}


def test_dead_characters_come_off_character_points():
    # character 5 - 2 dead = 3; others 1 each (5): total 8, 3 is within half (4)
    result = score(EVEN | {"character": 5, "dead_character_points": 2})
    assert step(result, "dead characters")["before"]["character"] == 5
    assert step(result, "dead characters")["after"]["character"] == 3
    assert result["total"] == 8


def test_imprisoned_characters_come_off_character_points():
    # character 5 - 1 imprisoned = 4; total 4 + 5 = 9, half rounded up 5
    result = score(EVEN | {"character": 5, "imprisoned_character_points": 1})
    assert step(result, "imprisoned characters")["after"]["character"] == 4
    assert result["total"] == 9


def test_doubling_follows_the_opponent():
    # opponent has no items and no allies: my item and ally double (1 -> 2 each); total 6 + 2 = 8
    opponent = EVEN | {"item": 0, "ally": 0}
    result = score(EVEN, opponent)
    assert step(result, "doubling")["after"] == EVEN | {"item": 2, "ally": 2}
    assert result["total"] == 8
    # the opponent, facing my points everywhere, doubles nothing: 1+0+1+0+1+1 = 4
    assert free_council([EVEN, opponent])["players"][1]["total"] == 4


def test_opponent_below_zero_also_doubles():
    result = score(EVEN | {"faction": 2}, EVEN | {"faction": -1})
    assert step(result, "doubling")["after"]["faction"] == 4


def test_doubling_uses_opponent_after_dead_characters():
    # opponent's 2 character points all lost to a dead key character: my character doubles
    result = score(EVEN | {"character": 2}, EVEN | {"character": 2, "dead_character_points": 2})
    assert step(result, "doubling")["after"]["character"] == 4
    # same opponent with a living character: no doubling
    assert step(score(EVEN | {"character": 2}, EVEN | {"character": 2}), "doubling")["after"]["character"] == 2


def test_kill_and_misc_never_double():
    result = score(EVEN | {"kill": 3, "misc": 2}, {"character": 1, "item": 1, "faction": 1, "ally": 1})
    assert step(result, "doubling")["after"]["kill"] == 3
    assert step(result, "doubling")["after"]["misc"] == 2


# opponent with points in types 1-4, so the player under test never doubles
NO_DOUBLING = {"character": 1, "item": 1, "faction": 1, "ally": 1}


def test_half_rule_seed_rounds_up():
    # character 10, item 3: total 13, half rounded up 7, so 10 is too much.
    # largest s with s <= ceil((s + 3) / 2): s = 4 gives ceil(7/2) = 4, fine; s = 5 gives ceil(8/2) = 4, too big
    result = score({"character": 10, "item": 3}, NO_DOUBLING)
    assert step(result, "half rule")["after"]["character"] == 4
    assert result["total"] == 7


def test_half_rule_council_of_elrond_exact_half():
    # same hand: s <= (s + 3) / 2 means s <= 3; total 6
    result = score({"character": 10, "item": 3}, NO_DOUBLING, "council-of-elrond")
    assert step(result, "half rule")["after"]["character"] == 3
    assert result["total"] == 6


@pytest.mark.parametrize("ruleset, cut_to, half", [("seed", 4, "half of 7 rounded up is 4"),
                                                   ("council-of-elrond", 3, "half of 6 is 3")])
def test_half_rule_says_the_cut_source_is_half_of_the_new_total(ruleset, cut_to, half):
    # character 10 of 13 is over half; cut, it lowers the total, so the working gives the new total's half
    text = step(score({"character": 10, "item": 3}, NO_DOUBLING, ruleset), "half rule")["description"]
    assert "character 10 is over it" in text and f"drops to {cut_to}" in text and half in text, text


def test_half_rule_leaves_diverse_points_alone():
    # character 10 and 3 in each of the other five: total 25, half rounded up 13, nothing cut either way
    player = {"character": 10, "item": 3, "faction": 3, "ally": 3, "kill": 3, "misc": 3}
    assert score(player, NO_DOUBLING)["total"] == 25
    assert score(player, NO_DOUBLING, "council-of-elrond")["total"] == 25


def test_rounding_is_the_only_difference_at_the_edge():
    # character 4, item 3: total 7; 4 <= ceil(3.5) = 4 passes under the seed, 4 > 3.5 is cut to 3 under the other
    player = {"character": 4, "item": 3}
    assert score(player, NO_DOUBLING)["total"] == 7
    assert score(player, NO_DOUBLING, "council-of-elrond")["total"] == 6


def test_single_source_is_cut_hard():
    # kill 5 alone: seed allows s <= ceil(s/2), so 1; exact half allows only 0
    assert score({"kill": 5}, NO_DOUBLING)["total"] == 1
    assert score({"kill": 5}, NO_DOUBLING, "council-of-elrond")["total"] == 0


def test_negative_sources_count_as_zero_for_half_rule_but_stay_in_total():
    # character 10, item 3, misc -2: limit from the positive others is 3 (+1 rounded up) = 4; total 4 + 3 - 2 = 5
    player = {"character": 10, "item": 3, "misc": -2}
    result = score(player, NO_DOUBLING)
    assert result["sources"] == {"character": 4, "item": 3, "faction": 0, "ally": 0, "kill": 0, "misc": -2}
    assert result["total"] == 5
    assert score(player, NO_DOUBLING, "council-of-elrond")["total"] == 4


def test_half_rule_comes_after_doubling():
    # item 4, kill 3 against an opponent without items: item 8 vs others 3 -> cut to 4 (seed)
    result = score({"item": 4, "kill": 3}, {"character": 1, "faction": 1, "ally": 1})
    assert step(result, "doubling")["after"]["item"] == 8
    assert step(result, "half rule")["after"]["item"] == 4
    assert result["total"] == 7


@given(st.lists(st.integers(-5, 30), min_size=6, max_size=6),
       st.sampled_from(["seed", "council-of-elrond"]))
def test_half_rule_result_obeys_rule_and_cuts_no_more_than_needed(values, ruleset):
    player = dict(zip(SOURCES, values))
    before = step(score(player, NO_DOUBLING, ruleset), "half rule")
    after = before["after"]
    counted_total = sum(max(v, 0) for v in after.values())

    def allowed(s, total):
        return s <= math.ceil(total / 2) if ruleset == "seed" else 2 * s <= total

    for name in SOURCES:
        assert after[name] <= before["before"][name]
        if after[name] > 0:
            assert allowed(after[name], counted_total)
        if after[name] < before["before"][name]:
            # one more point would break the rule
            assert not allowed(after[name] + 1, counted_total + 1)


def test_dead_avatar_costs_five():
    result = score(EVEN | {"avatar_eliminated": True})
    assert step(result, "avatar")["before"] == 6
    assert step(result, "avatar")["after"] == 1
    assert result["total"] == 1


def test_each_revealed_duplicate_costs_one():
    result = score(EVEN | {"duplicates_revealed_by_opponent": 3})
    assert step(result, "duplicates")["after"] == 3
    assert result["total"] == 3


def test_avatar_and_duplicates_come_after_half_rule():
    # kill 5 alone is cut to 1 first, then -5 and -1 take it to -5 (not 5 - 6 = -1 halved)
    result = score({"kill": 5, "avatar_eliminated": True, "duplicates_revealed_by_opponent": 1}, NO_DOUBLING)
    assert result["total"] == -5


def test_combined_example_both_rulesets():
    first = {"character": 12, "item": 4, "ally": 2, "kill": 3, "misc": 1, "dead_character_points": 2,
             "imprisoned_character_points": 1, "avatar_eliminated": True,
             "duplicates_revealed_by_opponent": 1}
    second = {"character": 6, "faction": 5, "misc": 2, "dead_character_points": 6}
    # after losses: first 9, 4, 0, 2, 3, 1 (19); second 0, 0, 5, 0, 0, 2 (7)
    # doubling: second has 0 in character, item, ally -> first 18, 8, 0, 4, 3, 1 (34)
    #           first has 0 in faction -> second 0, 0, 10, 0, 0, 2 (12)
    # seed half rule: first 18 > ceil(34/2) = 17 -> others 16 + 1 = 17, total 33; then -5 -1 = 27
    #                 second 10 > 6 -> 2 + 1 = 3, total 5
    seed = free_council([first, second])
    assert [p["total"] for p in seed["players"]] == [27, 5]
    assert seed["players"][0]["sources"] == {"character": 17, "item": 8, "faction": 0, "ally": 4,
                                             "kill": 3, "misc": 1}
    assert seed["winner"] == 0
    # exact half: first cut to 16, total 32 - 6 = 26; second cut to 2, total 4
    elrond = free_council([first, second], "council-of-elrond")
    assert [p["total"] for p in elrond["players"]] == [26, 4]
    # swapping seats swaps the winner index
    assert free_council([second, first])["winner"] == 1


def test_tie_has_no_winner():
    # 6 + 1 kill - 1 duplicate = 6 against a plain 6
    result = free_council([EVEN | {"kill": 2, "duplicates_revealed_by_opponent": 1}, EVEN])
    assert [p["total"] for p in result["players"]] == [6, 6]
    assert result["winner"] is None


@pytest.mark.parametrize("players, message", [
    ([EVEN | {"gold": 3}, EVEN], r"^players\[0\]\.gold: "),
    ([EVEN, EVEN | {"kill": 101}], r"^players\[1\]\.kill: "),
    ([EVEN | {"avatar_eliminated": 1}, EVEN], r"^players\[0\]\.avatar_eliminated: "),
    ([EVEN | {"dead_character_points": -1}, EVEN], r"^players\[0\]\.dead_character_points: "),
    ([EVEN | {"duplicates_revealed_by_opponent": 2.0}, EVEN], r"^players\[0\]\.duplicates_revealed_by_opponent: "),
    ([EVEN], r"^players: "),
    ([EVEN, EVEN, EVEN], r"^players: "),
    ([EVEN, 3], r"^players\[1\]: "),
])
def test_council_errors_name_the_field(players, message):
    with pytest.raises(ValueError, match=message):
        free_council(players)


def test_unknown_ruleset():
    with pytest.raises(ValueError, match=r"^ruleset: "):
        free_council([EVEN, EVEN], "tournament")


def test_points_toward_calling_count_only_starred_steps():
    # 12+4+0+2+3+1 = 22, less 2 dead and 1 imprisoned = 19, less 5 for the avatar = 14; no doubling or half rule
    player = {"character": 12, "item": 4, "ally": 2, "kill": 3, "misc": 1, "dead_character_points": 2,
              "imprisoned_character_points": 1, "avatar_eliminated": True,
              "duplicates_revealed_by_opponent": 4}
    assert marshalling_points_for_calling(player)["total"] == 14


@pytest.mark.parametrize("mine, points, theirs, can_call, when", [
    (2, 0, 2, True, "current turn"),
    (3, 0, 2, True, "current turn"),
    (2, 0, 1, True, "next turn"),
    (1, 25, 0, True, "next turn"),
    (1, 24, 2, False, ""),
    (0, 40, 2, False, ""),
    (0, 0, 0, False, ""),
])
def test_when_the_council_can_be_called(mine, points, theirs, can_call, when):
    result = council_can_be_called(mine, points, theirs)
    assert result["can_call"] is can_call
    assert when in result["when"]
    assert (result["when"] == "") is (not can_call)
    assert result["reason"]


@pytest.mark.parametrize("args, field", [
    ((-1, 0, 0), "deck_exhaustions"),
    ((1, 1.5, 0), "marshalling_points"),
    ((1, 0, 11), "opponent_deck_exhaustions"),
])
def test_calling_errors_name_the_field(args, field):
    with pytest.raises(ValueError, match=rf"^{field}: "):
        council_can_be_called(*args)


@pytest.mark.parametrize("key", ["", "two words", "élan?"])
def test_an_entry_with_no_name_is_refused_by_its_player_and_quoted(key):
    with pytest.raises(InputError) as caught:
        free_council([{key: 1}, {}])
    assert caught.value.field == "players[0]" and repr(key) in str(caught.value)
