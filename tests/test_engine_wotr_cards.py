"""War of the Ring: The Card Game path combat, battleground combat and victory check."""

import pytest

from webapp.engines.wotr_cards import (
    battleground_combat,
    fewest_losses_order,
    path_combat,
    victory_check,
)

# --------------------------------------------------------------------------- path combat


def test_path_defence_cancels_first():
    r = path_combat(5, 2, [2, 1], path_points=3)
    # 5 attacks - 2 path defence = 3; card 0 cancels 2, card 1 cancels 1
    assert r["attack"] == 5
    assert r["cancelled_by_path"] == 2
    assert r["eliminated"] == [0, 1]
    assert r["cycled"] == []
    assert r["uncancelled"] == 0
    assert r["winner"] == "free-peoples"
    assert r["free_peoples_points"] == 3
    assert r["shadow_corruption"] == 0


def test_path_defence_alone_can_hold_the_path():
    r = path_combat(2, 3, [1, 2], path_points=2)
    assert r["cancelled_by_path"] == 2
    assert r["eliminated"] == []
    assert r["cycled"] == [0, 1]
    assert r["winner"] == "free-peoples"


def test_elimination_follows_the_given_order_and_stops_when_all_cancelled():
    r = path_combat(3, 0, [1, 3, 2])
    # card 0 cancels 1 (2 left), card 1 cancels the last 2; card 2 survives and is cycled
    assert r["order"] == [0, 1, 2]
    assert r["eliminated"] == [0, 1]
    assert r["cycled"] == [2]


def test_fewest_losses_order():
    assert fewest_losses_order([1, 3, 2]) == [1, 2, 0]
    assert fewest_losses_order([2, 2, 1]) == [0, 1, 2]  # ties keep the given order
    r = path_combat(3, 0, [1, 3, 2], order="fewest-losses")
    assert r["order"] == [1, 2, 0]
    assert r["order_rule"] == "fewest-losses"
    assert r["eliminated"] == [1]
    assert r["cycled"] == [0, 2]


def test_shadow_wins_and_scores_corruption():
    r = path_combat(6, 1, [2, 1], path_points=4)
    # 6 - 1 = 5; both cards go (3 cancelled) and 2 attacks remain
    assert r["eliminated"] == [0, 1]
    assert r["cycled"] == []
    assert r["uncancelled"] == 2
    assert r["winner"] == "shadow"
    assert r["shadow_corruption"] == 2
    assert r["free_peoples_points"] == 0


def test_items_count_with_their_wielder():
    # a character with 1 icon carrying an item with 2: one card cancelling 3
    r = path_combat(3, 0, [{"defence": 1, "items": [2]}, 1])
    assert r["eliminated"] == [0]
    assert r["cycled"] == [1]
    assert r["uncancelled"] == 0
    assert any("with its items" in s for s in r["steps"])
    assert fewest_losses_order([2, {"defence": 1, "items": [2]}]) == [1, 0]


def test_no_attack_means_the_free_peoples_hold():
    r = path_combat(0, 0, [1], path_points=2)
    assert r["eliminated"] == []
    assert r["winner"] == "free-peoples"
    assert r["free_peoples_points"] == 2


def test_shadow_characters_are_eliminated_in_the_steps():
    assert any("Shadow character" in s for s in path_combat(2, 0, [1])["steps"])


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"shadow_attack_icons": -1, "path_defence": 0, "defenders": []}, "shadow_attack_icons"),
        ({"shadow_attack_icons": 1, "path_defence": "2", "defenders": []}, "path_defence"),
        ({"shadow_attack_icons": 1, "path_defence": 0, "defenders": [-1]}, "defenders"),
        ({"shadow_attack_icons": 1, "path_defence": 0, "defenders": [{"defence": 1, "wielder": 2}]}, "defenders"),
        ({"shadow_attack_icons": 1, "path_defence": 0, "defenders": [], "order": "best"}, "order"),
        ({"shadow_attack_icons": 1, "path_defence": 0, "defenders": [], "path_points": -2}, "path_points"),
    ],
)
def test_path_validation(kwargs, name):
    with pytest.raises(ValueError, match=f"^{name}:"):
        path_combat(**kwargs)


# --------------------------------------------------------------------------- battleground combat

ROHAN_ATTACK = [
    {"attack": 2, "leadership": 1, "faction": "rohan"},
    {"attack": 1, "faction": "rohan", "is_army": True},
    {"attack": 0, "leadership": 2, "faction": "gondor"},
]


