"""War of the Ring: the combat roll and the whole battle."""
from fractions import Fraction

from ..engines import wotr_battle, wotr_combat
from .calculator import (Api, Calculator, Group, Headline, NextStep, Sides, at_least, at_least_ladder, decimal,
                         distribution_chart, line_chart, outcome_chart, percent, usual_count)
from .fields import Boolean, Choice, Integer, RoundWindow, When, choice_labels

# --------------------------------------------------------------------------- combat roll


def hits(count):
    return f"{count} hit{'s' if count != 1 else ''}"


def roll(values):
    """Combat dice from Combat Strength and re-rolls from Leadership, each capped, then the engine."""
    dice = min(values["strength"], wotr_combat.MAX_DICE)
    rerolls = min(values["leadership"], wotr_combat.MAX_REROLLS)
    roll_values = dict(dice=dice, hit=values["hit"], modifier=values["modifier"], rerolls=rerolls,
                       reroll_modifier=values["reroll_modifier"])
    distribution = wotr_combat.combat_roll(**roll_values)
    capped = f" (at most {wotr_combat.MAX_DICE})" if values["strength"] > dice or values["leadership"] > rerolls else ""
    derived = (f"Combat Strength {values['strength']} rolls {dice} {'die' if dice == 1 else 'dice'}; "
               f"Leadership {values['leadership']} re-rolls up to {rerolls} missed {'die' if rerolls == 1 else 'dice'}"
               f"{capped}.")
    return {"dice": dice, "rerolls": rerolls, "distribution": distribution,
            "expected_hits": wotr_combat.expected_hits(distribution), "at_least_one": 1 - distribution[0],
            "steps": [derived, *wotr_combat.describe_roll(**roll_values)]}


def roll_headline(result):
    if not result["dice"]:
        return Headline("No Combat dice are rolled, so no hits are scored.")
    main, others = at_least_ladder(result["distribution"], hits, "score")
    if not main:
        return Headline(f"No hit is possible with {result['dice']} {'die' if result['dice'] == 1 else 'dice'}.")
    others = f"{others[0].upper()}{others[1:]}. " if others else ""
    return Headline(f"{main[0].upper()}{main[1:]}.", f"{others}Expected hits: {decimal(result['expected_hits'])}.")


def roll_key(result, first):
    count = usual_count(first["distribution"]) or 1
    return f"at least {hits(count)}", percent(at_least(result["distribution"], count))


def roll_modifier(name, label, help_text=""):
    return Integer(name, label, default=0, minimum=-wotr_combat.MAX_MODIFIER, maximum=wotr_combat.MAX_MODIFIER,
                   help=help_text, signed=True, more=True)


ROLL = Calculator(
    id="wotr-roll", game="wotr", slug="roll", title="Combat roll and leader re-roll",
    form=(
        Integer("strength", "Combat Strength", example=5, minimum=0, maximum=wotr_battle.MAX_UNITS,
                help=f"The Army units in the battle; it rolls one die each, at most {wotr_combat.MAX_DICE}."),
        Integer("hit", "Hit on", example=wotr_battle.NORMAL_HIT, minimum=wotr_combat.MIN_HIT,
                maximum=wotr_combat.MAX_HIT,
                help=f"The number a die must reach: {wotr_battle.NORMAL_HIT} normally, {wotr_battle.HARD_HIT} "
                     "against a City or Fortification in round 1 "
                     "(at 7, only a 6 hits unless a plus modifier lifts a lower face to 7)."),
        roll_modifier("modifier", "Combat roll modifier", "Added to each die, e.g. +1 from a Combat card."),
        Integer("leadership", "Leadership", default=0, example=2, minimum=0, maximum=wotr_battle.MAX_LEADERSHIP,
                help=f"Missed dice re-rolled, at most {wotr_combat.MAX_REROLLS}."),
        roll_modifier("reroll_modifier", "Re-roll modifier", "Added to each re-rolled die."),
    ),
    compute=roll,
    headline=roll_headline,
    key=roll_key,
    charts=lambda result: [distribution_chart("Chance of at least so many hits", result["distribution"],
                                              noun=hits)],
    method=f"Exact: every face of every die is counted. Combat Strength gives the dice (at most {wotr_combat.MAX_DICE}) "
           f"and Leadership the re-rolls (at most {wotr_combat.MAX_REROLLS}, and never more than the dice missed). A die hits on a 6, never "
           "on a 1, and on 2-5 when face + modifier reaches the hit number; the missed dice the Leaders pick up "
           "are rolled again with their own modifier. Probabilities are exact fractions, shown rounded.",
    apis=(Api("/api/wotr/roll", "Distribution of hits from one Combat roll and its Leader re-roll",
              result=("dice", "rerolls", "distribution", "expected_hits")),),
)


