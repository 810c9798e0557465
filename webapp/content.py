"""Rule content: read the YAML under content/, validate it, then build the library from it.

Validation and building are two passes. The checker reads every file and collects every problem,
each naming the file and the path inside it, and raises them together in one :class:`ContentError`:
loading never half-succeeds. Only content that passes is built into the :class:`Library`, with its
Markdown rendered once and its references resolved to links. The library is the single source for
rule pages, search, turn checklists, print sheets, calculator links and the numbers calculators read
from ``data/`` files.
"""
from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

import markdown
import yaml

from .engines.fotf_dice import BATTLE_FACES, SEARCH_FACES

GAME_IDS = ("wotr", "wotr-cards", "meccg", "meq", "fotf")
SECTION_KINDS = ("sequence", "rules", "glossary")
FLAGS = ("optional", "conditional", "not-first", "repeated", "once", "simultaneous")
# Section ids that would shadow the game's own pages.
RESERVED_SECTION_IDS = ("turn", "print", "calc", "api", "static", "search")

# libyaml's loader when PyYAML has it: the same safe loading, several times faster at start
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
REF_LINK = re.compile(r"\]\(ref:([a-z0-9-]+(?::[a-z0-9-]+)?)\)")
REF_HREF = re.compile(r'href="ref:([a-z0-9-]+(?::[a-z0-9-]+)?)"')

GAME_KEYS = {
    "id": True, "title": True, "short_title": True, "publisher": True, "source": True,
    "summary": True, "sections": True, "turn": True, "turn_name": False, "print": False,
}
CHECKLIST_KEYS = {"section": True, "name": True, "seats": False, "seat_label": False, "note": False}
IF_IT_HAPPENS = ("optional", "conditional")  # a step so flagged counts only once it is ticked
NOT_FIRST = "not-first"  # a step of every pass but the game's first: it counts from the second pass on
WHEN_FLAGS = ("conditional", NOT_FIRST)  # the flags a 'when' line may explain
SECTION_KEYS = {
    "id": True, "title": True, "kind": True, "summary": False, "body": False,
    "entries": False, "terms": False,
}
ENTRY_KEYS = {
    "id": True, "title": True, "short": False, "body": False, "flags": False, "when": False,
    "see": False, "calculator": False, "table": False, "aliases": False, "entries": False,
    "source": False,
}
TERM_KEYS = {"id": True, "term": True, "aliases": False, "body": True, "see": False, "source": False}
TABLE_KEYS = {"caption": False, "columns": True, "rows": True}
# sources.yaml: the game's summary section by section, and what the published rulebook adds.
SOURCES_FILE = "sources.yaml"
SOURCES_KEYS = {"summary_file": True, "sections": True, "rulebook": False}
SOURCE_SECTION_KEYS = {"section": True, "rules": True}
SOURCE_RULE_KEYS = {"rule": True, "ids": True}
SOURCE_KINDS = ("summary", "rulebook")  # in the order an entry lists them

# content/fotf/data/dice.yaml: how many faces of each Fate of the Fellowship die show each result.
# The summary gives neither the counts nor the number of sides; the file's own note says it
# assumes six-sided dice, so a die whose counts add up to anything else is a typo.
FOTF_DICE_KEYS = {"verified": False, "note": False, "search": True, "battle": True}
FOTF_DIE_FACES = {"search": SEARCH_FACES, "battle": BATTLE_FACES}
FOTF_DIE_SIDES = 6


