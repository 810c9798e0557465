"""Full-text search over the rule content; every Whoosh call in Red Book lives in this module.

The index is built in memory (Whoosh's RamStorage) when the app is created, from the loaded
content and the calculators: under 700 small documents, so nothing is written to disk and
every worker answers from its own copy (gunicorn --preload builds it once, before the fork).

Players ask questions, not titles, so a query is read the way a player means it:
- each meaningful word or phrase is one part; entries that match every part come first,
  topped up by those that match most of them (rarer words count for more), so an extra word
  never empties or derails the answer; filler and question words are dropped;
- the player vocabulary (content/vocabulary.yaml) adds the rules' words for the players'
  ("run away" also looks for retreat), game by game, and the results say when it did; in a
  game with no word for such a verb and its particle, the verb is not searched alone;
- glossary aliases act as synonyms (MP, marshalling points);
- accents are folded, words stemmed, hyphenated words matched joined and split, "quoted
  phrases" matched in order, and a word the rules never use is corrected to the closest rules
  word, preferring one that makes a phrase the rules use with its neighbour (serch dice);
- for a question or a situation, rules and steps come before glossary terms and whole pages,
  and a rule before its exceptions; for a lone term, its glossary entry; for words that are a
  title ("hero turn steps"), that entry; a question about odds or scores lists the calculator
  it asks for first; a "how many" question, an entry that gives a number of what it asks about;
  "how does X work", the entry the rules of X sit in (a section, or the phase of its steps);
  "X runs out", also where the rules say there is no X left;
- a query that names a game ("meq setup") searches that game; without a game filter or a
  name, entries of the game whose rules fit the whole question come first.
The query text is never parsed as query syntax, so no input can widen a search or break it.
"""
from __future__ import annotations

import bisect
import math
import re
import threading
from dataclasses import dataclass, field, replace
from functools import lru_cache

from whoosh import query as wq
from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema
from whoosh.filedb.filestore import RamStorage

from .content.vocabulary import MAX_NAME_WORDS, MAX_PHRASE_WORDS, WORD, fold, game_names, words_of
from .search_documents import calculators_of, documents
from .search_input import LIMIT_MAX, MAX_QUERY_CHARS
from .search_results import Hit, PlayerWords, Results
from .snippets import snippet
from .spelling import Speller
from .state import get_search_index

MAX_QUERY_WORDS = 12
MAX_FUZZY_CANDIDATES = 3
CACHE_SIZE = 512
# How much a kind of entry counts: a lone term wants its definition, a question the rule that
# answers it; a calculator lists first when asked for (odds, score) and after its rules otherwise
TERM_FACTOR_LONE, TERM_FACTOR_QUESTION = 1.3, 0.6
CALCULATOR_FACTOR_ASKED, CALCULATOR_FACTOR_NOT_ASKED = 1.3, 0.7
# An entry is ranked by the share of the query it matches (each word or phrase weighted by its
# rarity, each match counted against the best match of that word in its game), a lift if it
# matches every word, and its score: RARITY 0 would weigh all words alike, 1 by their full
# inverse document frequency
RARITY = 0.5
ALL_BONUS = 0.25
SCORE_WEIGHT = 0.3
GAME_FIT = 0.25  # without a game filter, how much the entries of the games that fit move up
REWRITE_BOOST = 0.7  # the rules' words for a player's words count a little less than the player's own
SETUP_WORD = "setup"
SETUP_FACTOR = 0.7  # an entry of a game's Setup section, for a query that does not ask about setting up
SECTION_FACTOR_QUESTION = 0.8  # a question wants the rule that answers it more than the page it is on
PARENT_SHARE = 0.9  # how fully a parent must answer to come before a child that adds to its title
TITLE_SAID = 0.2  # how much an entry moves up whose whole title the query says
NUMBER_WEIGHT = 0.5  # a number in a question is usually the player's own count, not the rule's
COUNT_GIVEN = 0.2  # how much an entry moves up that gives a number of what "how many" asks about
COUNT_REACH = 2  # a number counts the next words: "3 battle dice" is a number of battle dice and of dice
COUNT_QUESTION = re.compile(r"\bhow\s+(?:many|much)\s+((?:[\w'’-]+\s*){1,3})")
# the little words that make a verb a phrase of its own: "run away" is not "run", "give up" not "give"
PARTICLES = frozenset({"away", "back", "off", "out", "up", "down", "over", "around", "through"})
OVERVIEW = frozenset({"step", "phase"})  # "hero turn steps" asks for the Hero Turn, not for steps
# "how does combat work", "explain strikes": the whole of it, the entry the others about it sit in
OVERVIEW_QUESTION = re.compile(r"\bhow\b.*\bworks?\b|^\s*explain\b")
OVERVIEW_GIVEN = 0.1  # how much an entry moves up for each entry in it that answers too, up to OVERVIEW_REACH
OVERVIEW_REACH = 3
# "hope runs out", "ran out of cards": the rules say there is none left ("no hope left", "no cards left")
RUN_OUT = re.compile(r"\b([\w'’-]+)\s+(?:runs?|ran)\s+out\b(?!\s+of)|\b(?:runs?|ran)\s+out\s+of\s+([\w'’-]+)")
RUN_WORDS = frozenset({"run", "ran"})


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


def _chain(split_filter):
    return (RegexTokenizer(WORD.pattern) | split_filter | LowercaseFilter() | FoldFilter()
            | StopFilter(minsize=1) | StemFilter())


CONTEXT_BOOST = 0.6  # an entry's section and parent titles count for this much of its own words
ANALYZER = _chain(JoinedWordFilter())
PHRASE_ANALYZER = _chain(JoinedWordFilter(joined=False))

