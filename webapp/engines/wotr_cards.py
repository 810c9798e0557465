"""Combat and victory for War of the Ring: The Card Game.

Path combat and battleground combat are resolved the same way: count the attack icons,
let the location's own defence icons cancel some, then the defending team eliminates cards
one by one to cancel the rest, cycles the cards it kept, and every attacker is eliminated.
Nothing here is random, so each function returns the one outcome together with the working.

A defender is given as the number of defence icons it cancels: an int, or a mapping
{"defence": n, "items": [n, ...]} for a character carrying items. An item's icons always
count with its wielder; the pair is eliminated as one card, since items cannot cancel
attacks on their own.

Results list cards by their index in the list given (from 0); the working names them as
players count them, from 1 (card 1 is the first card given).
"""

from __future__ import annotations

from .inputs import InputError, require_bool, require_choice, require_int
from .words import and_list, counted

TEAMS = ("free-peoples", "shadow")
ORDERS = ("given", "fewest-losses")
MAX_ICONS = 99
MAX_SCORE = 999  # victory points or corruption tokens of one team
# The summary sets no limit on the cards in one combat; these generous bounds keep a request small.
# Each is checked before the cards are read, so the work for any input stays within them.
MAX_CARDS = 30  # cards attacking, or defending, in one combat
MAX_ITEMS = 5  # items one defending card carries
MAX_FACTION_CHARS = 200  # a faction's name
WINNING_LEAD = 10  # a team wins once it leads by 10 points or more

_TEAM_NAMES = {"free-peoples": "the Free Peoples", "shadow": "the Shadow"}
_TEAM_WINS = {"free-peoples": "the Free Peoples win", "shadow": "the Shadow wins"}
_TEAM_POSSESSIVE = {"free-peoples": "the Free Peoples'", "shadow": "the Shadow's"}
_TEAM_LEADS = {"free-peoples": "The Free Peoples lead", "shadow": "The Shadow leads"}


def _numbers(indexes):
    """Card indexes as players count the cards, from 1: '1, 3'."""
    return ", ".join(str(i + 1) for i in indexes)


def _survivors_cycled(indexes, whose):
    """'Free Peoples card 3 survives and is cycled.', 'Defending cards 1 and 3 survive and are cycled.'"""
    numbers = and_list([i + 1 for i in indexes])
    if len(indexes) == 1:
        return f"{whose} card {numbers} survives and is cycled."
    return f"{whose} cards {numbers} survive and are cycled."


# --------------------------------------------------------------------------- validation


def _cards(name, cards, what):
    """The list of cards itself, refused before any card is read when it is too long."""
    if not isinstance(cards, (list, tuple)):
        raise InputError(name, what)
    if len(cards) > MAX_CARDS:
        raise InputError(name, f"at most {MAX_CARDS} cards ({len(cards)} given)")
    return cards


def _defender_icons(defenders):
    """Total icons each defender cancels, its items included."""
    _cards("defenders", defenders, "a list of defence icon counts, one per card")
    totals = []
    with_items = []
    for card in defenders:
        if isinstance(card, dict):
            unknown = set(card) - {"defence", "items"}
            if unknown:
                raise InputError("defenders", "a card is a number or a mapping with defence and items")
            own = require_int("defenders", card.get("defence", 0), 0, MAX_ICONS)
            items = card.get("items", [])
            if not isinstance(items, (list, tuple)):
                raise InputError("defenders", "items must be a list of defence icon counts")
            if len(items) > MAX_ITEMS:
                raise InputError("defenders", f"at most {MAX_ITEMS} items on one card ({len(items)} given)")
            item_icons = [require_int("defenders", icons, 0, MAX_ICONS) for icons in items]
            totals.append(own + sum(item_icons))
            with_items.append(bool(item_icons))
        else:
            totals.append(require_int("defenders", card, 0, MAX_ICONS))
            with_items.append(False)
    return totals, with_items


def fewest_losses_order(defenders) -> list[int]:
    """Indexes of the defenders, the most defence icons first (ties keep the given order).

    Eliminating the strongest cards first cancels the attack with as few cards as possible.
    """
    totals, _ = _defender_icons(defenders)
    return _most_icons_first(totals)


def _most_icons_first(totals):
    # sorted() is stable, so ties keep the given order
    return sorted(range(len(totals)), key=lambda i: -totals[i])


