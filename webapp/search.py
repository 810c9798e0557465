"""Full-text search over the rule content; every Whoosh call in Red Book lives in this module.

Players type on a phone, mid-game: accents are folded (Nazgul finds Nazgûl), words are stemmed
(retreating finds retreat), hyphenated words match joined and split (re-roll, reroll, re roll),
a word that is not in the index is matched to index words one edit away (corupption), glossary
aliases act as synonyms (MP, marshalling points), "quoted phrases" match in order, and the query
text is never parsed as query syntax, so no input can widen a search or break it.

The index is built into the instance folder, in a new folder each time; a symlink named `index`
is then swapped to point at it, so readers never see a half-written index.
"""
from __future__ import annotations

import bisect
import fcntl
import gc
import json
import os
import re
import shutil
import threading
import time
import unicodedata
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from flask import current_app
from markupsafe import Markup, escape
from whoosh import index as whoosh_index
from whoosh import query as wq
from whoosh.matching import IntersectionMatcher, ListMatcher, NullMatcher, UnionMatcher, WrappingMatcher
from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema
from whoosh.support.charset import accent_map
from whoosh.analysis import CharsetFilter

from .content_store import get_library

# Bump when the schema or analysis changes, so existing indexes are rebuilt.
INDEX_VERSION = "5"
MAX_QUERY_CHARS = 200
MAX_QUERY_WORDS = 12
MAX_FUZZY_CANDIDATES = 6
MAX_PHRASE_WORDS = 4
CACHE_SIZE = 512
LIMIT_MAX = 50
# How players ask, not what they ask about: dropped from a query that has other words
QUESTION_WORDS = frozenset("how many much what whats which who why where does do did i me my happens happen".split())
KEEP_BUILDS = 3
WORD = re.compile(r"\w+(?:[-'’]\w+)*")


class JoinedWordFilter(Filter):
    """Splits hyphenated and apostrophe words into parts and adds the joined form.

    "re-roll" becomes re, roll and reroll; the joined form shares the last part's position,
    so phrases that run across the word still match.
    """

    def __call__(self, tokens):
        pos = -1
        for token in tokens:
            text = token.text
            parts = re.split(r"[-'’]", text)
            if len(parts) == 1:
                pos += 1
                token.pos = pos
                yield token
                continue
            start = token.startchar if token.chars else None
            offset = 0
            for part in parts:
                if part:
                    pos += 1
                    token.text = part
                    token.pos = pos
                    if start is not None:
                        token.startchar = start + offset
                        token.endchar = start + offset + len(part)
                    yield token
                offset += len(part) + 1
            pos_last = pos
            token.text = "".join(parts)
            token.pos = pos_last
            if start is not None:
                token.startchar = start
                token.endchar = start + len(text)
            yield token


def _analyzer(join=True):
    chain = RegexTokenizer(WORD.pattern)
    if join:
        chain = chain | JoinedWordFilter()
    return chain | LowercaseFilter() | CharsetFilter(accent_map) | StopFilter(minsize=1) | StemFilter()


class SplitOnlyFilter(Filter):
    """Like JoinedWordFilter without the joined form: used to build phrase queries."""

    def __call__(self, tokens):
        pos = -1
        for token in tokens:
            for part in re.split(r"[-'’]", token.text):
                if part:
                    pos += 1
                    token.text = part
                    token.pos = pos
                    yield token


ANALYZER = _analyzer()
PHRASE_ANALYZER = RegexTokenizer(WORD.pattern) | SplitOnlyFilter() | LowercaseFilter() | CharsetFilter(accent_map) | StopFilter(minsize=1) | StemFilter()

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
    context=TEXT(analyzer=ANALYZER, field_boost=0.1),
    concepts=KEYWORD(scorable=True, field_boost=2.0),
    url=STORED,
    trail=STORED,
)
TEXT_FIELDS = ("title", "aliases", "body", "context")