SCHEMA = Schema(
    id=ID(stored=True, unique=True),
    game=ID(stored=True),
    section=ID(stored=True),
    kind=ID(stored=True),
    title=TEXT(analyzer=ANALYZER, stored=True, field_boost=3.0),
    aliases=TEXT(analyzer=ANALYZER, stored=True, field_boost=2.0),
    body=TEXT(analyzer=ANALYZER, stored=True),
    # the titles of the section and the phases or rules an entry sits in: "free council
    # doubling" finds the doubling step of The Free Council even though the step never names it
    context=TEXT(analyzer=ANALYZER, field_boost=CONTEXT_BOOST),
    concepts=KEYWORD(scorable=True, field_boost=2.0),
    url=STORED,
    trail=STORED,
)
TEXT_FIELDS = ("title", "aliases", "body", "context")


def opening_pattern(phrases):
    """A pattern for a text that begins with one of ``phrases``, its words run together or apart
    by spaces or an apostrophe ("what s": what's, whats, what s); none, a pattern that never matches."""
    alternatives = "|".join(r"[\s'’]*".join(map(re.escape, phrase.split())) for phrase in phrases)
    return re.compile(rf"^\s*(?:{alternatives})\b" if phrases else r"(?!)")


def normalised(text):
    """A query as search reads it, case and runs of spaces folded: what its answers are cached under.
    A space at the end stays (the last word is finished, not a prefix still being typed)."""
    return re.sub(r"\s+", " ", text.lower()).lstrip()


def signs_spelled(text):
    """"+1" and "-2" as players mean them: plus 1, minus 2 (a modifier, not just a number)."""
    return re.sub(r"(?<!\w)[-−](?=\d)", " minus ", re.sub(r"(?<!\w)\+(?=\d)", " plus ", text))


@lru_cache(maxsize=20000)
def stems(text):
    """Stems of a text, hyphenated words split: the unit glossary and player phrases are matched in."""
    return tuple(t.text for t in PHRASE_ANALYZER(text))


def glossary_terms(library):
    """(game id, term id, [term, *aliases]) for every glossary term."""
    for game in library.games.values():
        for section in game.sections.values():
            for entry in section.walk():
                if entry.kind == "term":
                    yield game.id, entry.id, [entry.title, *entry.aliases]


def concept_table(groups):
    """Stemmed phrase -> ids of the glossary groups it names (a term and its aliases)."""
    table = {}
    for number, group in enumerate(groups):
        for phrase in group:
            key = " ".join(stems(phrase))
            if key and len(key.split()) <= MAX_PHRASE_WORDS and f"g{number}" not in table.get(key, ()):
                table.setdefault(key, []).append(f"g{number}")
    return table


def concepts_in(text, table):
    """Ids of the glossary groups whose phrases occur in the text, once per occurrence."""
    words = stems(text)
    found = []
    for i in range(len(words)):
        for n in range(1, MAX_PHRASE_WORDS + 1):
            found.extend(table.get(" ".join(words[i:i + n]), ()))
    return found


@dataclass
class QueryPart:
    """One meaningful word or phrase of a query, and the Whoosh query that finds it."""

    typed: str
    query: wq.Query
    term: bool = False  # a glossary term or alias, or one plain word: a lone one asks for a definition
    meaning: object = None  # parts that mean the same (two player phrases for one rule word) count once
    key: str = ""  # the stems of the words it stands for


@dataclass
class QueryReading:
    """How search reads a query: its parts, and what its words say besides."""

    parts: list = field(default_factory=list)
    corrected: bool = False
    rewrites: list = field(default_factory=list)
    definition: bool = False  # "what is ...": the glossary answers
    question: bool = False  # filler or question words were dropped: a question, not a lone term
    calculators: frozenset = frozenset()  # docnums of the calculators asked for (odds, chances, scores)
    game: str | None = None  # the game the query names ("meq setup"), if it names one
    words: frozenset = frozenset()  # the words typed (corrected), as typed
    counted: frozenset = frozenset()  # stems of what "how many" asks about: an entry with a number of it answers
    overview: bool = False  # "how does X work": the entry that holds the rules of X, not one of them


# --- the fast path ------------------------------------------------------------------------