class ContentError(Exception):
    """Content that breaks the format; ``problems`` lists ``file: path: message`` lines."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


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
    summary_text: str
    sections: dict  # id -> Section, in order
    turn: list  # Section objects, one per checklist
    checklists: list  # Checklist objects, in the order of the game's `turn`
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
class Checklist:
    """One sequence section walked as a checklist, named as the game names one pass through it."""

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
    if flags & set(IF_IT_HAPPENS):
        return "if"
    return NOT_FIRST if NOT_FIRST in flags else "always"


@dataclass(frozen=True)
class Ref:
    game: str
    id: str
    title: str
    url: str


@dataclass
class Library:
    games: dict  # id -> Game, in GAME_IDS order
    fingerprint: str
    synonyms: list  # list of lists of phrases (a glossary term and its aliases)
    data: dict = field(default_factory=dict)  # game id -> {data file name: its validated values}
    vocabulary: object = None  # the player vocabulary (webapp.vocabulary.Vocabulary)

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


def content_fingerprint(root: Path) -> str:
    """A hash of every content file's path and bytes: it changes whenever the content does."""
    digest = hashlib.sha256()
    for path in sorted(Path(root).rglob("*")):
        if path.is_file() and path.suffix in (".yaml", ".yml"):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


def plain_text(rendered_html: str) -> str:
    """Text of rendered HTML, for search: tags dropped, entities decoded, spaces collapsed."""
    text = re.sub(r"<[^>]+>", " ", rendered_html)
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


def load_library(root, calculator_ids) -> Library:
    """Load and validate every game under ``root``; raise ContentError listing every problem.

    ``calculator_ids`` are the calculators an entry's ``calculator`` key may name.
    """
    from .vocabulary import load_vocabulary

    root = Path(root)
    checker = _Checker(root, tuple(calculator_ids))
    files = checker.check()
    if checker.problems:
        raise ContentError(checker.problems)
    library = _Builder().build(files, content_fingerprint(root))
    library.vocabulary = load_vocabulary(root, library, calculator_ids)
    return library


# --------------------------------------------------------------------------- validation


@dataclass
class SourceFile:
    """One YAML file that parsed to a mapping."""

    path: Path
    data: dict


@dataclass
class GameFiles:
    """A game's files, each checked: game.yaml, its sections in order, its data files by name, and
    what its sources.yaml maps to each entry id ({kind: [where, ...]})."""

    game: SourceFile
    sections: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    sources: dict = field(default_factory=dict)


