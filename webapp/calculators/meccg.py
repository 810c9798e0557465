"""Middle-earth CCG: influence attempts, factions, strikes, corruption and The Free Council."""
from ..engines import meccg
from ..engines.meccg.council import PLAYER_COUNTS, RULESETS, SOURCE_RANGE, SOURCES
from ..engines.meccg.influence import INFLUENCE_KINDS
from .fields import Field
from .spec import CalculatorSpec, json_object, outcome_chart, percent, plain

MODIFIER = dict(minimum=-20, maximum=20, default=0)
INFLUENCE = dict(minimum=0, maximum=30)


def explained(body, r):
    """An API body with the engine's working appended."""
    return {**body, "explanation": r["steps"]}


# --------------------------------------------------------------------------- influence attempt

KIND_LABELS = {
    "character": "An opponent's character",
    "follower": "An opponent's follower",
    "faction": "An opponent's faction",
    "ally": "An opponent's ally",
    "item": "An opponent's item",
}


def influence_fields():
    return (
        Field("kind", "Influence attempt on", kind="choice", default="character",
              choices=tuple((kind, KIND_LABELS[kind]) for kind in INFLUENCE_KINDS)),
        Field("direct_influence", "Your character's unused direct influence", default=3, **INFLUENCE),
        Field("modifiers", "Modifiers", help="Everything cards and abilities add to or take from the attempt.",
              **MODIFIER),
        Field("opponent_general_influence", "Opponent's unused general influence", default=5, **INFLUENCE),
        Field("controller_direct_influence", "Controlling character's unused direct influence", default=0,
              help="Counts only against a follower, ally or item; left out for a character or faction.",
              **INFLUENCE),
        Field("mind", "Target number", default=6,
              help="The mind of the character, follower or ally; the faction's number; for an item, the mind "
                   "of the character holding it.", **INFLUENCE),
        Field("identical", "Reveal an identical card first", kind="bool", default=False,
              help="Drops the target number to 0. An item can only be influenced this way."),
    )


def compute_influence(v):
    result = meccg.influence_attempt(**v)
    result["summary"] = f"The attempt succeeds {percent(result['probability'])}."
    return result


INFLUENCE_SPEC = CalculatorSpec(
    id="meccg-influence",
    fields=influence_fields(),
    compute=compute_influence,
    to_json=lambda v, r: explained({key: plain(r[key]) for key in
                                    ("probability", "kind", "target", "base", "need", "distribution")}, r),
    charts=lambda v, r: [outcome_chart("Outcome", [("Succeeds", r["probability"]), ("Fails", 1 - r["probability"])])],
    template="calc/meccg_influence.html",
    method="Exact: all 1,296 pairs of your 2d6 and your opponent's 2d6 are counted. The attempt succeeds when "
           "everything on your side, plus your roll, minus their influence and their roll, is more than the "
           "target number.",
    api_path="/api/meccg/influence",
    api_summary="Chance that an influence attempt on an opponent's card succeeds",
)


# --------------------------------------------------------------------------- faction


def compute_faction(v):
    result = meccg.faction_play(v["direct_influence"], v["modifiers"], v["faction_number"])
    result["summary"] = f"The faction comes into play {percent(result['probability'])}."
    return result


FACTION_SPEC = CalculatorSpec(
    id="meccg-faction",
    fields=(
        Field("direct_influence", "Influencing character's direct influence", default=3, **INFLUENCE),
        Field("modifiers", "Modifiers", help="Standard modifications and any cards or abilities that apply.",
              **MODIFIER),
        Field("faction_number", "Faction's number", default=9,
              help="The number printed on the faction card that the roll must beat.", **INFLUENCE),
    ),
    compute=compute_faction,
    to_json=lambda v, r: explained({"probability": float(r["probability"]), "need": r["need"]}, r),
    charts=lambda v, r: [outcome_chart("Outcome", [("Comes into play", r["probability"]),
                                                   ("Fails", 1 - r["probability"])])],
    template="calc/meccg_faction.html",
    method="Exact: each of the 36 ways two dice can land is counted; the faction comes into play when the "
           "roll plus direct influence and modifiers is more than the faction's number.",
    api_path="/api/meccg/faction",
    api_summary="Chance of playing a faction by its influence check",
)


# --------------------------------------------------------------------------- strike


