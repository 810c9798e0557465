"""The content's search index, built in memory when the app is created, and the answers it gives.

Under 700 small documents, so Whoosh's RamStorage holds them and nothing is written to disk;
every worker answers from its own copy (gunicorn --preload builds it once, before the fork).
Each entry is one document: its own words (title, aliases, body, the titles it sits in, the
glossary groups it names) and, in a field of their own, the questions players ask that it
answers. A question is read (reading.py), each part scored by Whoosh in both, and the entries
ranked by their features (ranking.py); each entry's word vectors (meaning.py) are worked out here too.

What building makes is data (``IndexTables``): ``saved`` writes it, keyed on the app's build, and
``load`` reads it back instead of building (the offline bundle's worker would take seconds to build
it); an index saved by another build, or with another Whoosh, is never loaded.
"""
from __future__ import annotations

import bisect
import json
import pickle
import threading
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import whoosh
from whoosh import query as wq
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema
from whoosh.filedb.filestore import RamStorage

from ..content.vocabulary import MAX_PHRASE_WORDS, words_of
from .analysis import ANALYZER, folded_words, key_of, normalised, stems, word_stems
from .documents import documents
from .held_scores import HeldScores
from .meaning import WordVectors, packed
from .queries import ASKED_FIELD, CONCEPTS_FIELD, RULES_FIELDS, TEXT_FIELDS, QueryMaker, game_terms, only
from .ranking import Match, Ranker
from .reading import MAX_QUERY_CHARS, Reader
from .results import Hit, PlayerWords, Results
from .snippets import snippet
from .spelling import Speller
from .words import Words, read_words

CACHE_SIZE = 512  # recent answers kept, by question, game, limit and correction
CONTEXT_BOOST = 0.6  # an entry's section and parent titles count for this much of its own words
COMPLETIONS = 6  # words the last, unfinished word may become, the commonest in the rules
COMPLETION_SCAN = 200  # words of the rules looked at for them, at most
COMMON_SHARE = 0.15  # a word held by more than this share of the entries is marked in snippets only when no rarer word is
SAVED_FORMAT = 5  # of what ``SearchIndex.saved`` writes: raised when its layout changes

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
    asked=TEXT(analyzer=ANALYZER),  # a question players ask, one a document: scored apart
    concepts=KEYWORD(scorable=True, field_boost=2.0),
    entry=STORED,  # a question's entry (its id)
    url=STORED,
    trail=STORED,
    excerpt=STORED,  # what an entry's snippet is cut from, when not its body (see documents.excerpt_text)
    sequence=STORED,  # a section that walks a whole turn, round or fight in order
)


class MemoryStorage(RamStorage):
    """Whoosh's RamStorage with its temporary files in memory too.

    RamStorage writes the temporary files of a commit to a folder in the system's temp
    directory, one name for every index: a read-only machine could not build it, and two
    processes building at once would remove each other's files.
    """

    def temp_storage(self, name=None):
        return RamStorage()


@dataclass
class RulesWords:
    """The words the rules use, for the speller: how much, which name things, which go in pairs."""

    counts: dict = field(default_factory=dict)  # folded word -> how much the rules use it; titles and names count more
    names: set = field(default_factory=set)  # the words of titles, names and aliases
    pairs: set = field(default_factory=set)  # pairs of words used together in a title, a name or an alias
    asked: set = field(default_factory=set)  # the words of the questions players ask

    def add(self, doc):
        for weight, text in ((5, doc["title"]), (5, doc["aliases"]), (1, doc["body"])):
            words = words_of(text)
            for word in words:
                self.counts[word] = self.counts.get(word, 0) + weight
            if weight > 1:
                self.pairs.update(zip(words, words[1:]))
                self.names.update(words)
        self.asked.update(words_of(doc["asked"]))


