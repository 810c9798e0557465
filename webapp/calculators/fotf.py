"""Fate of the Fellowship: the search roll, the battle roll and the roll to destroy the One Ring.

The rules name every die result but not how many faces show it, so the face counts are form
fields and API parameters that must be given; the form's empty boxes show the counts of the content
data file content/fotf/data/dice.yaml as examples, and every page says whether those counts have been
checked against the real dice.
"""
from ..engines import fotf_dice
from ..engines.fotf_dice import DIE_FACES, DIE_SIDES, FACE_LABELS
from ..engines.inputs import InputError
from .calculator import (Api, Calculator, Group, Headline, Sides, at_least, at_least_ladder, decimal,
                         distribution_chart, outcome_chart, percent)
from .fields import Boolean, Choice, ChoiceList, Data, Integer, When, choice_labels

INITIATOR_LABELS = {"attack": "Characters' attack", "shadow": "A shadow card", "skies-darken": "Skies Darken card"}
REROLLS_HELP = ("How many rerolls the characters present will pay for, one at a time; one left unused when no "
                "die is worth rerolling is not spent.")


FACES_CHECKED = "checked against the real dice"
FACES_UNCHECKED = "not in the rules; check your dice"
FACES_USED_NOTE = {True: f"They have been {FACES_CHECKED}.",  # under a result, after the counts it used
                   False: "Not given in the rules summary; check your dice: these odds are only as good as the "
                          "counts entered."}


def faces_caveat(verified, where):
    """The die faces the odds came from, in one sentence that goes with every answer: ``where`` they
    are ("below" on a page, "given" to a program)."""
    if verified:
        return (f"From the die faces {where}, which the rules summary does not give; the example counts have "
                f"been {FACES_CHECKED}.")
    return f"From the die faces {where}, which the rules summary does not give: check them against your dice."


def faces_notice(dice):
    """What the player must know about the example face counts, in one sentence."""
    if dice["verified"]:
        return (f"The examples in the boxes are counts checked against the real dice. The faces of one die "
                f"total {DIE_SIDES}.")
    return ("Not given in the rules summary; check your dice. The examples in the boxes are a placeholder: count "
            f"the faces on your own dice and enter them here. The faces of one die total {DIE_SIDES}.")


def faces_group(die):
    """One field per result of the die: how many of its faces show it, the data file's counts as examples."""
    return Sides(Group(
        legend=lambda dice: f"Faces of the {die} die ({FACES_CHECKED if dice['verified'] else FACES_UNCHECKED})",
        fields=tuple(Integer(name, f"Faces showing {FACE_LABELS[name]}", example=Data(die, name), minimum=0,
                             maximum=DIE_SIDES, short=FACE_LABELS[name], widget="number",
                             api_help=f"The counts of {', '.join(DIE_FACES[die])} total {DIE_SIDES}, the faces "
                                      f"of one die.")
                     for name in DIE_FACES[die]),
        note=faces_notice,
    ), rows=tuple(FACE_LABELS[name][:1].upper() + FACE_LABELS[name][1:] for name in DIE_FACES[die]))


def faces_from(values, die):
    """The face counts given for a die, which must add up to its faces, as the data file's must
    (the form, the API and every FotF calculator check it here)."""
    names = DIE_FACES[die]
    counts = {name: values[name] for name in names}
    total = sum(counts.values())
    if total != DIE_SIDES:
        raise InputError(names[0], f"the faces of one die total {DIE_SIDES}; these total {total}", *names[1:])
    return counts


def with_faces(result, faces, dice):
    """The engine result plus the face counts it used, for the result block and the API."""
    result["faces"] = faces
    result["faces_text"] = ", ".join(f"{FACE_LABELS[name]} {count}" for name, count in faces.items())
    result["faces_verified"] = dice["verified"]
    result["faces_used_note"] = FACES_USED_NOTE[dice["verified"]]
    result["faces_note"] = faces_caveat(dice["verified"], "given")
    result["faces_caveat"] = faces_caveat(dice["verified"], "below")
    return result


def rerolls_field(help_text):
    return Integer("rerolls", "Rerolls", default=0, minimum=0, maximum=fotf_dice.MAX_REROLLS,
                   help=REROLLS_HELP + " " + help_text, more=True)