def fold(text: str) -> str:
    """Lowercase without accents: what a player types for what the rules print."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def surface_words(text: str):
    """The folded words of a text, hyphenated words split into parts."""
    return [w for w in re.split(r"[^\w]+", fold(text)) if w]


def stems(text):
    """Stems of a text, hyphenated words split: the unit glossary phrases are matched in."""
    return tuple(t.text for t in PHRASE_ANALYZER(text))


def concept_table(groups):
    """Stemmed phrase -> ids of the glossary groups it names (a term and its aliases)."""
    table = {}
    for number, group in enumerate(groups):
        for phrase in group:
            key = stems(phrase)
            if key and len(key) <= MAX_PHRASE_WORDS:
                table.setdefault(" ".join(key), [])
                if f"g{number}" not in table[" ".join(key)]:
                    table[" ".join(key)].append(f"g{number}")
    return table


def concepts_in(text, table):
    """Ids of the glossary groups whose phrases occur in the text, once per occurrence."""
    words = stems(text)
    found = []
    for i in range(len(words)):
        for n in range(1, MAX_PHRASE_WORDS + 1):
            found.extend(table.get(" ".join(words[i:i + n]), ()))
    return found


# --- building -----------------------------------------------------------------------------

def documents(library):
    """One search document per section, phase, step, rule and glossary term."""
    for section in library.sections():
        game = library.games[section.game]
        yield {
            "id": f"{game.id}:{section.id}", "game": game.id, "section": section.id, "kind": "section",
            "title": section.title, "aliases": "", "body": f"{section.summary} {section.text}".strip(),
            "context": "", "url": section.url, "trail": [game.short_title],
        }
        for entry in section.walk():
            trail = [game.short_title, section.title]
            parent = entry.parent
            ancestors = []
            while parent is not None:
                ancestors.insert(0, parent.title)
                parent = parent.parent
            trail.extend(ancestors)
            yield {
                "id": f"{game.id}:{entry.id}", "game": game.id, "section": section.id, "kind": entry.kind,
                "title": entry.title, "aliases": " ".join([entry.short, *entry.aliases]).strip(),
                "body": entry.text, "context": " ".join(trail[1:]), "url": entry.url, "trail": trail,
            }


def index_link(instance_path) -> Path:
    return Path(instance_path) / "index"


def _stamp(library):
    return f"{INDEX_VERSION}:{library.fingerprint}"


def index_is_current(instance_path, library) -> bool:
    """True when the index was built from this content by this version and can be read."""
    folder = index_link(instance_path)
    try:
        if (folder / "stamp").read_text() != _stamp(library):
            return False
    except (OSError, ValueError):  # missing, or not even text
        return False
    return index_is_readable(folder)


JSON_FILES = ("vocabulary.json", "concepts.json")  # written beside the Whoosh files by write_index


def index_is_readable(folder) -> bool:
    """Whether every part of the index in ``folder`` can be read: terms, postings, stored fields, JSON files."""

    def read_everything():
        with whoosh_index.open_dir(str(folder)).searcher() as searcher:
            reader = searcher.reader()
            for name, term in reader.all_terms():
                for _ in reader.postings(name, term).all_ids():
                    pass
            for _ in searcher.all_stored_fields():
                pass
        for name in JSON_FILES:
            json.loads((Path(folder) / name).read_text())

    return _succeeds(read_everything)


def _succeeds(action) -> bool:
    """Run action(); False if it raised anything (a damaged index fails in any of Whoosh's layers).

    Whoosh leaves a file open when it fails on a damaged index: the failure is dropped here and
    the file closed at once, so no stray warning turns up later.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        try:
            action()
            return True
        except Exception:
            pass
        gc.collect()
    return False


def write_index(instance_path, library) -> Path:
    """Build a complete index in a fresh folder, then swap the `index` symlink to it."""
    instance = Path(instance_path)
    builds = instance / "indexes"
    builds.mkdir(parents=True, exist_ok=True)
    target = builds / f"build-{time.time_ns()}-{os.getpid()}"
    target.mkdir()
    ix = whoosh_index.create_in(str(target), SCHEMA)
    vocabulary = {}
    table = concept_table(library.synonyms)
    with ix.writer() as writer:
        for doc in documents(library):
            doc["concepts"] = " ".join((concepts_in(f"{doc['title']} {doc['aliases']} {doc['body']}", table)))
            writer.add_document(**doc)
            for word in surface_words(f"{doc['title']} {doc['aliases']} {doc['body']}"):
                vocabulary[word] = vocabulary.get(word, 0) + 1
    (target / "vocabulary.json").write_text(json.dumps(vocabulary, sort_keys=True))
    (target / "concepts.json").write_text(json.dumps(table, sort_keys=True))
    (target / "stamp").write_text(_stamp(library))
    link = index_link(instance)
    temporary = instance / f".index-{os.getpid()}-{time.time_ns()}"
    os.symlink(os.path.relpath(target, instance), temporary)
    os.replace(temporary, link)  # atomic: readers see the old build or the new one
    _prune(builds, keep=target)
    return target


def _prune(builds: Path, keep: Path):
    # Old builds stay a while: a reader may still have one open.
    old = sorted((p for p in builds.iterdir() if p.is_dir() and p != keep), key=lambda p: p.stat().st_mtime)
    for path in old[: max(0, len(old) - (KEEP_BUILDS - 1))]:
        shutil.rmtree(path, ignore_errors=True)


def build_index(force=False):
    """Build the index for the app's content unless it is current; (path, seconds or None)."""
    instance = Path(current_app.instance_path)
    library = get_library()
    lock_path = instance / "index.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builder at a time across workers
        try:
            if not force and index_is_current(instance, library):
                return index_link(instance).resolve(), None
            started = time.perf_counter()
            path = write_index(instance, library)
            return path, time.perf_counter() - started
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


# --- searching ----------------------------------------------------------------------------

class AnyOf(wq.Or):
    """Matches any of its subqueries, through a tree of union matchers.

    Whoosh picks an array matcher for an Or on a small index; on ours that scores the same
    documents the same way but takes nearly twice as long per query (bench/search_latency.py).
    """

    def _matcher(self, subs, searcher, context):
        # an order-keeping tree: sizing each branch first costs more lookups than it saves here
        return self._tree_matcher(subs, UnionMatcher, searcher, context, None)


class HeldTerm(wq.Term):
    """A Term whose postings come from the open index's memory (see HeldPostings)."""

    def matcher(self, searcher, context=None):
        held = getattr(searcher, "held_postings", None)
        if held is None:
            return super().matcher(searcher, context)
        m = held.matcher(self.fieldname, self.text)
        return WrappingMatcher(m, boost=self.boost) if self.boost != 1.0 else m


class HeldPostings:
    """Each word's postings and scorer, read from disk once per open index.

    Whoosh decodes a term's postings and sets up its scorer on every query; with a few
    hundred documents the lists are short, so keeping them saves most of a query's cost.
    Only words the index holds are kept, so the memory is bounded by the index's vocabulary.
    """

    def __init__(self, searcher, terms):
        self.searcher = searcher
        self.terms = terms
        self.lists = {}

    def matcher(self, fieldname, text):
        key = (fieldname, text)
        held = self.lists.get(key)
        if held is None:
            if text not in self.terms.get(fieldname, ()):
                return NullMatcher()
            searcher = self.searcher
            btext = searcher.schema[fieldname].to_bytes(text)
            postings = searcher.reader().postings(fieldname, btext)
            ids, weights = [], []
            while postings.is_active():
                ids.append(postings.id())
                weights.append(postings.weight())
                postings.next()
            held = (ids, weights, searcher.weighting.scorer(searcher, fieldname, btext),
                    (fieldname, btext), searcher.reader().term_info(fieldname, btext))
            self.lists[key] = held
        ids, weights, scorer, term, terminfo = held
        return ListMatcher(ids, weights, scorer=scorer, term=term, terminfo=terminfo)


class AllOf(wq.And):
    """Matches documents that match every subquery, through an order-keeping tree."""

    def _matcher(self, subs, searcher, context):
        return self._tree_matcher(subs, IntersectionMatcher, searcher, context, None)


@dataclass
class Hit:
    id: str
    game: str
    section: str
    kind: str
    title: str
    url: str
    snippet: Markup
    trail: list

    def as_json(self):
        return {"id": self.id, "game": self.game, "section": self.section, "kind": self.kind,
                "title": self.title, "url": self.url, "snippet": str(self.snippet)}


@dataclass
class Results:
    query: str
    total: int
    hits: list
    suggestion: str | None
    corrected: bool  # results came from a one-edit correction of a word

    def as_json(self):
        return {"query": self.query, "total": self.total, "results": [h.as_json() for h in self.hits],
                "suggestion": self.suggestion}


class SearchIndex:
    """An open index for one process: reopened when the `index` symlink moves to a new build."""

    def __init__(self, instance_path):
        self.link = index_link(instance_path)
        self.lock = threading.Lock()
        self.target = None
        self.searcher = None
        self.vocabulary = {}
        self.deletions = {}
        self.sorted_words = []
        self.terms = {}
        self.concepts = {}
        self.group_stems = {}
        self.stored = {}
        self.game_docs = {}
        self.cache = OrderedDict()

    def current(self):
        try:
            target = os.readlink(self.link)
        except OSError:
            raise IndexMissing(f"no search index at {self.link}; run 'redbook build-index'") from None
        if target != self.target:
            with self.lock:
                if target != self.target and not _succeeds(lambda: self._open(target)):
                    raise IndexMissing(f"the search index at {self.link} cannot be read; run 'redbook build-index'")
        return self.searcher

    def _open(self, target):
        folder = self.link.parent / target
        ix = whoosh_index.open_dir(str(folder))
        searcher = ix.searcher()
        self.terms = {name: set(searcher.reader().field_terms(name)) for name in (*TEXT_FIELDS, "concepts")}
        searcher.held_postings = HeldPostings(searcher, self.terms)
        self.vocabulary = json.loads((folder / "vocabulary.json").read_text())
        self.deletions = _deletion_table(self.vocabulary)
        self.sorted_words = sorted(self.vocabulary)
        self.concepts = json.loads((folder / "concepts.json").read_text())
        self.group_stems = {}
        for phrase, ids in self.concepts.items():
            for group in ids:
                self.group_stems.setdefault(group, set()).update(phrase.split())
        # a few hundred small documents: kept in memory so a hit costs no read from disk
        self.stored = dict(searcher.reader().iter_docs())
        self.game_docs = {}
        for docnum, fields in self.stored.items():
            self.game_docs.setdefault(fields["game"], set()).add(docnum)
        self.cache = OrderedDict()
        old = self.searcher
        self.searcher, self.target = searcher, target
        if old is not None:
            old.close()

    # query building

    def _term_query(self, token, boost=1.0):
        # only the fields that hold the word: a field without it would match nothing anyway
        names = [name for name in TEXT_FIELDS if token in self.terms[name]] or ["body"]
        if len(names) == 1:
            return HeldTerm(names[0], token, boost=boost)
        return AnyOf([HeldTerm(name, token, boost=boost) for name in names])

    def _word_query(self, word, fuzzy, unfinished=False):
        """A query for one typed word; (query or None, corrected: bool).

        An unfinished last word (search as you type) also matches index words it begins.
        """
        tokens = [t.text for t in ANALYZER(word)]
        if not tokens:
            return None, False
        parts = [t for t in (tok.text for tok in PHRASE_ANALYZER(word))]
        if len(tokens) > 1 and len(parts) > 1:
            # hyphenated: the joined form, or the parts in order
            return AnyOf([self._term_query(tokens[-1]), self._phrase(parts)]), False
        token = tokens[0]
        completions = self._completions(fold(word)) if unfinished else []
        alternatives = [self._term_query(c, boost=0.6) for c in completions if c != token]
        if self._known(token) or not fuzzy:
            return AnyOf([self._term_query(token), *alternatives]) if alternatives else self._term_query(token), False
        if alternatives:
            return AnyOf(alternatives), False
        candidates = self._one_edit(fold(word))
        if not candidates:
            return self._term_query(token), False
        return AnyOf([self._term_query(c, boost=0.8) for c in candidates]), True

    def _completions(self, prefix):
        """Index terms for the commonest index words that begin with ``prefix`` (bounded)."""
        if len(prefix) < 3:
            return []
        start = bisect.bisect_left(self.sorted_words, prefix)
        words = []
        for word in self.sorted_words[start:start + 200]:
            if not word.startswith(prefix):
                break
            words.append(word)
        words.sort(key=lambda w: -self.vocabulary[w])
        found = []
        for word in words[:MAX_FUZZY_CANDIDATES]:
            for analysed in ANALYZER(word):
                if analysed.text not in found and self._known(analysed.text):
                    found.append(analysed.text)
        return found

    def _one_edit(self, word):
        """Index terms for the index words closest to a typed word that the index lacks.

        Up to one edit for short words and two for words of 7 letters or more, so doubled or
        swapped letters ("corupption") still land; looked up through a table of deletions
        built when the index is opened, so the cost is bounded whatever the query.
        """
        found = []
        for candidate in self._close_words(word):
            for analysed in ANALYZER(candidate):
                if analysed.text not in found and self._known(analysed.text):
                    found.append(analysed.text)
        return found[:MAX_FUZZY_CANDIDATES]

    def _close_words(self, word):
        """Index words within the allowed edits of ``word``, closest and commonest first."""
        if len(word) < 4 or len(word) > 30:
            return []
        limit = 1 if len(word) < 7 else 2
        candidates = set()
        for deletion in _deletions(word, limit):
            candidates.update(self.deletions.get(deletion, ()))
        scored = []
        for candidate in candidates:
            distance = _edit_distance(word, candidate, limit)
            if distance <= limit:
                scored.append((distance, -self.vocabulary.get(candidate, 0), candidate))
        scored.sort()
        return [candidate for _, _, candidate in scored]

    def _known(self, token):
        return any(token in self.terms[f] for f in TEXT_FIELDS)

    def _phrase(self, words):
        queries = [wq.Phrase(name, list(words)) for name in TEXT_FIELDS] if len(words) > 1 else [
            self._term_query(words[0])]
        return AnyOf(queries)

    def _phrase_text(self, text):
        tokens = [t.text for t in PHRASE_ANALYZER(text)]
        if not tokens:
            return None
        return self._phrase(tokens)

    def parse(self, text, fuzzy=True):
        """(list of required groups, corrected) for the typed text."""
        groups = []
        corrected = False
        quoted = re.findall(r'"([^"]*)"', text)
        rest = re.sub(r'"[^"]*"', " ", text).replace('"', " ")
        for phrase in quoted:
            q = self._phrase_text(phrase)
            if q is not None:
                groups.append(q)
        words = WORD.findall(rest)[:MAX_QUERY_WORDS]
        words = [w for w in words if fold(w) not in QUESTION_WORDS] or words
        # each word's stems once: the stems of a run of words are the runs of their stems
        word_stems = [_typed_word_stems(word) for word in words]
        i = 0
        while i < len(words):
            matched = None
            for n in range(min(MAX_PHRASE_WORDS, len(words) - i), 0, -1):
                key = " ".join(stem for one in word_stems[i:i + n] for stem in one)
                if key in self.concepts and (n > 1 or len(key) > 1):
                    matched = (n, key)
                    break
            if matched:
                # A glossary term or alias: any phrase of its group matches, the typed words
                # in a title score highest.
                n, key = matched
                alternatives = [HeldTerm("concepts", group) for group in self.concepts[key]]
                alternatives += [wq.Phrase(name, key.split()) if n > 1 else HeldTerm(name, key)
                                 for name in ("title", "aliases", "context")]
                groups.append(AnyOf(alternatives))
                i += n
                continue
            unfinished = i == len(words) - 1 and not text.endswith((" ", '"'))
            q, was_corrected = self._word_query(words[i], fuzzy, unfinished)
            if q is not None:
                groups.append(q)
                corrected = corrected or was_corrected
            i += 1
        return groups, corrected

    def search(self, text, game=None, limit=10, fuzzy=True):
        text = (text or "")[:MAX_QUERY_CHARS].replace("\x00", " ")
        self.current()
        key = (text, game, limit, fuzzy)
        with self.lock:
            cached = self.cache.get(key)
            if cached is not None:
                self.cache.move_to_end(key)
                return cached
        results = self._search(text, game, limit, fuzzy)
        with self.lock:
            self.cache[key] = results
            if len(self.cache) > CACHE_SIZE:
                self.cache.popitem(last=False)
        return results

    def _search(self, text, game, limit, fuzzy):
        searcher = self.searcher
        groups, corrected = self.parse(text, fuzzy=fuzzy)
        if not groups:
            return Results(query=text, total=0, hits=[], suggestion=None, corrected=False)
        filter_q = self.game_docs.get(game, set()) if game else None
        query = AllOf(groups)
        # The index is small: scoring every match is cheaper than counting them a second time.
        results = searcher.search(query, limit=None, filter=filter_q)
        if results.scored_length() == 0 and len(groups) > 1:
            query = AnyOf(groups)
            results = searcher.search(query, limit=None, filter=filter_q)
        total = results.scored_length()
        marked = self._marked_stems(query)
        hits = [self._hit(self.stored[docnum], marked) for _, docnum in results.top_n[:limit]]
        suggestion = self.suggest(text) if (corrected or not hits) else None
        if suggestion and not hits and not self._has_hits(suggestion, filter_q):
            suggestion = None  # offer only a correction that finds something
        return Results(query=text, total=total, hits=hits, suggestion=suggestion, corrected=corrected)

    def _has_hits(self, text, filter_q):
        groups, _ = self.parse(text, fuzzy=False)
        if not groups:
            return False
        return self.searcher.search(AnyOf(groups), limit=1, filter=filter_q).scored_length() > 0

    def _marked_stems(self, query):
        """The stems a snippet should mark: the query's terms and its glossary groups' words."""
        marked = set()
        groups = set()
        for field, value in query.iter_all_terms():
            value = value.decode() if isinstance(value, bytes) else value
            if field == "concepts":
                groups.add(value)
            elif field in TEXT_FIELDS:
                marked.add(value)
        for group in groups:
            marked.update(self.group_stems.get(group, ()))
        return frozenset(marked)

    def _hit(self, hit, marked):
        return Hit(id=hit["id"], game=hit["game"], section=hit["section"], kind=hit["kind"],
                   title=hit["title"], url=hit["url"], snippet=snippet(hit["body"], marked),
                   trail=list(hit["trail"]))

    def suggest(self, text):
        """The query with each unknown word replaced by the closest index word, or None."""
        words = surface_words(re.sub(r'["]', " ", text))[:MAX_QUERY_WORDS]
        changed = False
        out = []
        for word in words:
            if word in self.vocabulary or len(word) < 3 or word.isdigit():
                out.append(word)
                continue
            best = self._closest(word)
            if not best:
                return None  # a word with nothing close: no honest suggestion
            out.append(best)
            changed = True
        return " ".join(out) if changed else None

    def _closest(self, word):
        close = self._close_words(word)
        return close[0] if close else None


def _deletions(word, depth):
    """``word`` and every string made by deleting up to ``depth`` letters from it."""
    found = {word}
    frontier = {word}
    for _ in range(depth):
        frontier = {w[:i] + w[i + 1:] for w in frontier for i in range(len(w))}
        found |= frontier
    return found


def _deletion_table(vocabulary):
    table = {}
    for word in vocabulary:
        if 4 <= len(word) <= 30 and not word.isdigit():
            for deletion in _deletions(word, 2):
                table.setdefault(deletion, []).append(word)
    return table


def _edit_distance(a, b, limit):
    """Levenshtein distance with transpositions, giving up above ``limit``."""
    previous = list(range(len(b) + 1))
    before = None
    for i, ca in enumerate(a, 1):
        current = [i]
        row_min = i
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if before is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, before[j - 2] + 1)
            current.append(value)
            row_min = min(row_min, value)
        if row_min > limit:
            return limit + 1
        before, previous = previous, current
    return previous[-1]


