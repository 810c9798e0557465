"""Checked files to the Library: entries made, Markdown rendered once, references resolved.

The builder finds no problems; the checker has found them all before it runs.
"""
from .data_files import DATA_FILES
from .model import ChecklistSpec, Entry, Game, Library, Section, Source, Table
from .rendering import MarkdownRenderer, find_ref, link_refs, plain_text
from .schema import SECTION_KINDS, SOURCE_KINDS


class Builder:
    def __init__(self):
        self.markdown = MarkdownRenderer()
        self.see = []  # (entry, its game id, the references it names) resolved once every game is built
        self.sources = {}  # the game being built: what its sources.yaml maps to each entry id

    def build(self, files: dict, fingerprint: str) -> Library:
        """``files``: game id -> checker.GameFiles, every one checked."""
        games = {game_id: self.game(game_id, game_files) for game_id, game_files in files.items()}
        for entry, game_id, refs in self.see:
            entry.see = [find_ref(games, game_id, ref) for ref in refs]
        for game in games.values():
            game.source_html = link_refs(games, game.id, game.source_html)
            game.summary_html = link_refs(games, game.id, game.summary_html)
            for section in game.sections.values():
                section.html = link_refs(games, game.id, section.html)
                for entry in section.walk():
                    entry.html = link_refs(games, game.id, entry.html)
        data = {game_id: {name: DATA_FILES[game_id, name].build(source.data) for name, source in game_files.data.items()}
                for game_id, game_files in files.items()}
        return Library(games=games, fingerprint=fingerprint, data=data)

    def game(self, game_id, files) -> Game:
        data = files.game.data
        self.sources = files.sources
        entries = {}
        sections = {section_id: self.section(game_id, section_id, source.data, entries)
                    for section_id, source in files.sections.items()}
        summary_html = self.markdown.render(_text(data["summary"]))
        checklists = [ChecklistSpec(section=sections[_text(item["section"])], name=_text(item["name"]),
                                    seats=_strings(item.get("seats")), seat_label=_text(item.get("seat_label")),
                                    note=_text(item.get("note")))
                      for item in data["turn"]]
        return Game(
            id=game_id,
            title=_text(data["title"]),
            short_title=_text(data["short_title"]),
            publisher=_text(data["publisher"]),
            source_html=self.markdown.render(_text(data["source"])),
            summary_html=summary_html,
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
            asked=tuple(_strings(data.get("asked"))),
        )
        section.html = self.markdown.render(section.body)
        section.text = plain_text(section.html)
        if SECTION_KINDS[section.kind].holds == "terms":
            section.entries = [self.term(game_id, section, raw, entries) for raw in data["terms"]]
        else:
            section.entries = [self.entry(game_id, section, raw, entries, None, 0) for raw in data["entries"]]
        return section

    def entry(self, game_id, section, raw, entries, parent, depth) -> Entry:
        table = raw.get("table")
        entry = Entry(
            id=str(raw["id"]),
            title=_text(raw["title"]),
            kind=SECTION_KINDS[section.kind].entry_kind(depth),
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
            asked=tuple(_strings(raw.get("asked"))),
            parent=parent,
            depth=depth,
        )
        entry.html = self.markdown.render(entry.body)
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
            kind=SECTION_KINDS[section.kind].entry_kind(0),
            game=game_id,
            section=section.id,
            body=_text(raw["body"]),
            aliases=tuple(_strings(raw.get("aliases"))),
            asked=tuple(_strings(raw.get("asked"))),
        )
        term.html = self.markdown.render(term.body)
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


def _text(value) -> str:
    return "" if value is None else str(value)


def _strings(value) -> list:
    return [str(item) for item in value or ()]