def strike_fields():
    return (
        Field("prowess", "Character's prowess", default=5, minimum=-20, maximum=20),
        Field("strike_prowess", "Strike's prowess", default=8, minimum=-20, maximum=30),
        Field("tapped", "Character is tapped", kind="bool", default=False, help="-1 to prowess."),
        Field("wounded", "Character is wounded", kind="bool", default=False,
              help="-2 to prowess, and +1 to the body check roll after a failed strike."),
        Field("stay_untapped", "Chooses to remain untapped", kind="bool", default=False,
              help="-3 to prowess; only an untapped character can choose it."),
        Field("unused_strikes", "Unused strikes the attacker allocates", default=0, minimum=0, maximum=20,
              help="-1 to prowess for each."),
        Field("support", "Characters tapped in support", default=0, minimum=0, maximum=20,
              help="+1 to prowess for each unassigned character that taps to help."),
        Field("resource_modifier", "Skill resource card modifier",
              help="At most one resource card that needs a skill may change the strike.", **MODIFIER),
        Field("other_modifiers", "Other modifiers", help="Every other resource and hazard card that applies.",
              **MODIFIER),
        Field("body", "Character's body", optional=True, minimum=0, maximum=20,
              help="Blank: leave out the body check after a failed strike."),
        Field("creature_body", "Creature's body", optional=True, minimum=0, maximum=20,
              help="Blank: leave out the creature's body check after a successful strike."),
    )


def compute_strike(v):
    result = meccg.strike(**v)
    summary = (f"Success {percent(result['success'])}, ineffectual {percent(result['ineffectual'])}, "
               f"failure {percent(result['failure'])}.")
    if result["character_eliminated"] is not None:
        summary += f" The character is eliminated {percent(result['character_eliminated'])}."
    if result["creature_defeated"] is not None:
        summary += f" The creature is defeated {percent(result['creature_defeated'])}."
    result["summary"] = summary
    return result


def strike_json(v, r):
    keys = ("success", "ineffectual", "failure", "body_check_fail", "character_eliminated", "creature_defeated",
            "modified_prowess", "need", "distribution")
    return explained({key: plain(r[key]) for key in keys}, r)


def strike_charts(v, r):
    charts = [outcome_chart("The strike", [("Success", r["success"]), ("Ineffectual", r["ineffectual"]),
                                           ("Failure", r["failure"])])]
    if r["character_eliminated"] is not None:
        charts.append(outcome_chart("The character after the strike", [
            ("Unhurt", r["success"] + r["ineffectual"]),
            ("Wounded, survives", r["failure"] - r["character_eliminated"]),
            ("Eliminated", r["character_eliminated"]),
        ]))
    return charts


STRIKE_SPEC = CalculatorSpec(
    id="meccg-strike",
    fields=strike_fields(),
    compute=compute_strike,
    to_json=strike_json,
    charts=strike_charts,
    template="calc/meccg_strike.html",
    method="Exact: the character's prowess is modified step by step, then each of the 36 ways two dice can "
           "land is counted against the strike's prowess (higher defeats it, equal is ineffectual, lower fails). "
           "Body checks are further 2d6 rolls, multiplied in exactly.",
    api_path="/api/meccg/strike",
    api_summary="Outcome chances of one strike, with the body checks that follow",
    groups=(
        ("The strike", ("prowess", "strike_prowess", "tapped", "wounded", "stay_untapped", "unused_strikes",
                        "support", "resource_modifier", "other_modifiers")),
        ("Body checks (optional)", ("body", "creature_body")),
    ),
)


# --------------------------------------------------------------------------- corruption


COMPARISONS = (("greater", "More than the number"), ("at-least", "At least the number"))


def corruption_fields():
    return (
        Field("corruption", "Corruption points", default=5, minimum=0, maximum=30,
              help="The character's total corruption points."),
        Field("modifier", "Corruption check modifier", help="The character's own modifier and any cards.",
              **MODIFIER),
        Field("support", "Characters tapped in support", default=0, minimum=0, maximum=20,
              help="+1 to the roll for each."),
        Field("removal_need", "Number the corruption card asks for", optional=True, minimum=0, maximum=30,
              help="Blank: no removal roll. Each corruption card prints its own number."),
        Field("removal_modifier", "Removal roll modifier", **MODIFIER),
        Field("stay_untapped", "Remains untapped while trying", kind="bool", default=False,
              help="-3 to the removal roll."),
        Field("removal_comparison", "The roll must be", kind="choice", default="greater", choices=COMPARISONS,
              help="As the corruption card words it."),
    )


