"""War of the Ring: The Card Game: path and battleground combat, and the Victory Check.

Nothing here is random: each calculator gives the one outcome and its working. The combat page
takes lists of numbers (one per card); its two JSON endpoints take the cards as records.
"""
from ..engines import wotr_cards
from ..engines.inputs import InputError
from .calculator import Api, Calculator, Group
from .fields import Boolean, Choice, Integer, IntegerList, Records, Text, required

ICONS = dict(minimum=0, maximum=wotr_cards.MAX_ICONS)
TEAM_NAMES = {"free-peoples": "The Free Peoples", "shadow": "The Shadow"}
ORDER_LABELS = {"given": "In the order listed", "fewest-losses": "Most defence icons first (fewest cards lost)"}


def icons(name, label, default, help_text="", **more):
    return Integer(name, label, default=default, help=help_text, **ICONS, **more)


def per_card(name, label, help_text, example=None, **bounds):
    """A form field holding one number per card."""
    return IntegerList(name, label, default=None, example=example, help=help_text,
                       max_items=wotr_cards.MAX_CARDS, **{**ICONS, **bounds})


def card_list(numbers):
    """Card indexes as the working names them (from 0), for the result block."""
    return ", ".join(str(index) for index in numbers) if numbers else "none"


# --------------------------------------------------------------------------- fields

COMBAT_KIND = Choice("combat", "Combat", default="path",
                     choices=(("path", "Path combat"), ("battleground", "Battleground combat")))
ORDER = Choice("order", "Defenders are given up", default="given",
               choices=tuple((order, ORDER_LABELS[order]) for order in wotr_cards.ORDERS))
SHADOW_ATTACK = icons("shadow_attack_icons", "Shadow path attack icons", 4,
                      "On every Shadow card and token on the path.")
PATH_DEFENCE = icons("path_defence", "Path defence icons", 1, "Printed on the path itself.")
PATH_POINTS = icons("path_points", "Path victory points", 0, "What the Free Peoples score if they win.", example=2)
OWNER = Choice("owner", "Battleground belongs to", default="free-peoples",
               choices=tuple((team, TEAM_NAMES[team]) for team in wotr_cards.TEAMS),
               help="Its owner defends; the other team attacks.")
BATTLEGROUND_DEFENCE = icons("battleground_defence", "Battleground defence icons", 1,
                             "Printed on the battleground.")
REACTIVATED = Boolean("reactivated", "Reactivated from the opponent's scoring area", default=False,
                      help="Its defence icons are then ignored.")
POINTS = icons("points", "Battleground victory points", 0, "What the winner scores.", example=3)

# The cards as the JSON endpoints take them: a record per card.
DEFENDERS = Records(
    "defenders", "Defending cards", item="card", max_items=wotr_cards.MAX_CARDS, shorthand="defence",
    help="In the order they are given up: each the number of defence icons it cancels, or {defence, items} "
         "for a card carrying items (their icons count only with it).",
    fields=(icons("defence", "Defence icons", 0),
            IntegerList("items", "Defence icons of each item the card carries", default=(),
                        max_items=wotr_cards.MAX_ITEMS, **ICONS)))
ATTACKERS = Records(
    "attackers", "Attacking cards", item="card", max_items=wotr_cards.MAX_CARDS,
    fields=(Integer("attack", "Attack icons", **ICONS),
            icons("leadership", "Leadership icons", 0),
            Text("faction", "Faction", default="",
                 help="Leadership counts only when an army of the same faction attacks too."),
            Boolean("is_army", "An army", default=False)))


# --------------------------------------------------------------------------- combat page


def matched(values, name, count, what):
    """A list of one number per card, or all zeros when the field was left blank."""
    numbers = values[name]
    if numbers is None:
        return [0] * count
    if len(numbers) != count:
        raise InputError(name, f"one number per {what} ({count} cards, {len(numbers)} numbers given)")
    return numbers


def defenders_from(values):
    """The defending cards as the engine takes them: a record with the icons of the items it carries."""
    own = values["defenders"] or []
    items = matched(values, "defender_items", len(own), "defending card")
    return [{"defence": defence, "items": [item] if item else []} for defence, item in zip(own, items)]


def attackers_from(values):
    attack = values["attackers_attack"] or []
    leadership = matched(values, "attackers_leadership", len(attack), "attacking card")
    faction = matched(values, "attackers_faction", len(attack), "attacking card")
    army = matched(values, "attackers_army", len(attack), "attacking card")
    return [{"attack": icons_shown, "leadership": lead, "faction": f"faction {number}" if number else "",
             "is_army": bool(is_army)}
            for icons_shown, lead, number, is_army in zip(attack, leadership, faction, army)]


def combat(values):
    defenders = defenders_from(values)
    if values["combat"] == "path":
        result = wotr_cards.path_combat(values["shadow_attack_icons"], values["path_defence"], defenders,
                                        path_points=values["path_points"], order=values["order"])
        result["cancelled_by_location"] = result["cancelled_by_path"]
    else:
        result = wotr_cards.battleground_combat(values["owner"], attackers_from(values),
                                                values["battleground_defence"], defenders,
                                                reactivated=values["reactivated"], points=values["points"],
                                                order=values["order"])
        result["cancelled_by_location"] = result["cancelled_by_battleground"]
    result["combat"] = values["combat"]
    result["eliminated_text"] = card_list(result["eliminated"])
    result["cycled_text"] = card_list(result["cycled"])
    return result