def concepts_in(text, concepts, group_game, game):
    """Ids of ``game``'s glossary groups whose phrases occur in the text, once per occurrence."""
    words = stems(text)
    found = []
    for i in range(len(words)):
        for n in range(1, MAX_PHRASE_WORDS + 1):
            found.extend(g for g in concepts.get(" ".join(words[i:i + n]), ()) if group_game[g] == game)
    return found


def build_whoosh(library, calculators, words):
    """(the in-memory storage of the index of every document, the rules' words)."""
    storage = MemoryStorage()
    ix = storage.create_index(SCHEMA)
    rules_words = RulesWords()
    with ix.writer() as writer:
        for doc in documents(library, calculators):
            doc["concepts"] = " ".join(concepts_in(f"{doc['title']} {doc['aliases']} {doc['body']}",
                                                   words.concepts, words.group_game, doc["game"]))
            writer.add_document(**doc)
            rules_words.add(doc)
    return storage, rules_words


def searcher_of(files):
    """A searcher over the Whoosh index whose files (name -> bytes) are these."""
    storage = MemoryStorage()
    storage.files = dict(files)
    return storage.open_index().searcher()


@dataclass
class Entries:
    """What ranking knows of each document, by docnum: an entry, or a question asked of one."""

    stored: dict  # docnum -> stored fields
    id: list  # "game:entry" ("game:entry?n" for its nth question)
    game: list
    kind: list  # section, phase, step, substep, rule, term, calculator; asked for a question
    docnum: dict  # full id -> docnum
    game_docs: dict  # game -> its docnums
    little: frozenset  # stems that never make a title: filler words
    entry_of: list = field(default_factory=list)  # the docnum of the entry (a question's, or the entry itself)
    count: dict = field(default_factory=dict)  # game (and None for all) -> how many entries
    title_words: list = field(default_factory=list)  # the stems that make its title
    titles_with: dict = field(default_factory=dict)  # a title stem -> the docnums whose title has it
    sequences: frozenset = frozenset()  # the sections that walk a whole turn, round or fight in order

    def title_words_of(self, words):
        """The stems that make a title, as a question says it: no little words, numbers or 's."""
        return frozenset(word for word in words if word not in self.little and not word.isdigit() and len(word) > 1)


def entries_of(stored, filler):
    count = len(stored)
    entries = Entries(stored=stored, id=[stored[d]["id"] for d in range(count)],
                      game=[stored[d]["game"] for d in range(count)], kind=[stored[d]["kind"] for d in range(count)],
                      docnum={stored[d]["id"]: d for d in range(count)}, game_docs={},
                      little=frozenset(s for word in filler for s in stems(word)),
                      sequences=frozenset(d for d in range(count) if stored[d].get("sequence")))
    for docnum in range(count):
        entries.game_docs.setdefault(entries.game[docnum], set()).add(docnum)
        asked = entries.kind[docnum] == "asked"
        entries.entry_of.append(entries.docnum[stored[docnum]["entry"]] if asked else docnum)
        if not asked:
            for game in (entries.game[docnum], None):
                entries.count[game] = entries.count.get(game, 0) + 1
        words = entries.title_words_of(stems(stored[docnum]["title"])) if entries.kind[docnum] not in ("calculator", "asked") else ()
        entries.title_words.append(frozenset(words))
        for word in words:
            entries.titles_with.setdefault(word, []).append(docnum)
    return entries


@dataclass
class IndexTables:
    """What building the index makes, all of it data (no searcher, lock or cache): what
    ``SearchIndex.saved`` writes and ``SearchIndex.load`` reads back."""

    files: dict | None  # the Whoosh index's files, name -> bytes (None: not saved, as held scores answer every query)
    words: Words
    entries: Entries
    terms: dict  # field -> the terms it holds
    frequency: dict  # stem -> how many entries hold it in their own words
    speller: Speller
    held: HeldScores | None  # None: every query scored by Whoosh itself
    entry_vectors: dict  # docnum of an entry -> its word vectors, packed (meaning.py)


