"""War of the Ring: The Card Game: path and battleground combat, and the Victory Check.

Nothing here is random: each calculator gives the one outcome and its working. The combat page
takes the cards one by one (numbered from 1, as the working names them); its two JSON endpoints
take the same cards as lists of records. Page and endpoints read the same field declarations, so
a blank on the page and a member left out of a body mean the same.
"""
from ..engines import wotr_cards
from ..engines.words import counted
from .calculator import Api, Calculator, Group, Headline, Sides
from .fields import Boolean, Choice, Integer, IntegerList, Records, When, choice_labels

ICONS = dict(minimum=0, maximum=wotr_cards.MAX_ICONS)
TEAM_NAMES = {"free-peoples": "The Free Peoples", "shadow": "The Shadow"}
# The factions a card may name: the rules summary lists none, so each faction attacking a battleground gets a
# letter (only those with both an army and leadership there change the count)
FACTION_LETTERS = ("a", "b", "c", "d")
FACTION_LABELS = {letter: letter.upper() for letter in FACTION_LETTERS}
ORDER_LABELS = {"given": "In the order listed",
                "fewest-losses": ("Most defence icons first", "fewest cards lost")}


def icons(name, label, help_text="", **more):
    """A number of icons or points: a count, so a blank is 0 unless said otherwise."""
    more.setdefault("default", 0)
    return Integer(name, label, help=help_text, **ICONS, **more)


# --------------------------------------------------------------------------- fields

COMBAT_KIND = Choice("combat", "Kind of combat", example="path",
                     choices=(("path", "Path combat"), ("battleground", "Battleground combat")))
ORDER = Choice("order", "Defenders are given up", example="given", default=None,
               blank="no order, as there are no defending cards", help="Needed only with defending cards.",
               **choice_labels({order: ORDER_LABELS[order] for order in wotr_cards.ORDERS}))
SHADOW_ATTACK = Integer("shadow_attack_icons", "Shadow path attack icons", example=4,
                        help="On every Shadow card and token on the path.", **ICONS)
PATH_DEFENCE = icons("path_defence", "Path defence icons", "Printed on the path itself.", example=1)
PATH_POINTS = icons("path_points", "Path victory points", "What the Free Peoples score if they win.", example=2,
                    more=True)
OWNER = Choice("owner", "Defender (the battleground's owner)", example="free-peoples", short="Defender",
               choices=tuple((team, TEAM_NAMES[team].removeprefix("The ")) for team in wotr_cards.TEAMS))
BATTLEGROUND_DEFENCE = icons("battleground_defence", "Battleground defence icons", "Printed on the battleground.",
                             example=1)
REACTIVATED = Boolean("reactivated", "Reactivated from the opponent's scoring area", default=False,
                      help="Its defence icons are then ignored.", more=True)
POINTS = icons("points", "Battleground victory points", "What the winner scores.", example=3, more=True)


def defender_brief(card) -> str:
    """A defending card in a few words, for the inputs line: "2 icons", "1 icon + a 1-icon item"."""
    items = card.get("items") or ()
    carried = " + " + " + ".join(f"a {icons}-icon item" for icons in items) if items else ""
    return counted(card.get("defence", 0), "icon") + carried


def attacker_brief(card) -> str:
    """An attacking card in a few words: "2 attack (army, faction A)", "1 attack + 2 leadership (faction A)"."""
    text = f"{card['attack']} attack"
    if card.get("leadership"):
        text += f" + {card['leadership']} leadership"
    who = ", ".join(word for word in ("army" if card.get("is_army") else "",
                                      f"faction {card['faction'].upper()}" if card.get("faction") else "") if word)
    return f"{text} ({who})" if who else text


# The cards: one record each, entered card by card on the page and as a list in a JSON body.
DEFENDERS = Records(
    "defenders", "Defending cards", item="card", max_items=wotr_cards.MAX_CARDS, shorthand="defence", default=(),
    brief=defender_brief,
    example=({"defence": 2}, {"defence": 1, "items": (1,)}, {"defence": 1}),
    help="In the order they are given up: the defence icons each card cancels, and those of any items it "
         "carries (an item's icons count only with its card).",
    api_help="Each card is an object with defence and items, or just its defence icons as a number.",
    fields=(icons("defence", "Defence icons", widget="number"),
            IntegerList("items", "Defence icons of the items it carries", default=(),
                        help="One number per item, e.g. 1,1; an item only counts with its card.",
                        max_items=wotr_cards.MAX_ITEMS, short="items", **ICONS)))