# --------------------------------------------------------------------------- whole battle

POLICY_LABELS = {"strength": ("Keep the most dice", "downgrade Elites first"),
                 "elites": ("Keep Elites", "lose Regulars first")}
POLICY_BLANK = "casualties: keep the most dice"  # what a blank casualty policy means, as "strength" does
TERRAIN_LABELS = {"field": ("Open field", "also outside a Stronghold"), "city": "City", "fortification": "Fortification",
                  "siege": "Stronghold under siege"}
DEFENDER_CHOICES = (("stand", "Stands in the field"), ("withdraw", "Withdraws into its Stronghold"),
                    ("compare", "Compare standing and withdrawing"))
WITHDRAWING = ("withdraw", "compare")
ALWAYS = 1 - 1e-12  # a chance this close to 1, worked out in floating point, is certain
SETTLED = Fraction(1, 1000)  # a battle still going on less often than this is over, as a chart shows it
OUTCOME_LABELS = {"defender_eliminated": "Defender destroyed", "attacker_eliminated": "Attacker destroyed",
                  "both_eliminated": "Both destroyed", "neither_eliminated": "Both still stand"}


def army_fields(side, name, regulars, elites, leadership):
    modifier = dict(default=0, minimum=-wotr_battle.MAX_MODIFIER, maximum=wotr_battle.MAX_MODIFIER, signed=True,
                    more=True)
    return (
        Integer(f"{side}_regulars", f"{name} Regulars", default=0, example=regulars, minimum=0,
                maximum=wotr_battle.MAX_UNITS, short="Regulars",
                help=f"At most {wotr_battle.MAX_UNITS} Army units stand in one region (the rulebook's stacking limit)."),
        Integer(f"{side}_elites", f"{name} Elites", default=0, example=elites, minimum=0,
                maximum=wotr_battle.MAX_UNITS, short="Elites"),
        Integer(f"{side}_replacement_regulars", f"{name} Regulars at hand to replace Elites", default=None,
                blank="a Regular always at hand", minimum=0, maximum=wotr_battle.MAX_REPLACEMENT_REGULARS,
                short="Regulars at hand",
                help="In the reinforcements or among earlier casualties; each Regular this Army loses joins them. "
                     "An Elite hit with none at hand is eliminated. Blank: always one at hand.",
                shown_when=(When(f"{side}_elites", other_than=("0",)),),
                source=wotr_battle.option_sources("replacement_regulars"), more=True),
        Integer(f"{side}_leadership", f"{name} Leadership", default=0, example=leadership, minimum=0,
                maximum=wotr_battle.MAX_LEADERSHIP,
                help=f"Re-rolls are capped at {wotr_battle.MAX_REROLLS} and at the dice missed.",
                short="Leadership"),
        Choice(f"{side}_policy", f"{name} casualties", default=None, blank=POLICY_BLANK, example="strength",
               short="casualties", more=True,
               **choice_labels({policy: POLICY_LABELS[policy] for policy in wotr_battle.CASUALTY_POLICIES})),
        Integer(f"{side}_modifier", f"{name} roll modifier", short="roll", **modifier),
        Integer(f"{side}_reroll_modifier", f"{name} re-roll modifier", short="re-roll",
                **modifier),
        RoundWindow(f"{side}_modifier_rounds", f"{name} modifiers apply", example="all", short="modifiers",
                    maximum=wotr_battle.MAX_ROUNDS,
                    help="A Combat card lasts its round: played in round 2, from round 2 for 1 round. A Leader "
                         "who joins in round 3: from round 3, for blank (to the end). Every round: from round 1, "
                         "for blank.",
                    shown_when=(When(f"{side}_modifier", other_than=("0",)),
                                When(f"{side}_reroll_modifier", other_than=("0",))),
                    source=wotr_battle.option_sources("modifier_rounds"), more=True),
    )


