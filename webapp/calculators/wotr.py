"""War of the Ring: the combat roll and the whole battle."""
from ..engines import wotr_battle, wotr_combat
from .calculator import Api, Calculator, Group, distribution_chart, outcome_chart, percent
from .fields import Boolean, Choice, Integer

# --------------------------------------------------------------------------- combat roll


def roll(values):
    """The engine takes the fields by their names."""
    distribution = wotr_combat.combat_roll(**values)
    return {"distribution": distribution, "expected_hits": wotr_combat.expected_hits(distribution),
            "at_least_one": 1 - distribution[0], "steps": wotr_combat.describe_roll(**values)}


def roll_modifier(name, label, help_text=""):
    return Integer(name, label, default=0, minimum=-wotr_combat.MAX_MODIFIER, maximum=wotr_combat.MAX_MODIFIER,
                   help=help_text)


ROLL = Calculator(
    id="wotr-roll", game="wotr", slug="roll", title="Combat roll and leader re-roll",
    form=(
        Integer("dice", "Combat dice", default=5, minimum=0, maximum=wotr_combat.MAX_DICE,
                help="Combat Strength, at most 5."),
        Integer("hit", "Hit on", default=5, minimum=wotr_combat.MIN_HIT, maximum=wotr_combat.MAX_HIT,
                help="The number a die must reach: 5 normally, 6 against a City or Fortification in round 1 "
                     "(at 7, only a 6 hits unless a plus modifier lifts a lower face to 7)."),
        roll_modifier("modifier", "Combat roll modifier", "Added to each die, e.g. +1 from a Combat card."),
        Integer("rerolls", "Leader re-rolls", default=0, minimum=0, maximum=wotr_combat.MAX_REROLLS,
                help="Leadership, at most 5; only missed dice are re-rolled."),
        roll_modifier("reroll_modifier", "Re-roll modifier"),
    ),
    compute=roll,
    headline=lambda result: (f"Expected hits {float(result['expected_hits']):.2f}; "
                             f"at least one hit {percent(result['at_least_one'])}."),
    charts=lambda result: [distribution_chart("Chance of each number of hits", result["distribution"],
                                              label=lambda hits: f"{hits} hit{'s' if hits != 1 else ''}")],
    method="Exact: every face of every die is counted. A die hits on a 6, never on a 1, and on 2-5 when "
           "face + modifier reaches the hit number; the missed dice the Leaders may pick up are then rolled "
           "again with their own modifier. Probabilities are exact fractions, shown rounded.",
    apis=(Api("/api/wotr/roll", "Distribution of hits from one Combat roll and its Leader re-roll",
              result=("distribution", "expected_hits")),),
)


# --------------------------------------------------------------------------- whole battle

POLICY_LABELS = {"strength": "Keep the most dice (downgrade Elites first)",
                 "elites": "Keep Elites (lose Regulars first)"}
MODIFIER_ROUNDS_LABELS = {"all": "Every round", "first": "Round 1 only"}
TERRAIN_LABELS = {"field": "Open field", "city": "City", "fortification": "Fortification",
                  "siege": "Stronghold under siege"}


def army_fields(side, name, regulars):
    modifier = dict(default=0, minimum=-wotr_battle.MAX_MODIFIER, maximum=wotr_battle.MAX_MODIFIER)
    return (
        Integer(f"{side}_regulars", f"{name} Regulars", default=regulars, minimum=0, maximum=wotr_battle.MAX_UNITS,
                help="At most 10 Army units stand in one region (the rulebook's stacking limit)."),
        Integer(f"{side}_elites", f"{name} Elites", default=1, minimum=0, maximum=wotr_battle.MAX_UNITS),
        Integer(f"{side}_leadership", f"{name} Leadership", default=1, minimum=0, maximum=wotr_battle.MAX_LEADERSHIP,
                help="Re-rolls are capped at 5 and at the dice missed."),
        Choice(f"{side}_policy", f"{name} casualties", default="strength",
               choices=tuple((policy, POLICY_LABELS[policy]) for policy in wotr_battle.CASUALTY_POLICIES)),
        Integer(f"{side}_modifier", f"{name} roll modifier", **modifier),
        Integer(f"{side}_reroll_modifier", f"{name} re-roll modifier", **modifier),
        Choice(f"{side}_modifier_rounds", f"{name} modifiers apply", default="all",
               choices=tuple((rounds, MODIFIER_ROUNDS_LABELS[rounds]) for rounds in wotr_battle.MODIFIER_ROUNDS)),
    )