def when_rerolling():
    return (When("rerolls", other_than=("0",)),)


def dice_noun(count, what="search"):
    return f"{count} {what} {'die' if count == 1 else 'dice'}"


def hope(count):
    return f"{count} hope"


FACES_KEYS = ("faces", "faces_verified", "faces_note")


# --------------------------------------------------------------------------- search roll


def search(values, dice):
    faces = faces_from(values, "search")
    count = fotf_dice.search_dice(values["nazgul"], values["shadow_troops"], values["dice"])
    result = fotf_dice.search_roll(count, faces, in_haven=values["in_haven"], nazgul_present=values["nazgul"] > 0,
                                   in_mordor=values["in_mordor"], rerolls=values["rerolls"], nazgul=values["nazgul"])
    result["dice_from"] = "given" if values["dice"] is not None else "counted"
    result["dice_from_text"] = "" if values["dice"] is not None else \
        f"one per Nazgûl and shadow troop, at most {fotf_dice.MAX_SEARCH_DICE}"
    return with_faces(result, faces, dice)


def search_headline(result):
    if not result["dice"]:
        return Headline("No Nazgûl and no shadow troops: no search dice are rolled, so no hope is lost.")
    main, others = at_least_ladder(result["hope_lost"], hope, "lose")
    detail = f"{others}. " if others else ""
    return Headline(f"{percent(result['hope_lost'][0])} to lose no hope" + (f"; {main}." if main else "."),
                    f"{detail[0].upper() + detail[1:] if detail else ''}Expected hope lost: "
                    f"{decimal(result['expected_hope_lost'])}, with {dice_noun(result['dice'])}.",
                    result["faces_caveat"])


def search_charts(result):
    charts = [distribution_chart("Hope lost", result["hope_lost"], noun=hope)]
    if result["dice"] and any(result["recall"][1:]):
        charts.append(distribution_chart("Nazgûl sent to Mordor", result["recall"],
                                         noun=lambda nazgul: f"{nazgul} Nazgûl", folded=True))
    return charts


SEARCH = Calculator(
    id="fotf-search", game="fotf", slug="search", title="Search roll",
    data="dice",
    form=(
        Group("Search roll", (
            Integer("nazgul", "Nazgûl in Frodo's region", default=0, example=1, minimum=0,
                    maximum=fotf_dice.MAX_NAZGUL, help="Each rolls a search die."),
            Integer("shadow_troops", "Shadow troops in Frodo's location", default=0, example=2, minimum=0,
                    maximum=fotf_dice.MAX_SHADOW_TROOPS,
                    help="His destination if he is travelling; each rolls a search die."),
            Integer("dice", "Search dice", default=None, blank="search dice counted from the Nazgûl and shadow troops",
                    minimum=0, maximum=fotf_dice.MAX_SEARCH_DICE,
                    help=f"Blank: one per Nazgûl and shadow troop, at most {fotf_dice.MAX_SEARCH_DICE}. Give the Nazgûl's count alone when "
                         "the shadow troops are ignored (Frodo puts on the Ring).", more=True),
            Boolean("in_haven", "Frodo is in a haven", default=False,
                    help="In a haven an exposed result costs no hope.", more=True),
            Boolean("in_mordor", "Frodo is in Mordor", default=False, help="In Mordor a recall result does nothing.",
                    more=True),
            rerolls_field("Each goes to a die that costs hope."),
        ), columns=2),
        faces_group("search"),
    ),
    compute=search,
    headline=search_headline,
    key=lambda result, first: ("no hope lost", percent(result["hope_lost"][0])),
    charts=search_charts,
    template="calc/fotf_search.html",
    method=f"Exact: one search die per Nazgûl and shadow troop (at most {fotf_dice.MAX_SEARCH_DICE}), and every way the dice can land "
           "is counted, with each result's chance taken from the face counts above. A recall sends one of the "
           "Nazgûl present to Mordor. Rerolls are followed one at a time, each on a die that costs hope, the "
           "new face standing. Probabilities are exact fractions, shown rounded.",
    apis=(Api("/api/fotf/search", "Hope lost and Nazgûl sent to Mordor by one search roll",
              result=("dice", "dice_from", "hope_lost", "expected_hope_lost", "recall", "expected_recall",
                      "expected_rerolls_spent", *FACES_KEYS)),),
)


