"""Snippets: an escaped excerpt of a rule's text that answers the question, its words marked.

A snippet starts at the start of a sentence, never in the middle of one (so the "Only when" that
makes a rule is never cut off): the sentence with the most of the question's words, then the
sentences after it while they fit. When that sentence ends within the width of the text's
start, the snippet starts there instead, so the rule's first sentence (where it says when it
applies) is never left out for a later one. Which words match is the search's business: it passes
``word_stems``, a word's stems as its index stores them, and the stems the question looks for.
"""
from __future__ import annotations

import re
from functools import lru_cache

from markupsafe import Markup, escape

from ..content.vocabulary import WORD

WIDTH = 180  # characters of rule text shown, about
# a sentence ends at . ! or ?, but not at a lone small letter's point: a step's letter ("in the f. Deal
# Damage part") or a short form ("e.g. The")
SENTENCE_START = re.compile(r"(?<=[.!?])(?<!(?<![A-Za-z])[a-z]\.)\s+(?=[\"“(]?[A-Z0-9])")


@lru_cache(maxsize=4096)
def _body_words(body, word_stems):
    """The words of a body, the starts of its sentences, and for each stem the places of the words that have it."""
    words = list(WORD.finditer(body))
    places = {}
    for place, match in enumerate(words):
        for stem in word_stems(match.group()):
            places.setdefault(stem, []).append(place)
    starts = [0] + [found.end() for found in SENTENCE_START.finditer(body)]
    return words, places, starts


def _best_sentence(words, hits, starts, marked_of):
    """(start, end) of the sentence holding the most of the question's different stems (the first of equals)."""
    held = {}
    for place in hits:
        number = _sentence_of(words[place].start(), starts)
        held.setdefault(number, set()).update(marked_of(words[place].group()))
    number = min(held, key=lambda n: (-len(held[n]), n))
    return starts[number], starts[number + 1] if number + 1 < len(starts) else None


def _sentence_of(position, starts):
    """The number of the sentence a character position is in."""
    number = 0
    while number + 1 < len(starts) and starts[number + 1] <= position:
        number += 1
    return number


def _end(body, start, starts, width):
    """Where the excerpt from ``start`` ends: after the last whole sentence that fits, or at a space."""
    fits = [s for s in starts if start < s <= start + width]
    if start + width >= len(body):
        return len(body)
    if fits:
        return fits[-1]
    space = body.rfind(" ", start, start + width)
    return space if space > start else start + width


def snippet(body, marked, word_stems, width=WIDTH):
    """An escaped excerpt of ``body`` from the start of its sentence that best matches the
    ``marked`` stems, those words in <mark>."""
    words, places, starts = _body_words(body, word_stems)
    hits = sorted({place for stem in marked if stem in places for place in places[stem]})
    start = 0
    if hits:
        start, after = _best_sentence(words, hits, starts, lambda word: word_stems(word) & marked)
        start = 0 if (after or len(body)) <= width else start
    end = _end(body, start, starts, width)
    out = ["…" if start else ""]
    position = start
    for place in hits:
        match = words[place]
        if match.start() < position or match.end() > end:
            continue
        out.append(str(escape(body[position:match.start()])))
        out.append(f"<mark>{escape(match.group())}</mark>")
        position = match.end()
    out.append(str(escape(body[position:end].rstrip())))
    if end < len(body):  # more follows: after a whole sentence, apart from its stop ("(2d6). …", not "(2d6).…")
        out.append(" …" if body[:end].rstrip().endswith((".", "!", "?", ":", ";")) else "…")
    return Markup("".join(out))