def army(values, side):
    return wotr_battle.Army(
        regulars=values[f"{side}_regulars"], elites=values[f"{side}_elites"],
        leadership=values[f"{side}_leadership"], casualty_policy=values[f"{side}_policy"],
        modifier=values[f"{side}_modifier"], reroll_modifier=values[f"{side}_reroll_modifier"],
        modifier_rounds=values[f"{side}_modifier_rounds"])


def battle(values):
    return wotr_battle.battle(army(values, "attacker"), army(values, "defender"), terrain=values["terrain"],
                              rounds=values["rounds"], attacker_ceases_at=values["attacker_ceases_at"],
                              siege_continue=values["siege_continue"])


def battle_headline(result):
    outcomes = result["outcomes"]
    return (f"Defender destroyed {percent(outcomes['defender_eliminated'])}, attacker destroyed "
            f"{percent(outcomes['attacker_eliminated'])}, both {percent(outcomes['both_eliminated'])}, "
            f"neither {percent(outcomes['neither_eliminated'])}.")


def battle_charts(result):
    outcomes = result["outcomes"]
    return [
        outcome_chart("Outcome", [("Defender destroyed", outcomes["defender_eliminated"]),
                                  ("Attacker destroyed", outcomes["attacker_eliminated"]),
                                  ("Both destroyed", outcomes["both_eliminated"]),
                                  ("Both still stand", outcomes["neither_eliminated"])]),
        distribution_chart("Attacker units left", result["attacker_survivors"]),
        distribution_chart("Defender units left", result["defender_survivors"]),
    ]


BATTLE = Calculator(
    id="wotr-battle", game="wotr", slug="battle", title="Whole battle odds",
    form=(
        Group("Attacker", army_fields("attacker", "Attacker", regulars=5)),
        Group("Defender", army_fields("defender", "Defender", regulars=3)),
        Group("Battle", (
            Choice("terrain", "Where", default="field",
                   choices=tuple((terrain, TERRAIN_LABELS[terrain]) for terrain in wotr_battle.TERRAINS)),
            Integer("rounds", "Most rounds", default=None, minimum=1, maximum=wotr_battle.MAX_ROUNDS,
                    help="Blank: fight until one Army is gone (or the attacker ceases)."),
            Integer("attacker_ceases_at", "Attacker ceases at strength", default=None, minimum=0,
                    maximum=wotr_battle.MAX_UNITS,
                    help="The attacker stops after a round that leaves it this strong or weaker. Blank: never."),
            Boolean("siege_continue", "Siege: pay an Elite to go on", default=True),
        )),
    ),
    compute=battle,
    headline=battle_headline,
    charts=battle_charts,
    template="calc/wotr_battle.html",
    method="Exact Markov chain over both Armies' Regulars and Elites. Each round both sides roll at once "
           "(dice = Combat Strength up to 5, Leader re-rolls up to Leadership), hits become casualties by "
           "each side's policy, and both Armies can fall in the same round. Fought to the end, the chain is "
           "solved exactly; no sampling anywhere.",
    apis=(Api("/api/wotr/battle", "Outcome of a whole battle, round by round",
              result=("outcomes", "attacker_survivors", "defender_survivors", "attacker_survivors_detail",
                      "defender_survivors_detail", "expected_attacker_casualties", "expected_defender_casualties",
                      "expected_attacker_elites_lost", "expected_defender_elites_lost", "per_round",
                      "expected_rounds")),),
)

CALCULATORS = (ROLL, BATTLE)
