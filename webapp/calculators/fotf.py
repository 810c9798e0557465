"""Fate of the Fellowship: the search roll, the battle roll and the roll to destroy the One Ring.

The rules name every die result but not how many faces show it, so the face counts are form
fields and API parameters, prefilled from content/fotf/data/dice.yaml; every page says
whether that file's counts have been checked against the real dice.
"""
from functools import lru_cache

from .. import PROJECT_ROOT
from ..engines import fotf_dice
from .fields import Field
from .spec import CalculatorSpec, distribution_chart, outcome_chart, percent, plain

DICE_DATA = PROJECT_ROOT / "content" / "fotf" / "data" / "dice.yaml"
MAX_FACES = 20  # a count of faces showing one result; generous for any die

FACE_LABELS = {
    "slip_by": "slip by", "weary": "weary", "exposed": "exposed", "recall": "recall",
    "rout": "rout", "exchange": "exchange", "overrun": "overrun", "nazgul": "Nazgûl",
}
DIE_FACES = {"search": fotf_dice.SEARCH_FACES, "battle": fotf_dice.BATTLE_FACES}


@lru_cache(maxsize=1)
def dice_data():
    """The face counts in content/fotf/data/dice.yaml (read once): as fotf_dice.load_faces returns them."""
    return fotf_dice.load_faces(DICE_DATA)


def faces_verified():
    return dice_data()["verified"]


def faces_notice():
    """What the player must know about the prefilled face counts, in one sentence."""
    if faces_verified():
        return "Prefilled from the game data (content/fotf/data/dice.yaml), checked against the real dice."
    return ("UNVERIFIED: the prefilled counts are placeholders (content/fotf/data/dice.yaml), not taken "
            "from the rules; count the faces on your own dice and change them here.")


def faces_legend(die):
    status = "checked counts" if faces_verified() else "UNVERIFIED placeholder counts"
    return f"Faces of the {die} die ({status})"


def face_fields(die):
    """One field per result of the die: how many of its faces show that result."""
    counts = dice_data()[die]
    fields = []
    for index, name in enumerate(DIE_FACES[die]):
        help_text = faces_notice() if index == 0 else (
            "Unverified placeholder: check your dice." if not faces_verified() else "")
        fields.append(Field(name, f"Faces showing {FACE_LABELS[name]}", default=counts[name],
                            minimum=0, maximum=MAX_FACES, help=help_text))
    return tuple(fields)


def faces_from(v, die):
    """The face counts typed into the form; a die needs at least one face."""
    names = DIE_FACES[die]
    counts = {name: v[name] for name in names}
    if not any(counts.values()):
        raise ValueError(f"{names[0]}: the {die} die needs at least one face; every count is 0")
    return counts


def with_faces(result, faces):
    """The engine result plus the face counts it used, for the result block and the API."""
    result["faces"] = faces
    result["faces_text"] = ", ".join(f"{FACE_LABELS[name]} {count}" for name, count in faces.items())
    result["faces_verified"] = faces_verified()
    return result


def faces_json(v, r):
    return {"faces": r["faces"], "faces_verified": faces_verified()}


REROLLS_HELP = ("How many rerolls the characters present will pay for. Each rerolls the die doing the "
                "most harm; one left unused when no die is worth rerolling is not spent.")


# --------------------------------------------------------------------------- search roll


def search_fields():
    return (
        Field("dice", "Search dice", default=3, minimum=0, maximum=fotf_dice.MAX_SEARCH_DICE,
              help="1 per Nazgûl in Frodo's region and 1 per shadow troop in his location "
                   "(his destination if he is travelling), at most 7; 0 means no roll."),
        Field("in_haven", "Frodo is in a haven", kind="bool", default=False,
              help="In a haven an exposed result costs no hope."),
        Field("nazgul_present", "Nazgûl in Frodo's region", kind="bool", default=True,
              help="With no Nazgûl there, a recall result does nothing."),
        Field("nazgul", "How many Nazgûl there", optional=True, minimum=0, maximum=fotf_dice.MAX_NAZGUL,
              help="Blank: as many as the recalls rolled. Recalls beyond this number find no Nazgûl to send."),
        Field("in_mordor", "Frodo is in Mordor", kind="bool", default=False,
              help="In Mordor a recall result does nothing."),
        Field("rerolls", "Rerolls", default=0, minimum=0, maximum=fotf_dice.MAX_REROLLS,
              help=REROLLS_HELP + " Only a die that costs hope is rerolled."),
    ) + face_fields("search")


