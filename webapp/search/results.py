"""What a search answers: the entries found, each with its snippet, the player words it read as
the rules' words, a note when the question was cut, and all of it as the API's JSON."""
from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup


@dataclass
class Hit:
    id: str
    game: str
    section: str
    kind: str
    title: str
    url: str
    snippet: Markup
    trail: list  # the game and the section, phases or rules the entry sits in, in words

    def as_json(self):
        return {"id": self.id, "game": self.game, "section": self.section, "kind": self.kind,
                "title": self.title, "url": self.url, "snippet": str(self.snippet),
                "game_title": self.trail[0], "section_title": " › ".join(self.trail[1:])}


@dataclass(frozen=True)
class PlayerWords:
    """Words a player typed, and the rules' words the vocabulary searched for them as well."""

    typed: str  # the player's words
    rules: tuple  # the rules' words searched for as well


@dataclass
class Results:
    query: str
    total: int
    hits: list
    suggestion: str | None
    corrected: bool  # results came from a correction of a word the rules never use
    rewrites: tuple = ()  # player words also searched as the rules' words
    cut_from: int | None = None  # the length of a question cut at the limit (query is what was read)
    by_meaning: bool = False  # no rule says the question's words: the hits are the rules nearest in meaning

    @property
    def note(self):
        """What the player is told of a question cut at the limit, or answered by meaning alone, or None."""
        notes = []
        if self.cut_from is not None:
            notes.append(f"Only the first {len(self.query):,} characters of the question were read "
                         f"(it has {self.cut_from:,}).")
        if self.by_meaning:
            notes.append("No rule uses these words; these are the rules nearest to them in meaning.")
        return " ".join(notes) or None

    def as_json(self):
        return {"query": self.query, "total": self.total, "results": [h.as_json() for h in self.hits],
                "suggestion": self.suggestion,
                "rewrites": [{"from": r.typed, "to": list(r.rules)} for r in self.rewrites],
                "note": self.note, "by_meaning": self.by_meaning}