class HeldScores:
    """FAST PATH (the one place that trades Whoosh's query machinery for speed).

    Whoosh scores a query by walking the postings of its terms and scoring each with BM25F, on
    every search. Here every (field, term) is read once, when the index is built, through the
    searcher's public postings matcher: each document's score and the term's positions in it.
    A query then adds those scores up: a term scores as its table says, an Or as the sum of
    what matches, a phrase as the sum of its words' scores where they stand side by side, a
    Require(..., game) as its first part within the game. That is what Whoosh computes; the
    tests check that every player and table question ranks exactly as Whoosh's own search
    ranks it, and bench/search_latency.py times both.
    """

    def __init__(self, searcher, terms, game_of):
        self.scores_of = {}  # (field, term) -> {game or None for all: {docnum: score}}
        self.positions = {}  # (field, term) -> {docnum: positions}
        for fieldname, words in terms.items():
            positional = fieldname in TEXT_FIELDS
            for word in words:
                matcher = searcher.postings(fieldname, word)
                scores, where = {None: {}}, {}
                while matcher.is_active():
                    docnum, score = matcher.id(), matcher.score()
                    scores[None][docnum] = score
                    scores.setdefault(game_of[docnum], {})[docnum] = score
                    if positional:
                        where[docnum] = frozenset(matcher.value_as("positions"))
                    matcher.next()
                self.scores_of[(fieldname, word)] = scores
                if positional:
                    self.positions[(fieldname, word)] = where

    def scores(self, query, game, game_docs):
        """{docnum: score} within ``game`` (None: every game) for Term, Phrase, Or and Require(..., game) queries."""
        kind = type(query)
        if kind is wq.Term:
            found = self.scores_of.get((query.fieldname, query.text), {}).get(game, {})
        elif kind is wq.Phrase:
            found = self._phrase(query.fieldname, query.words, game)
        elif kind is wq.Or:
            if len(query.subqueries) == 1:  # as in Whoosh, an Or of one query is that query, boost and all
                return self.scores(query.subqueries[0], game, game_docs)
            found = {}
            for sub in query.subqueries:
                for docnum, score in self.scores(sub, game, game_docs).items():
                    found[docnum] = found.get(docnum, 0.0) + score
        elif kind is wq.Require:
            allowed = set().union(*(game_docs.get(t.text, ()) for t in _game_terms(query.b)))
            found = {d: s for d, s in self.scores(query.a, game, game_docs).items() if d in allowed}
        else:
            raise TypeError(f"no held scores for {kind.__name__} queries")
        return {d: s * query.boost for d, s in found.items()} if query.boost != 1.0 else found

    def _phrase(self, fieldname, words, game):
        lists = [self.scores_of.get((fieldname, word), {}).get(game) for word in words]
        if not all(lists):
            return {}
        places = [self.positions[(fieldname, word)] for word in words]
        found = {}
        for docnum in set(lists[0]).intersection(*lists[1:]):
            if any(all(start + i in place[docnum] for i, place in enumerate(places[1:], 1))
                   for start in places[0][docnum]):
                found[docnum] = sum(scores[docnum] for scores in lists)
        return found


def _boosted(queries, boost):
    """Any of ``queries``, scores multiplied by ``boost`` (Whoosh ignores the boost of an Or of one)."""
    if len(queries) > 1:
        return wq.Or(queries, boost=boost)
    query = queries[0]
    if type(query) is wq.Term:
        return wq.Term(query.fieldname, query.text, boost=query.boost * boost)
    if type(query) is wq.Phrase:
        return wq.Phrase(query.fieldname, query.words, boost=query.boost * boost)
    return _boosted(query.subqueries, query.boost * boost)


def _game_terms(query):
    return [query] if type(query) is wq.Term else list(query.subqueries)


# --- the index ----------------------------------------------------------------------------

class MemoryStorage(RamStorage):
    """Whoosh's RamStorage with its temporary files in memory too.

    RamStorage writes the temporary files of a commit to a folder in the system's temp
    directory, one name for every index: a read-only machine could not build it, and two
    processes building at once would remove each other's files.
    """

    def temp_storage(self, name=None):
        return RamStorage()