class _Checker:
    """Reads the content folder and collects every problem; builds nothing."""

    def __init__(self, root: Path, calculator_ids: tuple):
        self.root = root
        self.calculator_ids = calculator_ids
        self.problems = []
        self.ids = {}  # game id -> {entry or term id: the section it is in}
        self.section_ids = {}  # game id -> its section ids
        self.refs = []  # (file, path, game id, reference) checked once every id is known
        self.mapped_sources = {}  # game id -> {entry id: {kind: [where, ...]}} from sources.yaml

    def problem(self, file, path, message):
        rel = file.relative_to(self.root.parent) if file.is_absolute() else file
        self.problems.append(f"{rel}: {path}: {message}" if path else f"{rel}: {message}")

    def read_yaml(self, path: Path):
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"line {mark.line + 1}" if mark else ""
            self.problem(path, where, f"not valid YAML ({getattr(exc, 'problem', exc)})")
            return None
        except OSError as exc:
            self.problem(path, "", f"cannot be read ({exc.strerror})")
            return None
        if not isinstance(data, dict):
            self.problem(path, "", "must be a mapping of keys to values")
            return None
        return data

    def check_keys(self, file, path, data, spec):
        ok = True
        for key in data:
            if key not in spec:
                allowed = ", ".join(spec)
                self.problem(file, f"{path}.{key}" if path else key, f"unknown key (allowed: {allowed})")
                ok = False
        for key, required in spec.items():
            if required and (key not in data or data[key] in (None, "", [])):
                self.problem(file, path or "(top)", f"missing required key '{key}'")
                ok = False
        return ok

    def text(self, file, path, value, *, required=False) -> str:
        """The value as text (numbers are text too), or "" after a problem."""
        if value is None:
            if required:
                self.problem(file, path, "must be text")
            return ""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        if not isinstance(value, str):
            self.problem(file, path, "must be text")
            return ""
        return value

    def string_list(self, file, path, value) -> list:
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(item, (str, int)) for item in value):
            self.problem(file, path, "must be a list of text items")
            return []
        return [str(item) for item in value]

    def markdown(self, game_id, file, path, value, *, required=False):
        """Check Markdown text and queue its ref: links."""
        source = self.text(file, path, value, required=required)
        for ref in REF_LINK.findall(source):
            self.refs.append((file, path, game_id, ref))

    def register(self, game_id, file, path, entry_id, section_id):
        ids = self.ids[game_id]
        if not ID_PATTERN.match(entry_id):
            self.problem(file, f"{path}.id", f"'{entry_id}' is not a valid id (lowercase letters, digits, '-')")
            return False
        if entry_id in ids:
            self.problem(file, f"{path}.id", f"duplicate id '{entry_id}' (also in section '{ids[entry_id]}')")
            return False
        ids[entry_id] = section_id
        return True

    # --- the whole folder

    def check(self) -> dict:
        """Every game's files that could be read, checked; problems are collected on the way."""
        if not self.root.is_dir():
            self.problems.append(f"{self.root}: content folder not found")
            return {}
        for name in sorted(p.name for p in self.root.iterdir() if p.is_dir()):
            if name not in GAME_IDS:
                self.problem(self.root / name, "", f"unknown game folder (allowed: {', '.join(GAME_IDS)})")
        games = {}
        for game_id in GAME_IDS:
            folder = self.root / game_id
            if not folder.is_dir():
                self.problem(folder, "", "game folder missing")
                continue
            files = self.check_game(game_id, folder)
            if files is not None:
                games[game_id] = files
        self.check_refs()
        return games

    def check_game(self, game_id, folder):
        file = folder / "game.yaml"
        data = self.read_yaml(file)
        if data is None or not self.check_keys(file, "", data, GAME_KEYS):
            return None
        self.ids[game_id], self.section_ids[game_id] = {}, set()
        if data["id"] != game_id:
            self.problem(file, "id", f"must be '{game_id}', the folder name")
        for key in ("title", "publisher"):
            self.text(file, key, data[key], required=True)
        if len(self.text(file, "short_title", data["short_title"], required=True)) > 30:
            self.problem(file, "short_title", "at most 30 characters")
        self.markdown(game_id, file, "source", data["source"])
        self.markdown(game_id, file, "summary", data["summary"])
        files = GameFiles(game=SourceFile(file, data))
        kinds = {}
        section_ids = self.string_list(file, "sections", data["sections"])
        source_ids = self.check_sources(game_id, folder / SOURCES_FILE)
        for i, section_id in enumerate(section_ids):
            where = f"sections[{i}]"
            if section_id in self.section_ids[game_id]:
                self.problem(file, where, f"duplicate section id '{section_id}'")
                continue
            if not ID_PATTERN.match(section_id):
                self.problem(file, where, f"'{section_id}' is not a valid id (lowercase letters, digits, '-')")
                continue
            if section_id in RESERVED_SECTION_IDS:
                self.problem(file, where, f"'{section_id}' is reserved for a page of its own")
                continue
            section_file = folder / f"{section_id}.yaml"
            if not section_file.is_file():
                self.problem(file, where, f"no file {section_file.name} for section '{section_id}'")
                continue
            self.section_ids[game_id].add(section_id)
            checked = self.check_section(game_id, section_id, section_file)
            if checked is not None:
                files.sections[section_id] = checked
                kinds[section_id] = checked.data["kind"]
        for source_file, where, ref in source_ids:
            if ref not in self.ids[game_id] and ref not in self.section_ids[game_id]:
                self.problem(source_file, where, f"no entry, term or section '{ref}'")
        listed = set(section_ids) | {"game", Path(SOURCES_FILE).stem}
        for extra in sorted(folder.glob("*.y*ml")):
            if extra.stem not in listed:
                self.problem(extra, "", "not listed in game.yaml sections")
        self.check_checklists(file, data["turn"], files.sections, kinds)
        for i, ref in enumerate(self.string_list(file, "print", data.get("print"))):
            if ref not in self.section_ids[game_id] and ref not in self.ids[game_id]:
                self.problem(file, f"print[{i}]", f"no section or entry '{ref}'")
        self.text(file, "turn_name", data.get("turn_name"))
        files.data = self.check_data(game_id, folder / "data")
        files.sources = self.mapped_sources[game_id]
        return files

    def check_checklists(self, file, raw, sections, kinds):
        """The game's `turn`: a list of {section, name, seats, seat_label, note}, one per checklist."""
        if not isinstance(raw, list):
            self.problem(file, "turn", "must be a list of checklists, each {section, name}")
            return
        seen = set()
        for i, item in enumerate(raw):
            where = f"turn[{i}]"
            if not isinstance(item, dict):
                self.problem(file, where, "must be a mapping with section and name")
                continue
            if not self.check_keys(file, where, item, CHECKLIST_KEYS):
                continue
            section_id = self.text(file, f"{where}.section", item["section"], required=True)
            self.text(file, f"{where}.name", item["name"], required=True)
            self.text(file, f"{where}.note", item.get("note"))
            if bool(self.string_list(file, f"{where}.seats", item.get("seats"))) != bool(
                    self.text(file, f"{where}.seat_label", item.get("seat_label"))):
                self.problem(file, where, "seats and seat_label go together: give both or neither")
            if section_id not in kinds:
                self.problem(file, f"{where}.section", f"no section '{section_id}'")
            elif section_id in seen:
                self.problem(file, f"{where}.section", f"section '{section_id}' is already a checklist")
            elif kinds[section_id] != "sequence":
                self.problem(file, f"{where}.section", f"section '{section_id}' must be of kind sequence")
            elif not _has_a_step_that_always_happens(sections[section_id].data.get("entries")):
                self.problem(file, f"{where}.section", f"section '{section_id}' needs a step that is neither optional, conditional nor not-first")
            seen.add(section_id)

    def check_section(self, game_id, section_id, file):
        data = self.read_yaml(file)
        if data is None or not self.check_keys(file, "", data, SECTION_KEYS):
            return None
        if data["id"] != section_id:
            self.problem(file, "id", f"must be '{section_id}', the file name")
        kind = data["kind"]
        if kind not in SECTION_KINDS:
            self.problem(file, "kind", f"'{kind}' is not one of {', '.join(SECTION_KINDS)}")
            return None
        self.text(file, "title", data["title"], required=True)
        self.text(file, "summary", data.get("summary"))
        self.markdown(game_id, file, "body", data.get("body"))
        if kind == "glossary":
            if "entries" in data:
                self.problem(file, "entries", "a glossary has terms, not entries")
            terms = data.get("terms")
            if not isinstance(terms, list) or not terms:
                self.problem(file, "terms", "a glossary needs a list of terms")
            else:
                for i, raw in enumerate(terms):
                    self.check_term(game_id, section_id, file, f"terms[{i}]", raw)
        else:
            if "terms" in data:
                self.problem(file, "terms", f"only a glossary has terms; this section is a {kind}")
            entries = data.get("entries")
            if not isinstance(entries, list) or not entries:
                self.problem(file, "entries", "needs a list of entries")
            else:
                for i, raw in enumerate(entries):
                    self.check_entry(game_id, section_id, file, f"entries[{i}]", raw)
        return SourceFile(file, data)

    def check_entry(self, game_id, section_id, file, path, raw):
        if not isinstance(raw, dict):
            self.problem(file, path, "must be a mapping with at least id and title")
            return
        if not self.check_keys(file, path, raw, ENTRY_KEYS):
            return
        self.text(file, f"{path}.title", raw["title"], required=True)
        self.markdown(game_id, file, f"{path}.body", raw.get("body"))
        if len(self.text(file, f"{path}.short", raw.get("short"))) > 40:
            self.problem(file, f"{path}.short", "at most 40 characters")
        flags = self.string_list(file, f"{path}.flags", raw.get("flags"))
        for flag in flags:
            if flag not in FLAGS:
                self.problem(file, f"{path}.flags", f"unknown flag '{flag}' (allowed: {', '.join(FLAGS)})")
        if self.text(file, f"{path}.when", raw.get("when")) and not set(flags) & set(WHEN_FLAGS):
            self.problem(file, f"{path}.when", f"only a step flagged {' or '.join(WHEN_FLAGS)} has a 'when'")
        calculator = self.text(file, f"{path}.calculator", raw.get("calculator"))
        if calculator and calculator not in self.calculator_ids:
            self.problem(file, f"{path}.calculator",
                         f"unknown calculator '{calculator}' (allowed: {', '.join(self.calculator_ids)})")
        if raw.get("table") is not None:
            self.check_table(file, f"{path}.table", raw["table"])
        self.string_list(file, f"{path}.aliases", raw.get("aliases"))
        for ref in self.string_list(file, f"{path}.see", raw.get("see")):
            self.refs.append((file, f"{path}.see", game_id, ref))
        self.check_entry_source(game_id, file, path, str(raw["id"]), raw.get("source"))
        if not self.register(game_id, file, path, str(raw["id"]), section_id):
            return
        children = raw.get("entries")
        if children is None:
            return
        if not isinstance(children, list):
            self.problem(file, f"{path}.entries", "must be a list of entries")
            return
        for i, child in enumerate(children):
            self.check_entry(game_id, section_id, file, f"{path}.entries[{i}]", child)

    def check_term(self, game_id, section_id, file, path, raw):
        if not isinstance(raw, dict):
            self.problem(file, path, "must be a mapping with id, term and body")
            return
        if not self.check_keys(file, path, raw, TERM_KEYS):
            return
        self.text(file, f"{path}.term", raw["term"], required=True)
        self.markdown(game_id, file, f"{path}.body", raw["body"], required=True)
        self.string_list(file, f"{path}.aliases", raw.get("aliases"))
        for ref in self.string_list(file, f"{path}.see", raw.get("see")):
            self.refs.append((file, f"{path}.see", game_id, ref))
        self.check_entry_source(game_id, file, path, str(raw["id"]), raw.get("source"))
        self.register(game_id, file, path, str(raw["id"]), section_id)

    def check_table(self, file, path, raw):
        if not isinstance(raw, dict):
            self.problem(file, path, "must be a mapping with columns and rows")
            return
        if not self.check_keys(file, path, raw, TABLE_KEYS):
            return
        self.text(file, f"{path}.caption", raw.get("caption"))
        columns = self.string_list(file, f"{path}.columns", raw["columns"])
        if not isinstance(raw["rows"], list):
            self.problem(file, f"{path}.rows", "must be a list of rows")
            return
        for i, row in enumerate(raw["rows"]):
            cells = self.string_list(file, f"{path}.rows[{i}]", row)
            if len(cells) != len(columns):
                self.problem(file, f"{path}.rows[{i}]", f"has {len(cells)} cells; the table has {len(columns)} columns")

    # --- sources

    def check_sources(self, game_id, file):
        """Check sources.yaml and note what it maps to each entry; (file, path, id) for every id it names."""
        self.mapped_sources[game_id] = {}
        data = self.read_yaml(file)
        if data is None or not self.check_keys(file, "", data, SOURCES_KEYS):
            return []
        self.text(file, "summary_file", data["summary_file"], required=True)
        found = []
        for i, section in enumerate(self.list_of(file, "sections", data["sections"])):
            path = f"sections[{i}]"
            if not isinstance(section, dict):
                self.problem(file, path, "must be a mapping with section and rules")
            elif self.check_keys(file, path, section, SOURCE_SECTION_KEYS):
                where = self.text(file, f"{path}.section", section["section"], required=True)
                found += self.check_source_rules(game_id, file, f"{path}.rules", section["rules"], "summary", where)
        found += self.check_source_rules(game_id, file, "rulebook", data.get("rulebook") or [], "rulebook", "")
        return found

    def check_source_rules(self, game_id, file, path, rules, kind, where):
        found = []
        for i, rule in enumerate(self.list_of(file, path, rules)):
            rule_path = f"{path}[{i}]"
            if not isinstance(rule, dict):
                self.problem(file, rule_path, "must be a mapping with rule and ids")
                continue
            if not self.check_keys(file, rule_path, rule, SOURCE_RULE_KEYS):
                continue
            self.text(file, f"{rule_path}.rule", rule["rule"], required=True)
            for j, ref in enumerate(self.string_list(file, f"{rule_path}.ids", rule["ids"])):
                found.append((file, f"{rule_path}.ids[{j}]", ref))
                places = self.mapped_sources[game_id].setdefault(ref, {}).setdefault(kind, [])
                if where and where not in places:
                    places.append(where)
        return found

    def list_of(self, file, path, value):
        if not isinstance(value, list):
            self.problem(file, path, "must be a list")
            return []
        return value

    def check_entry_source(self, game_id, file, path, entry_id, derived):
        """An entry has its source in sources.yaml, or says in its own ``source`` how it is derived: one of the two."""
        mapped = self.mapped_sources[game_id].get(entry_id)
        derived = self.text(file, f"{path}.source", derived).strip()
        if derived and mapped:
            self.problem(file, f"{path}.source", f"'{entry_id}' already has its source in {SOURCES_FILE}; keep only one")
        elif not derived and not mapped:
            self.problem(file, path, f"'{entry_id}' has no source: map a rule to it in {SOURCES_FILE}, "
                                     "or say how it is derived in a 'source' key")

    def check_refs(self):
        for file, path, game_id, ref in self.refs:
            target_game, _, target_id = ref.rpartition(":")
            target_game = target_game or game_id
            if target_id not in self.ids.get(target_game, {}) and target_id not in self.section_ids.get(target_game, ()):
                self.problem(file, path, f"broken reference '{ref}' (no such entry, term or section)")

    # --- data files

    def check_data(self, game_id, folder) -> dict:
        """The game's data/*.yaml files that pass their checks, by name."""
        known = {name: kind for (game, name), kind in DATA_FILES.items() if game == game_id}
        found = {}
        present = sorted(folder.glob("*.y*ml")) if folder.is_dir() else []
        for path in present:
            kind = known.get(path.stem)
            if kind is None:
                names = ", ".join(f"{name}.yaml" for name in known) or "none"
                self.problem(path, "", f"unknown data file (known for {game_id}: {names})")
                continue
            data = self.read_yaml(path)
            if data is not None and kind.check(self, path, data):
                found[path.stem] = SourceFile(path, data)
        for name in known:
            if name not in {path.stem for path in present}:
                self.problem(folder / f"{name}.yaml", "", "data file missing")
        return found

    def check_fotf_dice(self, file, data) -> bool:
        """Each die's face counts: exactly its results, whole numbers, adding up to its sides."""
        before = len(self.problems)
        if not self.check_keys(file, "", data, FOTF_DICE_KEYS):
            return False
        if not isinstance(data.get("verified", False), bool):
            self.problem(file, "verified", "must be true or false")
        self.text(file, "note", data.get("note"))
        for die, faces in FOTF_DIE_FACES.items():
            counts = data[die]
            if not isinstance(counts, dict):
                self.problem(file, die, f"must be a mapping of the faces {', '.join(faces)} to counts")
                continue
            die_before = len(self.problems)
            for face in counts:
                if face not in faces:
                    self.problem(file, f"{die}.{face}", f"unknown face (allowed: {', '.join(faces)})")
            for face in faces:
                count = counts.get(face)
                if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= FOTF_DIE_SIDES:
                    self.problem(file, f"{die}.{face}", f"must be a whole number of faces from 0 to {FOTF_DIE_SIDES}")
            if len(self.problems) == die_before and sum(counts.values()) != FOTF_DIE_SIDES:
                self.problem(file, die, f"the faces total {sum(counts.values())}; a die has {FOTF_DIE_SIDES} faces")
        return len(self.problems) == before


