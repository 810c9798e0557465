"""Middle-earth Quest: which side is dominant on the Story Track, and what follows from it."""
from ..engines import meq_dominance
from .calculator import Api, Calculator, Group, Headline, Sides
from .fields import Boolean, Integer, IntegerList

SPACES = dict(minimum=0, maximum=meq_dominance.MAX_SPACES)
DOMINANT = {"heroes": "The heroes are dominant", "sauron": "Sauron is dominant", "none": "Neither side is dominant"}


def ringwraiths_text(modifier):
    if modifier > 0:
        return f"+{modifier} health and +{modifier} fortitude"
    if modifier < 0:
        return f"{modifier} health and {modifier} fortitude"
    return "no change"


def dominance(values):
    result = meq_dominance.dominance(values["hero_to_finale"], values["sauron_to_finale"],
                                     values["sauron_to_shadow_falls"], first_turn=values["first_turn"])
    result["dominant_text"] = DOMINANT[result["dominant"]]
    result["event_text"] = meq_dominance.EVENTS[result["event"]]
    result["ringwraiths_text"] = ringwraiths_text(result["ringwraiths_modifier"])
    return result


DOMINANCE = Calculator(
    id="meq-dominance", game="meq", slug="dominance", title="Dominance",
    form=(
        Sides(Group("Heroes", (
                  Integer("hero_to_finale", "Heroes' marker: spaces to the Finale", example=8, widget="number",
                          help="Count the spaces from the heroes' story marker to the Finale space.", **SPACES),)),
              Group("Sauron's markers", (
                  IntegerList("sauron_to_finale", "Sauron's markers: spaces to the Finale", item="marker",
                              count=meq_dominance.SAURON_MARKERS, example=(10, 12, 14),
                              help="One number per Sauron story marker.",
                              api_help="In a query, the three numbers separated by commas: 10,12,14.",
                              **SPACES),
                  IntegerList("sauron_to_shadow_falls", "Sauron's markers: spaces still to The Shadow Falls",
                              item="marker", count=meq_dominance.SAURON_MARKERS, example=(3, 4, 5),
                              help="One number per Sauron story marker; 0 for a marker on or past The Shadow Falls.",
                              api_help="In a query, the three numbers separated by commas: 3,4,5.", **SPACES),
              )),
              rows=("Spaces to the Finale", "Spaces still to The Shadow Falls (0: on or past it)")),
        Boolean("first_turn", "First Sauron turn of the game", default=False),
    ),
    compute=dominance,
    headline=lambda result: Headline(f"{result['dominant_text']}: heroes {result['heroes']}, "
                                     f"Sauron {result['sauron']} (lower is dominant)."),
    key=lambda result, first: ("", f"{result['dominant_text'].lower()} ({result['heroes']} to {result['sauron']})"),
    template="calc/meq_dominance.html",
    method="The heroes' count is their marker's distance to the Finale; Sauron's is the smaller of his closest "
           "marker's distance to the Finale and the spaces his three markers still need, added together, to "
           "reach The Shadow Falls. The lower count is dominant; equal counts mean neither side is. Nothing "
           "is random, so the result is exact.",
    apis=(Api("/api/meq/dominance",
              "Which side is dominant, the Event step it brings, and the Ringwraiths' Finale modifier",
              result=("heroes", "sauron", "dominant", "event", "ringwraiths_modifier", "sauron_closest_to_finale",
                      "sauron_to_shadow_falls_total", "finale_begins")),),
)

CALCULATORS = (DOMINANCE,)
