"""What the content files may hold: the games, the keys of each kind of file, and the tables of
section kinds and step flags that the checker, the builder and the checklists all read."""
import re
from dataclasses import dataclass

GAME_IDS = ("wotr", "wotr-cards", "meccg", "meq", "fotf")
# Section ids that would shadow the game's own pages.
RESERVED_SECTION_IDS = ("turn", "print", "calc", "api", "static", "search")
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class SectionKind:
    """A kind of section: the list its file holds, and what an entry of it is at each depth."""

    holds: str  # "entries" or "terms"
    entry_kinds: tuple  # by depth; the last one stands for every depth below it

    def entry_kind(self, depth):
        return self.entry_kinds[min(depth, len(self.entry_kinds) - 1)]


SECTION_KINDS = {
    "sequence": SectionKind(holds="entries", entry_kinds=("phase", "step", "substep")),
    "rules": SectionKind(holds="entries", entry_kinds=("rule",)),
    "glossary": SectionKind(holds="terms", entry_kinds=("term",)),
}


@dataclass(frozen=True)
class Flag:
    """A marker on a phase or step, as the checklists read it."""

    label: str  # as a page shows it
    counts: str  # when a step so flagged counts towards a checklist's progress: "always", "if" (once
    # ticked) or "not-first" (from the second pass on)
    explained_by_when: bool = False  # a 'when' line may say when it happens


FLAGS = {
    "optional": Flag("optional", counts="if"),
    "conditional": Flag("conditional", counts="if", explained_by_when=True),
    "not-first": Flag("not first", counts="not-first", explained_by_when=True),
    "repeated": Flag("repeated", counts="always"),
    "once": Flag("once", counts="always"),
    "simultaneous": Flag("at the same time", counts="always"),
}
WHEN_FLAGS = tuple(name for name, flag in FLAGS.items() if flag.explained_by_when)


def counts(flags) -> str:
    """How a step with these flags (its own and its phases') counts: 'if' before 'not-first' before 'always'."""
    found = {FLAGS[name].counts for name in flags if name in FLAGS}
    return next((way for way in ("if", "not-first") if way in found), "always")


# The keys of each mapping: key -> required.
GAME_KEYS = {
    "id": True, "title": True, "short_title": True, "publisher": True, "source": True,
    "summary": True, "sections": True, "turn": True, "turn_name": False, "print": False,
}
CHECKLIST_KEYS = {"section": True, "name": True, "seats": False, "seat_label": False, "note": False}
SECTION_KEYS = {
    "id": True, "title": True, "kind": True, "summary": False, "body": False,
    "entries": False, "terms": False, "asked": False,
}
ENTRY_KEYS = {
    "id": True, "title": True, "short": False, "body": False, "flags": False, "when": False,
    "see": False, "calculator": False, "table": False, "aliases": False, "entries": False,
    "source": False, "asked": False,
}
TERM_KEYS = {"id": True, "term": True, "aliases": False, "body": True, "see": False, "source": False, "asked": False}
# An entry's `asked`: the questions players ask that it answers, this many of them.
ASKED_COUNT = (3, 8)
ASKED_MAX_CHARS = 300
# Every phase, step, rule and term must carry `asked`.
ASKED_REQUIRED = True
TABLE_KEYS = {"caption": False, "columns": True, "rows": True}
# sources.yaml: the game's summary section by section, and what the published rulebook adds.
SOURCES_FILE = "sources.yaml"
SOURCES_KEYS = {"summary_file": True, "sections": True, "rulebook": False}
SOURCE_SECTION_KEYS = {"section": True, "rules": True}
SOURCE_RULE_KEYS = {"rule": True, "ids": True}
SOURCE_KINDS = ("summary", "rulebook")  # in the order an entry lists them
