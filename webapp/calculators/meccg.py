"""Middle-earth CCG: influence attempts, factions, strikes, corruption and The Free Council."""
from ..engines import meccg
from ..engines.inputs import InputError
from ..engines.meccg.corruption import MAX_CORRUPTION, REMOVAL_COMPARISONS
from ..engines.meccg.corruption import PER_SUPPORTING_CHARACTER as ROLL_PER_SUPPORT
from ..engines.meccg.corruption import REMAIN_UNTAPPED_PENALTY as REMOVAL_UNTAPPED_PENALTY
from ..engines.meccg.council import MAX_DECK_EXHAUSTIONS, PLAYER_COUNTS, RULESETS, SOURCE_RANGE, SOURCES
from ..engines.meccg.dice import roll_needed
from ..engines.meccg.influence import INFLUENCE_KINDS
from ..engines.meccg.inputs import MAX_INFLUENCE, MAX_MODIFIER, MAX_SUPPORT, signed
from ..engines.meccg.strike import (BODY_CHECK_ALREADY_WOUNDED, MAX_BODY, MAX_UNUSED_STRIKES, PER_SUPPORTING_CHARACTER,
                                    PER_UNUSED_STRIKE, PROWESS_RANGE, REMAIN_UNTAPPED_PENALTY, STRIKE_PROWESS_RANGE,
                                    TAPPED_PENALTY, WOUNDED_PENALTY)
from ..engines.words import counted
from .calculator import Api, Calculator, Group, Headline, Sides, outcome_chart, percent
from .fields import Boolean, Choice, Integer, Records, When, choice_labels


def modifier_field(name, label, help_text="", **more):
    """A modifier: a blank is 0, and the form folds it under More options."""
    return Integer(name, label, default=0, minimum=-MAX_MODIFIER, maximum=MAX_MODIFIER,
                   help=help_text, signed=True, more=True, **more)


def influence_field(name, label, example, help_text="", **more):
    """Unused influence: a count, so a blank is 0."""
    return Integer(name, label, default=0, example=example, minimum=0, maximum=MAX_INFLUENCE,
                   help=help_text, **more)


def succeeds_chart(success_label):
    return lambda result: [outcome_chart("Outcome", [(success_label, result["probability"]),
                                                     ("Fails", 1 - result["probability"])])]


# --------------------------------------------------------------------------- influence attempt

KIND_LABELS = {"character": "Character", "follower": "Follower", "faction": "Faction", "ally": "Ally", "item": "Item"}

INFLUENCE = Calculator(
    id="meccg-influence", game="meccg", slug="influence", title="Influence attempt",
    form=(
        Choice("kind", "Influence attempt on the opponent's", example="character", short="Attempt on",
               choices=tuple((kind, KIND_LABELS[kind]) for kind in INFLUENCE_KINDS)),
        influence_field("direct_influence", "Your character's unused direct influence", 4,
                        short="Your direct influence"),
        modifier_field("modifiers", "Modifiers", "Everything cards and abilities add to or take from the attempt."),
        influence_field("opponent_general_influence", "Opponent's unused general influence", 1,
                        short="Their general influence"),
        influence_field("controller_direct_influence", "Controlling character's unused direct influence", 0,
                        "Counts against a follower, ally or item.", short="Controller's direct influence",
                        shown_when=(When("kind", "follower", "ally", "item"),), more=True),
        Integer("mind", "Target number", example=6, minimum=0, maximum=MAX_INFLUENCE,
                help="The mind of the character, follower or ally; the faction's number; for an item, the mind "
                     "of the character holding it."),
        Boolean("identical", "Reveal an identical card first", default=False,
                help="Drops the target number to 0. An item can only be influenced this way."),
    ),
    compute=lambda values: meccg.influence_attempt(**values),
    headline=lambda result: Headline(f"{percent(result['probability'])} to succeed: your roll minus your "
                                     f"opponent's must be at least {result['need']}."),
    key=lambda result, first: ("success", percent(result["probability"])),
    charts=succeeds_chart("Succeeds"),
    template="calc/meccg_influence.html",
    method="Exact: all 1,296 pairs of your 2d6 and your opponent's 2d6 are counted. The attempt succeeds when "
           "everything on your side, plus your roll, minus their influence and their roll, is more than the "
           "target number.",
    apis=(Api("/api/meccg/influence", "Chance that an influence attempt on an opponent's card succeeds",
              result=("probability", "kind", "target", "base", "need", "distribution")),),
)