ATTACKERS = Records(
    "attackers", "Attacking cards", item="card", max_items=wotr_cards.MAX_CARDS, default=(), brief=attacker_brief,
    example=({"attack": 2, "faction": "a", "is_army": True}, {"attack": 1},
             {"attack": 1, "leadership": 2, "faction": "a"}),
    fields=(Integer("attack", "Attack icons", widget="number", **ICONS),
            icons("leadership", "Leadership icons", widget="number"),
            Boolean("is_army", "An army", default=False),
            Choice("faction", "Faction", default="", **choice_labels(FACTION_LABELS),
                   help="The rules summary does not list the factions: give each faction attacking here its own "
                        "letter. Leadership counts only when an army of the same faction attacks too.")))

# The fields of each kind of combat as the page groups them; its endpoint's body takes the same fields.
PATH = (SHADOW_ATTACK, PATH_DEFENCE, PATH_POINTS)
ON_PATH, ON_BATTLEGROUND = (When("combat", "path"),), (When("combat", "battleground"),)
BATTLEGROUND = (OWNER, BATTLEGROUND_DEFENCE, ATTACKERS, REACTIVATED, POINTS)

# --------------------------------------------------------------------------- combat page


def card_fates(result, count):
    """Each defending card in order, numbered from 1: eliminated or cycled."""
    return [{"number": index + 1, "fate": "eliminated" if index in result["eliminated"] else "cycled"}
            for index in range(count)]


def combat(values):
    defenders = values["defenders"]
    if values["combat"] == "path":
        result = wotr_cards.path_combat(values["shadow_attack_icons"], values["path_defence"], defenders,
                                        path_points=values["path_points"], order=values["order"])
        result["cancelled_by_location"] = result["cancelled_by_path"]
    else:
        result = wotr_cards.battleground_combat(values["owner"], values["attackers"], values["battleground_defence"],
                                                defenders, reactivated=values["reactivated"], points=values["points"],
                                                order=values["order"])
        result["cancelled_by_location"] = result["cancelled_by_battleground"]
    result["combat"] = values["combat"]
    result["cards"] = card_fates(result, len(defenders))
    return result


def combat_headline(result):
    lost = len(result["eliminated"])
    cards = f"; {counted(lost, 'defending card')} eliminated" if result["cards"] else ""
    # victory points left blank count 0, so a score of 0 is not said: it may be points nobody entered
    if result["combat"] == "path":
        if result["winner"] == "free-peoples":
            points = result["free_peoples_points"]
            return Headline(f"The Free Peoples win the path{f' and score {points}' if points else ''}{cards}.")
        return Headline(f"The Shadow wins the path and scores {result['shadow_corruption']} corruption{cards}.")
    team = TEAM_NAMES[result["winning_team"]]
    points = result["free_peoples_points"] or result["shadow_points"]
    return Headline(f"{team} win{'s' if result['winning_team'] == 'shadow' else ''} the battleground"
                    f"{f', worth {points}' if points else ''}{cards}.")


def combat_key(result, first):
    winner = result["winner"] if result["combat"] == "path" else result["winning_team"]
    return "", f"{TEAM_NAMES[winner].removeprefix('The ')} win{'s' if winner == 'shadow' else ''}, " \
               f"{counted(len(result['eliminated']), 'card')} lost"