class SearchIndex:
    """The content's search index, built in memory when the app is created."""

    def __init__(self, library, calculators, held_scores=True):
        ix = MemoryStorage().create_index(SCHEMA)
        # the synonyms of one game: a glossary term and its aliases
        groups = [(game, phrases) for game, _, phrases in glossary_terms(library) if len(phrases) > 1]
        table = concept_table([phrases for _, phrases in groups])
        self.group_game = {f"g{number}": game for number, (game, _) in enumerate(groups)}
        self.abbreviations = {fold(p) for _, phrases in groups for p in phrases if len("".join(stems(p))) <= 2}
        game_tables = {}  # a document only carries the glossary groups of its own game
        for key, ids in table.items():
            for group in ids:
                game_tables.setdefault(self.group_game[group], {}).setdefault(key, []).append(group)
        self.counts = {}  # folded word -> how much the rules use it; titles and names count more
        bigrams = set()  # pairs of words the rules use together in a title, a name or an alias
        names = set()  # the words of titles, names and aliases: the rules' own vocabulary
        with ix.writer() as writer:
            for doc in documents(library, calculators):
                doc["concepts"] = " ".join(concepts_in(f"{doc['title']} {doc['aliases']} {doc['body']}",
                                                       game_tables.get(doc["game"], {})))
                writer.add_document(**doc)
                for weight, text in ((5, doc["title"]), (5, doc["aliases"]), (1, doc["body"])):
                    words = words_of(text)
                    for word in words:
                        self.counts[word] = self.counts.get(word, 0) + weight
                    if weight > 1:
                        bigrams.update(zip(words, words[1:]))
                        names.update(words)
        self.searcher = ix.searcher()
        self.lock = threading.Lock()  # a Whoosh searcher reads through file objects it shares
        reader = self.searcher.reader()
        self.stored = dict(reader.iter_docs())
        self.doc_game = [self.stored[docnum]["game"] for docnum in range(len(self.stored))]
        self.doc_kind = [self.stored[docnum]["kind"] for docnum in range(len(self.stored))]
        docnums = {fields["id"]: docnum for docnum, fields in self.stored.items()}
        # a calculator answers for the rules it works out: "odds of a corruption check"
        self.calculator_rules = {
            docnums[f"{calculator.game}:calc/{calculator.slug}"]: [
                docnums[f"{calculator.game}:{entry.id}"] for _, entry in library.entries_for_calculator(calculator.id)]
            for calculator in calculators_of(library, calculators)}
        self.named_terms = {}  # stemmed term or alias -> the glossary entries it names
        for game, term_id, phrases in glossary_terms(library):
            for phrase in phrases:
                self.named_terms.setdefault(" ".join(stems(phrase)), set()).add(docnums[f"{game}:{term_id}"])
        self.game_docs = {}
        for docnum, fields in self.stored.items():
            self.game_docs.setdefault(fields["game"], set()).add(docnum)
        self.terms = {name: frozenset(reader.field_terms(name)) for name in (*TEXT_FIELDS, "concepts")}
        self.held = (HeldScores(self.searcher, self.terms, {d: f["game"] for d, f in self.stored.items()})
                     if held_scores else None)

        self.concepts = table
        self.group_stems = {}
        for phrase, ids in table.items():
            for group in ids:
                self.group_stems.setdefault(group, set()).update(phrase.split())
        vocabulary = library.vocabulary
        self.filler = vocabulary.filler if vocabulary else frozenset()
        # "two" and "2" are one number; "what is X", "define X": a question about one term, for the glossary
        self.numbers = {word: str(n) for n, word in enumerate(vocabulary.numbers if vocabulary else (), 1)}
        self.number_words = {number: word for word, number in self.numbers.items()}
        self.definition = opening_pattern(vocabulary.definition if vocabulary else ())
        self.rewrites = {}  # stemmed player phrase -> {game: rules phrases}
        player_words, player_pairs = set(), set()  # words players use alone, and pairs they use together
        for game in library.games:
            # a player phrase that is, word endings aside, a name the game's rules give needs no rewrite there
            named = {" ".join(stems(name)) for name in game_names(library.games[game]) if len(name) > 2}
            for phrase, rules in (vocabulary.for_game(game) if vocabulary else {}).items():
                key = " ".join(stems(phrase))
                if key and key not in named and key not in {" ".join(stems(r)) for r in rules}:
                    self.rewrites.setdefault(key, {})[game] = rules
                words = phrase.split()
                player_pairs.update(zip(words, words[1:]))
                if len(words) == 1:
                    player_words.update((phrase, key))
        # the player phrases of a verb and its particle whose rules words are other words ("run
        # away": retreat): the verb alone means something else ("run" finds tokens that run out)
        particles = {s for word in PARTICLES for s in stems(word)}
        self.phrasal = frozenset(
            key for key, by_game in self.rewrites.items() if len(key.split()) > 1 and key.split()[-1] in particles
            and not set(key.split()[:-1]) & {s for rules in by_game.values() for r in rules for s in stems(r)})
        # the words players ask a calculator with ("odds", "who is ahead"): such a query wants it
        self.calculator_keys = {" ".join(stems(word)): frozenset(self.calculator_rules)
                                for word in (vocabulary.any_calculator if vocabulary else ())}
        for calculator in calculators_of(library, calculators):
            docnum = docnums[f"{calculator.game}:calc/{calculator.slug}"]
            for phrase in (vocabulary.calculators.get(calculator.id, ()) if vocabulary else ()):
                key = " ".join(stems(phrase))
                self.calculator_keys[key] = self.calculator_keys.get(key, frozenset()) | {docnum}
        # what players call the games ("meq", "the card game"): a query naming one searches it
        self.game_names = {" ".join(stems(name)): game for game, names in
                           (vocabulary.games.items() if vocabulary else ()) for name in names}
        player_words.update(word for names in (vocabulary.games.values() if vocabulary else ())
                            for name in names for word in name.split())
        # a query whose words are an entry's title asks for that entry ("meq setup", "kill points")
        self.titles = {}
        self.little = OVERVIEW | {s for word in self.filler for s in stems(word)}  # "I See You!" is titled see
        for docnum, fields in self.stored.items():
            if fields["kind"] != "calculator":
                self.titles.setdefault(self._title_words(stems(fields["title"])), set()).add(docnum)
        self.title_words = [self._title_words(stems(self.stored[docnum]["title"])) for docnum in range(len(self.stored))]
        self.titles_with = {}  # title word -> the entries whose title has it
        for docnum, words in enumerate(self.title_words):
            for word in words:
                self.titles_with.setdefault(word, []).append(docnum)
        # what each entry gives a number of: the word after a number ("draw 3 cards": card)
        self.numbered = [self._numbered(" ".join((fields["title"], fields["aliases"], fields["body"])))
                        for _, fields in sorted(self.stored.items())]
        self.title_said = [frozenset(words_of(self.stored[docnum]["title"])) for docnum in range(len(self.stored))]
        self.parent = [None] * len(self.stored)
        for _, entry in library.entries():
            if entry.parent is not None:
                self.parent[docnums[f"{entry.game}:{entry.id}"]] = docnums[f"{entry.game}:{entry.parent.id}"]
        self.games = tuple(library.games)
        # of those, the ones a game's rules never say, by game: there they mean nothing at all
        self.phrasal_unsaid = frozenset((key, game) for key in self.phrasal for game in self.games
                                        if not self.scores(self._phrase_query(key.split()), game))
        # the entries an entry sits in, its section last: what holds it
        section_doc = {(f["game"], f["section"]): d for d, f in self.stored.items() if f["kind"] == "section"}
        self.holders = [(*self.ancestors(docnum), section_doc[(fields["game"], fields["section"])])
                        if fields["kind"] not in ("section", "calculator") else ()
                        for docnum, fields in sorted(self.stored.items())]
        # the entries of a game's Setup section
        self.in_setup = frozenset(docnum for docnum, fields in self.stored.items()
                                  if fields["trail"][1:] and stems(fields["trail"][1]) == (SETUP_WORD,))
        self.speller = Speller(self.counts, frozenset(names), frozenset(bigrams), self.filler,
                               frozenset(player_words), frozenset(player_pairs), lambda word: " ".join(stems(word)))
        self.sorted_words = sorted(self.counts)
        self._answers = lru_cache(maxsize=CACHE_SIZE)(self._search)
        self._completions = lru_cache(maxsize=4096)(self._completions)

    def forget_answers(self):
        """Empty the cache of recent answers (a benchmark times searches uncached)."""
        self._answers.cache_clear()

    def search(self, text, game=None, limit=10, fuzzy=True):
        """The rules that answer ``text``, best first; queries that differ only in case or spacing
        share one cached answer, which says the query as this one typed it."""
        typed = (text or "")[:MAX_QUERY_CHARS].replace("\x00", " ")
        results = self._answers(normalised(typed), game, limit, fuzzy)
        return results if results.query == typed else replace(results, query=typed)

    # evaluating

    def scores(self, query, game=None):
        """{docnum: score} of the documents ``query`` matches, in one game or (None) in all."""
        if self.held:
            return self.held.scores(query, game, self.game_docs)
        with self.lock:
            found = self.searcher.search(query, limit=None, filter=self.game_docs.get(game, set()) if game else None)
            return {hit.docnum: hit.score for hit in found}

    # reading the query

    def _known(self, token):
        return any(token in self.terms[f] for f in TEXT_FIELDS)

    def _term_query(self, token, boost=1.0):
        # only the fields that hold the word: a field without it would match nothing anyway
        names = [name for name in TEXT_FIELDS if token in self.terms[name]] or ["body"]
        if len(names) == 1:
            return wq.Term(names[0], token, boost=boost)
        return wq.Or([wq.Term(name, token, boost=boost) for name in names])

    def _phrase_query(self, words):
        """Stems in order, in any text field; one stem is a term query."""
        if len(words) == 1:
            return self._term_query(words[0])
        return wq.Or([wq.Phrase(name, list(words)) for name in TEXT_FIELDS])

    def _concept_query(self, key):
        """A glossary term or alias: any phrase of its group, the typed words in a title scoring highest."""
        words = key.split()
        alternatives = [wq.Term("concepts", group) for group in self.concepts[key]]
        alternatives += [wq.Phrase(name, words) if len(words) > 1 else wq.Term(name, key)
                         for name in ("title", "aliases", "context")]
        return wq.Or(alternatives)

    def _rules_query(self, phrase):
        key = " ".join(stems(phrase))
        if not key:
            return None
        return self._concept_query(key) if key in self.concepts else self._phrase_query(key.split())

    def _word_query(self, word, unfinished):
        """A query for one typed word (hyphenated: joined or split); None if it has no meaning."""
        tokens = [t.text for t in ANALYZER(word)]
        if not tokens:
            return None
        parts = stems(word)
        if len(tokens) > 1 and len(parts) > 1:
            return wq.Or([self._term_query(tokens[-1]), self._phrase_query(parts)])
        token = tokens[0]
        if len(token) <= 2 and token in self.concepts and word not in self.abbreviations:
            return None  # "dies" is not "DI"
        alternatives = [self._term_query(token)]
        if word in self.numbers or word in self.number_words:
            other = self.numbers.get(word) or self.number_words[word]
            alternatives.append(self._term_query(other))
        if unfinished:
            alternatives += [self._term_query(c, boost=0.6) for c in self._completions(word) if c != token]
        return alternatives[0] if len(alternatives) == 1 else wq.Or(alternatives)

    def _completions(self, prefix):
        """Index terms for the commonest rules words that begin with ``prefix`` (bounded)."""
        if len(prefix) < 3:
            return []
        start = bisect.bisect_left(self.sorted_words, prefix)
        words = []
        for word in self.sorted_words[start:start + 200]:
            if not word.startswith(prefix):
                break
            words.append(word)
        words.sort(key=lambda w: -self.counts[w])
        found = []
        for word in words[:6]:
            for analysed in ANALYZER(word):
                if analysed.text not in found and self._known(analysed.text):
                    found.append(analysed.text)
        return found

    def _named_game(self, words):
        """(the words without the names of games, the one game they name or None)."""
        word_stems = [stems(word) for word in words]
        kept, named = [], set()
        i = 0
        while i < len(words):
            for n in range(min(MAX_NAME_WORDS, len(words) - i), 0, -1):
                key = " ".join(stem for one in word_stems[i:i + n] for stem in one)
                if word_stems[i] and word_stems[i + n - 1] and key in self.game_names:
                    named.add(self.game_names[key])
                    i += n
                    break
            else:
                kept.append(words[i])
                i += 1
        if not kept:  # a game's name alone is searched as words
            return words, None
        return kept, (named.pop() if len(named) == 1 else None)

    def parse(self, text, game=None, fuzzy=True):
        """How search reads a typed query: its parts, corrections and rewrites."""
        reading = QueryReading(definition=bool(self.definition.match(fold(text))), counted=self._counting(text),
                               overview=bool(OVERVIEW_QUESTION.search(fold(text))))
        for phrase in re.findall(r'"([^"]*)"', text):
            key = stems(phrase)
            if key:
                reading.parts.append(QueryPart(typed=phrase, query=self._phrase_query(key)))
        rest = signs_spelled(re.sub(r'"[^"]*"', " ", text).replace('"', " "))
        # apostrophes dropped: "doesn't" is the filler word doesnt, "player's" the word players
        words = [fold(w).replace("'", "").replace("’", "") for w in WORD.findall(rest)][:MAX_QUERY_WORDS * 2]
        unfinished = bool(words) and not text.endswith((" ", '"'))
        typed = len(words)
        words, reading.game = self._named_game(words)
        unfinished = unfinished and len(words) == typed
        game = game or reading.game
        # "bonuses" is the rules' "bonus", whatever the stemmer makes of the two
        words = [self.speller.singular(word) or word for word in words]
        alternatives = {}
        if fuzzy:  # a word being typed stays as it is while the rules have words it begins
            words, alternatives = self.speller.correct(
                words, keep=lambda i, word: unfinished and i == len(words) - 1 and bool(self._completions(word)),
                alternatives=MAX_FUZZY_CANDIDATES)
            reading.corrected = bool(alternatives)
        word_stems = [stems(word) for word in words]
        reading.words = frozenset(words)
        reading.calculators = frozenset().union(*(
            self.calculator_keys.get(" ".join(s for one in word_stems[i:i + n] for s in one), ())
            for i in range(len(words)) for n in range(1, MAX_PHRASE_WORDS + 1)))
        meaningful = [w for w in words if w not in self.filler] or words
        keep_filler = len(meaningful) == len(words)
        i = 0
        while i < len(words) and len(reading.parts) < MAX_QUERY_WORDS:
            found = self._match_phrase(word_stems, i, game, words[i], alternatives)
            if found:
                n, part, rewrite = found
                if part is None:  # the verb of a phrase this game has no word for; its particle is filler
                    i += n
                    continue
                if part.meaning not in {g.meaning for g in reading.parts}:
                    reading.parts.append(part)
                    if rewrite:
                        reading.rewrites.append(rewrite)
                i += n
                continue
            word = words[i]
            i += 1
            if word in self.filler and not keep_filler:
                reading.question = True
                continue
            if i - 1 in alternatives:
                choices = [self._word_query(w, False) for w in alternatives[i - 1]]
                choices = [_boosted([q], 0.8 ** n) for n, q in enumerate(choices) if q is not None]
                if choices:
                    reading.parts.append(QueryPart(typed=word, query=wq.Or(choices), term=True, meaning=word,
                                             key=" ".join(stems(words[i - 1]))))
                continue
            query = self._word_query(word, unfinished and i == len(words))
            meaning = self.numbers.get(word, word)  # "two" and "2" are one number
            if query is not None and meaning not in {g.meaning for g in reading.parts}:
                reading.parts.append(QueryPart(typed=word, query=query, term=True, meaning=meaning, key=" ".join(stems(word))))
        self._none_left(text, reading)
        return reading

    def _none_left(self, text, reading):
        """"Hope runs out" is also the rules' "no hope left": the part that says it runs out finds that too."""
        found = RUN_OUT.search(fold(text))
        word = (found.group(1) or found.group(2)) if found else ""
        subject = stems(word) if word not in self.filler else ()  # "it runs out" says nothing of what
        if not subject:
            return
        none_left = self._phrase_query(("no", *subject, "left"))
        for number, part in enumerate(reading.parts):
            if part.key.split()[:1] and part.key.split()[0] in RUN_WORDS:
                reading.parts[number] = replace(part, query=wq.Or([part.query, none_left]))
                return
        # where the game has no words for running out, the part is only what its rules say
        if len(reading.parts) < MAX_QUERY_WORDS:
            reading.parts.append(QueryPart(typed="run out", query=none_left, meaning="run out", key="run out"))

    def _match_phrase(self, word_stems, i, game, typed, corrected):
        """The longest glossary or player phrase starting at word i: (words, part, rewrite) or None;
        (words, None, None) for words that mean nothing in the game searched.

        In each game a phrase means its glossary term if the game has one, else the rules'
        words the player vocabulary gives for it; the typed words themselves always count too.
        A verb and its particle that a game has no word for ("run away" where nothing retreats)
        mean nothing there, rather than the verb alone.
        A word stemmed to two letters is an abbreviation only as typed: "DI", not "died"; a
        corrected word is already the rules' word, so the vocabulary does not rewrite it again.
        """
        for n in range(min(MAX_PHRASE_WORDS, len(word_stems) - i), 0, -1):
            if not word_stems[i] or not word_stems[i + n - 1]:
                continue
            key = " ".join(stem for one in word_stems[i:i + n] for stem in one)
            if len(key) < 2:
                continue
            # "DI" is an abbreviation of the rules, "died" (di, once stemmed) is not
            short = n == 1 and len(key) <= 2 and key in self.concepts
            abbreviation = short and typed in self.abbreviations
            concepts = [c for c in self.concepts.get(key, ()) if (game is None or self.group_game[c] == game)
                        and abbreviation == short]
            named = {self.group_game[c] for c in concepts}
            rewrites = {g: rules for g, rules in self.rewrites.get(key, {}).items()
                        if (game is None or g == game) and g not in named and not abbreviation
                        and not corrected.keys() & range(i, i + n)}
            if not concepts and not rewrites:
                if (key, game) in self.phrasal_unsaid:
                    return n - 1, None, None  # the particle is left to be read as the filler word it is
                continue
            alternatives = [self._phrase_query(key.split())] * (abbreviation == short)
            alternatives += [wq.Term("concepts", c) for c in concepts]
            by_rules = {}
            for g, rules in rewrites.items():
                by_rules.setdefault(rules, []).append(g)
            for rules, games in by_rules.items():
                found = [q for q in (self._rules_query(r) for r in rules) if q is not None]
                expansion = _boosted(found, REWRITE_BOOST)
                if game is None and len(games) < len(self.games):
                    where = [wq.Term("game", g) for g in games]
                    expansion = wq.Require(expansion, where[0] if len(where) == 1 else wq.Or(where))
                alternatives.append(expansion)
            rules = tuple(dict.fromkeys(r for rs in by_rules for r in rs))
            part = QueryPart(typed=key, query=wq.Or(alternatives), term=not rules, meaning=(tuple(concepts), rules),
                          key=key)
            return n, part, ((key, rewrites) if rewrites else None)
        return None

    # ranking

    def _search(self, text, game=None, limit=10, fuzzy=True):
        text = (text or "")[:MAX_QUERY_CHARS].replace("\x00", " ")
        reading = self.parse(text, game=game, fuzzy=fuzzy)
        game = game or reading.game
        ranked, marked = self.rank(reading, game)
        hits = [self._hit(self.stored[docnum], marked) for docnum in ranked[:limit]]
        suggestion = self.suggest(text) if (reading.corrected or not hits) else None
        if suggestion and not hits and not self.rank(self.parse(suggestion, game, fuzzy=False), game)[0]:
            suggestion = None  # offer only a correction that finds something
        # the rewrites behind the first answer, in its game's words
        shown = self.stored[ranked[0]]["game"] if ranked else None
        rewrites = tuple(PlayerWords(typed=self._typed(text, key), rules=by_game[shown])
                         for key, by_game in reading.rewrites if shown in by_game)
        return Results(query=text, total=len(ranked), hits=hits, suggestion=suggestion,
                       corrected=reading.corrected, rewrites=rewrites)

    def rank(self, reading, game=None):
        """(docnums best first, stems to mark in snippets) for a reading."""
        allowed = self.game_docs.get(game, set()) if game else None
        parts = []
        for part in reading.parts:
            found = self.scores(part.query, game)
            if found and reading.calculators:
                found = dict(found)
                for calculator, rules in self.calculator_rules.items():
                    if calculator in reading.calculators and (allowed is None or calculator in allowed):
                        inherited = max((found.get(rule, 0.0) for rule in rules), default=0.0)
                        if inherited > found.get(calculator, 0.0):
                            found[calculator] = inherited
            if found:
                parts.append((part, found))
        if not parts:
            return [], {}
        population = len(allowed) if allowed is not None else len(self.stored)
        weights = [math.log(1 + population / len(found)) ** RARITY * (NUMBER_WEIGHT if g.meaning in self.number_words else 1)
                   for g, found in parts]  # rare words say more
        total_weight = sum(weights)
        lone = reading.definition or (len(parts) == 1 and not reading.question)
        coverage, score, fit, matched = {}, {}, {}, {}
        game_of = self.doc_game
        for bit, (weight, (_, found)) in enumerate(zip(weights, parts)):
            share = weight / total_weight
            best_in = {}  # each game's best match for this part
            for docnum, value in found.items():
                if value > best_in.get(game_of[docnum], 0.0):
                    best_in[game_of[docnum]] = value
            scale = {g: share / value for g, value in best_in.items()}  # the best match in a game counts in full
            for docnum, value in found.items():
                credit = value * scale[game_of[docnum]]
                coverage[docnum] = coverage.get(docnum, 0.0) + (credit if credit < share else share)
                matched[docnum] = matched.get(docnum, 0) | 1 << bit  # which parts it matches
                score[docnum] = score.get(docnum, 0.0) + value
            best = max(best_in.values())
            for g, value in best_in.items():  # how well each game answers this part of the question
                fit[g] = fit.get(g, 0.0) + share * value / best
        if game is not None:
            fit = {}
        factor = {"term": TERM_FACTOR_LONE if lone else TERM_FACTOR_QUESTION, "calculator": CALCULATOR_FACTOR_NOT_ASKED,
                  "section": SECTION_FACTOR_QUESTION if reading.question and not reading.overview else 1.0}
        # "how does X work" asks for the entry the rules of X sit in: each entry in it that answers too moves it up
        holds = {}
        if reading.overview:
            for docnum in score:
                for holder in self.holders[docnum]:
                    if holder in score:
                        holds[holder] = holds.get(holder, 0) + 1
        best = max(score.values())

        # a lone term, or "what is" one, is answered by the glossary entry it names (or, for a
        # player's word, the entry of the rules' word for it: "epidemic" is Skies Darken)
        named = set()
        if lone and len(parts) == 1:
            part = parts[0][0]
            rules = part.meaning[1] if isinstance(part.meaning, tuple) else ()
            for key in (part.key, *(" ".join(stems(r)) for r in rules)):
                named |= self.named_terms.get(key, set())
        # a query whose words are a title asks for that entry; a question's lone word, or a
        # question about a glossary term, still wants the rule that answers it, unless it asks
        # how that works and the entry holds rules about it ("how does combat work": Combat)
        asked = [s for part in reading.parts for s in part.key.split()]
        titled = self.titles.get(self._title_words(asked), set()) if lone or len(set(asked)) > 1 else set()
        if reading.overview and not titled:  # of the entries titled so, those that hold others it asks about
            titled = {docnum for docnum in self.titles.get(self._title_words(asked), ()) if docnum in holds}
        kind_of, asked_for, words = self.doc_kind, reading.calculators, self._title_words(asked)
        # a title the query says all of moves up by how much of the query it is: "fellowship action
        # in solo" says more of Fellowship (solo) than of Fellowship
        said = {}
        for word in words:
            for docnum in self.titles_with.get(word, ()):
                said[docnum] = said.get(docnum, 0) + 1
        said = {docnum: TITLE_SAID * n / len(words) for docnum, n in said.items() if n == len(self.title_words[docnum])
                and not (reading.question and kind_of[docnum] == "term")}
        if reading.question:
            titled = {docnum for docnum in titled if kind_of[docnum] != "term"}

        # of two titles the query names, the one in its very words first: "when is the council called"
        titled = {docnum: 1 + len(reading.words & self.title_said[docnum]) for docnum in titled}
        every = (1 << len(parts)) - 1

        # the rules' words the vocabulary gave for the player's ("run away": retreat) say titles too
        rewritten = self._title_words(s for part in reading.parts if isinstance(part.meaning, tuple)
                                      for rules in part.meaning[1] for s in stems(rules))
        spoken = words | rewritten
        # setting up names every piece, so its entries match many words of a question about play,
        # unless the rules' words for the player's are the entry's title ("who goes first": First player)
        setup_factor = 1.0 if SETUP_WORD in spoken else SETUP_FACTOR

        def key(docnum):
            share = coverage[docnum] + GAME_FIT * fit.get(game_of[docnum], 0.0) + said.get(docnum, 0.0)
            if reading.counted & self.numbered[docnum]:
                share += COUNT_GIVEN
            if docnum in holds:
                share += OVERVIEW_GIVEN * min(holds[docnum], OVERVIEW_REACH)
            kind = CALCULATOR_FACTOR_ASKED if docnum in asked_for else factor.get(kind_of[docnum], 1.0)
            if docnum in self.in_setup and not self.title_words[docnum] <= rewritten:
                kind *= setup_factor
            return (docnum in named, titled.get(docnum, 0),
                    round((share + ALL_BONUS * (matched[docnum] == every) + SCORE_WEIGHT * score[docnum] / best) * kind, 9),
                    -docnum)

        ranked = sorted(score, key=key, reverse=True)
        # the rule before its exceptions: an entry whose title adds what the query does not ask
        # ("A besieged Army cannot retreat") comes after the rule it sits in (its parent, or that
        # parent's rule) when that answers as fully, or when the query says all of that rule's title
        # (a phase that the query names still comes after the step that answers it)
        place = {docnum: i for i, docnum in enumerate(ranked[:LIMIT_MAX])}
        rule_of = {}
        for docnum in sorted(place):
            for rule in self.ancestors(docnum):
                if (place.get(rule, -1) > place[docnum] and matched[rule] | matched[docnum] == matched[rule]
                        and (coverage[rule] >= PARENT_SHARE * coverage[docnum] 
                             or kind_of[rule] == "rule" and self.title_words[rule] <= spoken)
                        and self.title_words[docnum] - words - self.title_words[rule]):
                    rule_of[docnum] = rule
                    break
        if rule_of:  # parents are numbered before their children, so a child follows its moved parent
            keys = {docnum: key(docnum) for docnum in place}
            for docnum, rule in rule_of.items():
                keys[docnum] = keys[rule][:2] + (keys[rule][2] - 1e-9, -docnum)
            ranked[:LIMIT_MAX] = sorted(place, key=keys.__getitem__, reverse=True)
        return ranked, self._marked_stems(part.query for part, _ in parts)

    def ancestors(self, docnum):
        """The entries an entry sits in, nearest first: the phase of a step, the rule of an exception."""
        found = []
        while self.parent[docnum] is not None:
            docnum = self.parent[docnum]
            found.append(docnum)
        return found

    def _numbered(self, text):
        """The stems that follow a number in a text: what it says how many of."""
        words = stems(signs_spelled(text))
        return frozenset(after for i, number in enumerate(words) if number.isdigit() or number in self.numbers
                         for after in words[i + 1:i + 1 + COUNT_REACH])

    def _counting(self, text):
        """What a "how many" question asks the number of: the stems of the words right after it, up
        to the first filler word ("how many cards in hand": card; "how many battle dice": battl, dice)."""
        found = COUNT_QUESTION.search(fold(text))
        subject = []
        for word in (found.group(1).split() if found else ()):
            if word in self.filler:
                break
            subject.extend(stems(word))
        return frozenset(subject)

    def _title_words(self, words):
        """The words that make a title, as a query asks for it: no little words, numbers, "step" or 's."""
        return frozenset(word for word in words if word not in self.little and not word.isdigit() and len(word) > 1)

    def _marked_stems(self, queries):
        """{game: the stems a snippet of that game marks}: the query's words and its glossary
        groups' words everywhere, the rules' words for a player's words only in their games."""
        marked = {game: set() for game in self.games}

        def collect(query, games):
            if type(query) is wq.Require:
                collect(query.a, [term.text for term in _game_terms(query.b)])
            elif type(query) is wq.Or:
                for sub in query.subqueries:
                    collect(sub, games)
            else:
                for fieldname, value in query.iter_all_terms():
                    value = value.decode() if isinstance(value, bytes) else value
                    stems_of = self.group_stems.get(value, ()) if fieldname == "concepts" else (value,)
                    for game in games:
                        marked[game].update(stems_of)

        for query in queries:
            collect(query, self.games)
        return {game: frozenset(stems_of) for game, stems_of in marked.items()}

    def _hit(self, stored, marked):
        return Hit(id=stored["id"], game=stored["game"], section=stored["section"], kind=stored["kind"],
                   title=stored["title"], url=stored["url"],
                   snippet=snippet(stored["body"], marked[stored["game"]], word_stems),
                   trail=list(stored["trail"]))

    @staticmethod
    def _typed(text, key):
        """The words the player typed for a stemmed phrase (as typed, folded)."""
        words = [fold(w) for w in WORD.findall(signs_spelled(text))]
        n = len(key.split())
        for i in range(len(words)):
            for j in range(i + 1, min(len(words), i + n + 2) + 1):
                # "epidemic", not "is an epidemic": the little words around a phrase are not part of it
                if stems(words[i]) and stems(words[j - 1]) and " ".join(s for w in words[i:j] for s in stems(w)) == key:
                    return " ".join(words[i:j])
        return key

    def suggest(self, text):
        """The query with each word the rules never use replaced by the closest rules word, or None."""
        return self.speller.suggest(words_of(re.sub(r'["]', " ", text))[:MAX_QUERY_WORDS])


@lru_cache(maxsize=20000)
def word_stems(word):
    """A word's stems as the index holds them, whole and split at hyphens: what snippets mark."""
    return frozenset(t.text for t in ANALYZER(word)) | frozenset(t.text for t in PHRASE_ANALYZER(word))


def search(text, game=None, limit=10, fuzzy=True) -> Results:
    """The rules that answer ``text``, best first (the public way to ask; /healthz uses it too)."""
    return get_search_index().search(text, game=game, limit=limit, fuzzy=fuzzy)