@lru_cache(maxsize=20000)
def _typed_word_stems(word):
    return stems(word)


@lru_cache(maxsize=20000)
def _word_stems(word):
    return frozenset(t.text for t in ANALYZER(word)) | frozenset(t.text for t in PHRASE_ANALYZER(word))


@lru_cache(maxsize=4096)
def _body_words(body):
    """Each word of a stored body with its stems, worked out once per document."""
    return tuple((m, _word_stems(m.group())) for m in WORD.finditer(body))


def snippet(body, marked, width=180):
    """An escaped excerpt of ``body`` around its first matching word, matches in <mark>."""
    hits = [m for m, word_stems in _body_words(body) if word_stems & marked] if marked else []
    if not hits:
        return Markup(escape(body[:width] + ("…" if len(body) > width else "")))
    start = max(0, hits[0].start() - 50)
    if start:
        space = body.find(" ", start)
        start = space + 1 if 0 <= space < hits[0].start() else start
    end = min(len(body), start + width)
    if end < len(body):
        space = body.rfind(" ", start, end)
        end = space if space > hits[0].end() else end
    out = ["…" if start else ""]
    position = start
    for match in hits:
        if match.start() < position or match.end() > end:
            continue
        out.append(str(escape(body[position:match.start()])))
        out.append(f"<mark>{escape(match.group())}</mark>")
        position = match.end()
    out.append(str(escape(body[position:end])))
    out.append("…" if end < len(body) else "")
    return Markup("".join(out))


class IndexMissing(RuntimeError):
    """The instance folder has no index, or one that cannot be read: `redbook build-index` makes one."""


def get_search_index() -> SearchIndex:
    return current_app.extensions["redbook.search"]


def search(text, game=None, limit=10, fuzzy=True) -> Results:
    return get_search_index().search(text, game=game, limit=limit, fuzzy=fuzzy)


def init_app(app):
    """Make the index current at start (unless configured off) and register the CLI command."""
    library = app.extensions["redbook.library"]
    if app.config.get("BUILD_INDEX_ON_START", True):
        with app.app_context():
            build_index()
    app.extensions["redbook.search"] = SearchIndex(app.instance_path)

    import click

    @app.cli.command("build-index")
    @click.option("--force", is_flag=True)
    def build_index_command(force):
        """Build the search index into the instance folder."""
        path, seconds = build_index(force=force)
        click.echo(f"index built in {seconds:.2f} s at {path}" if seconds is not None else f"index up to date at {path}")