def build_tables(library, calculators, held_scores=True) -> IndexTables:
    """The index of the library and the calculators, built."""
    words = read_words(library, calculators)
    storage, rules_words = build_whoosh(library, calculators, words)
    searcher = storage.open_index().searcher()
    reader = searcher.reader()
    entries = entries_of(dict(reader.iter_docs()), words.filler)
    terms = {name: frozenset(reader.field_terms(name)) for name in (*TEXT_FIELDS, CONCEPTS_FIELD)}
    speller = Speller(rules_words.counts, frozenset(rules_words.names), frozenset(rules_words.pairs), words.filler,
                      words.player_words, words.player_pairs, key_of, frozenset(rules_words.asked))
    frequency = {}
    for name in RULES_FIELDS:
        for term in terms[name]:
            frequency[term] = max(frequency.get(term, 0), reader.doc_frequency(name, term))
    held = HeldScores(searcher, terms, entries.game) if held_scores else None
    return IndexTables(files=dict(storage.files), words=words, entries=entries, terms=terms, frequency=frequency,
                       speller=speller, held=held,
                       entry_vectors=entry_vectors(documents(library, calculators), entries, word_vectors(words.filler)))


@lru_cache(maxsize=2)
def word_vectors(filler):
    """The word vectors (meaning.py), filler words counting for nothing; read once."""
    return WordVectors.load(skip=frozenset(filler))


def entry_vectors(docs, entries, vectors):
    """{docnum of an entry: its vectors packed one after another}: its own words' (title, aliases,
    body), then one for each question asked of it (a question of no word the vectors know, none)."""
    found = {}
    for doc in docs:
        asked = doc["kind"] == "asked"
        text = doc["asked"] if asked else " ".join((doc["title"], doc["aliases"], doc["body"]))
        docnum = entries.docnum[doc["entry"] if asked else doc["id"]]
        found[docnum] = found.get(docnum, b"") + packed(vectors.vector(folded_words(text)))
    return found


