"""How text becomes the terms the index holds: one analysis for the rules, the questions players
ask of them, and what a player types.

Words are split at hyphens and apostrophes ("re-roll": re, roll and the joined reroll), folded
(no case, no accents: Nazgûl is nazgul), stripped of English stop words and stemmed.
"""
from __future__ import annotations

import re
from functools import lru_cache

from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.lang.porter import stem as porter_stem

from ..content.vocabulary import WORD, fold


class JoinedWordFilter(Filter):
    """Splits hyphenated and apostrophe words into parts and, unless told not to (phrase queries),
    adds the joined form: "re-roll" becomes re, roll and reroll; the joined form shares the last
    part's position, so phrases that run across the word still match.
    """

    def __init__(self, joined=True):
        self.joined = joined

    def __call__(self, tokens):
        pos = -1
        for token in tokens:
            parts = re.split(r"[-'’]", token.text)
            for part in filter(None, parts):
                pos += 1
                token.text, token.pos = part, pos
                yield token
            if self.joined and len(parts) > 1:
                token.text = "".join(parts)
                yield token


class FoldFilter(Filter):
    """Accents dropped (Nazgûl is nazgul); most words have none, and pass straight through."""

    def __call__(self, tokens):
        for token in tokens:
            if not token.text.isascii():
                token.text = fold(token.text)
            yield token


VOWELS = frozenset("aeiouy")


def stem(word):
    """Porter's stem of a word, with the ending "-ed" or "-ing" taken off as Porter's own rules say:
    a doubled last letter is then single ("tapped", "hitting": tap, hit) and a word left ending
    in "at", "bl" or "iz" gets its "e" back ("eliminated": eliminate), so every form of a word has
    one stem (the Porter stemmer that Whoosh ships keeps tapp and eliminat)."""
    for ending in ("ed", "ing"):
        base = word[:-len(ending)]
        if word.endswith(ending) and not word.endswith("eed") and VOWELS & set(base):
            if len(base) > 2 and base[-1] == base[-2] and base[-1] not in "aeiouylsz":
                return porter_stem(base[:-1])
            if base.endswith(("at", "bl", "iz")):
                return porter_stem(base + "e")
    return porter_stem(word)


def _chain(split_filter):
    return (RegexTokenizer(WORD.pattern) | split_filter | LowercaseFilter() | FoldFilter()
            | StopFilter(minsize=1) | StemFilter(stem))


ANALYZER = _chain(JoinedWordFilter())
PHRASE_ANALYZER = _chain(JoinedWordFilter(joined=False))


@lru_cache(maxsize=20000)
def stems(text):
    """Stems of a text, hyphenated words split: the unit glossary and player phrases are matched in."""
    return tuple(t.text for t in PHRASE_ANALYZER(text))


def key_of(text):
    """A phrase as its stems, one string: how glossary terms and player phrases are looked up."""
    return " ".join(stems(text))


@lru_cache(maxsize=20000)
def index_terms(word):
    """The terms the index holds for one word: its stems, and a hyphenated word's joined form."""
    return tuple(t.text for t in ANALYZER(word))


@lru_cache(maxsize=20000)
def word_stems(word):
    """A word's stems as the index holds them, whole and split at hyphens: what snippets mark."""
    return frozenset(index_terms(word)) | frozenset(stems(word))


def normalised(text):
    """A query as search reads it, case and runs of spaces folded: what its answers are cached under.
    A space at the end stays (the last word is finished, not a prefix still being typed)."""
    return re.sub(r"\s+", " ", text.lower()).lstrip()


def signs_spelled(text):
    """"+1" and "-2" as players mean them: plus 1, minus 2 (a modifier, not just a number)."""
    return re.sub(r"(?<!\w)[-−](?=\d)", " minus ", re.sub(r"(?<!\w)\+(?=\d)", " plus ", text))


def folded_words(text):
    """The words of a text as typed or printed ("re-roll"), signs spelled, folded, apostrophes
    dropped: "doesn't" is doesnt, "player's" players."""
    return [fold(word).replace("'", "").replace("’", "") for word in WORD.findall(signs_spelled(text))]


def saying_pattern(phrases):
    """A pattern for a text that says one of ``phrases`` anywhere, as whole words apart by spaces or
    punctuation; none, a pattern that never matches."""
    alternatives = "|".join(r"\W+".join(map(re.escape, phrase.split())) for phrase in phrases)
    return re.compile(rf"\b(?:{alternatives})\b" if phrases else r"(?!)")


def opening_pattern(phrases):
    """A pattern for a text that begins with one of ``phrases``, its words run together or apart
    by spaces or an apostrophe ("what s": what's, whats, what s); none, a pattern that never matches."""
    alternatives = "|".join(r"[\s'’]*".join(map(re.escape, phrase.split())) for phrase in phrases)
    return re.compile(rf"^\s*(?:{alternatives})\b" if phrases else r"(?!)")