def compute_search(v):
    faces = faces_from(v, "search")
    result = fotf_dice.search_roll(v["dice"], faces, in_haven=v["in_haven"],
                                   nazgul_present=v["nazgul_present"], in_mordor=v["in_mordor"],
                                   rerolls=v["rerolls"], nazgul=v["nazgul"])
    with_faces(result, faces)
    no_hope_lost = result["hope_lost"][0]
    result["summary"] = (f"Expected hope lost {float(result['expected_hope_lost']):.2f}; "
                         f"chance of losing no hope {percent(no_hope_lost)}.")
    return result


def search_json(v, r):
    keys = ("dice", "hope_lost", "expected_hope_lost", "recall", "expected_recall", "expected_rerolls_spent")
    return {**{key: plain(r[key]) for key in keys}, **faces_json(v, r), "explanation": r["steps"]}


def search_charts(v, r):
    charts = [distribution_chart("Chance of each amount of hope lost", r["hope_lost"], label=lambda k: f"{k} hope")]
    if r["dice"] and any(r["recall"][1:]):
        charts.append(distribution_chart("Chance of each number of Nazgûl sent to Mordor", r["recall"],
                                         label=lambda k: f"{k} Nazgûl"))
    return charts


SEARCH = CalculatorSpec(
    id="fotf-search",
    fields=search_fields(),
    compute=compute_search,
    to_json=search_json,
    charts=search_charts,
    template="calc/fotf_search.html",
    method="Exact: every way the search dice can land is counted, with each result's chance taken from "
           "the face counts above. Rerolls are followed one at a time, each on a die that costs hope, the "
           "new face standing. Probabilities are exact fractions, shown rounded.",
    api_path="/api/fotf/search",
    api_summary="Hope lost and Nazgûl sent to Mordor by one search roll",
    groups=(
        ("Search roll", ("dice", "in_haven", "nazgul_present", "nazgul", "in_mordor", "rerolls")),
        (faces_legend("search"), fotf_dice.SEARCH_FACES),
    ),
)


# --------------------------------------------------------------------------- battle roll

INITIATORS = (("attack", "Characters' attack action"), ("shadow", "A shadow card"),
              ("skies-darken", "A Skies Darken card"))


def battle_fields():
    return (
        Field("dice", "Battle dice", optional=True, minimum=1, maximum=fotf_dice.MAX_BATTLE_DICE,
              help="Blank: worked out from who starts the battle and the troops present."),
        Field("initiator", "Battle started by", kind="choice", default="attack", choices=INITIATORS,
              help="An attack rolls 1 die per friendly troop (at least 1); a card rolls 1 per shadow "
                   "troop; never more than 3."),
        Field("friendly_troops", "Friendly troops in the location", default=2, minimum=0,
              maximum=fotf_dice.MAX_FRIENDLY_TROOPS),
        Field("shadow_troops", "Shadow troops in the location", default=2, minimum=0,
              maximum=fotf_dice.MAX_SHADOW_TROOPS),
        Field("in_haven", "The location is a haven", kind="bool", default=False,
              help="In a haven an overrun result does nothing."),
        Field("nazgul_present", "Nazgûl present", kind="bool", default=False,
              help="Without Nazgûl, a Nazgûl result does nothing."),
        Field("rerolls", "Rerolls", default=0, minimum=0, maximum=fotf_dice.MAX_REROLLS,
              help=REROLLS_HELP + " Rout is never rerolled."),
    ) + face_fields("battle")


def compute_battle(v):
    faces = faces_from(v, "battle")
    if v["dice"] is None:
        dice = fotf_dice.battle_dice(v["initiator"], v["friendly_troops"], v["shadow_troops"])
    else:
        dice = v["dice"]
    result = fotf_dice.battle_roll(dice, faces, v["friendly_troops"], v["shadow_troops"],
                                   in_haven=v["in_haven"], nazgul_present=v["nazgul_present"],
                                   rerolls=v["rerolls"])
    with_faces(result, faces)
    result["dice_from"] = "given" if v["dice"] is not None else v["initiator"]
    summary = (f"Expected shadow troops removed {float(result['expected_shadow_removed']):.2f}; "
               f"expected friendly troops removed {float(result['expected_friendly_removed']):.2f}.")
    if result["haven_lost"] is not None:
        summary += f" The haven falls {percent(result['haven_lost'])}."
    result["summary"] = summary
    return result