@dataclass(frozen=True)
class DataFile:
    """A kind of data file: the check it must pass, and the values built from it once it has."""

    check: object  # (checker, file, data) -> bool, reporting each problem
    build: object  # (data) -> the values calculators read


# --------------------------------------------------------------------------- building




class _Builder:
    """Turns checked files into the Library; it finds no problems, the checker has found them all."""

    def __init__(self):
        self.md = markdown.Markdown(extensions=["tables", "sane_lists"], output_format="html")
        self.see = []  # (entry, its game id, the references it names) resolved once every game is built
        self.sources = {}  # the game being built: what its sources.yaml maps to each entry id

    def render(self, source) -> str:
        if not source:
            return ""
        self.md.reset()
        return self.md.convert(source)

    def build(self, files: dict, fingerprint: str) -> Library:
        games = {game_id: self.game(game_id, game_files) for game_id, game_files in files.items()}
        for entry, game_id, refs in self.see:
            entry.see = [_find(games, game_id, ref) for ref in refs]
        for game in games.values():
            game.source_html = _link(games, game.id, game.source_html)
            game.summary_html = _link(games, game.id, game.summary_html)
            for section in game.sections.values():
                section.html = _link(games, game.id, section.html)
                for entry in section.walk():
                    entry.html = _link(games, game.id, entry.html)
        data = {game_id: {name: DATA_FILES[game_id, name].build(source.data) for name, source in game_files.data.items()}
                for game_id, game_files in files.items()}
        return Library(games=games, fingerprint=fingerprint, synonyms=_synonyms(games), data=data)

    def game(self, game_id, files: GameFiles) -> Game:
        data = files.game.data
        self.sources = files.sources
        entries = {}
        sections = {section_id: self.section(game_id, section_id, source.data, entries)
                    for section_id, source in files.sections.items()}
        summary_html = self.render(_text(data["summary"]))
        checklists = [Checklist(section=sections[_text(item["section"])], name=_text(item["name"]),
                                seats=_strings(item.get("seats")), seat_label=_text(item.get("seat_label")),
                                note=_text(item.get("note")))
                      for item in data["turn"]]
        return Game(
            id=game_id,
            title=_text(data["title"]),
            short_title=_text(data["short_title"]),
            publisher=_text(data["publisher"]),
            source_html=self.render(_text(data["source"])),
            summary_html=summary_html,
            summary_text=plain_text(summary_html),
            sections=sections,
            turn=[checklist.section for checklist in checklists],
            checklists=checklists,
            turn_name=_text(data.get("turn_name")) or checklists[0].name,
            print_ids=_strings(data.get("print")),
            entries=entries,
        )

    def section(self, game_id, section_id, data, entries) -> Section:
        section = Section(
            id=section_id,
            title=_text(data["title"]),
            kind=data["kind"],
            game=game_id,
            summary=_text(data.get("summary")),
            body=_text(data.get("body")),
        )
        section.html = self.render(section.body)
        section.text = plain_text(section.html)
        if section.kind == "glossary":
            section.entries = [self.term(game_id, section, raw, entries) for raw in data["terms"]]
        else:
            section.entries = [self.entry(game_id, section, raw, entries, None, 0) for raw in data["entries"]]
        return section

    def entry(self, game_id, section, raw, entries, parent, depth) -> Entry:
        if section.kind == "sequence":
            kind = ("phase", "step")[depth] if depth < 2 else "substep"
        else:
            kind = "rule"
        table = raw.get("table")
        entry = Entry(
            id=str(raw["id"]),
            title=_text(raw["title"]),
            kind=kind,
            game=game_id,
            section=section.id,
            short=_text(raw.get("short")),
            body=_text(raw.get("body")),
            flags=tuple(_strings(raw.get("flags"))),
            when=_text(raw.get("when")),
            calculator=_text(raw.get("calculator")),
            table=None if table is None else Table(caption=_text(table.get("caption")),
                                                   columns=_strings(table["columns"]),
                                                   rows=[_strings(row) for row in table["rows"]]),
            aliases=tuple(_strings(raw.get("aliases"))),
            parent=parent,
            depth=depth,
        )
        entry.html = self.render(entry.body)
        entry.text = plain_text(entry.html)
        entry.sources = self.entry_sources(entry.id, raw.get("source"))
        if entry.table is not None:
            cells = [entry.table.caption, *entry.table.columns, *(cell for row in entry.table.rows for cell in row)]
            entry.text = f"{entry.text} {' '.join(cells)}".strip()
        self.see.append((entry, game_id, _strings(raw.get("see"))))
        entries[entry.id] = entry
        entry.entries = [self.entry(game_id, section, child, entries, entry, depth + 1)
                         for child in raw.get("entries") or ()]
        return entry

    def term(self, game_id, section, raw, entries) -> Entry:
        term = Entry(
            id=str(raw["id"]),
            title=_text(raw["term"]),
            kind="term",
            game=game_id,
            section=section.id,
            body=_text(raw["body"]),
            aliases=tuple(_strings(raw.get("aliases"))),
        )
        term.html = self.render(term.body)
        term.text = plain_text(term.html)
        term.sources = self.entry_sources(term.id, raw.get("source"))
        self.see.append((term, game_id, _strings(raw.get("see"))))
        entries[term.id] = term
        return term


    def entry_sources(self, entry_id, derived) -> tuple:
        """What sources.yaml maps to the entry, summary first, or its own line on how it is derived."""
        mapped = self.sources.get(entry_id)
        if not mapped:
            return (Source("derived", (_text(derived).strip(),)),)
        return tuple(Source(kind, tuple(mapped[kind])) for kind in SOURCE_KINDS if kind in mapped)


