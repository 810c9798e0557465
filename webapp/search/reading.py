"""Reading a question: the words and phrases of what a player typed that carry meaning, each
one part of the search, in the rules' words too where the player's differ.

- Filler and question words are dropped (then it is a question, not a lone term), unless the
  question is nothing else.
- A glossary term or alias is one part, its synonyms with it (MP, marshalling points).
- A player phrase of the vocabulary also looks for the rules' words ("run away": retreat), in
  the games whose rules use them; the results say so.
- A word the rules never use, and players do not either, is corrected to the closest rules word
  (spelling.py); a plural the rules never print is read as its singular.
- A number word and its digits are one ("two", "2"); "+1" is plus 1; "quoted phrases" are
  matched in order; the last word, while it is being typed, also finds the words it begins.
- The name of a game ("meq setup") searches that game; the words that ask for a calculator
  (odds, score) say which.
- However long the question, the work is bounded: at most MAX_READ_WORDS words are read, at most
  MAX_CORRECTIONS of them corrected, and only the MAX_PARTS rarest parts are searched.
The text is never parsed as query syntax, so no input can widen a search or break it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from whoosh import query as wq

from ..content.vocabulary import MAX_NAME_WORDS, MAX_PHRASE_WORDS, fold
from .analysis import folded_words, index_terms, key_of, stems
from .queries import CONCEPTS_FIELD, any_of, boosted

MAX_QUERY_CHARS = 1000  # a question up to this long is read in full; a longer one, up to here
MAX_READ_WORDS = 200  # words of a question read at most (a 1,000-character question has about 180)
MAX_PARTS = 16  # words or phrases searched at most: the rarest of those that carry meaning
MAX_CORRECTIONS = 8  # words the speller may correct in one question
MAX_FUZZY_CANDIDATES = 3  # corrections of one word searched, likeliest first
MAX_SENTENCES = 20  # sentences looked at for one that asks what a term means
SENTENCE_END = re.compile(r"[.!?]+(?:\s|$)")
BREAK = "."  # stands between the words of two sentences: no phrase runs across it
REWRITE_BOOST = 0.7  # the rules' words for a player's words count a little less than the player's own
COMPLETION_BOOST = 0.6  # a word the last, unfinished word may become counts less than the word itself


@dataclass
class Part:
    """One meaningful word or phrase of a question, and the Whoosh query that finds it."""

    typed: str
    make: object  # makes the Whoosh query that finds it (only for the parts searched: a long question has many)
    meaning: object  # parts that mean the same (two player phrases for one rules word) count once
    key: str = ""  # the stems of the words it stands for
    rules: tuple = ()  # the rules' words the player vocabulary gave for it
    frequency: int = 0  # how many entries hold its rarest word in their own words (0: none)
    corrected: bool = False  # a word the rules never use, read as the rules words closest to it
    sentence: int = 0  # which sentence of the question it is in (0: the first)
    query: wq.Query | None = None  # made once the part is chosen to be searched


@dataclass
class Reading:
    """How search reads a question: its parts, and what its words say besides."""

    parts: list = field(default_factory=list)
    corrected: bool = False  # a word was corrected to a rules word
    rewrites: list = field(default_factory=list)  # (stemmed player phrase, {game: rules phrases})
    definition: bool = False  # a sentence opens "what is ...": a question about what a term means
    sequence: bool = False  # it asks the order of a whole turn, round or fight ("step by step")
    question: bool = False  # filler or question words were dropped: a question, not a lone term
    calculators: frozenset = frozenset()  # ids of the calculators its words ask for (odds, score)
    game: str | None = None  # the game the question names ("meq setup"), if it names one
    words: frozenset = frozenset()  # the words typed (corrected), folded
    said: tuple = ()  # the words as typed, folded (no correction, no game's name): what meaning reads

    @property
    def lone(self):
        """A lone term, or "what is" one: the glossary may answer (see term_alone)."""
        return self.definition or self.term_alone

    @property
    def term_alone(self):
        """A term and nothing else ("combat", "what is combat"): its glossary entry answers first. A
        longer "what is" question ("what are my choices for losses") may ask a rule, so it is not one."""
        return len(self.parts) == 1 and (self.definition or not self.question)


def first_stems(keys):
    """The first stems of stemmed phrases: a word with another first stem begins none of them."""
    return frozenset(key.split()[0] for key in keys)


class Reader:
    """Reads questions with the index's words, the words search knows and a speller."""

    def __init__(self, words, maker, speller, frequency, completions):
        self.words = words  # words.Words
        self.maker = maker  # queries.QueryMaker over the index's terms
        self.speller = speller
        self.frequency = frequency  # stem -> how many entries hold it
        self.completions = completions  # prefix -> index terms it begins (bounded)
        # the first stems of each table's phrases: most words begin none
        self.phrase_starts = first_stems((*words.concepts, *words.rewrites))
        self.name_starts = first_stems(words.game_names)
        self.calculator_starts = first_stems(words.calculator_words)

    def read(self, text, game=None, fuzzy=True):
        """How search reads ``text``, searched in ``game`` (None: every game)."""
        folded = fold(text)
        reading = Reading(definition=any(self.words.definition.match(sentence)
                                         for sentence in SENTENCE_END.split(folded)[:MAX_SENTENCES]),
                          sequence=bool(self.words.sequence.search(folded)))
        self._quoted(text, reading)
        typed, unfinished = self._typed_words(text)
        words, reading.game = self._named_game(typed)
        reading.said = (*(w for part in reading.parts for w in folded_words(part.typed)), *words)  # quoted, then the rest
        unfinished = unfinished and len(words) == len(typed)
        words = [self.speller.singular(word) or word for word in words]
        alternatives = {}
        if fuzzy:  # a word being typed stays as it is while the rules have words it begins
            last = len(words) - 1
            words, alternatives = self.speller.correct(
                words, keep=lambda i, word: unfinished and i == last and bool(self.completions(word)),
                alternatives=MAX_FUZZY_CANDIDATES, most=MAX_CORRECTIONS)
            reading.corrected = bool(alternatives)
        reading.words = frozenset(words)
        word_stems = [stems(word) for word in words]
        reading.calculators = self._calculators(words, word_stems)
        self._parts(words, word_stems, game or reading.game, alternatives, unfinished, reading)
        reading.parts = self._rarest(reading.parts)
        for part in reading.parts:
            part.query = part.make()
        return reading

    def _quoted(self, text, reading):
        for phrase in re.findall(r'"([^"]*)"', text)[:MAX_PARTS]:
            key = stems(phrase)
            if key:
                reading.parts.append(Part(typed=phrase, make=lambda key=key: self.maker.phrase(key), meaning=f'"{phrase}"',
                                          key=" ".join(key), frequency=self._frequency(key)))

    @staticmethod
    def _typed_words(text):
        """(the words outside quotes, folded, apostrophes dropped: "doesn't" is the filler word doesnt,
        "player's" the word players; BREAK between sentences; whether the last is still being typed)."""
        rest = re.sub(r'"[^"]*"', " ", text).replace('"', " ")
        words = []
        for sentence in SENTENCE_END.split(rest):
            found = folded_words(sentence)
            words += [BREAK, *found] if words and found else found
        words = words[:MAX_READ_WORDS]
        return words, bool(words) and not text.endswith((" ", '"'))

    def _named_game(self, words):
        """(the words without the names of games, the one game they name or None)."""
        word_stems = [stems(word) for word in words]
        kept, named = [], set()
        i = 0
        while i < len(words):
            n = self._game_name_at(word_stems, i)
            if n:
                named.add(self.words.game_names[self._key(word_stems, i, n)])
                i += n
            else:
                kept.append(words[i])
                i += 1
        if not kept:  # a game's name alone is searched as words
            return words, None
        return kept, (named.pop() if len(named) == 1 else None)

    def _game_name_at(self, word_stems, i):
        """How many words from word i name a game (the longest name), or 0."""
        if not word_stems[i] or word_stems[i][0] not in self.name_starts:
            return 0
        for n in range(min(MAX_NAME_WORDS, len(word_stems) - i), 0, -1):
            if word_stems[i + n - 1] and self._key(word_stems, i, n) in self.words.game_names:
                return n
        return 0

    @staticmethod
    def _key(word_stems, i, n):
        return " ".join(stem for one in word_stems[i:i + n] for stem in one)

    def _calculators(self, words, word_stems):
        """Ids of the calculators the words ask for (odds, chances, scores); a filler word alone
        asks for none, whatever its stem ("like" is not "likely")."""
        found = set()
        for i, first in enumerate(word_stems):
            if first and first[0] in self.calculator_starts:
                for n in range(1, min(MAX_PHRASE_WORDS, len(word_stems) - i) + 1):
                    key = self._key(word_stems, i, n)
                    if not self._filler_alone(words[i], key):
                        found.update(self.words.calculator_words.get(key, ()))
        return frozenset(found)

    def _parts(self, words, word_stems, game, alternatives, unfinished, reading):
        """Every part of the words: a glossary or player phrase where one starts, else the word."""
        filler = self.words.filler | {BREAK}
        keep_filler = all(word not in filler for word in words) or all(word in filler for word in words)
        meanings = {part.meaning for part in reading.parts}
        sentence = i = 0
        while i < len(words):
            if words[i] == BREAK:
                sentence, i = sentence + 1, i + 1
                continue
            found = self._phrase_at(word_stems, i, game, words, alternatives)
            if found:
                n, part, rewrite = found
                part.typed = " ".join(words[i:i + n])
                i += n
            else:
                word, i = words[i], i + 1
                if word in filler and not keep_filler:
                    reading.question = True
                    continue
                part, rewrite = self._word_part(word, alternatives.get(i - 1), unfinished and i == len(words)), None
            if part is not None and part.meaning not in meanings:
                meanings.add(part.meaning)
                part.sentence = sentence
                reading.parts.append(part)
                if rewrite:
                    reading.rewrites.append(rewrite)

    def _word_part(self, word, corrections, unfinished):
        """The part for one word: its corrections if it was corrected, else the word; None if it means nothing."""
        if corrections:
            chosen = [w for w in corrections if self._means(w)]
            if not chosen:
                return None
            key = key_of(chosen[0])
            return Part(typed=word, make=lambda: wq.Or([boosted([self._word_query(w, False)], 0.8 ** n)
                                                       for n, w in enumerate(chosen)]),
                        meaning=word, key=key, frequency=self._frequency(key.split()), corrected=True)
        if not self._means(word):
            return None
        meaning = self.words.numbers.get(word, word)  # "two" and "2" are one number
        return Part(typed=word, make=lambda: self._word_query(word, unfinished), meaning=meaning, key=key_of(word),
                    frequency=self._frequency(index_terms(word)))

    def _means(self, word):
        """Whether a typed word has a meaning to search: some term, and no abbreviation it is not ("dies" is not "DI")."""
        tokens = index_terms(word)
        if not tokens:
            return False
        short = len(tokens) == 1 or len(stems(word)) < 2
        return not (short and len(tokens[0]) <= 2 and tokens[0] in self.words.concepts
                    and word not in self.words.abbreviations)

    def _word_query(self, word, unfinished):
        """A query for one typed word that means something (hyphenated: joined or split)."""
        tokens = index_terms(word)
        parts = stems(word)
        if len(tokens) > 1 and len(parts) > 1:
            return wq.Or([self.maker.term(tokens[-1]), self.maker.phrase(parts)])
        token = tokens[0]
        alternatives = [self.maker.term(token)]
        other = self.words.numbers.get(word) or self.words.number_words.get(word)
        if other:
            alternatives.append(self.maker.term(other))
        if unfinished:
            alternatives += [self.maker.term(c, boost=COMPLETION_BOOST) for c in self.completions(word) if c != token]
        return any_of(alternatives)

    def _phrase_at(self, word_stems, i, game, typed, corrected):
        """The longest glossary or player phrase of the ``typed`` words starting at word i, within its
        sentence: (words, part, rewrite) or None.

        In each game a phrase means its glossary term if the game has one, else the rules' words
        the player vocabulary gives for it; the typed words themselves always count too. A word
        stemmed to two letters is an abbreviation only as typed: "DI", not "died"; a corrected
        word is already the rules' word, so the vocabulary does not rewrite it again. A filler word
        alone is no phrase ("like" is not "likely") unless the vocabulary lists it as it is ("guy").
        """
        if not word_stems[i] or word_stems[i][0] not in self.phrase_starts:
            return None
        for n in range(min(MAX_PHRASE_WORDS, len(word_stems) - i), 0, -1):
            key = self._key(word_stems, i, n)
            if BREAK in typed[i:i + n] or not word_stems[i + n - 1] or len(key) < 2:
                continue
            if self._filler_alone(typed[i], key):
                continue
            found = self._phrase_of(key, n == 1 and typed[i], game, bool(corrected.keys() & range(i, i + n)))
            if found:
                return (n, *found)
        return None

    def _filler_alone(self, word, key):
        """Whether ``key`` is a filler word on its own (with only little words after it): it is no
        phrase, whatever its stem ("like" is not "likely"), unless the vocabulary lists the word as
        it is ("guy")."""
        return " " not in key and word in self.words.filler and word not in self.words.player_words_as_written

    def _phrase_of(self, key, alone, game, corrected):
        """(part, rewrite) for a glossary or player phrase, or None if ``key`` is neither; ``alone``
        is the word typed when the phrase is one word."""
        short = bool(alone) and len(key) <= 2 and key in self.words.concepts
        abbreviation = short and alone in self.words.abbreviations
        concepts = [c for c in self.words.concepts.get(key, ())
                    if (game is None or self.words.group_game[c] == game) and abbreviation == short]
        rewrites = self._rewrites(key, game, {self.words.group_game[c] for c in concepts}, abbreviation or corrected)
        if not concepts and not rewrites:
            return None
        return self._phrase_part(key, abbreviation == short, concepts, rewrites, game), (key, rewrites) if rewrites else None

    def _rewrites(self, key, game, named, refused):
        """{game: rules phrases} the vocabulary gives for a player phrase, in the games searched
        that have no glossary term of that name."""
        if refused:
            return {}
        return {g: rules for g, rules in self.words.rewrites.get(key, {}).items()
                if (game is None or g == game) and g not in named}

    def _phrase_part(self, key, as_typed, concepts, rewrites, game):
        """A phrase as typed (where it is no abbreviation read as another word), its glossary
        groups, and the rules' words for it in each game that has them."""
        alternatives = [lambda: self.maker.phrase(key.split())] * as_typed
        alternatives += [lambda c=c: wq.Term(CONCEPTS_FIELD, c) for c in concepts]
        by_rules = {}
        for g, rules in rewrites.items():
            by_rules.setdefault(rules, []).append(g)
        for rules, games in by_rules.items():
            alternatives.append(lambda rules=rules, games=games: self._expansion(rules, games, game))
        rules = tuple(dict.fromkeys(r for rs in by_rules for r in rs))
        return Part(typed=key, make=lambda: wq.Or([make() for make in alternatives]), meaning=(tuple(concepts), rules),
                    key=key, rules=rules, frequency=self._frequency([*key.split(), *(s for r in rules for s in stems(r))]))

    def _expansion(self, rules, games, game):
        """The rules' words for a player phrase, counted down a little, kept to the games they are for."""
        found = [q for q in (self.maker.rules_words(key_of(r)) for r in rules) if q is not None]
        expansion = boosted(found, REWRITE_BOOST)
        if game is None and len(games) < len(self.words.games):
            where = [wq.Term("game", g) for g in games]
            expansion = wq.Require(expansion, where[0] if len(where) == 1 else wq.Or(where))
        return expansion

    def _frequency(self, words):
        """How many entries hold the rarest of ``words`` that any holds in its own words (0: none holds
        any: words only players use, in the questions they ask)."""
        return min((self.frequency[w] for w in words if self.frequency.get(w)), default=0)

    @staticmethod
    def _rarest(parts):
        """At most MAX_PARTS parts, in the order typed: those whose words the rules use, the rarest
        first, then those only players use."""
        if len(parts) <= MAX_PARTS:
            return parts
        kept = sorted(range(len(parts)), key=lambda i: (parts[i].frequency == 0, parts[i].frequency, i))[:MAX_PARTS]
        return [parts[i] for i in sorted(kept)]