class SearchIndex:
    """The content's search index, built in memory when the app is created (or loaded: ``load``)."""

    def __init__(self, library, calculators, held_scores=True, tables=None):
        """The index of the library and the calculators; tables: theirs, built already (``load``)."""
        self.tables = tables or build_tables(library, calculators, held_scores)
        self.searcher = searcher_of(self.tables.files) if self.tables.files else None
        self.lock = threading.Lock()  # a Whoosh searcher reads through file objects it shares
        self.entries, self.terms, self.held = self.tables.entries, self.tables.terms, self.tables.held
        self.words = words = self.tables.words
        speller = self.tables.speller
        speller.english = word_vectors(words.filler).common_words()  # read with the vectors, never saved
        self.counts = speller.counts
        self.sorted_words = sorted(speller.counts)
        self._completions = lru_cache(maxsize=4096)(self._completions)
        self.reader = Reader(words, QueryMaker(self.terms, words.concepts), speller, self.tables.frequency,
                             self._completions)
        docnum = self.entries.docnum
        self.ranker = Ranker(self.entries, {key: frozenset(docnum[i] for i in ids)
                                            for key, ids in words.named_terms.items()},
                             word_vectors(words.filler), self.tables.entry_vectors)
        self._answers = lru_cache(maxsize=CACHE_SIZE)(self._search)

    def saved(self, key) -> bytes:
        """The index as ``load`` reads it back, under key: what it was built from (the app's build).
        A line of JSON says so, then the tables, pickled; Whoosh's own files are left out where held
        scores answer every query (only its own search reads them)."""
        tables = replace(self.tables, files=None) if self.held else self.tables
        return saved_header(key) + pickle.dumps(tables, protocol=5)

    @classmethod
    def load(cls, data, key) -> SearchIndex | None:
        """The index ``saved`` wrote under key, or None when it was saved under another key, by
        another Whoosh or in another format: a stale index is never read further than its header."""
        header, _, tables = data.partition(b"\n")
        if header + b"\n" != saved_header(key):
            return None
        return cls(None, None, tables=pickle.loads(tables))

    @classmethod
    def saved_or_built(cls, library, calculators, path, key) -> SearchIndex:
        """The index saved in the file at path (None: no file) under key, or, where there is none,
        or one saved under another key, the index built anew."""
        try:
            data = Path(path).read_bytes() if path else None
        except OSError:
            data = None
        return (data and cls.load(data, key)) or cls(library, calculators)

    @property
    def stored(self):
        return self.entries.stored

    def forget_answers(self):
        """Empty the cache of recent answers (a benchmark times searches uncached, or with other weights)."""
        self._answers.cache_clear()

    def search(self, text, game=None, limit=10, fuzzy=True):
        """The rules that answer ``text``, best first. A question over MAX_QUERY_CHARS is read up to
        there and the answer says so; questions that differ only in case or spacing share one cached
        answer, which says the question as this one typed it."""
        text = text or ""
        typed = text[:MAX_QUERY_CHARS].replace("\x00", " ")
        results = self._answers(normalised(typed), game, limit, fuzzy)
        cut = len(text) if len(text) > MAX_QUERY_CHARS else None
        return results if (results.query, results.cut_from) == (typed, cut) else replace(results, query=typed, cut_from=cut)

    def read(self, text, game=None, fuzzy=True):
        """How search reads ``text`` (reading.Reading)."""
        return self.reader.read(text, game, fuzzy)

    def scores(self, query, game=None):
        """{docnum: score} of the documents ``query`` matches, in one game or (None) in all."""
        if self.held:
            return self.held.scores(query, game, self.entries.game_docs)
        with self.lock:
            found = self.searcher.search(query, limit=None, filter=self.entries.game_docs.get(game, set()) if game else None)
            return {hit.docnum: hit.score for hit in found}

    def matches(self, reading, game=None):
        """(part, Match) for each part of ``reading`` that finds something in ``game``."""
        found = []
        for part in reading.parts:
            rules, asked = only(part.query, (*RULES_FIELDS, CONCEPTS_FIELD)), only(part.query, (ASKED_FIELD,))
            match = Match(rules=self.scores(rules, game) if rules else {}, asked=self.scores(asked, game) if asked else {},
                          corrected=part.corrected, sentence=part.sentence)
            entry_of = self.entries.entry_of
            match.found = frozenset(match.rules).union(entry_of[q] for q in match.asked)
            if match.found:
                found.append((part, match))
        return found

    def rank(self, reading, game=None):
        """(docnums best first, {game: the stems to mark in snippets}) for a reading."""
        found = self.matches(reading, game)
        if not found:
            return [], {}
        ranked = self.ranker.rank(reading, [match for _, match in found], game)
        return ranked, self._marked_stems(part.query for part, _ in found)

    def _search(self, text, game=None, limit=10, fuzzy=True):
        reading = self.read(text, game=game, fuzzy=fuzzy)
        game = game or reading.game
        ranked, marked = self.rank(reading, game)
        suggestion = self._suggestion(text, reading, game, found=bool(ranked))
        by_meaning = not ranked and not suggestion
        if by_meaning:  # no rule says the words: the rules nearest to them in meaning, if any are near
            ranked = self.ranker.nearest(reading, game)
            by_meaning = bool(ranked)
        hits = [self._hit(self.stored[docnum], marked) for docnum in ranked[:limit]]
        shown = self.entries.game[ranked[0]] if ranked else None
        return Results(query=text, total=len(ranked), hits=hits, suggestion=suggestion,
                       corrected=reading.corrected, rewrites=self._rewrites_said(text, reading, shown),
                       by_meaning=by_meaning)

    def _suggestion(self, text, reading, game, found):
        """The question with its words corrected, offered where search corrected a word or found
        nothing; where it found nothing, only if the correction finds something."""
        if found and not reading.corrected:
            return None
        suggestion = self.suggest(text)
        if suggestion and not found and not self.rank(self.read(suggestion, game, fuzzy=False), game)[0]:
            return None
        return suggestion

    @staticmethod
    def _rewrites_said(text, reading, shown):
        """The rewrites behind the first answer, in its game's words (``shown``)."""
        words = folded_words(text)  # split as the reader splits them: "guy's" is guys
        stemmed = [stems(w) for w in words]
        return tuple(PlayerWords(typed=typed_words(words, stemmed, key), rules=by_game[shown])
                     for key, by_game in reading.rewrites if shown in by_game)

    def _completions(self, prefix):
        """Index terms for the commonest rules words that begin with ``prefix`` (bounded)."""
        if len(prefix) < 3:
            return []
        start = bisect.bisect_left(self.sorted_words, prefix)
        words = []
        for word in self.sorted_words[start:start + COMPLETION_SCAN]:
            if not word.startswith(prefix):
                break
            words.append(word)
        words.sort(key=lambda w: -self.counts[w])
        found = []
        for word in words[:COMPLETIONS]:
            for analysed in ANALYZER(word):
                if analysed.text not in found and self.reader.maker.known(analysed.text):
                    found.append(analysed.text)
        return found

    def _marked_stems(self, queries):
        """{game: the stems a snippet of that game marks}: the question's words and its glossary
        groups' words everywhere, the rules' words for a player's words only in their games; not
        the words most rules hold ("card", "turn") where rarer ones are marked."""
        marked = {game: set() for game in self.words.games}

        def collect(query, games):
            if type(query) is wq.Require:
                collect(query.a, [term.text for term in game_terms(query.b)])
            elif type(query) is wq.Or:
                for sub in query.subqueries:
                    collect(sub, games)
            else:
                for fieldname, value in query.iter_all_terms():
                    value = value.decode() if isinstance(value, bytes) else value
                    stems_of = self.words.group_stems.get(value, ()) if fieldname == CONCEPTS_FIELD else (value,)
                    for game in games:
                        marked[game].update(stems_of)

        for query in queries:
            collect(query, self.words.games)
        common = COMMON_SHARE * self.entries.count[None]
        rarer = {game: {stem for stem in stems_of if self.tables.frequency.get(stem, 0) <= common}
                 for game, stems_of in marked.items()}
        return {game: frozenset(rarer[game] or stems_of) for game, stems_of in marked.items()}

    @staticmethod
    def _hit(stored, marked):
        return Hit(id=stored["id"], game=stored["game"], section=stored["section"], kind=stored["kind"],
                   title=stored["title"], url=stored["url"],
                   snippet=snippet(stored.get("excerpt") or stored["body"], marked.get(stored["game"], frozenset()),
                                   word_stems),
                   trail=list(stored["trail"]))

    def suggest(self, text):
        """The question with each word the rules never use replaced by the closest rules word, or
        None (also for a question too long to be said again as a suggestion)."""
        words = words_of(text.replace('"', " "))
        return self.reader.speller.suggest(words) if len(words) <= MAX_SUGGESTED_WORDS else None


MAX_SUGGESTED_WORDS = 24  # a longer question is not offered again with its words corrected


def saved_header(key) -> bytes:
    """The line a saved index opens with: nothing else of it is read unless it is the reader's own."""
    return json.dumps({"format": SAVED_FORMAT, "key": key, "whoosh": whoosh.versionstring()}).encode() + b"\n"


def typed_words(words, word_stems, key):
    """The words the player typed for a stemmed phrase (as typed, folded): ``words`` and their stems."""
    first, n = key.split()[0], len(key.split())
    for i in range(len(words)):
        if not word_stems[i] or word_stems[i][0] != first:
            continue
        for j in range(i + 1, min(len(words), i + n + 2) + 1):
            # "epidemic", not "is an epidemic": the little words around a phrase are not part of it
            if word_stems[j - 1] and " ".join(s for one in word_stems[i:j] for s in one) == key:
                return " ".join(words[i:j])
    return key