# --------------------------------------------------------------------------- battle roll


def battle(values, dice):
    faces = faces_from(values, "battle")
    count = fotf_dice.battle_dice(values["initiator"], values["friendly_troops"], values["shadow_troops"],
                                  values["dice"])
    result = fotf_dice.battle_roll(count, faces, values["friendly_troops"], values["shadow_troops"],
                                   in_haven=values["in_haven"], nazgul_present=values["nazgul_present"],
                                   rerolls=values["rerolls"], reroll_results=values["reroll_results"] or ())
    result["dice_from"] = "given" if values["dice"] is not None else values["initiator"]
    result["dice_from_text"] = "" if values["dice"] is not None else "from the troops present"
    return with_faces(result, faces, dice)


def troops(what):
    return lambda count: f"{count} {what} troop{'s' if count != 1 else ''}"


def battle_headline(result):
    main, others = at_least_ladder(result["shadow_removed"], troops("shadow"), "remove")
    main = main or "no shadow troop can be removed"
    friendly = at_least(result["friendly_removed"], 1)
    sentence = f"{main[0].upper()}{main[1:]}; {percent(friendly)} to lose at least 1 friendly troop."
    if result["haven_lost"] is not None:
        sentence += f" {percent(result['haven_lost'])} to lose the haven." if result["haven_lost"] else \
            " The haven cannot fall."
    detail = f"Shadow troops: {others}. " if others else ""
    return Headline(sentence, f"{detail}With {dice_noun(result['dice'], 'battle')}.", result["faces_caveat"])


def battle_charts(result):
    charts = [
        distribution_chart("Shadow troops removed", result["shadow_removed"], noun=troops("shadow")),
        distribution_chart("Friendly troops removed", result["friendly_removed"], noun=troops("friendly")),
    ]
    if result["haven_lost"] is not None:
        charts.append(outcome_chart("The haven", [("Falls", result["haven_lost"]),
                                                  ("Holds", 1 - result["haven_lost"])]))
    return charts


BATTLE = Calculator(
    id="fotf-battle", game="fotf", slug="battle", title="Battle roll",
    data="dice",
    form=(
        Choice("initiator", "Battle started by", example="attack",
               choices=tuple((initiator, INITIATOR_LABELS[initiator]) for initiator in fotf_dice.INITIATORS),
               help="The characters' attack rolls up to 1 die per friendly troop; a battle a card starts rolls "
                    f"1 die per shadow troop. Never more than {fotf_dice.MAX_BATTLE_DICE} dice."),
        Sides(Group("Friendly", (Integer("friendly_troops", "Friendly troops in the location", example=2, minimum=0,
                                         maximum=fotf_dice.MAX_FRIENDLY_TROOPS),)),
              Group("Shadow", (Integer("shadow_troops", "Shadow troops in the location", example=2, minimum=0,
                                       maximum=fotf_dice.MAX_SHADOW_TROOPS),)),
              rows=("Troops in the location",)),
        Group("Battle roll", (
            Integer("dice", "Battle dice", default=None, blank="battle dice counted from the troops", minimum=1,
                    maximum=fotf_dice.MAX_BATTLE_DICE,
                    help="Blank: worked out from who starts the battle and the troops present. An attack may "
                         "roll fewer.", more=True),
            Boolean("in_haven", "The location is a haven", default=False,
                    help="In a haven an overrun result does nothing.", more=True),
            Boolean("nazgul_present", "Nazgûl present", default=False,
                    help="Without Nazgûl, a Nazgûl result does nothing.", more=True),
            rerolls_field("Rout is never rerolled; which other results are, is the players' choice."),
            ChoiceList("reroll_results", "Results to reroll, worst first", example=fotf_dice.REROLL_RESULTS,
                       **choice_labels({"nazgul": ("Nazgûl", "2 friendly troops lost"),
                                        "overrun": ("Overrun", "1 friendly troop lost"),
                                        "exchange": ("Exchange", "1 shadow and 1 friendly troop lost")}),
                       short="rerolling",
                       help="Each reroll goes to a die showing the first of these that is there. Leave exchange out "
                            "to keep the shadow troop it removes: its reroll may turn up a Nazgûl. To reroll none, "
                            "set Rerolls to 0.",
                       shown_when=when_rerolling(), source=(fotf_dice.RULES["reroll_results"][1],), more=True),
        )),
        faces_group("battle"),
    ),
    compute=battle,
    headline=battle_headline,
    key=lambda result, first: ("at least 1 shadow troop removed", percent(at_least(result["shadow_removed"], 1))),
    charts=battle_charts,
    template="calc/fotf_battle.html",
    method="Exact: every way the battle dice can land is counted, with each result's chance taken from "
           "the face counts above; results that cannot apply (overrun in a haven, Nazgûl with none present) "
           "count as blanks, and removals stop at the troops present. Rerolls go one at a time to a die "
           "showing the worst of the results chosen for rerolling, the new face standing. Probabilities are exact "
           "fractions, shown rounded.",
    apis=(Api("/api/fotf/battle", "Troops removed by one battle roll, and the chance a haven falls",
              result=("dice", "dice_from", "shadow_removed", "friendly_removed", "joint", "expected_shadow_removed",
                      "expected_friendly_removed", "haven_lost", "expected_rerolls_spent", *FACES_KEYS)),),
)


