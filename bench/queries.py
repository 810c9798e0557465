"""A fixed set of realistic search queries drawn from the rule content (run: python bench/queries.py).

Every query comes from the words of the content itself: entry and section titles, the short
checklist titles, glossary terms and their aliases, and runs of one to four words from the rule
text. A share of them is then changed the way a player on a phone changes them: one letter
dropped, two letters swapped or one letter wrong, accents left off or put on, a phrase in
quotes, a game filter. Some are long: a situation told at length, sentences of one game's rules
run together up to 1,000 characters (as long as a question is read), then what is asked. The random seed is fixed, so every run builds the same queries in the same
order, and no query text appears twice.

    python bench/queries.py              counts per kind and a sample
    python bench/queries.py --list       every query, one per line (text, tab, game)
"""
from __future__ import annotations

import argparse
import os
import random
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from urllib.parse import quote

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

SEED = 1954  # fixed: the same queries every run
DEFAULT_COUNT = 2400

# What the queries are made of, and how often (relative weights).
KIND_WEIGHTS = {
    "title": 14,        # an entry, section or glossary title as written or in lower case
    "alias": 10,        # a glossary alias or an entry's player shorthand
    "words": 22,        # one to four running words of rule text
    "combination": 12,  # two or three words of one entry, not next to each other
    "typo": 18,         # one of the above with one letter dropped, swapped or wrong
    "accents": 8,       # accents left off a word that has them, or put on one that has not
    "phrase": 10,       # "a quoted run of words", sometimes with a word outside the quotes
    "other game": 6,    # a title searched with another game's filter (often nothing found)
    "long": 6,          # 400 to 1,000 characters: sentences of one game's rules, then a title asked about
}
LONG_CHARS = (400, 1000)  # how long a long question is: up to the most search reads
GAME_FILTER_SHARE = 0.3  # share of queries (other than "other game") filtered to their own game

STOP_WORDS = frozenset("""
a an and are as at be been but by can do does each either for from has have he her his if in into
is it its itself may must no nor not of on once one or other own same she so than that the their
them then there these they this those to too up was were when which while who whom will with you
your all any both more most only over such what where why how after before again also just until
""".split())

LETTER_WORD = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")
ACCENTED = {"a": "âá", "e": "éê", "i": "íî", "o": "óô", "u": "ûú"}


@dataclass(frozen=True)
class Query:
    """One search as a player would send it: the typed text, an optional game filter, its kind."""

    text: str
    game: str | None
    kind: str

    def path(self, endpoint: str = "/api/search") -> str:
        """The request path for this query on ``endpoint`` (``/search`` or ``/api/search``)."""
        path = f"{endpoint}?q={quote(self.text, safe='')}"
        if self.game:
            path += f"&game={self.game}"
        return path


