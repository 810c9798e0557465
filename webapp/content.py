"""Rule content: load the YAML under content/, validate it, render its Markdown once.

The loaded :class:`Library` is the single source for rule pages, search, turn checklists, print
sheets and calculator explanations. Loading never half-succeeds: every problem found is collected
and raised together in one :class:`ContentError`, each naming the file and the path inside it.
"""
from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

import markdown
import yaml

from .calculators.registry import CALCULATORS

GAME_IDS = ("wotr", "wotr-cards", "meccg", "meq", "fotf")
CALCULATOR_IDS = tuple(CALCULATORS)
SECTION_KINDS = ("sequence", "rules", "glossary")
FLAGS = ("optional", "conditional", "repeated", "once", "simultaneous")
# Section ids that would shadow the game's own pages.
RESERVED_SECTION_IDS = ("turn", "print", "calc", "api", "static", "search")

ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
REF_LINK = re.compile(r"\]\(ref:([a-z0-9-]+(?::[a-z0-9-]+)?)\)")

GAME_KEYS = {
    "id": True, "title": True, "short_title": True, "publisher": True, "source": True,
    "summary": True, "sections": True, "turn": True, "turn_order": False, "print": False,
}
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
    turn: list  # Section objects
    turn_order: list
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

    def entries(self):
        for game in self.games.values():
            for section in game.sections.values():
                yield section, None
                for entry in section.walk():
                    yield section, entry

    def entries_for_calculator(self, calculator_id):
        """Every rule that a calculator computes: (game, entry)."""
        return [
            (self.games[entry.game], entry)
            for _, entry in self.entries()
            if entry is not None and entry.calculator == calculator_id
        ]


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