def check_order(order, defenders) -> None:
    """The order the defending cards are given up in, checked: one of ORDERS, and left out (None) only
    when there is no defending card, as then it changes nothing."""
    if order is None and defenders:
        raise InputError("order", f"required when there are defending cards: one of {', '.join(ORDERS)}",
                         on_form="required when there are defending cards: choose one of the options")
    if order is not None:
        require_choice("order", order, ORDERS)


def _order(order, totals):
    """(the defenders' indexes in the order they are given up, that order in words); see check_order."""
    check_order(order, totals)
    if order is None:
        return [], "the order given"
    if order == "given":
        return list(range(len(totals))), "the order given"
    return _most_icons_first(totals), "most defence icons first, to lose the fewest cards"


def _eliminate(remaining, totals, with_items, sequence, steps, side):
    """Eliminate defenders in `sequence` until no attack is left; return (eliminated, cycled, remaining,
    the attacks the eliminated cards cancelled between them).

    One pass over the cards: the cards eliminated are the first of `sequence`.
    """
    eliminated = []
    by_cards = 0
    for i in sequence:
        if remaining == 0:
            break
        cancelled = min(remaining, totals[i])
        remaining -= cancelled
        by_cards += cancelled
        eliminated.append(i)
        items = " with its items" if with_items[i] else ""
        steps.append(
            f"{side} eliminate card {i + 1} ({counted(totals[i], 'defence icon')}{items}), cancelling {cancelled}; attacks left: {remaining}."
        )
    gone = set(eliminated)
    cycled = [i for i in range(len(totals)) if i not in gone]
    return eliminated, cycled, remaining, by_cards


# --------------------------------------------------------------------------- path combat


def path_combat(shadow_attack_icons, path_defence, defenders, path_points=0, order="given") -> dict:
    """Resolve the combat on the active path.

    shadow_attack_icons: path attack icons on all Shadow cards and tokens on the path.
    path_defence: defence icons printed on the path; they cancel that many attacks.
    defenders: the Free Peoples cards on the path (see the module docstring), in the order
    the Free Peoples eliminate them; order="fewest-losses" re-orders them most icons first.
    Cards are eliminated until every attack is cancelled or none are left; the survivors
    are cycled and every Shadow character in the combat is eliminated. If every attack is
    cancelled the Free Peoples win and score path_points; otherwise the Shadow wins and
    scores 1 corruption per uncancelled attack.

    Returns {"attack", "cancelled_by_path", "cancelled_by_defenders", "eliminated": [indexes], "cycled": [indexes],
    "uncancelled", "winner": "free-peoples"|"shadow", "free_peoples_points",
    "shadow_corruption", "order": [indexes], "order_rule", "steps"}.
    """
    attack = require_int("shadow_attack_icons", shadow_attack_icons, 0, MAX_ICONS)
    require_int("path_defence", path_defence, 0, MAX_ICONS)
    totals, with_items = _defender_icons(defenders)
    require_int("path_points", path_points, 0, MAX_ICONS)
    sequence, rule = _order(order, totals)

    cancelled_by_path = min(attack, path_defence)
    remaining = attack - cancelled_by_path
    steps = [
        f"The Shadow's cards and tokens on the path show {counted(attack, 'path attack icon')}.",
        f"The path's own defence icons ({path_defence}) cancel {cancelled_by_path}; attacks left: {remaining}.",
        f"The Free Peoples eliminate cards in {rule}: {_numbers(sequence) or 'no cards'}.",
    ]
    eliminated, cycled, remaining, by_defenders = _eliminate(remaining, totals, with_items, sequence, steps, "The Free Peoples")
    if cycled:
        steps.append(_survivors_cycled(cycled, "Free Peoples"))
    steps.append("Every Shadow character in the combat is eliminated.")
    if remaining == 0:
        winner, fp_points, corruption = "free-peoples", path_points, 0
        steps.append(f"Every attack is cancelled: the Free Peoples win the path and score {counted(path_points, 'point')}.")
    else:
        winner, fp_points, corruption = "shadow", 0, remaining
        steps.append(f"{remaining} attack{'s are' if remaining > 1 else ' is'} not cancelled: the Shadow wins and scores {remaining} corruption.")
    return {
        "attack": attack,
        "cancelled_by_path": cancelled_by_path,
        "cancelled_by_defenders": by_defenders,
        "eliminated": eliminated,
        "cycled": cycled,
        "uncancelled": remaining,
        "winner": winner,
        "free_peoples_points": fp_points,
        "shadow_corruption": corruption,
        "order": sequence,
        "order_rule": order,
        "steps": steps,
    }