def army(values, side):
    return wotr_battle.Army(
        regulars=values[f"{side}_regulars"], elites=values[f"{side}_elites"],
        leadership=values[f"{side}_leadership"], casualty_policy=values[f"{side}_policy"] or "strength",
        modifier=values[f"{side}_modifier"], reroll_modifier=values[f"{side}_reroll_modifier"],
        modifier_rounds=values[f"{side}_modifier_rounds"] or "all",  # "all" is moot: that side has no modifier
        replacement_regulars=values[f"{side}_replacement_regulars"])


def army_check(side, fields):
    """(the side's fields, the check of its Army as the engine makes it): see Calculator.checks."""
    return tuple(member.name for member in fields), lambda values: wotr_battle.check_army(side, army(values, side))


def battle(values):
    """The battle as the defender chooses to fight it; "compare" fights it standing and withdrawing.

    The result is the engine's, with ``stand`` (the battle standing in the field, when compared, else
    None), ``difference`` (withdrawing minus standing, or None), and the withdrawal's own inputs.
    """
    attacker, defender = army(values, "attacker"), army(values, "defender")
    choice = values["defender_choice"] or "stand"
    options = dict(rounds=values["rounds"], attacker_ceases_at=values["attacker_ceases_at"],
                   siege_continue=bool(values["siege_continue"]), siege_battles=values["siege_battles"] or 1,
                   start_round=values["start_round"] or 1)
    withdraw_after = values["withdraw_after"] if choice in WITHDRAWING else None
    if choice == "compare":
        both = wotr_battle.stand_or_withdraw(attacker, defender, withdraw_after=withdraw_after, **options)
        result = {**both["withdraw"], "stand": both["stand"], "difference": both["difference"]}
    else:
        result = {**wotr_battle.battle(attacker, defender, terrain=values["terrain"], withdraw_after=withdraw_after,
                                       **options), "stand": None, "difference": None}
    result = {**result, "withdraw_after": withdraw_after, "siege_battles": options["siege_battles"],
              "siege_continue": options["siege_continue"]}
    return {**result, "hold_out_rows": hold_out_rows(result)}


def after_round(values, now):
    """The battle from its next round: the Armies as they now stand (``now``: some of their counts), the
    round on by one and every other input kept, counted from there (most rounds, rounds in the field
    before a withdrawal, Regulars at hand, which each Regular lost joins and each downgraded Elite's
    replacement leaves). None when no round follows that the counts alone can tell: after the last
    round allowed, or in a siege (whether the attacker went on is not in the counts)."""
    choice = values["defender_choice"] or "stand"
    withdrawing = values["terrain"] == "field" and choice in WITHDRAWING
    if values["terrain"] == "siege" or (withdrawing and not values["withdraw_after"]) or values["rounds"] == 1:
        return None
    following = {**values, **now, "start_round": (values["start_round"] or 1) + 1}
    if values["rounds"] is not None:
        following["rounds"] = values["rounds"] - 1
    if withdrawing:
        following["withdraw_after"] = values["withdraw_after"] - 1
    for side in ("attacker", "defender"):
        at_hand = values[f"{side}_replacement_regulars"]
        if at_hand is not None and f"{side}_regulars" in now:
            following[f"{side}_replacement_regulars"] = at_hand + values[f"{side}_regulars"] - now[f"{side}_regulars"]
    return following


def battle_over(now):
    """{the side's Regulars box: the battle is over} for an Army with no units left after the round."""
    return {f"{side}_regulars": f"no {side} Army units are left, so the battle is over"
            for side in ("attacker", "defender") if now[f"{side}_regulars"] + now[f"{side}_elites"] == 0}


