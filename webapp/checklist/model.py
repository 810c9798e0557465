"""A game's turn as a checklist: phases, the steps to tick in each, and what each step links to."""
from dataclasses import dataclass, field
import hashlib


@dataclass
class Step:
    entry: object
    calculators: list  # calculator ids this step or its sub-steps compute
    substeps: list = field(default_factory=list)  # entries shown inside the step


@dataclass
class Phase:
    section: object
    entry: object  # None when a sequence section has a bare step at top level
    steps: list


def step_calculators(entry, game):
    """Calculators for a step: its own and its sub-steps', then those of the rules it refers to."""
    found = []
    items = list(entry.walk())
    referred = [game.lookup(ref.id) for item in items for ref in item.see if ref.game == game.id]
    for item in items + [r for r in referred if r is not None]:
        calculator = getattr(item, "calculator", "")
        if calculator and calculator not in found:
            found.append(calculator)
    return found


def phases(game):
    """Every phase of every turn section, each with its tickable steps, in order of play."""
    result = []
    for section in game.turn:
        for phase in section.entries:
            if phase.entries:
                steps = [Step(entry=s, calculators=step_calculators(s, game), substeps=list(s.entries)) for s in phase.entries]
            else:
                steps = [Step(entry=phase, calculators=step_calculators(phase, game))]
            result.append(Phase(section=section, entry=phase, steps=steps))
    return result


def step_ids(game):
    return [step.entry.id for phase in phases(game) for step in phase.steps]


def checklist_version(game):
    """Changes when the list of steps changes, so saved ticks never land on the wrong step."""
    return hashlib.sha256(" ".join(step_ids(game)).encode()).hexdigest()[:12]