# --------------------------------------------------------------------------- battleground combat


def _attackers(attackers):
    _cards("attackers", attackers, "a list of cards, each with attack, leadership, faction and is_army")
    cards = []
    for card in attackers:
        if not isinstance(card, dict) or "attack" not in card:
            raise InputError("attackers", "each card is a mapping with at least attack")
        if set(card) - {"attack", "leadership", "faction", "is_army"}:
            raise InputError("attackers", "a card may only have attack, leadership, faction and is_army")
        faction = card.get("faction", "")
        is_army = card.get("is_army", False)
        if not isinstance(faction, str) or len(faction) > MAX_FACTION_CHARS:
            raise InputError("attackers", f"faction must be text of at most {MAX_FACTION_CHARS} characters")
        if not isinstance(is_army, bool):
            raise InputError("attackers", "is_army must be true or false")
        cards.append(
            {
                "attack": require_int("attackers", card["attack"], 0, MAX_ICONS),
                "leadership": require_int("attackers", card.get("leadership", 0), 0, MAX_ICONS),
                "faction": faction,
                "is_army": is_army,
            }
        )
    return cards


def _leadership(cards, steps) -> tuple[int, int]:
    """(leadership counted, leadership ignored) of the attacking cards: a card's leadership counts
    only while an army of its faction attacks too."""
    armies = {c["faction"] for c in cards if c["is_army"] and c["faction"]}
    led = ignored = 0
    for i, c in enumerate(cards):
        if not c["leadership"]:
            continue
        if c["faction"] in armies:
            led += c["leadership"]
            steps.append(
                f"Attacker {i + 1} adds {c['leadership']} leadership: an army of its faction ({c['faction']}) is on the battleground."
            )
        else:
            ignored += c["leadership"]
            faction = f"its faction ({c['faction']})" if c["faction"] else "it (it has no faction)"
            steps.append(f"Attacker {i + 1}'s {c['leadership']} leadership does not count: no army of {faction} is on the battleground.")
    return led, ignored


def battleground_combat(
    owner,
    attackers,
    battleground_defence,
    defenders,
    reactivated=False,
    points=0,
    order="given",
) -> dict:
    """Resolve the combat on one active battleground.

    owner: the team whose battleground it is ("free-peoples" or "shadow"); that team
    defends and the other attacks.
    attackers: the attacking cards, each {"attack": n, "leadership": n, "faction": str,
    "is_army": bool}. The attack is every card's attack icons plus the leadership icons of
    each card whose faction has an army among the attackers (an army supports its own
    leadership too); leadership of a card with no faction never counts.
    battleground_defence: defence icons printed on the battleground; they cancel that many
    attacks, unless the battleground was reactivated from the opponent's scoring area
    (reactivated=True), when they are ignored.
    defenders: the defending cards, eliminated in order as in path_combat.
    The attackers are all eliminated; the defenders win if every attack is cancelled, else
    the attackers win; the winner puts the battleground in its scoring area, worth `points`.

    Returns {"owner", "attack", "attack_icons", "leadership_counted", "leadership_ignored",
    "cancelled_by_battleground", "cancelled_by_defenders", "eliminated", "cycled", "attackers_eliminated",
    "uncancelled", "winner": "attackers"|"defenders", "winning_team",
    "free_peoples_points", "shadow_points", "order", "order_rule", "steps"}.
    """
    require_choice("owner", owner, TEAMS)
    cards = _attackers(attackers)
    require_int("battleground_defence", battleground_defence, 0, MAX_ICONS)
    totals, with_items = _defender_icons(defenders)
    require_bool("reactivated", reactivated)
    require_int("points", points, 0, MAX_ICONS)
    sequence, rule = _order(order, totals)

    attacking_team = "shadow" if owner == "free-peoples" else "free-peoples"
    attack_icons = sum(c["attack"] for c in cards)
    steps = [
        f"The battleground belongs to {_TEAM_NAMES[owner]}, so its cards defend and the cards of {_TEAM_NAMES[attacking_team]} attack.",
        f"The attacking cards show {counted(attack_icons, 'battleground attack icon')}.",
    ]
    led, ignored = _leadership(cards, steps)
    attack = attack_icons + led
    steps.append(f"Total attack: {attack_icons} + {led} = {attack}.")

    cancelled_by_battleground = _cancelled_by_battleground(attack, battleground_defence, reactivated, steps)
    remaining = attack - cancelled_by_battleground
    steps.append(f"Attacks left: {remaining}; the defenders eliminate cards in {rule}: {_numbers(sequence) or 'no cards'}.")
    eliminated, cycled, remaining, by_defenders = _eliminate(remaining, totals, with_items, sequence, steps, "The defenders")
    if cycled:
        steps.append(_survivors_cycled(cycled, "Defending"))
    steps.append("Every attacking card is eliminated.")
    winner, team = ("defenders", owner) if remaining == 0 else ("attackers", attacking_team)
    steps.append(_battleground_won(remaining, team, points))
    return {
        "owner": owner,
        "attack": attack,
        "attack_icons": attack_icons,
        "leadership_counted": led,
        "leadership_ignored": ignored,
        "cancelled_by_battleground": cancelled_by_battleground,
        "cancelled_by_defenders": by_defenders,
        "eliminated": eliminated,
        "cycled": cycled,
        "attackers_eliminated": list(range(len(cards))),
        "uncancelled": remaining,
        "winner": winner,
        "winning_team": team,
        "free_peoples_points": points if team == "free-peoples" else 0,
        "shadow_points": points if team == "shadow" else 0,
        "order": sequence,
        "order_rule": order,
        "steps": steps,
    }


