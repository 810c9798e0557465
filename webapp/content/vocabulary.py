"""The player vocabulary: the words players use at the table, mapped to the words the rules use.

`content/vocabulary.yaml` holds it. Search expands a query with it ("run away" also looks for
retreat) and says so on the results page. Each game's list adds to the shared one and, for
the same player words, replaces it. It is validated with the content: every rules word must
occur in the rules it points to, and every problem names the file and the key.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .checker import ContentError, not_utf8
from .parsed import parse_yaml

FILE_NAME = "vocabulary.yaml"
MAX_PHRASE_WORDS = 4
MAX_NAME_WORDS = 6  # "war of the ring card game"
WORD = re.compile(r"\w+(?:[-'’]\w+)*")  # a word as typed or printed: re-roll, Durin's
ITEM_KEYS = ("players", "rules")


def fold(text: str) -> str:
    """Lowercase without accents: what a player types for what the rules print."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def words_of(text: str) -> list:
    """The folded words of a text; hyphens and apostrophes split words (re-roll: re, roll)."""
    return [w for w in re.split(r"[^\w]+", fold(text)) if w]


@dataclass(frozen=True)
class VocabularyEntry:
    players: tuple  # folded phrases players say
    rules: tuple  # the rules' words for the same thing


@dataclass
class Vocabulary:
    filler: frozenset = frozenset()  # words that carry no meaning in a question ("how", "actually")
    numbers: tuple = ()  # the number words from one up, in order ("two" is 2)
    definition: tuple = ()  # phrases that begin a question about what one term means ("what is")
    any_calculator: tuple = ()  # words that ask for a calculator, whichever it is
    sequence: tuple = ()  # phrases that ask the order of a whole turn, round or fight ("step by step")
    calculators: dict = field(default_factory=dict)  # calculator id -> phrases players ask it with
    games: dict = field(default_factory=dict)  # game id -> the names players call the game by
    rewrites: dict = field(default_factory=dict)  # None (shared) or game id -> tuple of VocabularyEntry
    found_in: dict = field(default_factory=dict)  # rules phrase -> the games whose rules use it

    def for_game(self, game_id):
        """Folded player phrase -> rules phrases, for one game: the shared list, then the game's own.

        A shared rewrite gives a game only the rules phrases its rules use, and none if they use
        none of them: "hp" is health in Middle-earth Quest and hope in Fate of the Fellowship."""
        table = {}
        for scope in (None, game_id):
            for rewrite in self.rewrites.get(scope, ()):
                rules = tuple(r for r in rewrite.rules if game_id in self.found_in.get(r, ()))
                for phrase in rewrite.players:
                    if rules:
                        table[phrase] = rules
                    else:
                        table.pop(phrase, None)
        return table


