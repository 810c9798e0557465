"""War of the Ring: The Card Game: path and battleground combat, and the Victory Check.

Nothing here is random: each calculator gives the one outcome and its working. The combat page
takes lists of numbers (one per card); its two JSON endpoints take the cards as the engine does.
"""
from ..engines import wotr_cards
from .fields import Field
from .spec import CalculatorSpec, json_object

ICONS = dict(minimum=0, maximum=wotr_cards.MAX_ICONS)
TEAM_NAMES = {"free-peoples": "The Free Peoples", "shadow": "The Shadow"}
ORDER_CHOICES = (("given", "In the order listed"), ("fewest-losses", "Most defence icons first (fewest cards lost)"))


def explained(body, r):
    return {**body, "explanation": r["steps"]}


def card_list(numbers):
    """Card indexes as the working names them (from 0), for the result block."""
    return ", ".join(str(i) for i in numbers) if numbers else "none"


# --------------------------------------------------------------------------- combat page


def combat_fields():
    return (
        Field("combat", "Combat", kind="choice", default="path",
              choices=(("path", "Path combat"), ("battleground", "Battleground combat"))),
        Field("shadow_attack_icons", "Shadow path attack icons", default=4,
              help="On every Shadow card and token on the path.", **ICONS),
        Field("path_defence", "Path defence icons", default=1, help="Printed on the path itself.", **ICONS),
        Field("path_points", "Path victory points", default=2, help="What the Free Peoples score if they win.",
              **ICONS),
        Field("owner", "Battleground belongs to", kind="choice", default="free-peoples",
              choices=(("free-peoples", "The Free Peoples"), ("shadow", "The Shadow")),
              help="Its owner defends; the other team attacks."),
        Field("attackers_attack", "Attack icons of each attacking card", kind="int_list", optional=True,
              default=(2, 1, 1), help="One number per card, separated by commas, e.g. 2,1,1.", **ICONS),
        Field("attackers_leadership", "Leadership icons of each attacking card", kind="int_list", optional=True,
              default=(0, 0, 2), help="One number per attacking card; blank if none has leadership.", **ICONS),
        Field("attackers_faction", "Faction of each attacking card", kind="int_list", optional=True,
              default=(1, 1, 1),
              help="One number per attacking card; cards with the same number share a faction, 0 means none.",
              **ICONS),
        Field("attackers_army", "Which attacking cards are armies", kind="int_list", optional=True,
              default=(1, 0, 0), minimum=0, maximum=1,
              help="One number per attacking card: 1 for an army, 0 otherwise; blank if none is."),
        Field("battleground_defence", "Battleground defence icons", default=1, **ICONS),
        Field("reactivated", "Reactivated from the opponent's scoring area", kind="bool", default=False,
              help="Its defence icons are then ignored."),
        Field("points", "Battleground victory points", default=3, **ICONS),
        Field("defenders", "Defence icons of each defending card", kind="int_list", optional=True,
              default=(2, 1, 1),
              help="One number per card, in the order they are given up; blank if no card defends. "
                   "The working numbers cards from 0.", **ICONS),
        Field("defender_items", "Item defence icons each defending card carries", kind="int_list", optional=True,
              help="One number per defending card (0 for none); an item only counts with its wielder. "
                   "Blank if no card carries items.", **ICONS),
        Field("order", "Defenders are given up", kind="choice", default="given", choices=ORDER_CHOICES),
    )


def per_card(v, name, count, what):
    """A list of one number per card, or all zeros when the field was left blank."""
    numbers = v[name]
    if numbers is None:
        return [0] * count
    if len(numbers) != count:
        raise ValueError(f"{name}: one number per {what} ({count} cards, {len(numbers)} numbers given)")
    return numbers


def defenders_from(v):
    """The defending cards as the engine takes them: an int, or a mapping when it carries items."""
    own = v["defenders"] or []
    items = per_card(v, "defender_items", len(own), "defending card")
    return [{"defence": d, "items": [i]} if i else d for d, i in zip(own, items)]


def attackers_from(v):
    attack = v["attackers_attack"] or []
    leadership = per_card(v, "attackers_leadership", len(attack), "attacking card")
    faction = per_card(v, "attackers_faction", len(attack), "attacking card")
    army = per_card(v, "attackers_army", len(attack), "attacking card")
    return [{"attack": a, "leadership": lead, "faction": f"faction {f}" if f else "", "is_army": bool(is_army)}
            for a, lead, f, is_army in zip(attack, leadership, faction, army)]


def summarise(result, combat):
    if combat == "path":
        if result["winner"] == "free-peoples":
            return f"The Free Peoples win the path and score {result['free_peoples_points']}."
        return f"The Shadow wins the path and scores {result['shadow_corruption']} corruption."
    team = TEAM_NAMES[result["winning_team"]]
    points = result["free_peoples_points"] or result["shadow_points"]
    return f"{team} win{'s' if result['winning_team'] == 'shadow' else ''} the battleground, worth {points}."