def test_leadership_needs_an_army_of_the_same_faction():
    r = battleground_combat("shadow", ROHAN_ATTACK, 1, [2], points=2)
    # icons 2 + 1 + 0 = 3; Rohan leadership 1 counts, Gondor's 2 does not (no Gondor army): 4
    assert r["attack_icons"] == 3
    assert r["leadership_counted"] == 1
    assert r["leadership_ignored"] == 2
    assert r["attack"] == 4
    # 4 - 1 battleground defence = 3; the Shadow's card cancels 2, 1 left
    assert r["cancelled_by_battleground"] == 1
    assert r["eliminated"] == [0]
    assert r["uncancelled"] == 1
    assert r["winner"] == "attackers"
    assert r["winning_team"] == "free-peoples"
    assert r["free_peoples_points"] == 2
    assert r["shadow_points"] == 0
    assert r["attackers_eliminated"] == [0, 1, 2]


def test_leadership_without_faction_never_counts():
    r = battleground_combat("free-peoples", [{"attack": 1, "leadership": 3}, {"attack": 1, "is_army": True}], 0, [])
    assert r["leadership_counted"] == 0
    assert r["attack"] == 2


def test_reactivated_battleground_ignores_its_defence():
    r = battleground_combat("shadow", ROHAN_ATTACK, 3, [1], reactivated=True)
    # defence 3 ignored: 4 attacks against a single 1-icon card
    assert r["cancelled_by_battleground"] == 0
    assert r["uncancelled"] == 3
    assert r["winner"] == "attackers"
    same_without = battleground_combat("shadow", ROHAN_ATTACK, 3, [1])
    # not reactivated: 4 - 3 = 1, cancelled by the card
    assert same_without["winner"] == "defenders"
    assert same_without["winning_team"] == "shadow"


def test_defenders_hold_and_cycle_the_rest():
    r = battleground_combat("free-peoples", [{"attack": 3, "faction": "mordor", "is_army": True}], 1, [2, 2], points=3)
    # 3 - 1 = 2; the first card cancels both; the second is cycled
    assert r["eliminated"] == [0]
    assert r["cycled"] == [1]
    assert r["winner"] == "defenders"
    assert r["winning_team"] == "free-peoples"
    assert r["free_peoples_points"] == 3
    assert r["shadow_points"] == 0


def test_battleground_elimination_order_and_items():
    attackers = [{"attack": 4}]
    given = battleground_combat("shadow", attackers, 0, [1, {"defence": 2, "items": [2]}])
    assert given["eliminated"] == [0, 1]
    fewest = battleground_combat("shadow", attackers, 0, [1, {"defence": 2, "items": [2]}], order="fewest-losses")
    assert fewest["eliminated"] == [1]
    assert fewest["cycled"] == [0]


@pytest.mark.parametrize(
    "args, name",
    [
        (("sauron", [], 0, []), "owner"),
        (("shadow", [{"leadership": 1}], 0, []), "attackers"),
        (("shadow", [{"attack": 1, "might": 2}], 0, []), "attackers"),
        (("shadow", [{"attack": 1, "is_army": "yes"}], 0, []), "attackers"),
        (("shadow", [], -1, []), "battleground_defence"),
        (("shadow", [], 0, [1.5]), "defenders"),
    ],
)
def test_battleground_validation(args, name):
    with pytest.raises(ValueError, match=f"^{name}:"):
        battleground_combat(*args)


# --------------------------------------------------------------------------- victory check


def test_victory_by_exactly_ten():
    r = victory_check(20, 10)
    assert r["lead"] == 10
    assert r["winner"] == "free-peoples"


def test_no_victory_by_nine():
    r = victory_check(19, 10)
    assert r["lead"] == 9
    assert r["leader"] == "free-peoples"
    assert r["winner"] is None


def test_shadow_corruption_counts_toward_its_score():
    r = victory_check(5, 10, shadow_corruption=5)
    # 10 points + 5 corruption = 15, 10 ahead of 5
    assert r["shadow"] == 15
    assert r["winner"] == "shadow"
    assert victory_check(5, 10, shadow_corruption=4)["winner"] is None


def test_level_scores():
    r = victory_check(7, 7)
    assert r["lead"] == 0
    assert r["leader"] is None
    assert r["winner"] is None


def test_victory_validation():
    with pytest.raises(ValueError, match="^shadow_corruption:"):
        victory_check(1, 1, -1)


def test_the_surviving_cards_are_named_by_number_in_a_sentence():
    # the player's report: "The surviving Free Peoples cards 3 are cycled."
    one = path_combat(3, 0, [2, 1, 1])["steps"]
    assert "Free Peoples card 3 survives and is cycled." in one
    two = path_combat(2, 0, [2, 1, 1])["steps"]
    assert "Free Peoples cards 2 and 3 survive and are cycled." in two
    battle = battleground_combat("shadow", [{"attack": 1}], 0, [1, 1, 1])["steps"]
    assert "Defending cards 2 and 3 survive and are cycled." in battle
    assert "The attacking cards show 1 battleground attack icon." in battle
    assert "The Shadow's cards and tokens on the path show 1 path attack icon." in path_combat(1, 0, [1])["steps"]
