"""War of the Ring: the combat roll and the whole battle."""
from ..engines import wotr_battle, wotr_combat
from .fields import Field
from .spec import CalculatorSpec, distribution_chart, outcome_chart, percent, plain

MODIFIER = dict(minimum=-5, maximum=5, default=0)
HIT = Field("hit", "Hit on", default=5, minimum=1, maximum=7,
            help="The number a die must reach: 5 normally, 6 against a City or Fortification in round 1 (at 7, only a 6 hits unless a plus modifier lifts a lower face to 7).")


def roll_fields():
    return (
        Field("dice", "Combat dice", default=5, minimum=0, maximum=5,
              help="Combat Strength, at most 5."),
        HIT,
        Field("modifier", "Combat roll modifier", help="Added to each die, e.g. +1 from a Combat card.", **MODIFIER),
        Field("rerolls", "Leader re-rolls", default=0, minimum=0, maximum=5,
              help="Leadership, at most 5; only missed dice are re-rolled."),
        Field("reroll_modifier", "Re-roll modifier", **MODIFIER),
    )


def compute_roll(v):
    distribution = wotr_combat.combat_roll(v["dice"], v["hit"], v["modifier"], v["rerolls"], v["reroll_modifier"])
    mean = wotr_combat.expected_hits(distribution)
    at_least_one = 1 - distribution[0]
    return {
        "distribution": distribution,
        "expected_hits": mean,
        "at_least_one": at_least_one,
        "summary": f"Expected hits {float(mean):.2f}; at least one hit {percent(at_least_one)}.",
        "steps": wotr_combat.describe_roll(v["dice"], v["hit"], v["modifier"], v["rerolls"], v["reroll_modifier"]),
    }


ROLL = CalculatorSpec(
    id="wotr-roll",
    fields=roll_fields(),
    compute=compute_roll,
    to_json=lambda v, r: {"distribution": plain(r["distribution"]), "expected_hits": float(r["expected_hits"]),
                          "explanation": r["steps"]},
    charts=lambda v, r: [distribution_chart("Chance of each number of hits", r["distribution"],
                                            label=lambda k: f"{k} hit{'s' if k != 1 else ''}")],
    method="Exact: every face of every die is counted. A die hits on a 6, never on a 1, and on 2-5 when "
           "face + modifier reaches the hit number; the missed dice the Leaders may pick up are then rolled "
           "again with their own modifier. Probabilities are exact fractions, shown rounded.",
    api_path="/api/wotr/roll",
    api_summary="Distribution of hits from one Combat roll and its Leader re-roll",
)

SIDES = (("attacker", "Attacker"), ("defender", "Defender"))
POLICIES = (("strength", "Keep the most dice (downgrade Elites first)"), ("elites", "Keep Elites (lose Regulars first)"))


def battle_fields():
    fields = []
    for side, name in SIDES:
        fields += [
            Field(f"{side}_regulars", f"{name} Regulars", default=5 if side == "attacker" else 3, minimum=0, maximum=10,
                  help="At most 10 Army units stand in one region (the rulebook's stacking limit)."),
            Field(f"{side}_elites", f"{name} Elites", default=1, minimum=0, maximum=10),
            Field(f"{side}_leadership", f"{name} Leadership", default=1, minimum=0, maximum=10,
                  help="Re-rolls are capped at 5 and at the dice missed."),
            Field(f"{side}_policy", f"{name} casualties", kind="choice", default="strength", choices=POLICIES),
            Field(f"{side}_modifier", f"{name} roll modifier", **MODIFIER),
            Field(f"{side}_reroll_modifier", f"{name} re-roll modifier", **MODIFIER),
            Field(f"{side}_modifier_rounds", f"{name} modifiers apply", kind="choice", default="all",
                  choices=(("all", "Every round"), ("first", "Round 1 only"))),
        ]
    fields += [
        Field("terrain", "Where", kind="choice", default="field", choices=(
            ("field", "Open field"), ("city", "City"), ("fortification", "Fortification"),
            ("siege", "Stronghold under siege"))),
        Field("rounds", "Most rounds", optional=True, minimum=1, maximum=100,
              help="Blank: fight until one Army is gone (or the attacker ceases)."),
        Field("attacker_ceases_at", "Attacker ceases at strength", optional=True, minimum=0, maximum=10,
              help="The attacker stops after a round that leaves it this strong or weaker. Blank: never."),
        Field("siege_continue", "Siege: pay an Elite to go on", kind="bool", default=True),
    ]
    return tuple(fields)


