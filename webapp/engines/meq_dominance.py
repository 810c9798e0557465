"""Dominance on the Story Track of Middle-earth Quest.

The rules summary does not describe the spaces of the Story Track, so the inputs are
distances in spaces, read off the board by the players: how far the heroes' story marker
is from the Finale, and how far each of Sauron's three markers is from the Finale and from
The Shadow Falls.
"""

from __future__ import annotations

from .inputs import InputError, require_bool, require_int
from .words import counted

MAX_SPACES = 50
SAURON_MARKERS = 3
EVENT_CARDS_DRAWN = 3  # with a dominant side, Sauron draws this many event cards and resolves one by priority
EVENTS = {  # the Event step each value of the result's "event" stands for
    "lowest": f"Sauron draws {EVENT_CARDS_DRAWN} event cards and resolves the one with the lowest priority",
    "highest": f"Sauron draws {EVENT_CARDS_DRAWN} event cards and resolves the one with the highest priority",
    "draw-one": "Sauron draws 1 event card and resolves it",
}


def _per_marker(name, values):
    """One distance per Sauron story marker."""
    if not isinstance(values, (list, tuple)) or len(values) != SAURON_MARKERS:
        raise InputError(name, f"exactly {SAURON_MARKERS} values, one per Sauron story marker, "
                               f"each 0 to {MAX_SPACES}")
    return [require_int(name, spaces, 0, MAX_SPACES) for spaces in values]


def dominance(hero_to_finale, sauron_to_finale, sauron_to_shadow_falls, first_turn=False) -> dict:
    """Which side is dominant, and what that means for the Event step and the Finale.

    hero_to_finale: spaces from the heroes' story marker to the Finale space.
    sauron_to_finale: for each of Sauron's 3 markers, spaces to the Finale space.
    sauron_to_shadow_falls: for each of Sauron's 3 markers, spaces still needed to reach
    The Shadow Falls (0 when the marker is on it or beyond it).
    first_turn: true during the first Sauron turn of the game.

    The heroes' count is their distance to the Finale. Sauron's count is the lower of his
    closest marker's distance to the Finale and the total spaces his markers still need to
    reach The Shadow Falls. The lower count is dominant; equal counts mean neither side is.

    Returns {"heroes", "sauron", "sauron_closest_to_finale", "sauron_to_shadow_falls_total",
    "dominant": "heroes"|"sauron"|"none", "event": "lowest"|"highest"|"draw-one",
    "ringwraiths_modifier", "finale_begins", "steps"}.
    """
    require_int("hero_to_finale", hero_to_finale, 0, MAX_SPACES)
    to_finale = _per_marker("sauron_to_finale", sauron_to_finale)
    to_falls = _per_marker("sauron_to_shadow_falls", sauron_to_shadow_falls)
    require_bool("first_turn", first_turn)

    heroes = hero_to_finale
    closest = min(to_finale)
    falls_total = sum(to_falls)
    sauron = min(closest, falls_total)

    steps = [
        f"Heroes' count: their story marker is {counted(heroes, 'space')} from the Finale.",
        f"Sauron's closest story marker is {counted(closest, 'space')} from the Finale.",
        "Sauron's markers still need "
        + " + ".join(str(v) for v in to_falls)
        + f" = {counted(falls_total, 'space')} in all to reach The Shadow Falls.",
        f"Sauron's count is the lower of {closest} and {falls_total}: {sauron}.",
    ]
    if heroes < sauron:
        dominant = "heroes"
        steps.append(f"{heroes} is lower than {sauron}, so the heroes are dominant.")
    elif sauron < heroes:
        dominant = "sauron"
        steps.append(f"{sauron} is lower than {heroes}, so Sauron is dominant.")
    else:
        dominant = "none"
        steps.append(f"Both counts are {heroes}, so neither side is dominant.")

    event = _event_step(dominant, first_turn, steps)
    modifier = _ringwraiths_modifier(dominant, heroes, sauron, steps)
    finale_begins = _finale_begins(heroes, closest, to_falls, steps)

    return {
        "heroes": heroes,
        "sauron": sauron,
        "sauron_closest_to_finale": closest,
        "sauron_to_shadow_falls_total": falls_total,
        "dominant": dominant,
        "event": event,
        "ringwraiths_modifier": modifier,
        "finale_begins": finale_begins,
        "steps": steps,
    }


def _event_step(dominant, first_turn, steps) -> str:
    """The Event step dominance brings: "lowest", "highest" or "draw-one" (see EVENTS)."""
    if first_turn:
        steps.append("Event step: on the first Sauron turn of the game Sauron draws a single event card and resolves it.")
        return "draw-one"
    if dominant == "none":
        steps.append("Event step: with no dominant side Sauron draws a single event card and resolves it.")
        return "draw-one"
    event = "lowest" if dominant == "heroes" else "highest"
    steps.append(f"Event step: {EVENTS[event]}.")
    return event


def _ringwraiths_modifier(dominant, heroes, sauron, steps) -> int:
    """What the Ringwraiths' health and fortitude change by in the Finale: the other side's count."""
    if dominant == "sauron":
        steps.append(f"Finale: the Ringwraiths gain {heroes} health and {heroes} fortitude (the heroes' count).")
        return heroes
    if dominant == "heroes":
        steps.append(f"Finale: the Ringwraiths lose {sauron} health and {sauron} fortitude (Sauron's count).")
        return -sauron
    steps.append("Finale: the Ringwraiths' health and fortitude are not changed.")
    return 0


def _finale_begins(heroes, closest, to_falls, steps) -> bool:
    """Whether a marker on the Finale space, or all of Sauron's at The Shadow Falls, starts the Finale."""
    at_finale = heroes == 0 or closest == 0
    all_fallen = all(spaces == 0 for spaces in to_falls)
    if at_finale:
        steps.append("A story marker is on the Finale space, so the Finale begins.")
    if all_fallen:
        steps.append("All three of Sauron's markers have reached The Shadow Falls, so the Finale begins.")
    if not (at_finale or all_fallen):
        steps.append("No marker is on the Finale and not all of Sauron's markers have reached The Shadow Falls, so play goes on.")
    return at_finale or all_fallen