# --------------------------------------------------------------------------- faction

FACTION = Calculator(
    id="meccg-faction", game="meccg", slug="faction", title="Playing a faction",
    form=(
        influence_field("direct_influence", "Influencing character's direct influence", 3,
                        short="Direct influence"),
        modifier_field("modifiers", "Modifiers", "Standard modifications and any cards or abilities that apply."),
        Integer("faction_number", "Faction's number", example=9, minimum=0, maximum=MAX_INFLUENCE,
                help="The number printed on the faction card that the roll must beat."),
    ),
    compute=lambda values: meccg.faction_play(values["direct_influence"], values["modifiers"],
                                              values["faction_number"]),
    headline=lambda result: Headline(f"{percent(result['probability'])} to bring the faction into play: "
                                     f"{roll_needed(result['need'])} on 2d6."),
    key=lambda result, first: ("faction in play", percent(result["probability"])),
    charts=succeeds_chart("Comes into play"),
    method="Exact: each of the 36 ways two dice can land is counted; the faction comes into play when the "
           "roll plus direct influence and modifiers is more than the faction's number.",
    apis=(Api("/api/meccg/faction", "Chance of playing a faction by its influence check",
              result=("probability", "need")),),
)


# --------------------------------------------------------------------------- strike


def strike(values):
    result = meccg.strike(**values)
    result["need_text"] = roll_needed(result["need"], none="none", some="{need} or more on 2d6")
    result["wounded"] = values["wounded"]  # a character already wounded is spoken of as wounded, never unhurt
    return result


def strike_headline(result):
    successful = "a body check follows for the wounded character" if result["wounded"] else "the character is wounded"
    headline = (f"{percent(result['defeated'])} to defeat the strike, {percent(result['ineffectual'])} ineffectual, "
                f"{percent(result['successful'])} successful ({successful}).")
    body_checks = []
    if result["character_eliminated"] is not None:
        body_checks.append(f"{percent(result['character_eliminated'])} to lose the character (eliminated)")
    if result["creature_defeated"] is not None:
        body_checks.append(f"{percent(result['creature_defeated'])} to defeat the creature")
    return Headline(headline, f"After the body checks: {'; '.join(body_checks)}." if body_checks else "")


def strike_charts(result):
    wounded = result["wounded"]
    charts = [outcome_chart("The strike", [("Defeated", result["defeated"]), ("Ineffectual", result["ineffectual"]),
                                           ("Successful: body check" if wounded else "Successful: wounded",
                                            result["successful"])])]
    if result["character_eliminated"] is not None:
        charts.append(outcome_chart("The character after the strike", [
            ("Still wounded, no worse" if wounded else "Unhurt", result["defeated"] + result["ineffectual"]),
            ("Still wounded, survives the body check" if wounded else "Wounded, survives",
             result["successful"] - result["character_eliminated"]),
            ("Eliminated", result["character_eliminated"]),
        ]))
    return charts