def compute_combat(v):
    defenders = defenders_from(v)
    if v["combat"] == "path":
        result = wotr_cards.path_combat(v["shadow_attack_icons"], v["path_defence"], defenders,
                                        path_points=v["path_points"], order=v["order"])
        result["cancelled_by_location"] = result["cancelled_by_path"]
    else:
        result = wotr_cards.battleground_combat(v["owner"], attackers_from(v), v["battleground_defence"], defenders,
                                                reactivated=v["reactivated"], points=v["points"], order=v["order"])
        result["cancelled_by_location"] = result["cancelled_by_battleground"]
    result["combat"] = v["combat"]
    result["eliminated_text"] = card_list(result["eliminated"])
    result["cycled_text"] = card_list(result["cycled"])
    result["summary"] = summarise(result, v["combat"])
    return result


# --------------------------------------------------------------------------- JSON endpoints

DEFENDERS_SCHEMA = {
    "type": "array",
    "description": "The defending cards in the order they are given up: each the number of defence icons it "
                   "cancels, or {defence, items} for a card carrying items (their icons count only with it).",
    "items": {"oneOf": [
        {"type": "integer", "minimum": 0, "maximum": wotr_cards.MAX_ICONS},
        {"type": "object", "additionalProperties": False, "properties": {
            "defence": {"type": "integer", "minimum": 0, "maximum": wotr_cards.MAX_ICONS, "default": 0},
            "items": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": wotr_cards.MAX_ICONS}},
        }},
    ]},
}
ICON_SCHEMA = {"type": "integer", "minimum": 0, "maximum": wotr_cards.MAX_ICONS}
ORDER_SCHEMA = {"type": "string", "enum": list(wotr_cards.ORDERS), "default": "given",
                "description": "given: the order listed; fewest-losses: most defence icons first."}

PATH_REQUIRED = ("shadow_attack_icons", "path_defence", "defenders")
PATH_OPTIONAL = ("path_points", "order")
PATH_SCHEMA = {
    "type": "object",
    "required": list(PATH_REQUIRED),
    "properties": {
        "shadow_attack_icons": {**ICON_SCHEMA, "description": "Path attack icons on every Shadow card and token."},
        "path_defence": {**ICON_SCHEMA, "description": "Defence icons printed on the path."},
        "defenders": DEFENDERS_SCHEMA,
        "path_points": {**ICON_SCHEMA, "default": 0, "description": "Victory points of the path."},
        "order": ORDER_SCHEMA,
    },
    "additionalProperties": False,
}

BATTLEGROUND_REQUIRED = ("owner", "attackers", "battleground_defence", "defenders")
BATTLEGROUND_OPTIONAL = ("reactivated", "points", "order")
BATTLEGROUND_SCHEMA = {
    "type": "object",
    "required": list(BATTLEGROUND_REQUIRED),
    "properties": {
        "owner": {"type": "string", "enum": list(wotr_cards.TEAMS),
                  "description": "The team whose battleground it is; it defends."},
        "attackers": {"type": "array", "items": {
            "type": "object", "required": ["attack"], "additionalProperties": False,
            "properties": {
                "attack": ICON_SCHEMA,
                "leadership": {**ICON_SCHEMA, "default": 0},
                "faction": {"type": "string", "default": "",
                            "description": "Leadership counts only when an army of the same faction attacks too."},
                "is_army": {"type": "boolean", "default": False},
            }}},
        "battleground_defence": {**ICON_SCHEMA, "description": "Defence icons printed on the battleground."},
        "defenders": DEFENDERS_SCHEMA,
        "reactivated": {"type": "boolean", "default": False,
                        "description": "Reactivated from the opponent's scoring area: its defence icons are ignored."},
        "points": {**ICON_SCHEMA, "default": 0, "description": "Victory points of the battleground."},
        "order": ORDER_SCHEMA,
    },
    "additionalProperties": False,
}


def read_path_json(body):
    return json_object(body, required=PATH_REQUIRED, optional=PATH_OPTIONAL)


def read_battleground_json(body):
    return json_object(body, required=BATTLEGROUND_REQUIRED, optional=BATTLEGROUND_OPTIONAL)


def path_json(inputs, r):
    keys = ("winner", "attack", "cancelled_by_path", "eliminated", "cycled", "uncancelled", "free_peoples_points",
            "shadow_corruption", "order", "order_rule")
    return explained({key: r[key] for key in keys}, r)


