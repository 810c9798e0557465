"""A game's turn as checklists: phases, the steps to tick in each, and what each step links to."""
from dataclasses import dataclass, field
import hashlib

from ..content import applies


@dataclass
class Step:
    entry: object
    calculators: list  # calculator ids this step or its sub-steps compute
    substeps: list = field(default_factory=list)  # entries shown inside the step
    applies: str = "always"  # or "not-first" (every pass but the game's first), or "if" (counted once ticked)

    @property
    def always(self):
        """A step of every pass, the first included."""
        return self.applies == "always"


@dataclass
class Phase:
    section: object
    entry: object
    steps: list

    @property
    def lone(self):
        """A top-level entry with no steps of its own: it is a single step, not a heading."""
        return len(self.steps) == 1 and self.steps[0].entry is self.entry


@dataclass
class Checklist:
    spec: object  # content.model.ChecklistSpec: the section, what one pass is called, seats
    phases: list

    @property
    def id(self):
        return self.spec.section.id

    @property
    def steps(self):
        return [step for phase in self.phases for step in phase.steps]


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


def make_step(entry, game):
    return Step(entry=entry, calculators=step_calculators(entry, game), substeps=list(entry.entries),
                applies=applies(entry))


def section_phases(section, game):
    """Each top-level entry of a sequence section as a phase: its children are the steps to tick."""
    result = []
    for phase in section.entries:
        steps = [make_step(s, game) for s in phase.entries] or [make_step(phase, game)]
        result.append(Phase(section=section, entry=phase, steps=steps))
    return result


def checklists(game):
    """One checklist per section of the game's turn, in the order the content gives."""
    return [Checklist(spec=spec, phases=section_phases(spec.section, game)) for spec in game.checklists]


def phases(game):
    """Every phase of every checklist, in order."""
    return [phase for checklist in checklists(game) for phase in checklist.phases]


def step_ids(game):
    return [step.entry.id for phase in phases(game) for step in phase.steps]


def checklist_version(game):
    """Changes when the list of steps changes, so saved ticks never land on the wrong step."""
    return hashlib.sha256(" ".join(step_ids(game)).encode()).hexdigest()[:12]