STRIKE = Calculator(
    id="meccg-strike", game="meccg", slug="strike", title="Strike and body check",
    form=(
        Group("The strike", (
            Integer("prowess", "Character's prowess", example=5, minimum=PROWESS_RANGE[0], maximum=PROWESS_RANGE[1]),
            Integer("strike_prowess", "Strike's prowess", example=8, minimum=STRIKE_PROWESS_RANGE[0],
                    maximum=STRIKE_PROWESS_RANGE[1]),
            Boolean("tapped", "Character is tapped", default=False,
                    help=f"{signed(TAPPED_PENALTY)} to prowess."),
            Boolean("wounded", "Character is wounded", default=False,
                    help=f"{signed(WOUNDED_PENALTY)} to prowess, and "
                         f"{signed(BODY_CHECK_ALREADY_WOUNDED)} to the body check roll after a "
                         f"successful strike."),
            Boolean("stay_untapped", "Chooses to remain untapped", default=False,
                    help=f"{signed(REMAIN_UNTAPPED_PENALTY)} to prowess; only a character that is "
                         f"neither tapped nor wounded can choose it.", more=True),
            Integer("unused_strikes", "Unused strikes the attacker allocates", default=0, minimum=0,
                    maximum=MAX_UNUSED_STRIKES, help=f"{signed(PER_UNUSED_STRIKE)} to prowess for each.",
                    short="Unused strikes", more=True),
            Integer("support", "Characters tapped in support", default=0, minimum=0, maximum=MAX_SUPPORT,
                    help=f"{signed(PER_SUPPORTING_CHARACTER)} to prowess for each unassigned "
                         f"character that taps to help.",
                    short="Support", more=True),
            modifier_field("resource_modifier", "Skill resource card modifier",
                           "At most one resource card that needs a skill may change the strike."),
            modifier_field("other_modifiers", "Other modifiers", "Every other resource and hazard card that applies."),
        )),
        Group("Body checks (optional)", (
            Integer("body", "Character's body", default=None, blank="no body check for the character", minimum=0,
                    maximum=MAX_BODY,
                    help="Blank: leave out the body check after a successful strike."),
            Integer("creature_body", "Creature's body", default=None, blank="no body check for the creature", minimum=0,
                    maximum=MAX_BODY, help="Blank: leave out the creature's body check after the strike is defeated."),
        ), more=True),
    ),
    compute=strike,
    headline=strike_headline,
    key=lambda result, first: ("strike defeated", percent(result["defeated"])),
    charts=strike_charts,
    template="calc/meccg_strike.html",
    method="Exact: the character's prowess is modified step by step, then each of the 36 ways two dice can "
           "land is counted against the strike's prowess: higher defeats the strike, equal makes it ineffectual, "
           "lower makes it successful and wounds the character. Body checks are further 2d6 rolls, multiplied in "
           "exactly.",
    apis=(Api("/api/meccg/strike", "Outcome chances of one strike, with the body checks that follow",
              result=("defeated", "ineffectual", "successful", "body_check_fail", "character_eliminated",
                      "creature_defeated", "modified_prowess", "need", "distribution")),),
)


# --------------------------------------------------------------------------- corruption

COMPARISON_LABELS = {"greater": "More than the number", "at-least": "At least the number"}


def corruption(values):
    result = meccg.corruption_check(values["corruption"], values["modifier"], values["support"])
    result["removal"] = None
    if values["removal_need"] is not None:
        removal = meccg.corruption_removal(values["removal_need"], values["removal_modifier"],
                                           values["stay_untapped"], values["removal_comparison"])
        removal["need_text"] = roll_needed(removal["lowest_roll"], none="none", some="{need} or more on 2d6")
        result["removal"] = removal
        result["steps"] = result["steps"] + [f"Removal roll: {step}" for step in removal["steps"]]
    return result


def corruption_headline(result):
    headline = (f"{percent(result['pass'])} to pass, {percent(result['discard'])} discarded, "
                f"{percent(result['eliminate'])} eliminated.")
    if result["removal"] is not None:
        return Headline(headline, f"{percent(result['removal']['probability'])} to remove the corruption card.")
    return Headline(headline)


def corruption_charts(result):
    charts = [outcome_chart("Corruption check", [("Passes", result["pass"]), ("Discarded", result["discard"]),
                                                 ("Eliminated", result["eliminate"])])]
    if result["removal"] is not None:
        removed = result["removal"]["probability"]
        charts.append(outcome_chart("Removal roll", [("Card removed", removed), ("Card stays", 1 - removed)]))
    return charts


CORRUPTION = Calculator(
    id="meccg-corruption", game="meccg", slug="corruption", title="Corruption check",
    form=(
        Group("Corruption check", (
            Integer("corruption", "Corruption points", example=5, minimum=0, maximum=MAX_CORRUPTION,
                    help="The character's total corruption points."),
            modifier_field("modifier", "Corruption check modifier", "The character's own modifier and any cards."),
            Integer("support", "Characters tapped in support", default=0, minimum=0, maximum=MAX_SUPPORT,
                    help=f"{signed(ROLL_PER_SUPPORT)} to the roll for each.",
                    short="Support", more=True),
        )),
        Group("Removing a corruption card (optional)", (
            Integer("removal_need", "Number the corruption card asks for", default=None, blank="no removal roll",
                    minimum=0, maximum=MAX_CORRUPTION, short="Removal roll",
                    help="Blank: no removal roll. Each corruption card prints its own number."),
            modifier_field("removal_modifier", "Removal roll modifier",
                           shown_when=(When("removal_need", other_than=("",)),)),
            Boolean("stay_untapped", "Remains untapped while trying", default=False,
                    help=f"{signed(REMOVAL_UNTAPPED_PENALTY)} to the removal roll.",
                    shown_when=(When("removal_need", other_than=("",)),)),
            Choice("removal_comparison", "The roll must be", example="greater",
                   choices=tuple((comparison, COMPARISON_LABELS[comparison]) for comparison in REMOVAL_COMPARISONS),
                   help="As the corruption card words it.", shown_when=(When("removal_need", other_than=("",)),)),
        ), more=True),
    ),
    compute=corruption,
    headline=corruption_headline,
    key=lambda result, first: ("check passed", percent(result["pass"])),
    charts=corruption_charts,
    template="calc/meccg_corruption.html",
    method="Exact: each of the 36 ways two dice can land is counted against the corruption points (more passes, "
           "equal or one less discards, lower eliminates). The removal roll, when a number is given, is a "
           "separate 2d6 roll counted the same way.",
    apis=(Api("/api/meccg/corruption",
              "Corruption check outcomes, and optionally the roll to remove a corruption card",
              result=("pass", "discard", "eliminate", ("removal", ("probability", "lowest_roll")))),),
)