def battle_json(v, r):
    keys = ("dice", "dice_from", "shadow_removed", "friendly_removed", "joint", "expected_shadow_removed",
            "expected_friendly_removed", "haven_lost", "expected_rerolls_spent")
    return {**{key: plain(r[key]) for key in keys}, **faces_json(v, r), "explanation": r["steps"]}


def battle_charts(v, r):
    charts = [
        distribution_chart("Shadow troops removed", r["shadow_removed"], label=lambda k: f"{k} removed"),
        distribution_chart("Friendly troops removed", r["friendly_removed"], label=lambda k: f"{k} removed"),
    ]
    if r["haven_lost"] is not None:
        charts.append(outcome_chart("The haven", [("Falls", r["haven_lost"]), ("Holds", 1 - r["haven_lost"])]))
    return charts


BATTLE = CalculatorSpec(
    id="fotf-battle",
    fields=battle_fields(),
    compute=compute_battle,
    to_json=battle_json,
    charts=battle_charts,
    template="calc/fotf_battle.html",
    method="Exact: every way the battle dice can land is counted, with each result's chance taken from "
           "the face counts above; results that cannot apply (overrun in a haven, Nazgûl with none present) "
           "count as blanks, and removals stop at the troops present. Rerolls go one at a time to the die "
           "doing the Free Peoples most harm, the new face standing.",
    api_path="/api/fotf/battle",
    api_summary="Troops removed by one battle roll, and the chance a haven falls",
    groups=(
        ("Battle roll", ("dice", "initiator", "friendly_troops", "shadow_troops", "in_haven",
                         "nazgul_present", "rerolls")),
        (faces_legend("battle"), fotf_dice.BATTLE_FACES),
    ),
)


# --------------------------------------------------------------------------- the One Ring


def ring_fields():
    return (
        Field("nazgul", "Nazgûl present", default=2, minimum=0, maximum=fotf_dice.MAX_NAZGUL),
        Field("shadow_troops", "Shadow troops present", default=1, minimum=0, maximum=fotf_dice.MAX_SHADOW_TROOPS),
        Field("hope", "Hope left", default=5, minimum=1, maximum=fotf_dice.MAX_HOPE,
              help="Where the hope marker stands before the roll."),
        Field("hope_missing", "Hope missing from the track", default=3, minimum=0, maximum=fotf_dice.MAX_HOPE,
              help="Each missing hope adds a search die; the roll never uses more than 7."),
        Field("rerolls", "Rerolls", default=0, minimum=0, maximum=fotf_dice.MAX_REROLLS,
              help=REROLLS_HELP + " Only a die that costs hope is rerolled."),
    ) + face_fields("search")


def compute_ring(v):
    faces = faces_from(v, "search")
    result = fotf_dice.ring_roll(v["nazgul"], v["shadow_troops"], v["hope"], v["hope_missing"], faces,
                                 rerolls=v["rerolls"])
    with_faces(result, faces)
    result["summary"] = f"Chance to destroy the One Ring: {percent(result['win'])} ({result['dice']} search dice)."
    return result


def ring_json(v, r):
    keys = ("dice", "win", "hope_lost", "expected_hope_lost", "expected_rerolls_spent")
    return {**{key: plain(r[key]) for key in keys}, **faces_json(v, r), "explanation": r["steps"]}


def ring_charts(v, r):
    return [
        outcome_chart("Outcome", [("Ring destroyed", r["win"]), ("All hope lost", 1 - r["win"])]),
        distribution_chart("Chance of each amount of hope lost", r["hope_lost"], label=lambda k: f"{k} hope"),
    ]


RING = CalculatorSpec(
    id="fotf-ring",
    fields=ring_fields(),
    compute=compute_ring,
    to_json=ring_json,
    charts=ring_charts,
    template="calc/fotf_ring.html",
    method="Exact: the final search roll's dice are counted from the Nazgûl, shadow troops and missing hope "
           "(at most 7), every way they can land is counted with the face counts above, and the players win "
           "when the hope lost is less than the hope left. Rerolls are followed one at a time.",
    api_path="/api/fotf/ring",
    api_summary="Chance that Frodo destroys the One Ring at Mount Doom",
    groups=(
        ("At Mount Doom", ("nazgul", "shadow_troops", "hope", "hope_missing", "rerolls")),
        (faces_legend("search"), fotf_dice.SEARCH_FACES),
    ),
)

SPECS = (SEARCH, BATTLE, RING)