def _cancelled_by_battleground(attack, battleground_defence, reactivated, steps):
    """How many attacks the battleground's own defence icons cancel: none once reactivated from the opponent."""
    if reactivated:
        steps.append(f"The battleground was reactivated from the opponent's scoring area, so its defence icons "
                     f"({battleground_defence}) are ignored.")
        return 0
    cancelled = min(attack, battleground_defence)
    steps.append(f"The battleground's defence icons ({battleground_defence}) cancel {cancelled}.")
    return cancelled


def _battleground_won(remaining, team, points):
    """The step that says who wins the battleground and where it goes."""
    worth = counted(points, "point")
    if remaining == 0:
        return (f"Every attack is cancelled: {_TEAM_WINS[team]}, and the battleground ({worth}) goes to "
                f"{_TEAM_POSSESSIVE[team]} scoring area.")
    return (f"{remaining} attack{'s are' if remaining > 1 else ' is'} not cancelled: {_TEAM_WINS[team]}, "
            f"and the battleground ({worth}) goes to {_TEAM_POSSESSIVE[team]} scoring area.")


# --------------------------------------------------------------------------- victory check


def victory_check(free_peoples_points, shadow_points, shadow_corruption=0) -> dict:
    """Check whether a team has won at the Victory Check.

    The Shadow's score is its victory points plus its corruption tokens: the Shadow scores
    corruption when it wins a path, so each token counts as a point. A team wins when its
    score is at least 10 more than the other team's.

    Returns {"free_peoples", "shadow", "lead", "leader": team|None,
    "winner": "free-peoples"|"shadow"|None, "steps"}.
    """
    fp = require_int("free_peoples_points", free_peoples_points, 0, MAX_SCORE)
    sp = require_int("shadow_points", shadow_points, 0, MAX_SCORE)
    corruption = require_int("shadow_corruption", shadow_corruption, 0, MAX_SCORE)
    shadow = sp + corruption
    lead = abs(fp - shadow)
    leader = None if fp == shadow else ("free-peoples" if fp > shadow else "shadow")
    winner = leader if lead >= WINNING_LEAD else None
    steps = [
        f"The Free Peoples score {fp}.",
        f"The Shadow scores {counted(sp, 'point')} + {corruption} corruption = {shadow} (corruption tokens count toward its score).",
    ]
    if leader is None:
        steps.append("The scores are level, so nobody wins yet.")
    elif winner:
        steps.append(f"{_TEAM_LEADS[leader]} by {lead}, at least {WINNING_LEAD}: {_TEAM_WINS[leader]} the game.")
    else:
        steps.append(f"{_TEAM_LEADS[leader]} by {lead}, less than {WINNING_LEAD}, so the game goes on.")
    return {
        "free_peoples": fp,
        "shadow": shadow,
        "lead": lead,
        "leader": leader,
        "winner": winner,
        "steps": steps,
    }