class _Loader:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.problems = []
        self.pending_refs = []  # (game, file, path, ref) to resolve after everything loads
        self.mapped_sources = {}  # (game, entry id) -> {kind: [where, ...]} from sources.yaml
        self.md = markdown.Markdown(extensions=["tables", "sane_lists"], output_format="html")

    def problem(self, file, path, message):
        rel = file.relative_to(self.root.parent) if file.is_absolute() else file
        self.problems.append(f"{rel}: {path}: {message}" if path else f"{rel}: {message}")

    def read_yaml(self, path: Path):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
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

    def text(self, file, path, value, *, required=False):
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

    def string_list(self, file, path, value):
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
            self.problem(file, path, "must be a list of text items")
            return []
        return [str(v) for v in value]

    def render(self, game_id, file, path, source):
        """Markdown to HTML, with ref: links checked later and rewritten to deep links."""
        if not source:
            return ""
        for ref in REF_LINK.findall(source):
            self.pending_refs.append((game_id, file, path, ref, None))
        self.md.reset()
        return self.md.convert(source)

    def load(self) -> Library:
        if not self.root.is_dir():
            raise ContentError([f"{self.root}: content folder not found"])
        games = {}
        found = sorted(p.name for p in self.root.iterdir() if p.is_dir())
        for name in found:
            if name not in GAME_IDS:
                self.problem(self.root / name, "", f"unknown game folder (allowed: {', '.join(GAME_IDS)})")
        for game_id in GAME_IDS:
            folder = self.root / game_id
            if not folder.is_dir():
                self.problem(folder, "", "game folder missing")
                continue
            game = self.load_game(game_id, folder)
            if game is not None:
                games[game_id] = game
        self.resolve_refs(games)
        if self.problems:
            raise ContentError(self.problems)
        return Library(games=games, fingerprint=content_fingerprint(self.root), synonyms=self.synonyms(games))

    def load_game(self, game_id, folder):
        file = folder / "game.yaml"
        data = self.read_yaml(file)
        if data is None:
            return None
        if not self.check_keys(file, "", data, GAME_KEYS):
            return None
        if data["id"] != game_id:
            self.problem(file, "id", f"must be '{game_id}', the folder name")
        short_title = self.text(file, "short_title", data["short_title"], required=True)
        if len(short_title) > 30:
            self.problem(file, "short_title", "at most 30 characters")
        section_ids = self.string_list(file, "sections", data["sections"])
        source_ids = self.load_sources(game_id, folder / SOURCES_FILE)
        sections = {}
        entries = {}
        for i, section_id in enumerate(section_ids):
            where = f"sections[{i}]"
            if section_id in sections:
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
            section = self.load_section(game_id, section_id, section_file, entries)
            if section is not None:
                sections[section_id] = section
        for source_file, where, ref in source_ids:
            if ref not in entries and ref not in sections:
                self.problem(source_file, where, f"no entry, term or section '{ref}'")
        listed = set(section_ids) | {"game", Path(SOURCES_FILE).stem}
        for extra in sorted(folder.glob("*.y*ml")):
            if extra.stem not in listed:
                self.problem(extra, "", "not listed in game.yaml sections")
        turn = []
        for i, section_id in enumerate(self.string_list(file, "turn", data["turn"])):
            section = sections.get(section_id)
            if section is None:
                self.problem(file, f"turn[{i}]", f"no section '{section_id}'")
            elif section.kind != "sequence":
                self.problem(file, f"turn[{i}]", f"section '{section_id}' must be of kind sequence")
            else:
                turn.append(section)
        print_ids = self.string_list(file, "print", data.get("print"))
        for i, ref in enumerate(print_ids):
            if ref not in sections and ref not in entries:
                self.problem(file, f"print[{i}]", f"no section or entry '{ref}'")
        for section in sections.values():
            for entry in section.walk():
                for ref in getattr(entry, "_see_raw", ()):
                    self.pending_refs.append((game_id, entry._file, entry._path + ".see", ref, entry))
        return Game(
            id=game_id,
            title=self.text(file, "title", data["title"], required=True),
            short_title=short_title,
            publisher=self.text(file, "publisher", data["publisher"], required=True),
            source_html=self.render(game_id, file, "source", self.text(file, "source", data["source"])),
            summary_html=self.render(game_id, file, "summary", self.text(file, "summary", data["summary"])),
            summary_text=plain_text(self.render(game_id, file, "summary", self.text(file, "summary", data["summary"]))),
            sections=sections,
            turn=turn,
            turn_order=self.string_list(file, "turn_order", data.get("turn_order")),
            print_ids=print_ids,
            entries=entries,
        )

    def load_section(self, game_id, section_id, file, entries):
        data = self.read_yaml(file)
        if data is None:
            return None
        if not self.check_keys(file, "", data, SECTION_KEYS):
            return None
        if data["id"] != section_id:
            self.problem(file, "id", f"must be '{section_id}', the file name")
        kind = data["kind"]
        if kind not in SECTION_KINDS:
            self.problem(file, "kind", f"'{kind}' is not one of {', '.join(SECTION_KINDS)}")
            return None
        body = self.text(file, "body", data.get("body"))
        section = Section(
            id=section_id,
            title=self.text(file, "title", data["title"], required=True),
            kind=kind,
            game=game_id,
            summary=self.text(file, "summary", data.get("summary")),
            body=body,
            html=self.render(game_id, file, "body", body),
        )
        section.text = plain_text(section.html)
        if kind == "glossary":
            if "entries" in data:
                self.problem(file, "entries", "a glossary has terms, not entries")
            terms = data.get("terms")
            if not isinstance(terms, list) or not terms:
                self.problem(file, "terms", "a glossary needs a list of terms")
                return section
            for i, raw in enumerate(terms):
                term = self.load_term(game_id, section_id, file, f"terms[{i}]", raw, entries)
                if term is not None:
                    section.entries.append(term)
        else:
            if "terms" in data:
                self.problem(file, "terms", f"only a glossary has terms; this section is a {kind}")
            raw_entries = data.get("entries")
            if not isinstance(raw_entries, list) or not raw_entries:
                self.problem(file, "entries", "needs a list of entries")
                return section
            for i, raw in enumerate(raw_entries):
                entry = self.load_entry(game_id, section, file, f"entries[{i}]", raw, entries, None, 0)
                if entry is not None:
                    section.entries.append(entry)
        return section

    def register(self, file, path, entry, entries):
        if not ID_PATTERN.match(entry.id):
            self.problem(file, f"{path}.id", f"'{entry.id}' is not a valid id (lowercase letters, digits, '-')")
            return False
        if entry.id in entries:
            other = entries[entry.id]
            self.problem(file, f"{path}.id", f"duplicate id '{entry.id}' (also in section '{other.section}')")
            return False
        entries[entry.id] = entry
        return True

    def load_entry(self, game_id, section, file, path, raw, entries, parent, depth):
        if not isinstance(raw, dict):
            self.problem(file, path, "must be a mapping with at least id and title")
            return None
        if not self.check_keys(file, path, raw, ENTRY_KEYS):
            return None
        if section.kind == "sequence":
            kind = ("phase", "step")[depth] if depth < 2 else "substep"
        else:
            kind = "rule"
        body = self.text(file, f"{path}.body", raw.get("body"))
        short = self.text(file, f"{path}.short", raw.get("short"))
        if len(short) > 40:
            self.problem(file, f"{path}.short", "at most 40 characters")
        flags = tuple(self.string_list(file, f"{path}.flags", raw.get("flags")))
        for flag in flags:
            if flag not in FLAGS:
                self.problem(file, f"{path}.flags", f"unknown flag '{flag}' (allowed: {', '.join(FLAGS)})")
        when = self.text(file, f"{path}.when", raw.get("when"))
        if when and "conditional" not in flags:
            self.problem(file, f"{path}.when", "only a conditional step has a 'when'")
        calculator = self.text(file, f"{path}.calculator", raw.get("calculator"))
        if calculator and calculator not in CALCULATOR_IDS:
            self.problem(file, f"{path}.calculator", f"unknown calculator '{calculator}' (allowed: {', '.join(CALCULATOR_IDS)})")
            calculator = ""
        entry = Entry(
            id=str(raw["id"]),
            title=self.text(file, f"{path}.title", raw["title"], required=True),
            kind=kind,
            game=game_id,
            section=section.id,
            short=short,
            body=body,
            html=self.render(game_id, file, f"{path}.body", body),
            flags=flags,
            when=when,
            calculator=calculator,
            table=self.load_table(file, f"{path}.table", raw.get("table")),
            aliases=tuple(self.string_list(file, f"{path}.aliases", raw.get("aliases"))),
            parent=parent,
            depth=depth,
        )
        entry.text = plain_text(entry.html)
        entry.sources = self.entry_sources(game_id, file, path, entry.id, raw.get("source"))
        if entry.table is not None:
            cells = [entry.table.caption, *entry.table.columns, *(c for row in entry.table.rows for c in row)]
            entry.text = f"{entry.text} {' '.join(cells)}".strip()
        entry._file, entry._path = file, path
        entry._see_raw = self.string_list(file, f"{path}.see", raw.get("see"))
        if not self.register(file, path, entry, entries):
            return None
        children = raw.get("entries")
        if children is not None:
            if not isinstance(children, list):
                self.problem(file, f"{path}.entries", "must be a list of entries")
            else:
                for i, child in enumerate(children):
                    loaded = self.load_entry(game_id, section, file, f"{path}.entries[{i}]", child, entries, entry, depth + 1)
                    if loaded is not None:
                        entry.entries.append(loaded)
        return entry

    def load_term(self, game_id, section_id, file, path, raw, entries):
        if not isinstance(raw, dict):
            self.problem(file, path, "must be a mapping with id, term and body")
            return None
        if not self.check_keys(file, path, raw, TERM_KEYS):
            return None
        body = self.text(file, f"{path}.body", raw["body"], required=True)
        term = Entry(
            id=str(raw["id"]),
            title=self.text(file, f"{path}.term", raw["term"], required=True),
            kind="term",
            game=game_id,
            section=section_id,
            body=body,
            html=self.render(game_id, file, f"{path}.body", body),
            aliases=tuple(self.string_list(file, f"{path}.aliases", raw.get("aliases"))),
        )
        term.text = plain_text(term.html)
        term.sources = self.entry_sources(game_id, file, path, term.id, raw.get("source"))
        term._file, term._path = file, path
        term._see_raw = self.string_list(file, f"{path}.see", raw.get("see"))
        if not self.register(file, path, term, entries):
            return None
        return term

    def load_sources(self, game_id, file):
        """Read sources.yaml into ``mapped_sources``; return (file, path, id) for every id it names."""
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
                found += self.source_rules(game_id, file, f"{path}.rules", section["rules"], "summary", where)
        found += self.source_rules(game_id, file, "rulebook", data.get("rulebook") or [], "rulebook", "")
        return found

    def source_rules(self, game_id, file, path, rules, kind, where):
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
                places = self.mapped_sources.setdefault((game_id, ref), {}).setdefault(kind, [])
                if where and where not in places:
                    places.append(where)
        return found

    def list_of(self, file, path, value):
        if not isinstance(value, list):
            self.problem(file, path, "must be a list")
            return []
        return value

    def entry_sources(self, game_id, file, path, entry_id, derived):
        """The entry's sources: what sources.yaml maps to it, or its own ``source`` (how it is derived)."""
        mapped = self.mapped_sources.get((game_id, entry_id), {})
        derived = self.text(file, f"{path}.source", derived).strip()
        if derived and mapped:
            self.problem(file, f"{path}.source", f"'{entry_id}' already has its source in {SOURCES_FILE}; keep only one")
        elif not derived and not mapped:
            self.problem(file, path, f"'{entry_id}' has no source: map a rule to it in {SOURCES_FILE}, "
                                     "or say how it is derived in a 'source' key")
        if not mapped:
            return (Source("derived", (derived,)),) if derived else ()
        return tuple(Source(kind, tuple(mapped[kind])) for kind in ("summary", "rulebook") if kind in mapped)

    def load_table(self, file, path, raw):
        if raw is None:
            return None
        if not isinstance(raw, dict):
            self.problem(file, path, "must be a mapping with columns and rows")
            return None
        if not self.check_keys(file, path, raw, TABLE_KEYS):
            return None
        columns = self.string_list(file, f"{path}.columns", raw["columns"])
        rows = []
        if not isinstance(raw["rows"], list):
            self.problem(file, f"{path}.rows", "must be a list of rows")
            return None
        for i, row in enumerate(raw["rows"]):
            cells = self.string_list(file, f"{path}.rows[{i}]", row)
            if len(cells) != len(columns):
                self.problem(file, f"{path}.rows[{i}]", f"has {len(cells)} cells; the table has {len(columns)} columns")
            rows.append(cells)
        return Table(caption=self.text(file, f"{path}.caption", raw.get("caption")), columns=columns, rows=rows)

    def resolve_refs(self, games):
        for game_id, file, path, ref, entry in self.pending_refs:
            target = self.find(games, game_id, ref)
            if target is None:
                self.problem(file, path, f"broken reference '{ref}' (no such entry, term or section)")
            elif entry is not None:
                entry.see.append(target)
        # Rewrite ref: links now that every target is known.
        for game in games.values():
            game.source_html = self.link(games, game.id, game.source_html)
            game.summary_html = self.link(games, game.id, game.summary_html)
            for section in game.sections.values():
                section.html = self.link(games, game.id, section.html)
                for entry in section.walk():
                    entry.html = self.link(games, game.id, entry.html)

    def find(self, games, game_id, ref):
        target_game, _, target_id = ref.rpartition(":")
        target_game = target_game or game_id
        game = games.get(target_game)
        if game is None:
            return None
        found = game.lookup(target_id)
        if found is None:
            return None
        return Ref(game=target_game, id=target_id, title=found.title, url=found.url)

    def link(self, games, game_id, rendered):
        def replace(match):
            ref = self.find(games, game_id, match.group(1))
            return f'href="{ref.url}"' if ref else match.group(0)

        return re.sub(r'href="ref:([a-z0-9-]+(?::[a-z0-9-]+)?)"', replace, rendered)

    @staticmethod
    def synonyms(games):
        groups = []
        for game in games.values():
            for section in game.sections.values():
                for entry in section.walk():
                    if entry.kind == "term" and entry.aliases:
                        groups.append([entry.title, *entry.aliases])
        return groups


def load_library(root) -> Library:
    """Load and validate every game under ``root``; raise ContentError listing every problem."""
    return _Loader(Path(root)).load()