def compute_corruption(v):
    result = meccg.corruption_check(v["corruption"], v["modifier"], v["support"])
    summary = (f"Passes {percent(result['pass'])}, discarded {percent(result['discard'])}, "
               f"eliminated {percent(result['eliminate'])}.")
    result["removal"] = None
    if v["removal_need"] is not None:
        removal = meccg.corruption_removal(v["removal_need"], v["removal_modifier"], v["stay_untapped"],
                                           v["removal_comparison"])
        result["removal"] = removal
        result["steps"] = result["steps"] + [f"Removal roll: {step}" for step in removal["steps"]]
        summary += f" The corruption card is removed {percent(removal['probability'])}."
    result["summary"] = summary
    return result


def corruption_json(v, r):
    body = {key: float(r[key]) for key in ("pass", "discard", "eliminate")}
    removal = r["removal"]
    body["removal"] = None if removal is None else {
        "probability": float(removal["probability"]), "lowest_roll": removal["lowest_roll"],
        "explanation": removal["steps"]}
    return explained(body, r)


def corruption_charts(v, r):
    charts = [outcome_chart("Corruption check", [("Passes", r["pass"]), ("Discarded", r["discard"]),
                                                 ("Eliminated", r["eliminate"])])]
    if r["removal"] is not None:
        p = r["removal"]["probability"]
        charts.append(outcome_chart("Removal roll", [("Card removed", p), ("Card stays", 1 - p)]))
    return charts


CORRUPTION_SPEC = CalculatorSpec(
    id="meccg-corruption",
    fields=corruption_fields(),
    compute=compute_corruption,
    to_json=corruption_json,
    charts=corruption_charts,
    template="calc/meccg_corruption.html",
    method="Exact: each of the 36 ways two dice can land is counted against the corruption points (more passes, "
           "equal or one less discards, lower eliminates). The removal roll, when a number is given, is a "
           "separate 2d6 roll counted the same way.",
    api_path="/api/meccg/corruption",
    api_summary="Corruption check outcomes, and optionally the roll to remove a corruption card",
    groups=(
        ("Corruption check", ("corruption", "modifier", "support")),
        ("Removing a corruption card (optional)", ("removal_need", "removal_modifier", "stay_untapped",
                                                   "removal_comparison")),
    ),
)


# --------------------------------------------------------------------------- The Free Council

SOURCE_LABELS = {
    "character": "Character points", "item": "Item points", "faction": "Faction points",
    "ally": "Ally points", "kill": "Kill points", "misc": "Miscellaneous points",
}
COUNT_LABELS = {
    "dead_character_points": ("Points of dead key characters", "Taken from character points."),
    "imprisoned_character_points": ("Points of imprisoned characters", "Taken from character points."),
    "duplicates_revealed_by_opponent": ("Duplicates the opponent reveals",
                                        "Unique cards of yours the opponent shows a copy of; -1 each."),
}
PLAYER_KEYS = SOURCES + tuple(PLAYER_COUNTS) + ("avatar_eliminated",)
RULESET_CHOICES = (("seed", "Half rounded up"), ("council-of-elrond", "Exact half (Council of Elrond)"))
EXAMPLE = (
    {"character": 10, "item": 6, "faction": 4, "ally": 2, "kill": 3, "misc": 1},
    {"character": 8, "item": 0, "faction": 6, "ally": 0, "kill": 5, "misc": 2},
)


def player_fields(number):
    example = EXAMPLE[number - 1]
    prefix = f"p{number}_"
    fields = [Field(prefix + name, SOURCE_LABELS[name], default=example[name],
                    minimum=SOURCE_RANGE[0], maximum=SOURCE_RANGE[1]) for name in SOURCES]
    for name, (low, high) in PLAYER_COUNTS.items():
        label, help_text = COUNT_LABELS[name]
        fields.append(Field(prefix + name, label, default=0, minimum=low, maximum=high, help=help_text))
    fields.append(Field(prefix + "avatar_eliminated", "Avatar eliminated", kind="bool", default=False))
    fields.append(Field(prefix + "deck_exhaustions", "Times the play deck has run out", optional=True,
                        minimum=0, maximum=10,
                        help="Optional: give it for both players to see who may call the Council."))
    return fields


def council_fields():
    return tuple(player_fields(1) + player_fields(2) + [
        Field("ruleset", "Half rule", kind="choice", default="seed", choices=RULESET_CHOICES,
              help="How much of the total one kind of points may give."),
    ])


def players_from(v):
    return [{name: v[f"p{number}_{name}"] for name in PLAYER_KEYS} for number in (1, 2)]