# --------------------------------------------------------------------------- the One Ring


def ring(values, dice):
    faces = faces_from(values, "search")
    result = fotf_dice.ring_roll(values["nazgul"], values["shadow_troops"], values["hope"], values["hope_missing"],
                                 faces, rerolls=values["rerolls"], stop_when_won=bool(values["stop_when_won"]))
    result["hope"] = values["hope"]
    return with_faces(result, faces, dice)


RING = Calculator(
    id="fotf-ring", game="fotf", slug="ring", title="Destroying the One Ring",
    data="dice",
    form=(
        Group("At Mount Doom", (
            Integer("nazgul", "Nazgûl present", default=0, example=2, minimum=0, maximum=fotf_dice.MAX_NAZGUL,
                    ),
            Integer("shadow_troops", "Shadow troops present", default=0, example=1, minimum=0,
                    maximum=fotf_dice.MAX_SHADOW_TROOPS, ),
            Integer("hope", "Hope left", example=5, minimum=1, maximum=fotf_dice.MAX_HOPE,
                    help="Where the hope marker stands."),
            Integer("hope_missing", "Hope missing from the track", default=0, example=3, minimum=0,
                    maximum=fotf_dice.MAX_HOPE,
                    help=f"Each adds a search die (at most {fotf_dice.MAX_SEARCH_DICE} in all)."),
            rerolls_field("Each goes to a die that costs hope."),
            Boolean("stop_when_won", "Stop rerolling once the win is certain", default=False,
                    short="rerolls stop once the win is certain",
                    help="The chance to win stays the same; fewer rerolls are spent.",
                    shown_when=when_rerolling(), source=(fotf_dice.RULES["stop_when_won"][1],), more=True),
        ), columns=2),
        faces_group("search"),
    ),
    compute=ring,
    headline=lambda result: Headline(f"{percent(result['win'])} to destroy the One Ring.",
                                     f"{dice_noun(result['dice'])} against {hope(result['hope'])} left: the players "
                                     f"win if at least 1 hope remains. Expected hope lost: "
                                     f"{decimal(result['expected_hope_lost'])}.", result["faces_caveat"]),
    key=lambda result, first: ("Ring destroyed", percent(result["win"])),
    charts=lambda result: [
        outcome_chart("Outcome", [("Ring destroyed", result["win"]), ("All hope lost", 1 - result["win"])]),
        distribution_chart("Hope lost", result["hope_lost"], noun=hope, folded=True),
    ],
    template="calc/fotf_ring.html",
    method="Exact: the final search roll's dice are counted from the Nazgûl, shadow troops and missing hope "
           f"(at most {fotf_dice.MAX_SEARCH_DICE}), every way they can land is counted with the face counts above, and the players win "
           "when the hope lost is less than the hope left. Rerolls are followed one at a time, and stop once the "
           "win is certain when the players choose so.",
    apis=(Api("/api/fotf/ring", "Chance that Frodo destroys the One Ring at Mount Doom",
              result=("dice", "win", "hope_lost", "expected_hope_lost", "expected_rerolls_spent", *FACES_KEYS)),),
)

CALCULATORS = (SEARCH, BATTLE, RING)