COMBAT = Calculator(
    id="wotr-cards-combat", game="wotr-cards", slug="combat", title="Path and battleground combat",
    form=(
        COMBAT_KIND,
        # the path's attack and defence face to face
        Sides(Group("Shadow", (SHADOW_ATTACK,), shown_when=ON_PATH), Group("The path", (PATH_DEFENCE,), shown_when=ON_PATH),
              rows=("Icons",)),
        Group("Path combat", (PATH_POINTS,), shown_when=ON_PATH),
        Group("Battleground combat", BATTLEGROUND, shown_when=ON_BATTLEGROUND),
        DEFENDERS, ORDER,
    ),
    compute=combat,
    headline=combat_headline,
    key=combat_key,
    # the order is needed once there are defending cards: said with any other problem, not after it
    checks=((("defenders", "order"), lambda values: wotr_cards.check_order(values["order"], values["defenders"])),),
    template="calc/wotr_cards_combat.html",
    method="Attack icons are counted (leadership only where an army of the same faction attacks), the "
           "location's own defence icons cancel some, then the defenders give up cards one by one, each "
           "cancelling as many attacks as its defence icons and items, until none are left. Nothing is "
           "random, so this is the one outcome.",
    apis=(
        Api("/api/wotr-cards/path-combat", "Resolve the combat on the active path", method="POST",
            fields=(SHADOW_ATTACK, PATH_DEFENCE, DEFENDERS, PATH_POINTS, ORDER),
            compute=lambda values: wotr_cards.path_combat(**values),
            result=("winner", "attack", "cancelled_by_path", "cancelled_by_defenders", "eliminated", "cycled", "uncancelled",
                    "free_peoples_points", "shadow_corruption", "order", "order_rule")),
        Api("/api/wotr-cards/battleground-combat", "Resolve the combat on one battleground", method="POST",
            fields=(OWNER, ATTACKERS, BATTLEGROUND_DEFENCE, DEFENDERS, REACTIVATED, POINTS, ORDER),
            compute=lambda values: wotr_cards.battleground_combat(**values),
            result=("winner", "winning_team", "owner", "attack", "attack_icons", "leadership_counted",
                    "leadership_ignored", "cancelled_by_battleground", "cancelled_by_defenders", "eliminated", "cycled",
                    "attackers_eliminated", "uncancelled", "free_peoples_points", "shadow_points", "order",
                    "order_rule")),
    ),
)


# --------------------------------------------------------------------------- victory check


def victory_verdict(result):
    """Who wins or leads, in a few words ("The Free Peoples win", "The Shadow leads by 2"), or "level"."""
    if result["winner"]:
        return f"{TEAM_NAMES[result['winner']]} win{'s' if result['winner'] == 'shadow' else ''}"
    if result["leader"]:
        return f"{TEAM_NAMES[result['leader']]} lead{'s' if result['leader'] == 'shadow' else ''} by {result['lead']}"
    return "level"


def victory_headline(result):
    if result["winner"]:
        return Headline(f"{victory_verdict(result)} the game.")
    if result["leader"]:
        return Headline(f"{victory_verdict(result)}; the game goes on.")
    return Headline("The scores are level; the game goes on.")


SCORE = dict(minimum=0, maximum=wotr_cards.MAX_SCORE, default=0)
FREE_PEOPLES_POINTS = Integer("free_peoples_points", "Free Peoples victory points", example=12,
                              **SCORE)
SHADOW_POINTS = Integer("shadow_points", "Shadow victory points", example=5, **SCORE)
SHADOW_CORRUPTION = Integer("shadow_corruption", "Shadow corruption tokens", example=3,
                            help="Each corruption token counts as a point for the Shadow.", **SCORE)
SCORES = (FREE_PEOPLES_POINTS, SHADOW_POINTS, SHADOW_CORRUPTION)

VICTORY = Calculator(
    id="wotr-cards-victory", game="wotr-cards", slug="victory", title="Victory check",
    form=(Sides(Group("Free Peoples", (FREE_PEOPLES_POINTS,)), Group("Shadow", (SHADOW_POINTS, SHADOW_CORRUPTION)),
                rows=("Victory points", "Corruption tokens")),),
    compute=lambda values: wotr_cards.victory_check(values["free_peoples_points"], values["shadow_points"],
                                                    values["shadow_corruption"]),
    headline=victory_headline,
    key=lambda result, first: ("", f"Free Peoples {result['free_peoples']}, Shadow {result['shadow']} "
                                   f"({victory_verdict(result).replace('The ', 'the ', 1)})"),
    template="calc/wotr_cards_victory.html",
    method="The Shadow's score is its victory points plus its corruption tokens; a team wins when its score is "
           f"at least {wotr_cards.WINNING_LEAD} more than the other's. Whole numbers, no chance involved.",
    apis=(Api("/api/wotr-cards/victory", "Victory Check: both scores, the lead and the winner, if any",
              method="POST", fields=SCORES,
              result=("free_peoples", "shadow", "lead", "leader", "winner")),),
)

CALCULATORS = (COMBAT, VICTORY)