def calling(v, players):
    """Whether each player may call the Council, when both players' deck exhaustions are given."""
    exhaustions = [v["p1_deck_exhaustions"], v["p2_deck_exhaustions"]]
    if exhaustions == [None, None]:
        return None
    for number, given in ((1, exhaustions[0]), (2, exhaustions[1])):
        if given is None:
            raise ValueError(f"p{number}_deck_exhaustions: give it for both players, or for neither")
    checks = []
    for index in (0, 1):
        points = meccg.marshalling_points_for_calling(players[index])
        check = meccg.council_can_be_called(exhaustions[index], points["total"], exhaustions[1 - index])
        checks.append({**check, "marshalling_points": points["total"], "points_steps": points["steps"]})
    return checks


def compute_council_page(v):
    players = players_from(v)
    result = meccg.free_council(players, v["ruleset"])
    result["rows"] = [{"step": first["step"], "players": (first, second)}
                      for first, second in zip(result["players"][0]["steps"], result["players"][1]["steps"])]
    result["calling"] = calling(v, players)
    result["summary"] = council_summary(result)
    return result


def council_summary(result):
    totals = [player["total"] for player in result["players"]]
    if result["winner"] is None:
        return f"A tie: both players finish with {totals[0]} marshalling points."
    return (f"Player {result['winner'] + 1} wins, {totals[result['winner']]} marshalling points to "
            f"{totals[1 - result['winner']]}.")


def read_council_json(body):
    given = json_object(body, required=("players",), optional=("ruleset",))
    ruleset = given.get("ruleset", "seed")
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise ValueError(f"ruleset: one of {', '.join(RULESETS)}")
    players = given["players"]
    if not isinstance(players, list) or len(players) != 2:
        raise ValueError("players: a list of exactly two players")
    return {"ruleset": ruleset, "players": [meccg.read_player(player, index) for index, player in enumerate(players)]}


def council_json(inputs, r):
    return {"ruleset": r["ruleset"],
            "players": [{"total": p["total"], "sources": p["sources"], "steps": p["steps"]} for p in r["players"]],
            "winner": r["winner"]}


def _player_schema():
    properties = {name: {"type": "integer", "minimum": SOURCE_RANGE[0], "maximum": SOURCE_RANGE[1], "default": 0}
                  for name in SOURCES}
    properties.update({name: {"type": "integer", "minimum": low, "maximum": high, "default": 0}
                       for name, (low, high) in PLAYER_COUNTS.items()})
    properties["avatar_eliminated"] = {"type": "boolean", "default": False}
    return {"type": "object", "properties": properties, "additionalProperties": False,
            "description": "One player's marshalling points; a missing entry counts as 0 (false for the avatar)."}


COUNCIL_SCHEMA = {
    "type": "object",
    "required": ["players"],
    "properties": {
        "ruleset": {"type": "string", "enum": list(RULESETS), "default": "seed",
                    "description": "seed: a source may give at most half the total, rounded up; "
                                   "council-of-elrond: exactly half."},
        "players": {"type": "array", "minItems": 2, "maxItems": 2, "items": _player_schema()},
    },
    "additionalProperties": False,
}


def council_groups():
    names = [f.name for f in council_fields()]
    return (
        ("Player 1", tuple(n for n in names if n.startswith("p1_"))),
        ("Player 2", tuple(n for n in names if n.startswith("p2_"))),
        ("Scoring", ("ruleset",)),
    )


COUNCIL_SPEC = CalculatorSpec(
    id="meccg-council",
    fields=council_fields(),
    compute=compute_council_page,
    to_json=council_json,
    template="calc/meccg_council.html",
    method="Each player's points are counted in order: the six kinds of points; dead and imprisoned characters "
           "taken from character points; kinds 1 to 4 doubled where the opponent has none; no kind above half "
           "the total (negative kinds count as 0 for this); then the eliminated avatar and revealed duplicates. "
           "Whole numbers throughout; the higher total wins.",
    api_path="/api/meccg/council",
    api_method="POST",
    api_summary="Both players' final marshalling points at The Free Council, step by step, and the winner",
    groups=council_groups(),
    read_json=read_council_json,
    compute_json=lambda inputs: meccg.free_council(inputs["players"], inputs["ruleset"]),
    json_schema=COUNCIL_SCHEMA,
)

SPECS = (INFLUENCE_SPEC, FACTION_SPEC, STRIKE_SPEC, CORRUPTION_SPEC, COUNCIL_SPEC)