NEXT_ROUND = NextStep(
    title="After this round",
    help="The Armies as they stand now: − for each unit lost (an Elite downgraded: one Elite less, one Regular "
         "more), or type what is left. Every other input stays.",
    fields=("attacker_regulars", "attacker_elites", "defender_regulars", "defender_elites"),
    button=lambda values: f"Fight round {(values['start_round'] or 1) + 1}",
    values=after_round,
    ends=battle_over,
)


def hold_out_rows(result):
    """The hold-out table as a page shows it: [(attacks, [(chance, the plan asked), not going on and
    going on])], 1 to 5 attacks on the Stronghold; [] without a withdrawal."""
    by_plan = {(row["siege_battles"], row["siege_continue"]): row["defender_holds"]
               for row in result["hold_out_by_siege_battles"] or ()}
    asked = (result["siege_battles"], result["siege_continue"])
    return [({1: "Once", 2: "Twice"}.get(battles, f"{battles} times"),
             [(percent(by_plan[battles, goes_on]), (battles, goes_on) == asked) for goes_on in (False, True)])
            for battles in range(1, wotr_battle.MAX_SIEGE_BATTLES + 1) if (battles, False) in by_plan]


def holds_out(result):
    return result["headline"]["defender_holds"]


def siege_words(battles, goes_on):
    """The attacker's plan for the Stronghold, in words: "the attacker attacks the Stronghold once and
    does not downgrade Elites to go on"."""
    times = {1: "once", 2: "twice"}.get(battles, f"{battles} times")
    downgrades = "downgrades" if goes_on else "does not downgrade"
    return f"the attacker attacks the Stronghold {times} and {downgrades} Elites to go on"


def plan_words(result):
    return siege_words(result["siege_battles"], result["siege_continue"])


def withdrawal_words(result):
    """"Withdraw into the Stronghold" and when, as the headline says it."""
    rounds = result["withdraw_after"]
    return "Withdraw into the Stronghold" + (f" after {rounds} round{'s' if rounds != 1 else ''} in the field"
                                             if rounds else "")


def outcome_headline(result):
    outcomes = result["outcomes"]
    parts = [f"{OUTCOME_LABELS[name]} {percent(outcomes[name])}" for name in OUTCOME_LABELS if outcomes[name] > 0]
    return " · ".join(part if index == 0 else part[0].lower() + part[1:] for index, part in enumerate(parts)) + "."


def battle_headline(result):
    stand = result["stand"]
    if stand is not None:  # stand or withdraw?
        main = (f"{withdrawal_words(result)}: {percent(holds_out(result))} to hold out if {plan_words(result)}; "
                f"stand in the field: {percent(holds_out(stand))}.")
        destroyed = [(name, result["headline"][key], stand["headline"][key])
                     for name, key in (("Defender destroyed", "defender_destroyed"),
                                       ("Attacker destroyed", "attacker_destroyed"))]
        sub = " ".join(f"{name}: {percent(withdrawing)} withdrawing, {percent(standing)} standing."
                       for name, withdrawing, standing in destroyed)
        if result["withdrew"] < ALWAYS:
            sub += " " + withdrawal_sentence(result)
        return Headline(main, sub)
    if result["withdraw_after"] is None:
        return Headline(outcome_headline(result))
    return Headline(outcome_headline(result), withdrawal_sentence(result))


def withdrawal_sentence(result):
    """When the defender withdraws, how often it is still there to, and the siege that follows."""
    rounds = result["withdraw_after"]
    when = f"before round {result['start_round']}" if not rounds else \
        f"after {rounds} round{'s' if rounds != 1 else ''} in the field"
    often = "" if result["withdrew"] >= ALWAYS else \
        f" ({percent(result['withdrew'])} of the time: otherwise the field battle ends first)"
    return f"The defender withdraws into its Stronghold {when}{often}, then {plan_words(result)}."


def battle_key(result, first):
    """Plans compare the defender destroyed; plans that each weigh standing against withdrawing, the
    defender holding out either way."""
    if result["stand"] is not None:
        return "defender holds out withdrawing / standing", \
            f"{percent(holds_out(result))} / {percent(holds_out(result['stand']))}"
    return "defender destroyed", percent(result["outcomes"]["defender_eliminated"])


def units(count):
    return f"{count} unit{'s' if count != 1 else ''}"


