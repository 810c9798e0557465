"""Fate of the Fellowship dice: search roll, battle roll and the roll at Mount Doom.

Face counts are written into each test so the expected odds do not depend on the
unverified counts in content/fotf/data/dice.yaml.
"""

from fractions import Fraction as F

import pytest

from webapp.content import ContentError
from webapp.library import read_library
from webapp.engines.fotf_dice import (
    battle_dice,
    battle_roll,
    ring_roll,
    search_dice,
    search_roll,
)

# search die for the hand calculations: weary 1 + exposed 1 of 6 faces lose hope (1/3), recall 1/6
SEARCH = {"slip_by": 3, "weary": 1, "exposed": 1, "recall": 1}
# battle die: rout 2/6, exchange 2/6, overrun 1/6, Nazgûl 1/6
BATTLE = {"rout": 2, "exchange": 2, "overrun": 1, "nazgul": 1}
UNIFORM_BATTLE = {"rout": 1, "exchange": 1, "overrun": 1, "nazgul": 1}


def _joint(result):
    return {(j["shadow"], j["friendly"]): j["probability"] for j in result["joint"]}


# --------------------------------------------------------------------------- the data file


def test_data_file_loads_and_is_marked_unverified(dice):
    faces = dice
    assert faces["verified"] is False
    assert "physical" in faces["note"]
    assert set(faces["search"]) == {"slip_by", "weary", "exposed", "recall"}
    assert set(faces["battle"]) == {"rout", "exchange", "overrun", "nazgul"}
    assert sum(faces["search"].values()) == 6 and sum(faces["battle"].values()) == 6


def test_loaded_faces_work_in_every_roll(dice):
    faces = dice
    assert sum(search_roll(3, faces)["hope_lost"]) == 1
    assert sum(battle_roll(2, faces, 2, 2)["friendly_removed"]) == 1
    assert 0 <= ring_roll(2, 1, 3, 1, faces)["win"] <= 1


