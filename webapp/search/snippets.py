"""Snippets: an escaped excerpt of a rule's text around the words a query matched, those marked.

Which words match is the search's business: it passes ``word_stems``, a word's stems as its
index stores them, and the stems the query looks for.
"""
from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup, escape

from ..content.vocabulary import WORD

WIDTH = 180  # characters of rule text shown
LEAD = 50  # characters shown before the first match


@lru_cache(maxsize=4096)
def _body_words(body, word_stems):
    """The words of a body, and for each stem the places of the words that have it."""
    words = list(WORD.finditer(body))
    places = {}
    for place, match in enumerate(words):
        for stem in word_stems(match.group()):
            places.setdefault(stem, []).append(place)
    return words, places


def snippet(body, marked, word_stems, width=WIDTH):
    """An escaped excerpt of ``body`` around its first word with a ``marked`` stem, matches in <mark>."""
    words, places = _body_words(body, word_stems)
    hits = [words[i] for i in sorted({i for stem in marked if stem in places for i in places[stem]})]
    if not hits:
        return Markup(escape(body[:width] + ("…" if len(body) > width else "")))
    start = max(0, hits[0].start() - LEAD)
    if start:
        space = body.find(" ", start)
        start = space + 1 if 0 <= space < hits[0].start() else start
    end = min(len(body), start + width)
    if end < len(body):
        space = body.rfind(" ", start, end)
        end = space if space > hits[0].end() else end
    out = ["…" if start else ""]
    position = start
    for match in hits:
        if match.start() < position or match.end() > end:
            continue
        out.append(str(escape(body[position:match.start()])))
        out.append(f"<mark>{escape(match.group())}</mark>")
        position = match.end()
    out.append(str(escape(body[position:end])))
    out.append("…" if end < len(body) else "")
    return Markup("".join(out))