# --------------------------------------------------------------------------- The Free Council

SOURCE_LABELS = {
    "character": "Character points", "item": "Item points", "faction": "Faction points",
    "ally": "Ally points", "kill": "Kill points", "misc": "Miscellaneous points",
}
COUNT_LABELS = {  # (label, help, the few words a result's summary says)
    "dead_character_points": ("Points of dead key characters", "Taken from character points.",
                              "dead key characters' points"),
    "imprisoned_character_points": ("Points of imprisoned characters", "Taken from character points.",
                                    "imprisoned characters' points"),
    "duplicates_revealed_by_opponent": ("Duplicates the opponent reveals",
                                        "Unique cards of yours the opponent shows a copy of; -1 each.",
                                        "duplicates revealed"),
}
RULESET_LABELS = {"seed": "Half rounded up", "council-of-elrond": ("Exact half", "Council of Elrond")}
# What the empty form shows for each player's points
EXAMPLES = (
    {"character": 10, "item": 6, "faction": 4, "ally": 2, "kill": 3, "misc": 1},
    {"character": 8, "item": 0, "faction": 6, "ally": 0, "kill": 5, "misc": 2},
)

# One player's entries: a record of the API's players list, and p1_/p2_ fields of the form.
SCORED = (
    *(Integer(name, SOURCE_LABELS[name], default=0, minimum=SOURCE_RANGE[0], maximum=SOURCE_RANGE[1],
              short=SOURCE_LABELS[name].removesuffix(" points").lower(), widget="number")
      for name in SOURCES),
    *(Integer(name, COUNT_LABELS[name][0], default=0, minimum=low, maximum=high, help=COUNT_LABELS[name][1],
              short=COUNT_LABELS[name][2], more=True)
      for name, (low, high) in PLAYER_COUNTS.items()),
    Boolean("avatar_eliminated", "Avatar eliminated", default=False, short="avatar eliminated", more=True),
)
DECK_EXHAUSTIONS = Integer("deck_exhaustions", "Times the play deck has run out", default=None,
                           blank="run-outs not given", minimum=0, maximum=MAX_DECK_EXHAUSTIONS, short="deck run out",
                           help="Optional: give it for both players to see who may call the Council.", more=True)
PLAYER = (*SCORED, DECK_EXHAUSTIONS)
SCORED_KEYS = tuple(member.name for member in SCORED)
PLAYER_KEYS = tuple(member.name for member in PLAYER)
RULESET = Choice("ruleset", "Half rule", example="seed",
                 **choice_labels({ruleset: RULESET_LABELS[ruleset] for ruleset in RULESETS}),
                 help="No kind of points may give more than half the total: half rounded up, as the rules "
                      "summary has it, or an exact half, as the Council of Elrond rules have it. Pick the one you "
                      "play by.")


def player_group(number):
    example = EXAMPLES[number - 1]
    return Group(f"Player {number}", summary=True, fields=tuple(
        member.but(name=f"p{number}_{member.name}", **({"example": example[member.name]}
                                                      if member.name in example else {}))
        for member in PLAYER))