def _has_a_step_that_always_happens(phases) -> bool:
    """In a sequence section's raw entries: a step (a phase's child, or a phase with none) with no
    flag of IF_IT_HAPPENS nor NOT_FIRST, in a phase without one either: a step of the first pass too."""
    def happens(raw):
        flags = raw.get("flags") if isinstance(raw, dict) else None
        return isinstance(raw, dict) and not set(flags if isinstance(flags, list) else ()) & {*IF_IT_HAPPENS, NOT_FIRST}

    return any(happens(phase) and any(happens(step) for step in (phase.get("entries") or [phase]))
               for phase in phases or () if isinstance(phase, dict))


def _text(value) -> str:
    return "" if value is None else str(value)


def _strings(value) -> list:
    return [str(item) for item in value or ()]


def _find(games, game_id, ref) -> Ref | None:
    target_game, _, target_id = ref.rpartition(":")
    target_game = target_game or game_id
    game = games.get(target_game)
    found = game.lookup(target_id) if game else None
    if found is None:
        return None
    return Ref(game=target_game, id=target_id, title=found.title, url=found.url)


def _link(games, game_id, rendered) -> str:
    """Rendered HTML with its ref: links pointing at the rules they name."""
    def replace(match):
        ref = _find(games, game_id, match.group(1))
        return f'href="{ref.url}"' if ref else match.group(0)

    return REF_HREF.sub(replace, rendered)


def _synonyms(games) -> list:
    groups = []
    for game in games.values():
        for section in game.sections.values():
            for entry in section.walk():
                if entry.kind == "term" and entry.aliases:
                    groups.append([entry.title, *entry.aliases])
    return groups


def _fotf_dice(data) -> dict:
    """The checked dice file's values, with what it may leave out filled in."""
    return {"verified": data.get("verified", False), "note": _text(data.get("note")),
            **{die: {face: data[die][face] for face in faces} for die, faces in FOTF_DIE_FACES.items()}}


# What each data file holds: (game, file name) -> its kind.
DATA_FILES = {("fotf", "dice"): DataFile(check=_Checker.check_fotf_dice, build=_fotf_dice)}
