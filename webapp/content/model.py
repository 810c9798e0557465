"""The built library: games, their sections, and the entries (phases, steps, rules, terms) in them.

The ``url`` of a game, section and entry is its stable deep link; tests check it against the app's
routes, so the two cannot drift apart.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .schema import counts


@dataclass
class Table:
    caption: str
    columns: list
    rows: list


@dataclass(frozen=True)
class Source:
    """Where an entry's facts come from: ``summary`` sections, the ``rulebook``, or ``derived`` (and how)."""

    kind: str  # summary, rulebook, derived
    where: tuple = ()  # summary section titles, or the one line saying how it is derived

    def __str__(self):
        if self.kind == "summary":
            return "Summary: " + "; ".join(self.where)
        if self.kind == "rulebook":
            return "Published rulebook (not in the summary)"
        return "Derived: " + "; ".join(self.where)


@dataclass
class Entry:
    """A phase, step, sub-step, rule or glossary term: anything with a deep link."""

    id: str
    title: str
    kind: str  # phase, step, substep, rule, term
    game: str
    section: str
    short: str = ""
    body: str = ""  # Markdown source
    html: str = ""  # rendered once at load
    text: str = ""  # plain text for search
    flags: tuple = ()
    when: str = ""
    see: list = field(default_factory=list)  # resolved references (Ref)
    calculator: str = ""
    table: Table | None = None
    aliases: tuple = ()
    asked: tuple = ()  # questions players ask that this entry answers, in their words
    entries: list = field(default_factory=list)
    parent: Entry | None = None
    depth: int = 0
    sources: tuple = ()  # Source objects: summary first, then rulebook, or one derived

    @property
    def url(self):
        return f"/{self.game}/{self.section}#{self.id}"

    def walk(self):
        yield self
        for child in self.entries:
            yield from child.walk()


@dataclass
class Section:
    id: str
    title: str
    kind: str
    game: str
    summary: str = ""
    body: str = ""
    html: str = ""
    text: str = ""
    asked: tuple = ()  # questions players ask about the whole section
    entries: list = field(default_factory=list)  # for glossary: the terms

    @property
    def url(self):
        return f"/{self.game}/{self.id}"

    def walk(self):
        for entry in self.entries:
            yield from entry.walk()


@dataclass
class Game:
    id: str
    title: str
    short_title: str
    publisher: str
    source_html: str
    summary_html: str
    sections: dict  # id -> Section, in order
    turn: list  # Section objects, one per checklist
    checklists: list  # ChecklistSpec objects, in the order of the game's `turn`
    turn_name: str  # what the game calls the cycle its checklists walk through ("round", "turn")
    print_ids: list
    entries: dict = field(default_factory=dict)  # id -> Entry, every entry and term

    @property
    def url(self):
        return f"/{self.id}/"

    def lookup(self, ref_id):
        """An Entry or Section by id, or None."""
        return self.entries.get(ref_id) or self.sections.get(ref_id)

    def calculators(self):
        """Calculator ids used by this game's rules, in order of first mention."""
        seen = []
        for section in self.sections.values():
            for entry in section.walk():
                if entry.calculator and entry.calculator not in seen:
                    seen.append(entry.calculator)
        return seen


@dataclass
class ChecklistSpec:
    """What game.yaml says of one checklist: the sequence section it walks, named as the game names one pass."""

    section: Section
    name: str  # the game's word for one pass: "combat round", "round", "hero turn"
    seats: list  # seat order that moves on by one seat per pass, or []
    seat_label: str  # what the seat shown for a pass is, e.g. "Starting player"
    note: str  # one line on who goes when, in the rules' own terms

    @property
    def id(self):
        return self.section.id


def applies(entry):
    """When a step counts towards a checklist's progress, from its flags and those of the phases
    above it: 'always' (every pass), 'not-first' (every pass but the game's first) or 'if' (only
    once ticked: optional or conditional)."""
    flags = set()
    while entry is not None:
        flags.update(entry.flags)
        entry = entry.parent
    return counts(flags)


@dataclass(frozen=True)
class Ref:
    """What a ``see`` or ``ref:`` link names: a section, or an entry at its anchor in its section."""

    game: str
    id: str
    section: str  # the section's id, or the id of the section the entry is in
    anchor: str  # the entry's id; "" for a section
    title: str
    url: str


@dataclass
class Library:
    games: dict  # id -> Game, in GAME_IDS order
    fingerprint: str
    data: dict = field(default_factory=dict)  # game id -> {data file name: its validated values}
    vocabulary: object = None  # the player vocabulary (webapp.content.vocabulary.Vocabulary)

    def sections(self):
        """Every section of every game, in order."""
        for game in self.games.values():
            yield from game.sections.values()

    def entries(self):
        """(section, entry) for every phase, step, rule and glossary term of every game."""
        for section in self.sections():
            for entry in section.walk():
                yield section, entry

    def entries_for_calculator(self, calculator_id):
        """Every rule that a calculator computes: (game, entry)."""
        return [(self.games[entry.game], entry) for _, entry in self.entries() if entry.calculator == calculator_id]