def calling(exhaustions, players, name_of):
    """Whether each player may call the Council, when both players' deck exhaustions are given;
    ``name_of(index)`` names a player's deck_exhaustions as the request does."""
    if exhaustions == [None, None]:
        return None
    for index, given in enumerate(exhaustions):
        if given is None:
            raise InputError(name_of(index), "give it for both players, or for neither")
    checks = []
    for index in (0, 1):
        points = meccg.marshalling_points_for_calling(players[index])
        check = meccg.council_can_be_called(exhaustions[index], points["total"], exhaustions[1 - index])
        checks.append({**check, "marshalling_points": points["total"], "points_steps": points["steps"]})
    return checks


def council(players, ruleset, name_of):
    """Both players scored, the winner, and who may call the Council (None without deck run-outs)."""
    scored = [{name: player[name] for name in SCORED_KEYS} for player in players]
    result = meccg.free_council(scored, ruleset)
    result["calling"] = calling([player["deck_exhaustions"] for player in players], scored, name_of)
    return result


def source_change(name, steps) -> str:
    """Why a kind of points ends where it does, in a few words ("6 doubled", "14 cut by the half
    rule"), from the engine's steps; "" when it ends as it was given."""
    step = {entry["step"]: entry for entry in steps}
    given = step["sources"]["after"][name]
    lost = [f"{step[what]['before'][name] - step[what]['after'][name]} {word}"
            for what, word in (("dead characters", "dead"), ("imprisoned characters", "imprisoned"))
            if step[what]["before"][name] != step[what]["after"][name]]
    before_doubling = step["doubling"]["before"][name]
    doubled = step["doubling"]["after"][name] != before_doubling
    cut = step["half rule"]["after"][name] != step["half rule"]["before"][name]
    words = [f"{given} less {', '.join(lost)}"] if lost else []
    if doubled:
        words.append(("doubled" if words else f"{before_doubling} doubled")
                     + (f" to {step['doubling']['after'][name]}" if cut else ""))
    if cut:
        words.append("cut by the half rule" if words else f"{step['half rule']['before'][name]} cut by the half rule")
    return ", ".join(words)


def council_page(values):
    players = [{name: values[f"p{number}_{name}"] for name in PLAYER_KEYS} for number in (1, 2)]
    result = council(players, values["ruleset"], name_of=lambda index: f"p{index + 1}_deck_exhaustions")
    for player in result["players"]:
        # each kind's final points, and why they differ from what was entered: no unexplained 12 for an item 6
        player["source_rows"] = [(SOURCE_LABELS[name], points, source_change(name, player["steps"]))
                                 for name, points in player["sources"].items()]
    return result


def council_headline(result):
    totals = [player["total"] for player in result["players"]]
    if result["winner"] is None:
        return Headline(f"A tie: both players finish with {counted(totals[0], 'marshalling point')}.")
    return Headline(f"Player {result['winner'] + 1} wins, {totals[result['winner']]} marshalling points to "
                    f"{totals[1 - result['winner']]}.")


def council_key(result, first):
    """Plans compare who wins, and the two totals."""
    who = "a tie" if result["winner"] is None else f"Player {result['winner'] + 1} wins"
    return "", f"{who}, {result['players'][0]['total']} to {result['players'][1]['total']}"


COUNCIL = Calculator(
    id="meccg-council", game="meccg", slug="council", title="The Free Council score",
    form=(Sides(player_group(1), player_group(2)), Group("Scoring", (RULESET,))),
    compute=council_page,
    headline=council_headline,
    key=council_key,
    template="calc/meccg_council.html",
    method="Each player's points are counted in order: the six kinds of points; dead and imprisoned characters "
           "taken from character points; kinds 1 to 4 doubled where the opponent has none; no kind above half "
           "the total (negative kinds count as 0 for this); then the eliminated avatar and revealed duplicates. "
           "Whole numbers throughout; the higher total wins.",
    apis=(Api("/api/meccg/council",
              "Both players' final marshalling points at The Free Council, step by step, and the winner",
              method="POST",
              fields=(Records("players", "Both players' marshalling points", fields=PLAYER, item="player",
                              min_items=2, max_items=2,
                              help="A missing entry counts as 0 (false for the avatar); the deck's run-outs, "
                                   "given for both players, say who may call the Council."),
                      RULESET),
              compute=lambda values: council(values["players"], values["ruleset"],
                                             name_of=lambda index: f"players[{index}].deck_exhaustions"),
              result=("ruleset", "players", "winner", "calling")),),
)

CALCULATORS = (INFLUENCE, FACTION, STRIKE, CORRUPTION, COUNCIL)