def army(v, side):
    return wotr_battle.Army(
        regulars=v[f"{side}_regulars"], elites=v[f"{side}_elites"], leadership=v[f"{side}_leadership"],
        casualty_policy=v[f"{side}_policy"], modifier=v[f"{side}_modifier"],
        reroll_modifier=v[f"{side}_reroll_modifier"], modifier_rounds=v[f"{side}_modifier_rounds"])


def compute_battle(v):
    try:
        result = wotr_battle.battle(army(v, "attacker"), army(v, "defender"), terrain=v["terrain"],
                                    rounds=v["rounds"], attacker_ceases_at=v["attacker_ceases_at"],
                                    siege_continue=v["siege_continue"])
    except ValueError as exc:
        # "attacker units: ..." is about regulars and elites together: name the form's first of the two
        side, found, rest = str(exc).partition(" units: ")
        if found and side in ("attacker", "defender"):
            raise ValueError(f"{side}_regulars: {rest}") from None
        raise
    outcomes = result["outcomes"]
    win = outcomes["defender_eliminated"]
    result["summary"] = (f"Defender destroyed {percent(win)}, attacker destroyed "
                         f"{percent(outcomes['attacker_eliminated'])}, both {percent(outcomes['both_eliminated'])}, "
                         f"neither {percent(outcomes['neither_eliminated'])}.")
    return result


def battle_charts(v, r):
    o = r["outcomes"]
    return [
        outcome_chart("Outcome", [("Defender destroyed", o["defender_eliminated"]),
                                  ("Attacker destroyed", o["attacker_eliminated"]),
                                  ("Both destroyed", o["both_eliminated"]),
                                  ("Both still stand", o["neither_eliminated"])]),
        distribution_chart("Attacker units left", r["attacker_survivors"]),
        distribution_chart("Defender units left", r["defender_survivors"]),
    ]


def battle_json(v, r):
    keys = ("outcomes", "attacker_survivors", "defender_survivors", "attacker_survivors_detail",
            "defender_survivors_detail", "expected_attacker_casualties", "expected_defender_casualties",
            "expected_attacker_elites_lost", "expected_defender_elites_lost", "per_round", "expected_rounds")
    body = {key: plain(r[key]) for key in keys if key in r}
    body["explanation"] = r.get("explanation", [])
    return body


BATTLE = CalculatorSpec(
    id="wotr-battle",
    fields=battle_fields(),
    compute=compute_battle,
    to_json=battle_json,
    charts=battle_charts,
    template="calc/wotr_battle.html",
    method="Exact Markov chain over both Armies' Regulars and Elites. Each round both sides roll at once "
           "(dice = Combat Strength up to 5, Leader re-rolls up to Leadership), hits become casualties by "
           "each side's policy, and both Armies can fall in the same round. Fought to the end, the chain is "
           "solved exactly; no sampling anywhere.",
    api_path="/api/wotr/battle",
    api_summary="Outcome of a whole battle, round by round",
    groups=(
        ("Attacker", tuple(f.name for f in battle_fields() if f.name.startswith("attacker_") and f.name != "attacker_ceases_at")),
        ("Defender", tuple(f.name for f in battle_fields() if f.name.startswith("defender_"))),
        ("Battle", ("terrain", "rounds", "attacker_ceases_at", "siege_continue")),
    ),
)

SPECS = (ROLL, BATTLE)
