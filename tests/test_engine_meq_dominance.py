"""Middle-earth Quest dominance, the Event step it sets and the Finale adjustment."""

import pytest

from webapp.engines.meq_dominance import dominance


def test_heroes_dominant():
    r = dominance(5, [10, 12, 14], [3, 4, 2])
    # Sauron: min(closest 10, total to The Shadow Falls 3 + 4 + 2 = 9) = 9; heroes 5 < 9
    assert r["heroes"] == 5
    assert r["sauron_closest_to_finale"] == 10
    assert r["sauron_to_shadow_falls_total"] == 9
    assert r["sauron"] == 9
    assert r["dominant"] == "heroes"
    assert r["event"] == "lowest"
    assert r["ringwraiths_modifier"] == -9
    assert r["finale_begins"] is False


def test_sauron_dominant_through_the_shadow_falls_total():
    r = dominance(8, [12, 13, 14], [2, 1, 0])
    # Sauron: min(12, 2 + 1 + 0 = 3) = 3 < 8; the Ringwraiths gain the heroes' count
    assert r["sauron"] == 3
    assert r["dominant"] == "sauron"
    assert r["event"] == "highest"
    assert r["ringwraiths_modifier"] == 8


def test_sauron_dominant_through_his_closest_marker():
    r = dominance(8, [5, 20, 20], [6, 6, 6])
    # Sauron: min(5, 18) = 5 < 8
    assert r["sauron"] == 5
    assert r["dominant"] == "sauron"


def test_tie_means_nobody_is_dominant():
    r = dominance(6, [6, 9, 9], [4, 4, 4])
    # 6 against min(6, 12) = 6
    assert r["dominant"] == "none"
    assert r["event"] == "draw-one"
    assert r["ringwraiths_modifier"] == 0


def test_first_sauron_turn_draws_one_card_whoever_is_dominant():
    r = dominance(5, [10, 12, 14], [3, 4, 2], first_turn=True)
    assert r["dominant"] == "heroes"
    assert r["event"] == "draw-one"
    assert dominance(9, [12, 13, 14], [2, 1, 0], first_turn=True)["event"] == "draw-one"


def test_markers_at_or_past_the_shadow_falls_count_zero():
    r = dominance(4, [7, 8, 9], [0, 0, 3])
    # only the third marker still has 3 spaces to go: Sauron's count min(7, 3) = 3 < 4
    assert r["sauron_to_shadow_falls_total"] == 3
    assert r["dominant"] == "sauron"
    assert r["ringwraiths_modifier"] == 4
    assert r["finale_begins"] is False


def test_all_markers_at_the_shadow_falls_start_the_finale():
    r = dominance(4, [7, 8, 9], [0, 0, 0])
    assert r["sauron"] == 0
    assert r["dominant"] == "sauron"
    assert r["finale_begins"] is True


def test_a_marker_on_the_finale_starts_it():
    assert dominance(0, [7, 8, 9], [2, 2, 2])["finale_begins"] is True
    r = dominance(3, [0, 8, 9], [0, 2, 2])
    assert r["finale_begins"] is True
    assert r["sauron"] == 0


def test_heroes_on_the_finale_tied_with_sauron():
    r = dominance(0, [0, 5, 5], [0, 1, 1])
    assert r["dominant"] == "none"
    assert r["finale_begins"] is True


@pytest.mark.parametrize(
    "args, name",
    [
        ((-1, [1, 1, 1], [1, 1, 1]), "hero_to_finale"),
        ((51, [1, 1, 1], [1, 1, 1]), "hero_to_finale"),
        ((True, [1, 1, 1], [1, 1, 1]), "hero_to_finale"),
        ((5, [1, 1], [1, 1, 1]), "sauron_to_finale"),
        ((5, [1, 1, 1, 1], [1, 1, 1]), "sauron_to_finale"),
        ((5, [1, 1, 51], [1, 1, 1]), "sauron_to_finale"),
        ((5, [1, 1, 1], [1, -1, 1]), "sauron_to_shadow_falls"),
        ((5, [1, 1, 1], "111"), "sauron_to_shadow_falls"),
    ],
)
def test_validation_names_the_parameter(args, name):
    with pytest.raises(ValueError, match=f"^{name}:"):
        dominance(*args)


def test_first_turn_must_be_true_or_false():
    with pytest.raises(ValueError, match="^first_turn:"):
        dominance(5, [1, 1, 1], [1, 1, 1], first_turn="yes")


def test_steps_show_the_counts():
    steps = " ".join(dominance(5, [10, 12, 14], [3, 4, 2])["steps"])
    assert "3 + 4 + 2 = 9" in steps
    assert "lowest priority" in steps