def fold(text: str) -> str:
    """The text without accents (what most players type)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def content_words(text: str) -> list[str]:
    """The words of a text that carry meaning: letters only, no stop words, two letters or more."""
    return [w for w in LETTER_WORD.findall(text) if len(w) > 1 and w.lower() not in STOP_WORDS]


@dataclass
class Source:
    """The searchable text of one entry, section or term, and the game it belongs to."""

    game: str
    titles: list
    aliases: list
    text: str


def sources(library) -> list[Source]:
    """Every section, entry and glossary term of the library, in content order."""
    found = []
    for section, entry in library.entries():
        if entry is None:
            found.append(Source(section.game, [section.title], [], f"{section.summary} {section.text}"))
            continue
        titles = [entry.title] + ([entry.short] if entry.short and entry.short != entry.title else [])
        found.append(Source(entry.game, titles, list(entry.aliases), entry.text))
    return found


def typo(word: str, rng: random.Random) -> str | None:
    """``word`` with one letter dropped, two neighbours swapped or one letter replaced; None if too short."""
    letters = [i for i, c in enumerate(word) if c.isalpha()]
    if len(letters) < 4:
        return None
    how = rng.choice(("deletion", "swap", "substitution"))
    i = rng.choice(letters[1:-1])  # players rarely get the first letter wrong
    if how == "deletion":
        changed = word[:i] + word[i + 1:]
    elif how == "swap":
        changed = word[:i] + word[i + 1] + word[i] + word[i + 2:]
    else:
        choices = [c for c in "abcdefghijklmnopqrstuvwxyz" if c != word[i].lower()]
        changed = word[:i] + rng.choice(choices) + word[i + 1:]
    return changed if changed != word else None


def add_accent(word: str, rng: random.Random) -> str | None:
    """``word`` with one plain vowel given an accent; None if it has no plain vowel."""
    vowels = [i for i, c in enumerate(word) if c in ACCENTED]
    if not vowels:
        return None
    i = rng.choice(vowels)
    return word[:i] + rng.choice(ACCENTED[word[i]]) + word[i + 1:]


def title_words(title: str) -> str:
    """A title as a player types it: its words, without numbering and symbols."""
    return " ".join(LETTER_WORD.findall(title))


class QueryMaker:
    """Draws queries of each kind from the content with one seeded random generator."""

    def __init__(self, library, seed: int = SEED):
        self.rng = random.Random(seed)
        self.sources = sources(library)
        self.games = list(library.games)
        self.accented = [s for s in self.sources if fold(" ".join(s.titles + s.aliases) + s.text) !=
                         " ".join(s.titles + s.aliases) + s.text]

    def casing(self, text: str) -> str:
        # most players type in lower case; some keep the capitals they read
        return text if self.rng.random() < 0.25 else text.lower()

    def game_for(self, source: Source) -> str | None:
        return source.game if self.rng.random() < GAME_FILTER_SHARE else None

    def running_words(self, source: Source, count: int) -> str | None:
        words = LETTER_WORD.findall(source.text)
        if len(words) < count:
            return None
        for _ in range(8):
            start = self.rng.randrange(len(words) - count + 1)
            run = words[start:start + count]
            # nobody starts or ends a search with "the" or "of"
            if run[0].lower() in STOP_WORDS or run[-1].lower() in STOP_WORDS:
                continue
            if count > 1 and all(w.lower() in STOP_WORDS for w in run):
                continue
            return " ".join(run)
        return None

    def long_question(self, source: Source, length: int | None = None) -> Query:
        """A situation told at length (``length`` characters, or a random length in LONG_CHARS):
        sentences from entries of the source's game, then its title asked about."""
        rng = self.rng
        same_game = [s for s in self.sources if s.game == source.game and s.text]
        length = length or rng.randrange(*LONG_CHARS)
        asked = f" So what about {title_words(rng.choice(source.titles)).lower()}?"
        told = ""
        while len(told) + len(asked) < length:
            told += " " + rng.choice(rng.choice(same_game).text.split(". ")).strip().rstrip(".") + "."
        text = fold(told.strip())[:length - len(asked)].rsplit(" ", 1)[0] + asked
        return Query(text.rjust(length), self.game_for(source), "long")

    def make(self, kind: str) -> Query | None:
        rng = self.rng
        source = rng.choice(self.sources)
        if kind == "title":
            title = rng.choice(source.titles)
            text = title_words(title) if rng.random() < 0.5 else title
            return Query(self.casing(text), self.game_for(source), kind)
        if kind == "alias":
            names = source.aliases or [t for t in source.titles if len(t.split()) <= 3]
            if not names:
                return None
            return Query(self.casing(rng.choice(names)), self.game_for(source), kind)
        if kind == "words":
            text = self.running_words(source, rng.choice((1, 1, 2, 2, 2, 3, 3, 4)))
            return Query(self.casing(text), self.game_for(source), kind) if text else None
        if kind == "combination":
            words = sorted(set(w.lower() for w in content_words(source.text + " " + " ".join(source.titles))))
            count = rng.choice((2, 2, 3))
            if len(words) < count:
                return None
            return Query(" ".join(rng.sample(words, count)), self.game_for(source), kind)
        if kind == "typo":
            base = self.make(rng.choice(("title", "alias", "words", "words", "combination")))
            if base is None:
                return None
            words = base.text.split()
            long_words = [i for i, w in enumerate(words) if sum(c.isalpha() for c in w) >= 4]
            if not long_words:
                return None
            i = rng.choice(long_words)
            changed = typo(words[i], rng)
            if changed is None:
                return None
            words[i] = changed
            return Query(" ".join(words), base.game, kind)
        if kind == "accents":
            if self.accented and rng.random() < 0.5:
                # accents left off: a title, alias or run of words that has them
                source = rng.choice(self.accented)
                candidates = [t for t in source.titles + source.aliases if fold(t) != t]
                if not candidates:
                    words = [w for w in LETTER_WORD.findall(source.text) if fold(w) != w]
                    if not words:
                        return None
                    candidates = [rng.choice(words)]
                return Query(fold(self.casing(rng.choice(candidates))), self.game_for(source), kind)
            # accents put on a plain word, as a phone keyboard's long press does
            base = self.make(rng.choice(("title", "alias", "words")))
            if base is None:
                return None
            words = base.text.split()
            i = rng.randrange(len(words))
            changed = add_accent(words[i], rng)
            if changed is None:
                return None
            words[i] = changed
            return Query(" ".join(words), base.game, kind)
        if kind == "phrase":
            text = self.running_words(source, rng.choice((2, 2, 3)))
            if not text:
                return None
            text = f'"{text.lower()}"'
            if rng.random() < 0.3:
                extra = content_words(" ".join(source.titles))
                if extra:
                    text = f"{text} {rng.choice(extra).lower()}" if rng.random() < 0.5 else f"{rng.choice(extra).lower()} {text}"
            return Query(text, self.game_for(source), kind)
        if kind == "long":
            return self.long_question(source)
        if kind == "other game":
            others = [g for g in self.games if g != source.game]
            return Query(self.casing(title_words(rng.choice(source.titles))), rng.choice(others), kind)
        raise ValueError(f"unknown kind {kind!r}")


