"""Validation: read every content file and collect every problem, each naming the file and the
path inside it. Nothing is built here; content that passes goes on to the builder."""
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .data_files import DATA_FILES
from .parsed import SAFE_LOADER, parse_yaml
from .rendering import REF_LINK, raw_html
from .schema import (CHECKLIST_KEYS, ENTRY_KEYS, FLAGS, GAME_IDS, GAME_KEYS, ID_PATTERN, RESERVED_SECTION_IDS,
                     SECTION_KEYS, SECTION_KINDS, SOURCE_RULE_KEYS, SOURCE_SECTION_KEYS, SOURCES_FILE, SOURCES_KEYS,
                     TABLE_KEYS, TERM_KEYS, WHEN_FLAGS, ASKED_COUNT, ASKED_MAX_CHARS, ASKED_REQUIRED, counts)

__all__ = ["SAFE_LOADER", "Checker", "ContentError"]


def not_utf8(exc: UnicodeDecodeError) -> tuple[str, str]:
    """(where, message) for a file whose bytes are not UTF-8: the line of the first bad byte, and the byte."""
    line = exc.object[:exc.start].count(b"\n") + 1
    column = exc.start - (exc.object.rfind(b"\n", 0, exc.start) + 1) + 1
    return f"line {line}", f"not valid UTF-8 (byte 0x{exc.object[exc.start]:02x} at column {column}): save it as UTF-8"


class ContentError(Exception):
    """Content that breaks the format; ``problems`` lists ``file: path: message`` lines."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass
class YamlFile:
    """One YAML file that parsed to a mapping."""

    path: Path
    data: dict


@dataclass
class GameFiles:
    """A game's files, each checked: game.yaml, its sections in order, its data files by name, and
    what its sources.yaml maps to each entry id ({kind: [where, ...]})."""

    game: YamlFile
    sections: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    sources: dict = field(default_factory=dict)


class Checker:
    """Reads the content folder and collects every problem; builds nothing."""

    def __init__(self, root: Path, calculator_ids: tuple, parsed=None):
        self.root = root
        self.calculator_ids = calculator_ids
        self.parsed = parsed  # texts parsed ahead of time (see parsed.py), or None
        self.problems = []
        self.ids = {}  # game id -> {entry or term id: the section it is in}
        self.section_ids = {}  # game id -> its section ids
        self.refs = []  # (file, path, game id, reference) checked once every id is known
        self.mapped_sources = {}  # game id -> {entry id: {kind: [where, ...]}} from sources.yaml
        self.asked = {}  # a question as compared (case, spaces and end punctuation folded) -> where it is listed

    def problem(self, file, path, message):
        rel = file.relative_to(self.root.parent) if file.is_absolute() else file
        self.problems.append(f"{rel}: {path}: {message}" if path else f"{rel}: {message}")

    def read_yaml(self, path: Path):
        try:
            data = parse_yaml(path.read_text(encoding="utf-8"), self.parsed)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"line {mark.line + 1}" if mark else ""
            self.problem(path, where, f"not valid YAML ({getattr(exc, 'problem', exc)})")
            return None
        except UnicodeDecodeError as exc:
            self.problem(path, *not_utf8(exc))
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

    def markdown(self, game_id, file, path, value, *, required=False, entry_id=None):
        """Check Markdown text (no raw HTML) and queue its ref: links."""
        source = self.text(file, path, value, required=required)
        tags = raw_html(source)
        if tags:
            where = f" of '{entry_id}'" if entry_id is not None else ""
            self.problem(file, path, f"raw HTML {', '.join(dict.fromkeys(tags))} in the text{where}: "
                                     "write it in Markdown (rule text is Markdown only)")
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
        files = GameFiles(game=YamlFile(file, data))
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
            elif not has_a_step_that_always_happens(sections[section_id].data.get("entries")):
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
        self.check_asked(game_id, file, "", data, required=False)
        if SECTION_KINDS[kind].holds == "terms":
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
        return YamlFile(file, data)

    def check_entry(self, game_id, section_id, file, path, raw):
        if not isinstance(raw, dict):
            self.problem(file, path, "must be a mapping with at least id and title")
            return
        if not self.check_keys(file, path, raw, ENTRY_KEYS):
            return
        self.text(file, f"{path}.title", raw["title"], required=True)
        self.markdown(game_id, file, f"{path}.body", raw.get("body"), entry_id=raw["id"])
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
        self.check_asked(game_id, file, path, raw)
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
        self.markdown(game_id, file, f"{path}.body", raw["body"], required=True, entry_id=raw["id"])
        self.string_list(file, f"{path}.aliases", raw.get("aliases"))
        self.check_asked(game_id, file, path, raw)
        for ref in self.string_list(file, f"{path}.see", raw.get("see")):
            self.refs.append((file, f"{path}.see", game_id, ref))
        self.check_entry_source(game_id, file, path, str(raw["id"]), raw.get("source"))
        self.register(game_id, file, path, str(raw["id"]), section_id)

    def check_asked(self, game_id, file, path, raw, required=ASKED_REQUIRED):
        """``asked``: ASKED_COUNT questions in players' words, plain text, none listed under two entries
        (required of every entry; a section may list questions about the whole of it)."""
        where_asked = f"{path}.asked" if path else "asked"
        if "asked" not in raw:
            if required:
                self.problem(file, where_asked, f"'{raw['id']}' needs {ASKED_COUNT[0]} to {ASKED_COUNT[1]} "
                                                    "questions players ask that it answers")
            return
        questions = self.string_list(file, where_asked, raw["asked"])
        low, high = ASKED_COUNT
        if not low <= len(questions) <= high:
            self.problem(file, where_asked, f"has {len(questions)} questions; give {low} to {high}")
        for i, question in enumerate(questions):
            where = f"{where_asked}[{i}]"
            if not question.strip() or len(question) > ASKED_MAX_CHARS:
                self.problem(file, where, f"must be a question of 1 to {ASKED_MAX_CHARS} characters")
            tags = raw_html(question)
            if tags:
                self.problem(file, where, f"raw HTML {', '.join(dict.fromkeys(tags))}: a question is plain text")
            key = " ".join(question.lower().strip(" ?!.").split())
            first = self.asked.setdefault(key, (game_id, str(raw["id"])))
            if first != (game_id, str(raw["id"])):
                self.problem(file, where, f"'{question}' is already asked of {first[0]}:{first[1]}; "
                                          "a question belongs to the one entry that answers it")

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
                found[path.stem] = YamlFile(path, data)
        for name in known:
            if name not in {path.stem for path in present}:
                self.problem(folder / f"{name}.yaml", "", "data file missing")
        return found


def has_a_step_that_always_happens(phases) -> bool:
    """In a sequence section's raw entries: a step (a phase's child, or a phase with none) that
    counts on every pass, in a phase that does too: a step of the first pass."""
    def always(raw):
        flags = raw.get("flags") if isinstance(raw, dict) else None
        return isinstance(raw, dict) and counts(flags if isinstance(flags, list) else ()) == "always"

    return any(always(phase) and any(always(step) for step in (phase.get("entries") or [phase]))
               for phase in phases or () if isinstance(phase, dict))