def per_round_chart(result, title="Round by round: chance of each outcome so far"):
    """The course of the battle round by round: cumulative outcomes, rounds after nothing changes left out."""
    rows = [row for row in result["per_round"] if row["round"] is not None]
    names = [name for name in OUTCOME_LABELS if any(row[name] > 0 for row in rows)]
    columns = names + ["still_fighting"]
    # the chart ends once the battle is all but over (under 0.1% still fighting) or nothing changes any more
    over = next((index for index, row in enumerate(rows) if row["still_fighting"] < SETTLED), len(rows) - 1)
    rows = rows[:over + 1]
    while len(rows) > 1 and all(rows[-1][name] == rows[-2][name] for name in columns):
        rows.pop()
    labels = {**OUTCOME_LABELS, "neither_eliminated": "Stopped, both standing", "still_fighting": "Still fighting"}
    caption = ""
    last = rows[-1]
    if last["still_fighting"] > 0 and result["per_round"][-1]["round"] is None:
        caption = (f"After round {last['round']} the battle goes on {percent(last['still_fighting'])} of the "
                   f"time; the outcome above counts every round to the end.")
    return line_chart(title, [(labels[name], [row[name] for row in rows]) for name in columns], caption=caption,
                      first=rows[0]["round"])


def outcome_bars(title, result, folded=False):
    outcomes = result["outcomes"]
    return outcome_chart(title, [(OUTCOME_LABELS[name], outcomes[name]) for name in OUTCOME_LABELS], folded=folded)


def battle_charts(result):
    stand = result["stand"]
    if stand is not None:
        return [
            outcome_chart("The defender holds out", [("Withdrawing", holds_out(result)),
                                                     ("Standing", holds_out(stand))]),
            outcome_bars("Withdrawing: outcome", result, folded=True),
            outcome_bars("Standing: outcome", stand, folded=True),
            distribution_chart("Withdrawing: defender units left", result["defender_survivors"], noun=units,
                               folded=True),
            distribution_chart("Standing: defender units left", stand["defender_survivors"], noun=units,
                               folded=True),
            per_round_chart(result, "Withdrawing, round by round: chance of each outcome so far"),
        ]
    return [
        outcome_bars("Outcome", result),
        distribution_chart("Attacker units left", result["attacker_survivors"], noun=units),
        distribution_chart("Defender units left", result["defender_survivors"], noun=units),
        per_round_chart(result),
    ]


def battle_working(result):
    """The working; compared, the withdrawal's and then the stand's."""
    if result["stand"] is None:
        return result["steps"]
    return (["If the defender withdraws into its Stronghold:", *result["steps"],
             "If the defender stands in the field:", *result["stand"]["steps"]])


def siege_follows():
    """The conditions under which a siege is fought: a Stronghold under siege, or a withdrawal into one."""
    return (When("terrain", "siege"), When("defender_choice", *WITHDRAWING))


BATTLE_RESULT = ("outcomes", "headline", "withdrew", "attacker_survivors", "defender_survivors",
                 "attacker_survivors_detail", "defender_survivors_detail", "expected_attacker_casualties",
                 "expected_defender_casualties", "expected_attacker_elites_lost", "expected_defender_elites_lost",
                 "expected_defender_to_reinforcements", "per_round", "expected_rounds", "sources", "start_round",
                 "hold_out_by_siege_battles")