def build_queries(library=None, count: int = DEFAULT_COUNT, seed: int = SEED) -> list[Query]:
    """``count`` queries with distinct texts, always the same ones for the same content and seed.

    ``library`` defaults to the project's content, as the app reads it.
    """
    if library is None:
        import webapp
        from webapp.library import read_library

        library = read_library(webapp.PROJECT_ROOT / "content")
    maker = QueryMaker(library, seed)
    kinds = list(KIND_WEIGHTS)
    weights = [KIND_WEIGHTS[k] for k in kinds]
    seen = set()
    queries = []
    attempts = 0
    while len(queries) < count:
        attempts += 1
        if attempts > count * 200:
            raise RuntimeError(f"only {len(queries)} distinct queries after {attempts} attempts")
        query = maker.make(maker.rng.choices(kinds, weights)[0])
        if query is None:
            continue
        text = " ".join(query.text.split())[:LONG_CHARS[1] if query.kind == "long" else 200]
        if not text.strip('" ') or text in seen:
            continue
        seen.add(text)
        queries.append(Query(text, query.game, query.kind))
    return queries


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT)
    parser.add_argument("--list", action="store_true", help="print every query")
    parser.add_argument("--sample", type=int, default=30, help="how many to show (default 30)")
    args = parser.parse_args(argv)
    queries = build_queries(count=args.count)
    if args.list:
        for q in queries:
            print(f"{q.text}\t{q.game or ''}")
        return
    kinds = Counter(q.kind for q in queries)
    print(f"{len(queries)} distinct queries (seed {SEED}); {sum(1 for q in queries if q.game)} with a game filter")
    for kind in KIND_WEIGHTS:
        print(f"  {kind:12} {kinds[kind]:5}")
    print()
    step = max(1, len(queries) // max(1, args.sample))
    for q in queries[::step][:args.sample]:
        print(f"  {q.kind:12} {q.game or '-':11} {q.text}")


if __name__ == "__main__":
    main()
