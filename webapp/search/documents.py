"""What search indexes: one document per section, phase, step, rule, glossary term and
calculator, and one per question players ask of an entry.

Each document is a plain mapping of the index's fields, drawn from the loaded content: an
entry's own words (title, aliases, body, the titles it sits in), or one of the questions its
``asked`` lists (kind ``asked``, the entry it belongs to as ``entry``). The index module turns
them into its in-memory index.
"""
from __future__ import annotations

import re

from ..content.rendering import plain_text


def tidy(text):
    """Rule text as a reader expects it: no space before punctuation, none inside brackets."""
    return re.sub(r"\(\s+", "(", re.sub(r"\s+([.,;:!?)])", r"\1", text))


def documents(library, calculators):
    """One search document per section, phase, step, rule, glossary term and calculator."""
    for section in library.sections():
        game = library.games[section.game]
        yield {
            "id": f"{game.id}:{section.id}", "game": game.id, "section": section.id, "kind": "section",
            "title": section.title, "aliases": "", "body": tidy(f"{section.summary} {section.text}".strip()),
            "context": "", "asked": "", "entry": "", "url": section.url, "trail": [game.short_title, section.title],
            "sequence": section.kind == "sequence",  # it walks a whole turn, round or fight in order
        }
        yield from asked_documents(game.id, section.id, section, [game.short_title, section.title])
        for entry in section.walk():
            trail = [game.short_title, section.title]
            parent = entry.parent
            ancestors = []
            while parent is not None:
                ancestors.insert(0, parent.title)
                parent = parent.parent
            trail.extend(ancestors)
            body, excerpt = tidy(entry.text), excerpt_text(entry)
            yield {
                "id": f"{game.id}:{entry.id}", "game": game.id, "section": section.id, "kind": entry.kind,
                "title": entry.title, "aliases": " ".join([entry.short, *entry.aliases]).strip(),
                # players call every phase and step of a turn a step: "hero rally step"
                "body": body, "context": " ".join(trail[1:] + ["step"] * (section.kind == "sequence")),
                "asked": "", "entry": "", "url": entry.url, "trail": trail,
                "excerpt": "" if excerpt == body else excerpt,  # stored only where it differs
            }
            yield from asked_documents(game.id, section.id, entry, trail)
    yield from calculator_documents(library, calculators)


def excerpt_text(entry):
    """What an entry's snippet is cut from: its prose, then its table a row a sentence ("Players 2,
    Cards per player 4."), so that a snippet reads as a row rather than a run of cells; an entry
    with neither, its short form when that says more than its title, else the titles of the
    entries under it (else nothing)."""
    prose = plain_text(entry.html)
    rows = []
    if entry.table is not None:
        rows = [", ".join(f"{column} {cell}" for column, cell in zip(entry.table.columns, row)) + "."
                for row in entry.table.rows]
        rows.insert(0, f"{entry.table.caption}." if entry.table.caption else "")
    text = tidy(" ".join(filter(None, [prose, *rows])))
    if not text and entry.short and entry.short != entry.title:
        text = entry.short
    if not text and entry.entries:
        text = "; ".join(child.title for child in entry.entries) + "."
    return text


def asked_documents(game_id, section_id, answer, trail):
    """One document per question asked of an entry or a section (``answer``), pointing back to it."""
    for number, question in enumerate(answer.asked):
        yield {"id": f"{game_id}:{answer.id}?{number}", "game": game_id, "section": section_id, "kind": "asked",
               "title": "", "aliases": "", "body": "", "context": "", "asked": question,
               "entry": f"{game_id}:{answer.id}", "url": answer.url, "trail": trail}


def calculators_of(library, calculators):
    """Every calculator of a loaded game."""
    return [calculator for calculator in calculators.values() if calculator.game in library.games]


def calculator_url(calculator):
    """The calculator's page (calculators.views serves /<game>/calc/<slug>; a test opens every one)."""
    return f"/{calculator.game}/calc/{calculator.slug}"


def calculator_documents(library, calculators):
    """A calculator is found by its name, the rules it works out, and the words players ask it with."""
    asked_with = library.vocabulary.calculators if library.vocabulary else {}
    for calculator in calculators_of(library, calculators):
        game = library.games[calculator.game]
        rules = [entry.title for _, entry in library.entries_for_calculator(calculator.id)]
        yield {
            "id": f"{game.id}:calc/{calculator.slug}", "game": game.id, "section": "calc", "kind": "calculator",
            "title": calculator.title, "aliases": " ".join(("calculator", *asked_with.get(calculator.id, ()))),
            "body": tidy(f"Calculator for {'; '.join(rules)}." if rules else "Calculator."),
            "context": "Calculators", "asked": "", "entry": "", "url": calculator_url(calculator), "trail": [game.short_title, "Calculators"],
        }