def combat_headline(result):
    if result["combat"] == "path":
        if result["winner"] == "free-peoples":
            return f"The Free Peoples win the path and score {result['free_peoples_points']}."
        return f"The Shadow wins the path and scores {result['shadow_corruption']} corruption."
    team = TEAM_NAMES[result["winning_team"]]
    points = result["free_peoples_points"] or result["shadow_points"]
    return f"{team} win{'s' if result['winning_team'] == 'shadow' else ''} the battleground, worth {points}."


COMBAT = Calculator(
    id="wotr-cards-combat", game="wotr-cards", slug="combat", title="Path and battleground combat",
    form=(
        Group("Combat", (COMBAT_KIND, ORDER)),
        Group("Defending cards", (
            per_card("defenders", "Defence icons of each defending card", example=(2, 1, 1),
                     help_text="One number per card, in the order they are given up; blank if no card defends. "
                               "The working numbers cards from 0."),
            per_card("defender_items", "Item defence icons each defending card carries",
                     help_text="One number per defending card (0 for none); an item only counts with its wielder. "
                               "Blank if no card carries items."),
        )),
        Group("Path combat", (SHADOW_ATTACK, PATH_DEFENCE, PATH_POINTS)),
        Group("Battleground combat", (
            OWNER,
            per_card("attackers_attack", "Attack icons of each attacking card", example=(2, 1, 1),
                     help_text="One number per card, separated by commas, e.g. 2,1,1."),
            per_card("attackers_leadership", "Leadership icons of each attacking card", example=(0, 0, 2),
                     help_text="One number per attacking card; blank if none has leadership."),
            per_card("attackers_faction", "Faction of each attacking card", example=(1, 1, 1),
                     help_text="One number per attacking card; cards with the same number share a faction, "
                               "0 means none."),
            per_card("attackers_army", "Which attacking cards are armies", example=(1, 0, 0), maximum=1,
                     help_text="One number per attacking card: 1 for an army, 0 otherwise; blank if none is."),
            BATTLEGROUND_DEFENCE, REACTIVATED, POINTS,
        )),
    ),
    compute=combat,
    headline=combat_headline,
    template="calc/wotr_cards_combat.html",
    method="Attack icons are counted (leadership only where an army of the same faction attacks), the "
           "location's own defence icons cancel some, then the defenders give up cards one by one, each "
           "cancelling as many attacks as its defence icons and items, until none are left. Nothing is "
           "random, so this is the one outcome.",
    apis=(
        Api("/api/wotr-cards/path-combat", "Resolve the combat on the active path", method="POST",
            fields=(required(SHADOW_ATTACK), required(PATH_DEFENCE), DEFENDERS, PATH_POINTS, ORDER),
            compute=lambda values: wotr_cards.path_combat(**values),
            result=("winner", "attack", "cancelled_by_path", "eliminated", "cycled", "uncancelled",
                    "free_peoples_points", "shadow_corruption", "order", "order_rule")),
        Api("/api/wotr-cards/battleground-combat", "Resolve the combat on one battleground", method="POST",
            fields=(required(OWNER), ATTACKERS, required(BATTLEGROUND_DEFENCE), DEFENDERS, REACTIVATED, POINTS,
                    ORDER),
            compute=lambda values: wotr_cards.battleground_combat(**values),
            result=("winner", "winning_team", "owner", "attack", "attack_icons", "leadership_counted",
                    "leadership_ignored", "cancelled_by_battleground", "eliminated", "cycled",
                    "attackers_eliminated", "uncancelled", "free_peoples_points", "shadow_points", "order",
                    "order_rule")),
    ),
)


# --------------------------------------------------------------------------- victory check


def victory_headline(result):
    if result["winner"]:
        return f"{TEAM_NAMES[result['winner']]} win{'s' if result['winner'] == 'shadow' else ''} the game."
    if result["leader"]:
        return (f"{TEAM_NAMES[result['leader']]} lead{'s' if result['leader'] == 'shadow' else ''} "
                f"by {result['lead']}; the game goes on.")
    return "The scores are level; the game goes on."


SCORE = dict(minimum=0, maximum=wotr_cards.MAX_SCORE)
FREE_PEOPLES_POINTS = Integer("free_peoples_points", "Free Peoples victory points", default=12, **SCORE)
SHADOW_POINTS = Integer("shadow_points", "Shadow victory points", default=5, **SCORE)
SHADOW_CORRUPTION = Integer("shadow_corruption", "Shadow corruption tokens", default=0, example=3,
                            help="Each corruption token counts as a point for the Shadow.", **SCORE)

VICTORY = Calculator(
    id="wotr-cards-victory", game="wotr-cards", slug="victory", title="Victory check",
    form=(FREE_PEOPLES_POINTS, SHADOW_POINTS, SHADOW_CORRUPTION),
    compute=lambda values: wotr_cards.victory_check(values["free_peoples_points"], values["shadow_points"],
                                                    values["shadow_corruption"]),
    headline=victory_headline,
    template="calc/wotr_cards_victory.html",
    method="The Shadow's score is its victory points plus its corruption tokens; a team wins when its score is "
           "at least 10 more than the other's. Whole numbers, no chance involved.",
    apis=(Api("/api/wotr-cards/victory", "Victory Check: both scores, the lead and the winner, if any",
              method="POST", fields=(required(FREE_PEOPLES_POINTS), required(SHADOW_POINTS), SHADOW_CORRUPTION),
              result=("free_peoples", "shadow", "lead", "leader", "winner")),),
)

CALCULATORS = (COMBAT, VICTORY)