def battleground_json(inputs, r):
    keys = ("winner", "winning_team", "owner", "attack", "attack_icons", "leadership_counted", "leadership_ignored",
            "cancelled_by_battleground", "eliminated", "cycled", "attackers_eliminated", "uncancelled",
            "free_peoples_points", "shadow_points", "order", "order_rule")
    return explained({key: r[key] for key in keys}, r)


COMBAT_METHOD = ("Attack icons are counted (leadership only where an army of the same faction attacks), the "
                 "location's own defence icons cancel some, then the defenders give up cards one by one, each "
                 "cancelling as many attacks as its defence icons and items, until none are left. Nothing is "
                 "random, so this is the one outcome.")

PATH_API = CalculatorSpec(
    id="wotr-cards-path-combat",
    calculator_id="wotr-cards-combat",
    fields=(),
    compute=lambda inputs: wotr_cards.path_combat(**inputs),
    to_json=path_json,
    method=COMBAT_METHOD,
    api_path="/api/wotr-cards/path-combat",
    api_method="POST",
    api_summary="Resolve the combat on the active path",
    read_json=read_path_json,
    json_schema=PATH_SCHEMA,
)

BATTLEGROUND_API = CalculatorSpec(
    id="wotr-cards-battleground-combat",
    calculator_id="wotr-cards-combat",
    fields=(),
    compute=lambda inputs: wotr_cards.battleground_combat(**inputs),
    to_json=battleground_json,
    method=COMBAT_METHOD,
    api_path="/api/wotr-cards/battleground-combat",
    api_method="POST",
    api_summary="Resolve the combat on one battleground",
    read_json=read_battleground_json,
    json_schema=BATTLEGROUND_SCHEMA,
)

COMBAT = CalculatorSpec(
    id="wotr-cards-combat",
    fields=combat_fields(),
    compute=compute_combat,
    to_json=lambda v, r: explained({}, r),
    template="calc/wotr_cards_combat.html",
    method=COMBAT_METHOD,
    groups=(
        ("Combat", ("combat", "order")),
        ("Defending cards", ("defenders", "defender_items")),
        ("Path combat", ("shadow_attack_icons", "path_defence", "path_points")),
        ("Battleground combat", ("owner", "attackers_attack", "attackers_leadership", "attackers_faction",
                                 "attackers_army", "battleground_defence", "reactivated", "points")),
    ),
    endpoints=(PATH_API, BATTLEGROUND_API),
)


# --------------------------------------------------------------------------- victory check

VICTORY_FIELDS = ("free_peoples_points", "shadow_points", "shadow_corruption")
SCORE = dict(minimum=0, maximum=999)


def compute_victory(v):
    result = wotr_cards.victory_check(v["free_peoples_points"], v["shadow_points"], v["shadow_corruption"])
    if result["winner"]:
        result["summary"] = f"{TEAM_NAMES[result['winner']]} win{'s' if result['winner'] == 'shadow' else ''} the game."
    elif result["leader"]:
        result["summary"] = (f"{TEAM_NAMES[result['leader']]} lead{'s' if result['leader'] == 'shadow' else ''} "
                             f"by {result['lead']}; the game goes on.")
    else:
        result["summary"] = "The scores are level; the game goes on."
    return result


def read_victory_json(body):
    given = json_object(body, required=VICTORY_FIELDS[:2], optional=VICTORY_FIELDS[2:])
    return {"shadow_corruption": 0, **given}


VICTORY = CalculatorSpec(
    id="wotr-cards-victory",
    fields=(
        Field("free_peoples_points", "Free Peoples victory points", default=12, **SCORE),
        Field("shadow_points", "Shadow victory points", default=5, **SCORE),
        Field("shadow_corruption", "Shadow corruption tokens", default=3,
              help="Each corruption token counts as a point for the Shadow.", **SCORE),
    ),
    compute=compute_victory,
    to_json=lambda v, r: explained({key: r[key] for key in ("free_peoples", "shadow", "lead", "leader", "winner")}, r),
    template="calc/wotr_cards_victory.html",
    method="The Shadow's score is its victory points plus its corruption tokens; a team wins when its score is "
           "at least 10 more than the other's. Whole numbers, no chance involved.",
    api_path="/api/wotr-cards/victory",
    api_method="POST",
    api_summary="Victory Check: both scores, the lead and the winner, if any",
    read_json=read_victory_json,
    json_schema={
        "type": "object",
        "required": list(VICTORY_FIELDS[:2]),
        "properties": {
            "free_peoples_points": {"type": "integer", "minimum": 0, "maximum": 999},
            "shadow_points": {"type": "integer", "minimum": 0, "maximum": 999},
            "shadow_corruption": {"type": "integer", "minimum": 0, "maximum": 999, "default": 0},
        },
        "additionalProperties": False,
    },
)

SPECS = (COMBAT, VICTORY)