@pytest.mark.parametrize(
    "text",
    [
        "search: {slip_by: 2, weary: -1, exposed: 2, recall: 1}\nbattle: {rout: 2, exchange: 2, overrun: 1, nazgul: 1}\n",
        "search: {slip_by: 0, weary: 0, exposed: 0, recall: 0}\nbattle: {rout: 2, exchange: 2, overrun: 1, nazgul: 1}\n",
        "search: {slip_by: 2, weary: 1, exposed: 2}\nbattle: {rout: 2, exchange: 2, overrun: 1, nazgul: 1}\n",
        "search: {slip_by: 2, weary: 1.5, exposed: 2, recall: 1}\nbattle: {rout: 2, exchange: 2, overrun: 1, nazgul: 1}\n",
        "search: {slip_by: 2, weary: 1, exposed: 2, recall: 1}\n",
    ],
)
def test_a_dice_file_with_bad_counts_is_rejected(content_copy, text):
    (content_copy / "fotf" / "data" / "dice.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        read_library(content_copy)
    assert all(problem.startswith("content/fotf/data/dice.yaml: ") for problem in caught.value.problems)


# --------------------------------------------------------------------------- search roll


def test_one_search_die_out_of_a_haven():
    r = search_roll(1, SEARCH)
    # weary or exposed: 2/6 = 1/3 hope lost; recall 1/6
    assert r["hope_lost"] == [F(2, 3), F(1, 3)]
    assert r["expected_hope_lost"] == F(1, 3)
    assert r["recall"] == [F(5, 6), F(1, 6)]
    assert r["expected_recall"] == F(1, 6)


def test_exposed_costs_nothing_in_a_haven():
    r = search_roll(1, SEARCH, in_haven=True)
    # only weary loses hope: 1/6
    assert r["hope_lost"] == [F(5, 6), F(1, 6)]


def test_two_search_dice_are_binomial():
    r = search_roll(2, SEARCH)
    # (2/3)^2 = 4/9, 2 x 1/3 x 2/3 = 4/9, (1/3)^2 = 1/9
    assert r["hope_lost"] == [F(4, 9), F(4, 9), F(1, 9)]
    # recall: (5/6)^2 = 25/36, 2 x 1/6 x 5/6 = 10/36, 1/36
    assert r["recall"] == [F(25, 36), F(10, 36), F(1, 36)]


def test_recall_needs_nazgul_and_does_nothing_in_mordor():
    assert search_roll(2, SEARCH, nazgul_present=False)["recall"] == [1, 0, 0]
    assert search_roll(2, SEARCH, in_mordor=True)["recall"] == [1, 0, 0]
    # hope loss is unaffected by where the Nazgûl are
    assert search_roll(2, SEARCH, in_mordor=True)["hope_lost"] == [F(4, 9), F(4, 9), F(1, 9)]


def test_recall_cannot_send_more_nazgul_than_are_present():
    r = search_roll(2, SEARCH, nazgul=1)
    # two recalls (1/36) still send only the one Nazgûl: 10/36 + 1/36 = 11/36
    assert r["recall"] == [F(25, 36), F(11, 36), 0]
    with pytest.raises(ValueError, match="^nazgul:"):
        search_roll(2, SEARCH, nazgul=0)


def test_no_dice_means_nothing_happens():
    r = search_roll(0, SEARCH)
    assert r["hope_lost"] == [1]
    assert r["recall"] == [1]
    assert r["expected_hope_lost"] == 0


def test_one_reroll_on_one_die():
    r = search_roll(1, SEARCH, rerolls=1)
    # hope lost only if the first and the re-rolled face both lose hope: 1/3 x 1/3
    assert r["hope_lost"] == [F(8, 9), F(1, 9)]
    # recall on the first face (1/6), or a hope face re-rolled into recall (1/3 x 1/6)
    assert r["recall"] == [F(7, 9), F(2, 9)]
    assert r["expected_rerolls_spent"] == F(1, 3)


def test_rerolling_the_same_die_again():
    r = search_roll(1, SEARCH, rerolls=2)
    # hope face three times running: (1/3)^3
    assert r["hope_lost"] == [F(26, 27), F(1, 27)]


def test_one_reroll_on_two_dice():
    r = search_roll(2, SEARCH, rerolls=1)
    # start [4/9, 4/9, 1/9]; from 1 hope die: stays 1/3 -> 4/27, clears 2/3 -> 8/27;
    # from 2: stays 1/3 -> 1/27, drops to 1 with 2/3 -> 2/27
    assert r["hope_lost"] == [F(20, 27), F(6, 27), F(1, 27)]


def test_seven_dice_cap():
    assert len(search_roll(7, SEARCH)["hope_lost"]) == 8
    with pytest.raises(ValueError, match="^dice:"):
        search_roll(8, SEARCH)
    with pytest.raises(ValueError, match="^dice:"):
        search_roll(-1, SEARCH)
    with pytest.raises(ValueError, match="^rerolls:"):
        search_roll(3, SEARCH, rerolls=8)
    with pytest.raises(ValueError, match="^faces:"):
        search_roll(3, {"slip_by": 6})


@pytest.mark.parametrize("dice", range(0, 8))
@pytest.mark.parametrize("in_haven", [False, True])
def test_search_sums_to_one_and_rerolls_never_raise_hope_lost(dice, in_haven):
    previous = None
    for rerolls in range(0, 8):
        r = search_roll(dice, SEARCH, in_haven=in_haven, rerolls=rerolls)
        assert sum(r["hope_lost"]) == 1
        assert sum(r["recall"]) == 1
        if previous is not None:
            assert r["expected_hope_lost"] <= previous
        previous = r["expected_hope_lost"]


def test_rerolls_strictly_help_when_there_is_something_to_reroll():
    assert search_roll(3, SEARCH, rerolls=1)["expected_hope_lost"] < search_roll(3, SEARCH)["expected_hope_lost"]


# --------------------------------------------------------------------------- battle roll


def test_one_battle_die_with_nazgul_out_of_a_haven():
    r = battle_roll(1, BATTLE, friendly_troops=3, shadow_troops=3, nazgul_present=True)
    # shadow hit on rout or exchange: 4/6
    assert r["shadow_removed"] == [F(1, 3), F(2, 3)]
    # friendly: none on rout (2/6), 1 on exchange or overrun (3/6), 2 on Nazgûl (1/6)
    assert r["friendly_removed"] == [F(1, 3), F(1, 2), F(1, 6)]
    assert _joint(r) == {(1, 0): F(1, 3), (1, 1): F(1, 3), (0, 1): F(1, 6), (0, 2): F(1, 6)}
    assert r["expected_friendly_removed"] == F(5, 6)
    assert r["haven_lost"] is None


def test_overrun_is_ignored_in_a_haven():
    r = battle_roll(1, BATTLE, 3, 3, in_haven=True, nazgul_present=True)
    # overrun joins rout as no friendly loss: 3/6; exchange 2/6; Nazgûl 1/6
    assert r["friendly_removed"] == [F(1, 2), F(1, 3), F(1, 6)]


def test_nazgul_result_needs_nazgul():
    r = battle_roll(1, BATTLE, 3, 3, nazgul_present=False)
    # Nazgûl face is blank: 0 on rout or Nazgûl (3/6), 1 on exchange or overrun (3/6)
    assert r["friendly_removed"] == [F(1, 2), F(1, 2), 0]


def test_cannot_remove_more_troops_than_are_present():
    r = battle_roll(1, BATTLE, friendly_troops=1, shadow_troops=3, nazgul_present=True)
    # the Nazgûl result takes the only friendly troop: 1 lost on exchange, overrun or Nazgûl (4/6)
    assert r["friendly_removed"] == [F(1, 3), F(2, 3)]
    r = battle_roll(3, BATTLE, friendly_troops=3, shadow_troops=1)
    assert len(r["shadow_removed"]) == 2
    # the one shadow troop survives only if no die shows rout or exchange: (2/6)^3
    assert r["shadow_removed"][0] == F(1, 27)


def test_two_battle_dice():
    r = battle_roll(2, BATTLE, 5, 5)
    # shadow hit 2/3 per die: [1/9, 4/9, 4/9]; friendly hit (exchange, overrun) 1/2 per die
    assert r["shadow_removed"] == [F(1, 9), F(4, 9), F(4, 9)]
    assert r["friendly_removed"] == [F(1, 4), F(1, 2), F(1, 4), 0, 0]


def test_haven_lost():
    # in a haven with 1 friendly and 2 shadow troops: exchange or Nazgûl takes the last friendly troop
    # and a shadow troop is still there: 2/6 + 1/6
    assert battle_roll(1, BATTLE, 1, 2, in_haven=True, nazgul_present=True)["haven_lost"] == F(1, 2)
    # with 1 shadow troop the exchange also removes it, so only the Nazgûl result loses the haven
    assert battle_roll(1, BATTLE, 1, 1, in_haven=True, nazgul_present=True)["haven_lost"] == F(1, 6)


def test_battle_reroll_on_one_die():
    r = battle_roll(1, BATTLE, 3, 3, nazgul_present=True, rerolls=1)
    # exchange, overrun and Nazgûl (2/3 in all) are re-rolled once: rout 1/3 + 2/3 x 1/3 = 5/9,
    # exchange 2/9, overrun 1/9, Nazgûl 1/9
    assert r["friendly_removed"] == [F(5, 9), F(1, 3), F(1, 9)]
    assert r["expected_rerolls_spent"] == F(2, 3)


def test_battle_reroll_takes_nazgul_before_anything_else():
    r = battle_roll(2, UNIFORM_BATTLE, 4, 4, nazgul_present=True, rerolls=1)
    # 4 friendly lost needs two Nazgûl results at the end; only a first roll of two Nazgûl (1/16)
    # whose re-rolled Nazgûl comes up Nazgûl again (1/4) gets there: 1/64
    assert r["friendly_removed"][4] == F(1, 64)


def test_battle_reroll_takes_overrun_before_exchange():
    r = battle_roll(2, UNIFORM_BATTLE, 4, 4, nazgul_present=False, rerolls=1)
    # 2 shadow removed needs both dice on rout or exchange at the end:
    # RR 1/16; RX, XR 2/16 x 1/2; XX 1/16 x 1/2; OR, RO, OX, XO 4/16 x 1/2 (overrun re-rolled first)
    assert r["shadow_removed"][2] == F(9, 32)


def test_battle_reroll_keeping_exchanges():
    # re-roll only Nazgûl and overrun (1/3 of the faces), keep exchanges: rout 1/3 + 1/3 x 1/3 = 4/9,
    # exchange 1/3 + 1/9 = 4/9, overrun 1/18, Nazgûl 1/18
    kept = battle_roll(1, BATTLE, 3, 3, nazgul_present=True, rerolls=1, reroll_results=["nazgul", "overrun"])
    assert kept["shadow_removed"] == [F(1, 9), F(8, 9)]
    assert kept["friendly_removed"] == [F(4, 9), F(4, 9) + F(1, 18), F(1, 18)]
    assert kept["expected_rerolls_spent"] == F(1, 3)
    # against re-rolling exchanges too (test_battle_reroll_on_one_die): one more shadow troop
    # removed in 1/9 of rolls, for 1/18 more friendly troops lost and half the Nazgûl results
    every = battle_roll(1, BATTLE, 3, 3, nazgul_present=True, rerolls=1)
    assert kept["expected_shadow_removed"] - every["expected_shadow_removed"] == F(1, 9)
    assert kept["expected_friendly_removed"] - every["expected_friendly_removed"] == F(1, 18)
    assert "Exchange results are kept" in " ".join(kept["steps"])


def test_battle_reroll_default_order_is_nazgul_overrun_exchange():
    for dice in (1, 2, 3):
        default = battle_roll(dice, UNIFORM_BATTLE, 4, 4, nazgul_present=True, rerolls=2)
        spelled = battle_roll(dice, UNIFORM_BATTLE, 4, 4, nazgul_present=True, rerolls=2,
                              reroll_results="nazgul,overrun,exchange")
        assert default["joint"] == spelled["joint"]


def test_battle_reroll_exchange_before_overrun():
    # two dice showing overrun and exchange (2/16 of first rolls, no Nazgûl present), one re-roll:
    # overrun first re-rolls the overrun; exchange first re-rolls the exchange
    overrun_first = battle_roll(2, UNIFORM_BATTLE, 4, 4, rerolls=1, reroll_results=("overrun", "exchange"))
    exchange_first = battle_roll(2, UNIFORM_BATTLE, 4, 4, rerolls=1, reroll_results=("exchange", "overrun"))
    # shadow 2 at the end: RR 1/16; RX, XR (2/16) re-roll X: 1/2; XX 1/16 x 1/2;
    # OR, RO (2/16) re-roll O: 1/2 either way; OX, XO (2/16): overrun first 1/2, exchange first 0
    assert overrun_first["shadow_removed"][2] == F(9, 32)
    assert exchange_first["shadow_removed"][2] == F(9, 32) - F(2, 16) * F(1, 2)


def test_battle_reroll_nothing_chosen_spends_nothing():
    r = battle_roll(2, BATTLE, 2, 2, nazgul_present=True, rerolls=3, reroll_results=[])
    assert r["expected_rerolls_spent"] == 0
    assert r["joint"] == battle_roll(2, BATTLE, 2, 2, nazgul_present=True)["joint"]


@pytest.mark.parametrize("bad", ["rout", "nazgul,nazgul", ["overrun", 3], 5, "exchange,blank"])
def test_battle_reroll_results_validation(bad):
    with pytest.raises(ValueError, match="^reroll_results:"):
        battle_roll(1, BATTLE, 1, 1, rerolls=1, reroll_results=bad)


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("in_haven", [False, True])
@pytest.mark.parametrize("nazgul_present", [False, True])
def test_battle_sums_to_one(dice, in_haven, nazgul_present):
    for rerolls in range(0, 4):
        r = battle_roll(dice, BATTLE, 2, 2, in_haven=in_haven, nazgul_present=nazgul_present, rerolls=rerolls)
        assert sum(r["shadow_removed"]) == 1
        assert sum(r["friendly_removed"]) == 1
        assert sum(j["probability"] for j in r["joint"]) == 1


def test_battle_validation():
    with pytest.raises(ValueError, match="^dice:"):
        battle_roll(0, BATTLE, 1, 1)
    with pytest.raises(ValueError, match="^dice:"):
        battle_roll(4, BATTLE, 1, 1)
    with pytest.raises(ValueError, match="^friendly_troops:"):
        battle_roll(1, BATTLE, -1, 1)
    with pytest.raises(ValueError, match="^faces:"):
        battle_roll(1, SEARCH, 1, 1)


def test_battle_dice():
    assert battle_dice("attack", 1, 2) == 1
    assert battle_dice("attack", 2, 5) == 2
    assert battle_dice("attack", 5, 1) == 3  # at most 3
    assert battle_dice("shadow", 5, 2) == 2  # the shadow troops count
    assert battle_dice("skies-darken", 1, 6) == 3
    with pytest.raises(ValueError, match="^shadow_troops: a battle needs at least 1 shadow troop"):
        battle_dice("attack", 2, 0)
    with pytest.raises(ValueError, match="^friendly_troops: a battle needs at least 1 friendly troop"):
        battle_dice("attack", 0, 2)
    with pytest.raises(ValueError, match="^friendly_troops: a battle needs at least 1 friendly troop"):
        battle_dice("shadow", 0, 2)
    with pytest.raises(ValueError, match="^initiator:"):
        battle_dice("event", 2, 2)


@pytest.mark.parametrize("initiator, friendly, shadow, dice, allowed", [
    ("attack", 2, 5, 1, True),  # an attack may roll fewer than its troops allow
    ("attack", 2, 5, 2, True),
    ("attack", 2, 5, 3, False),  # up to 1 die per friendly troop
    ("attack", 5, 1, 3, True),
    ("shadow", 5, 2, 2, True),
    ("shadow", 5, 2, 1, False),  # a card rolls 1 die per shadow troop, no fewer
    ("skies-darken", 1, 6, 3, True),
    ("skies-darken", 1, 6, 2, False),
])
def test_battle_dice_given_must_respect_the_troops(initiator, friendly, shadow, dice, allowed):
    if allowed:
        assert battle_dice(initiator, friendly, shadow, dice) == dice
    else:
        with pytest.raises(ValueError, match="^dice: must be "):
            battle_dice(initiator, friendly, shadow, dice)


def test_battle_roll_needs_troops_of_both_sides():
    with pytest.raises(ValueError, match="^friendly_troops: a battle needs at least 1 friendly troop"):
        battle_roll(1, BATTLE, 0, 2)
    with pytest.raises(ValueError, match="^shadow_troops: a battle needs at least 1 shadow troop"):
        battle_roll(1, BATTLE, 2, 0)


def test_search_dice_one_per_nazgul_and_shadow_troop_at_most_seven():
    assert search_dice(1, 2) == 3
    assert search_dice(0, 0) == 0
    assert search_dice(5, 6) == 7
    assert search_dice(9, 0) == 7
    assert search_dice(2, 3, dice=5) == 5
    assert search_dice(2, 3, dice=2) == 2  # the shadow troops ignored (Frodo puts on the Ring)
    with pytest.raises(ValueError, match=r"^dice: more Nazgûl \(3\) than search dice \(2\)"):
        search_dice(3, 0, dice=2)
    with pytest.raises(ValueError, match="^dice: 2 Nazgûl and 3 shadow troops roll 5 search dice"):
        search_dice(2, 3, dice=4)


def test_search_roll_refuses_more_nazgul_than_dice():
    with pytest.raises(ValueError, match=r"^nazgul: more Nazgûl \(3\) than search dice \(2\)"):
        search_roll(2, SEARCH, nazgul=3)
    assert search_roll(7, SEARCH, nazgul=9)["dice"] == 7  # 9 Nazgûl still roll at most 7 dice


# --------------------------------------------------------------------------- Mount Doom


def test_ring_roll_two_dice():
    r = ring_roll(nazgul=1, shadow_troops=0, hope=1, hope_missing=1, faces=SEARCH)
    # 1 Nazgûl + 1 missing hope = 2 dice; with 1 hope the players need no hope lost: (2/3)^2
    assert r["dice"] == 2
    assert r["win"] == F(4, 9)


def test_ring_roll_recall_does_nothing():
    # recall faces never cost hope and never matter at Mount Doom; hope loss is as in Mordor
    r = ring_roll(1, 0, 1, 1, SEARCH)
    assert r["hope_lost"] == search_roll(2, SEARCH, in_mordor=True)["hope_lost"]
    assert "recall" not in r


def test_ring_roll_cap_at_seven_dice():
    r = ring_roll(nazgul=4, shadow_troops=3, hope=3, hope_missing=2, faces=SEARCH)
    # 4 + 3 + 2 = 9, capped at 7; win if at most 2 of 7 dice lose hope at 1/3 each:
    # (128 + 7 x 64 + 21 x 32) / 3^7 = 1248/2187 = 416/729
    assert r["dice"] == 7
    assert r["win"] == F(416, 729)


def test_ring_roll_with_no_dice_or_spare_hope_is_certain():
    assert ring_roll(0, 0, 1, 0, SEARCH)["win"] == 1
    assert ring_roll(1, 0, 2, 0, SEARCH)["win"] == 1


def test_ring_roll_rerolls_help():
    without = ring_roll(2, 1, 2, 2, SEARCH)["win"]
    with_one = ring_roll(2, 1, 2, 2, SEARCH, rerolls=1)["win"]
    assert with_one > without


def test_ring_roll_stops_rerolling_once_won():
    # 2 dice, hope 2: lost only if both dice cost hope. Each die costs hope 1/3.
    # Re-rolling every hope-losing die: spend when k >= 1 (5/9), then 4/27 + 2/27 + 1/27 = 7/27.
    # Stopping once fewer than 2 dice cost hope: spend only on k = 2: 1/9, then 1/27.
    always = ring_roll(2, 0, 2, 0, SEARCH, rerolls=2)
    stopping = ring_roll(2, 0, 2, 0, SEARCH, rerolls=2, stop_when_won=True)
    assert always["expected_rerolls_spent"] == F(22, 27)
    assert stopping["expected_rerolls_spent"] == F(4, 27)
    assert always["win"] == stopping["win"] == F(80, 81)
    assert "stopping as soon as fewer than 2 dice" in " ".join(stopping["steps"])
    with pytest.raises(ValueError, match="^stop_when_won:"):
        ring_roll(2, 0, 2, 0, SEARCH, rerolls=2, stop_when_won="yes")


def test_ring_roll_validation():
    with pytest.raises(ValueError, match="^hope:"):
        ring_roll(1, 0, 0, 1, SEARCH)
    with pytest.raises(ValueError, match="^nazgul:"):
        ring_roll(10, 0, 1, 1, SEARCH)


def test_steps_are_sentences():
    for r in (search_roll(2, SEARCH, rerolls=1), battle_roll(2, BATTLE, 2, 2, in_haven=True), ring_roll(1, 1, 2, 1, SEARCH)):
        assert r["steps"] and all(isinstance(s, str) and s.endswith(".") for s in r["steps"])