class _Checker:
    def __init__(self, path: Path, library, calculator_ids, parsed=None):
        self.path = path
        self.parsed = parsed  # texts parsed ahead of time (see parsed.py), or None
        self.library = library
        self.calculator_ids = tuple(calculator_ids)
        self.problems = []
        self.texts = {game_id: _game_text(game) for game_id, game in library.games.items()}
        self.names = {game_id: game_names(game) for game_id, game in library.games.items()}
        self.found_in = {}
        self.filler = frozenset()

    def problem(self, where, message):
        rel = self.path.relative_to(self.path.parent.parent) if self.path.is_absolute() else self.path
        self.problems.append(f"{rel}: {where}: {message}" if where else f"{rel}: {message}")

    def phrases(self, where, value, *, single_words=False, most=MAX_PHRASE_WORDS):
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
            self.problem(where, "must be a non-empty list of text items")
            return ()
        found = []
        for i, phrase in enumerate(value):
            words = words_of(phrase)
            if not words:
                self.problem(f"{where}[{i}]", f"'{phrase}' has no words")
            elif single_words and len(words) > 1:
                self.problem(f"{where}[{i}]", f"'{phrase}' must be one word")
            elif len(words) > most:
                self.problem(f"{where}[{i}]", f"'{phrase}' has more than {most} words")
            else:
                found.append(" ".join(words))
        return tuple(found)

    def rewrites(self, scope, value):
        where = scope or "shared"
        if not isinstance(value, list):
            self.problem(where, "must be a list of items, each with players and rules")
            return ()
        found, seen = [], {}
        for i, item in enumerate(value):
            at = f"{where}[{i}]"
            if not isinstance(item, dict):
                self.problem(at, "must be a mapping with players and rules")
                continue
            for key in item:
                if key not in ITEM_KEYS:
                    self.problem(f"{at}.{key}", f"unknown key (allowed: {', '.join(ITEM_KEYS)})")
            missing = [key for key in ITEM_KEYS if key not in item]
            if missing:
                self.problem(at, f"missing required key '{missing[0]}'")
                continue
            players = self.phrases(f"{at}.players", item["players"])
            rules = self.phrases(f"{at}.rules", item["rules"])
            for j, phrase in enumerate(players):
                if phrase in seen:
                    self.problem(f"{at}.players[{j}]", f"'{phrase}' is already in {where}[{seen[phrase]}]")
                seen.setdefault(phrase, i)
                if phrase in rules:
                    self.problem(f"{at}.players[{j}]", f"'{phrase}' is one of its own rules words")
                elif scope and phrase in self.names[scope]:
                    self.problem(f"{at}.players[{j}]", f"'{phrase}' is already a name the rules use in "
                                 f"{self.library.games[scope].short_title} (a title, term or alias)")
            for j, phrase in enumerate(rules):
                games = [scope] if scope else list(self.texts)
                self.found_in[phrase] = frozenset(game for game in self.texts if f" {phrase} " in self.texts[game])
                if not self.found_in[phrase] & set(games):
                    whose = f"{self.library.games[scope].short_title}'s rules" if scope else "any game's rules"
                    self.problem(f"{at}.rules[{j}]", f"'{phrase}' does not occur in {whose}")
                elif self.filler and set(phrase.split()) <= self.filler:
                    self.problem(f"{at}.rules[{j}]", f"'{phrase}' is only filler words, which search drops")
            if players and rules:
                found.append(VocabularyEntry(players=players, rules=rules))
        return tuple(found)

    def calculators(self, value):
        if not isinstance(value, dict):
            self.problem("calculators", "must map calculator ids to the words players ask them with")
            return {}
        found = {}
        for calculator_id, phrases in value.items():
            if calculator_id not in self.calculator_ids:
                self.problem(f"calculators.{calculator_id}",
                             f"unknown calculator (allowed: {', '.join(self.calculator_ids)})")
                continue
            found[calculator_id] = self.phrases(f"calculators.{calculator_id}", phrases)
        return found

    def games(self, value):
        if not isinstance(value, dict):
            self.problem("games", "must map game ids to the names players call them by")
            return {}
        found, seen = {}, {}
        every_name = set().union(*self.names.values())
        for game_id, names in value.items():
            if game_id not in self.library.games:
                self.problem(f"games.{game_id}", f"unknown game (allowed: {', '.join(self.library.games)})")
                continue
            found[game_id] = self.phrases(f"games.{game_id}", names, most=MAX_NAME_WORDS)
            for i, name in enumerate(found[game_id]):
                if name in every_name:  # "fellowship" is an action, "quest" a card: never a game's name
                    self.problem(f"games.{game_id}[{i}]", f"'{name}' is already a name the rules use")
                elif name in seen:
                    self.problem(f"games.{game_id}[{i}]", f"'{name}' is already a name of {seen[name]}")
                seen.setdefault(name, game_id)
        return found

    def load(self) -> Vocabulary:
        try:
            data = parse_yaml(self.path.read_text(encoding="utf-8"), self.parsed)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            self.problem(f"line {mark.line + 1}" if mark else "", f"not valid YAML ({getattr(exc, 'problem', exc)})")
            return Vocabulary()
        except UnicodeDecodeError as exc:
            self.problem(*not_utf8(exc))
            return Vocabulary()
        except OSError as exc:
            self.problem("", f"cannot be read ({exc.strerror})")
            return Vocabulary()
        if not isinstance(data, dict):
            self.problem("", "must be a mapping of keys to values")
            return Vocabulary()
        allowed = ("filler", "numbers", "definition", "any-calculator", "sequence", "calculators", "shared",
                   *self.library.games, "games")
        for key in data:
            if key not in allowed:
                self.problem(str(key), f"unknown key (allowed: {', '.join(allowed)})")
        self.filler = frozenset(self.phrases("filler", data.get("filler"), single_words=True))
        vocabulary = Vocabulary(
            filler=self.filler,
            numbers=self.phrases("numbers", data["numbers"], single_words=True) if "numbers" in data else (),
            definition=self.phrases("definition", data["definition"]) if "definition" in data else (),
            any_calculator=self.phrases("any-calculator", data["any-calculator"]) if "any-calculator" in data else (),
            sequence=self.phrases("sequence", data["sequence"]) if "sequence" in data else (),
            calculators=self.calculators(data.get("calculators", {})),
            games=self.games(data.get("games", {})),
        )
        for scope in (None, *self.library.games):
            if (scope or "shared") in data:
                vocabulary.rewrites[scope] = self.rewrites(scope, data[scope or "shared"])
        vocabulary.found_in = self.found_in
        return vocabulary


def _game_text(game):
    """Every word of a game's rules, folded, as one space-padded string to look phrases up in."""
    parts = []
    for section in game.sections.values():
        parts += [section.title, section.summary, section.text]
        for entry in section.walk():
            parts += [entry.title, entry.short, entry.text, *entry.aliases]
    return f" {' '.join(words_of(' '.join(parts)))} "


def game_names(game):
    """The folded titles, glossary terms and aliases of a game: the names its rules give things."""
    names = set()
    for section in game.sections.values():
        names.add(" ".join(words_of(section.title)))
        for entry in section.walk():
            names.update(" ".join(words_of(name)) for name in (entry.title, entry.short, *entry.aliases))
    return names


def load_vocabulary(content_root, library, calculator_ids, parsed=None) -> Vocabulary:
    """Load and check ``vocabulary.yaml`` in the content folder; raise ContentError listing every problem.
    ``parsed``: texts parsed ahead of time (see parsed.py)."""
    checker = _Checker(Path(content_root) / FILE_NAME, library, calculator_ids, parsed)
    vocabulary = checker.load()
    if checker.problems:
        raise ContentError(checker.problems)
    return vocabulary
