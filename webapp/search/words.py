"""The words search knows besides the rules' running text, all drawn from the content: the
glossary's synonyms (a term and its aliases), the player vocabulary (content/vocabulary.yaml:
the players' words for the rules' words, filler, number words, how a definition question
opens, the words that ask the order of a whole turn, the words that ask for a calculator, the
names players call the games by).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..content.vocabulary import MAX_PHRASE_WORDS, Vocabulary, fold, game_names
from .analysis import key_of, opening_pattern, saying_pattern, stems
from .documents import calculators_of


@dataclass
class Words:
    games: tuple = ()  # the ids of the games loaded
    filler: frozenset = frozenset()  # words that carry no meaning in a question
    numbers: dict = field(default_factory=dict)  # "two" -> "2"
    number_words: dict = field(default_factory=dict)  # "2" -> "two"
    definition: object = None  # a pattern for the openings of a question about what a term means
    sequence: object = None  # a pattern for the words that ask the order of a whole turn, round or fight
    concepts: dict = field(default_factory=dict)  # stemmed glossary phrase -> ids of the groups it names
    group_game: dict = field(default_factory=dict)  # group id -> its game
    group_stems: dict = field(default_factory=dict)  # group id -> the stems of all its phrases
    abbreviations: frozenset = frozenset()  # glossary names of one or two letters ("DI", "MP")
    named_terms: dict = field(default_factory=dict)  # stemmed term or alias -> ids of the terms it names
    rewrites: dict = field(default_factory=dict)  # stemmed player phrase -> {game: rules phrases}
    game_names: dict = field(default_factory=dict)  # stemmed name of a game -> the game's id
    calculator_words: dict = field(default_factory=dict)  # stemmed phrase -> ids of the calculators it asks for
    player_words: frozenset = frozenset()  # words (and their stems) players use on their own
    player_words_as_written: frozenset = frozenset()  # the same words, as the vocabulary lists them
    player_pairs: frozenset = frozenset()  # pairs of words players use together


def glossary_terms(library):
    """(game id, term id, [term, *aliases]) for every glossary term."""
    for game in library.games.values():
        for section in game.sections.values():
            for entry in section.walk():
                if entry.kind == "term":
                    yield game.id, entry.id, [entry.title, *entry.aliases]


def _glossary(words, library):
    """A glossary term and its aliases are one group of synonyms, a group of its game."""
    groups = [(game, phrases) for game, _, phrases in glossary_terms(library) if len(phrases) > 1]
    for number, (game, phrases) in enumerate(groups):
        group = f"g{number}"
        words.group_game[group] = game
        for phrase in phrases:
            key = key_of(phrase)
            if key and len(key.split()) <= MAX_PHRASE_WORDS and group not in words.concepts.get(key, ()):
                words.concepts.setdefault(key, []).append(group)
                words.group_stems.setdefault(group, set()).update(key.split())
    words.abbreviations = frozenset(fold(p) for _, phrases in groups for p in phrases if len("".join(stems(p))) <= 2)
    for game, term_id, phrases in glossary_terms(library):
        for phrase in phrases:
            words.named_terms.setdefault(key_of(phrase), set()).add(f"{game}:{term_id}")


def _rewrites(words, library, vocabulary):
    """Each game's player phrases, and the rules' words they stand for there."""
    player_words, player_pairs, as_written = set(), set(), set()
    for game_id, game in library.games.items():
        # a player phrase that is, word endings aside, a name the game's rules give needs no rewrite there
        named = {key_of(name) for name in game_names(game) if len(name) > 2}
        for phrase, rules in vocabulary.for_game(game_id).items():
            key = key_of(phrase)
            if key and key not in named and key not in {key_of(r) for r in rules}:
                words.rewrites.setdefault(key, {})[game_id] = rules
            split = phrase.split()
            player_pairs.update(zip(split, split[1:]))
            if len(split) == 1:
                player_words.update((phrase, key))
                as_written.add(fold(phrase))
    for names in vocabulary.games.values():
        player_words.update(word for name in names for word in name.split())
    return player_words, player_pairs, as_written


def _calculator_words(library, calculators, vocabulary):
    """Stemmed phrase -> the calculators it asks for ("odds": every one, "battle odds": the battle's)."""
    every = [f"{c.game}:calc/{c.slug}" for c in calculators_of(library, calculators)]
    found = {key_of(phrase): set(every) for phrase in vocabulary.any_calculator}
    for calculator in calculators_of(library, calculators):
        for phrase in vocabulary.calculators.get(calculator.id, ()):
            found.setdefault(key_of(phrase), set()).add(f"{calculator.game}:calc/{calculator.slug}")
    return {key: frozenset(ids) for key, ids in found.items() if key}


def read_words(library, calculators) -> Words:
    """The words search knows for ``library`` and its ``calculators``."""
    vocabulary = library.vocabulary or Vocabulary()
    words = Words(games=tuple(library.games), filler=vocabulary.filler,
                  definition=opening_pattern(vocabulary.definition), sequence=saying_pattern(vocabulary.sequence))
    words.numbers = {word: str(n) for n, word in enumerate(vocabulary.numbers, 1)}
    words.number_words = {number: word for word, number in words.numbers.items()}
    _glossary(words, library)
    player_words, player_pairs, as_written = _rewrites(words, library, vocabulary)
    words.player_words = frozenset(player_words)
    words.player_words_as_written = frozenset(as_written)
    words.player_pairs = frozenset(player_pairs)
    words.game_names = {key_of(name): game for game, names in vocabulary.games.items() for name in names}
    words.calculator_words = _calculator_words(library, calculators, vocabulary)
    return words