ATTACKER = army_fields("attacker", "Attacker", regulars=5, elites=1, leadership=1)
DEFENDER = army_fields("defender", "Defender", regulars=3, elites=1, leadership=1)
BATTLE = Calculator(
    id="wotr-battle", game="wotr", slug="battle", title="Whole battle odds",
    checks=(army_check("attacker", ATTACKER), army_check("defender", DEFENDER)),
    form=(
        Sides(Group("Attacker", ATTACKER, summary=True), Group("Defender", DEFENDER, summary=True)),
        Group("Battle", (
            Choice("terrain", "Where", example="field",
                   **choice_labels({terrain: TERRAIN_LABELS[terrain] for terrain in wotr_battle.TERRAINS}),
                   source=wotr_battle.option_sources("terrain")),
            Choice("defender_choice", "The defender", default=None, blank="the defender stands in the field",
                   example="stand", choices=DEFENDER_CHOICES, short="defender",
                   help="Withdrawing needs the defender's own Stronghold in the region: the battle in the field ends "
                        "and the attacker besieges the Stronghold.",
                   shown_when=(When("terrain", "field"),), source=wotr_battle.option_sources("withdraw_after")),
            Integer("withdraw_after", "Rounds fought in the field first", default=0, minimum=0,
                    maximum=wotr_battle.MAX_ROUNDS - 1, short="rounds in the field first",
                    help="0: the defender withdraws before round 1. 2: at the start of round 3, if the battle is "
                         "still on.",
                    shown_when=(When("defender_choice", *WITHDRAWING),),
                    source=wotr_battle.option_sources("withdraw_after"), more=True),
            Integer("siege_battles", "How many times will the attacker attack the Stronghold?", default=None,
                    blank="the attacker attacks the Stronghold once", example=1,
                    minimum=1, maximum=wotr_battle.MAX_SIEGE_BATTLES, short="attacks on the Stronghold",
                    help="Each attack is a siege battle, one after another "
                         f"(at most {wotr_battle.MAX_SIEGE_BATTLES}). Blank: once.",
                    shown_when=siege_follows(), source=wotr_battle.option_sources("siege_battles"), more=True),
            Boolean("siege_continue", "Will the attacker downgrade Elites to go on?",
                    default=False, shown_when=siege_follows(), short="Elites downgraded to go on",
                    help="A siege battle lasts one round; the attacker fights another round only by downgrading "
                         "one of its Elites to a Regular, and the Regular must come from its casualties or the "
                         "reinforcements: with none at hand it cannot, and that siege battle ends. Off: each "
                         "siege battle lasts one round.",
                    source=wotr_battle.option_sources("siege_continue"), more=True),
            Integer("start_round", "Round the battle is in", default=None, blank="from round 1", minimum=1,
                    maximum=wotr_battle.MAX_ROUNDS, short="from round",
                    help="For a battle already under way: the round it is in now, the Armies as they stand. A "
                         "City's or Fortification's first-round rule applies only in round 1, and the modifiers' "
                         "rounds count on from here. Blank: round 1.", more=True),
            Integer("rounds", "Most rounds", default=None, blank="fought to the end", minimum=1,
                    maximum=wotr_battle.MAX_ROUNDS,
                    help="Counted on through any siege. Blank: fight until one Army is gone (or the attacker "
                         "ceases, or the siege battles end).", more=True),
            Integer("attacker_ceases_at", "Attacker ceases at strength", default=None,
                    blank="the attacker never ceases",
                    minimum=0, maximum=wotr_battle.MAX_UNITS, short="Attacker ceases at",
                    help="The attacker stops after a round that leaves it this strong or weaker. Blank: never.",
                    more=True),
        )),
    ),
    compute=battle,
    headline=battle_headline,
    key=battle_key,
    charts=battle_charts,
    template="calc/wotr_battle.html",
    rules_used=lambda result: [(row["rule"], row["source"]) for row in result["sources"]],
    page_working=battle_working,
    method="A Markov chain over both Armies' Regulars and Elites, exact in method with no sampling. Each round "
           f"both sides roll at once (dice = Combat Strength up to {wotr_battle.MAX_DICE}, Leader re-rolls up to Leadership), hits "
           "become casualties by each side's policy, and both Armies can fall in the same round. Every hit lowers "
           "the hit points left on the board, so the chain is solved in one pass in order of hit points, a run of "
           "rounds without a hit summed in one step, and that pass also gives the chance of each outcome round by "
           "round. The sums are done in decimals, within a millionth of a millionth of the exact fractions (checked "
           "against them on many battles); the details give each figure to 10 decimal places, as the exact fractions run to "
           "dozens of digits.",
    next_step=NEXT_ROUND,
    apis=(Api("/api/wotr/battle", "Outcome of a whole battle, round by round; standing or withdrawing",
              result=(*BATTLE_RESULT, ("stand", BATTLE_RESULT), "difference")),),
)

CALCULATORS = (ROLL, BATTLE)
