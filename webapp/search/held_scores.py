"""FAST PATH: the one place that trades Whoosh's query machinery for speed.

Whoosh scores a query by walking the postings of its terms and scoring each with BM25F, on
every search. Here every (field, term) is read once, when the index is built, through the
searcher's public postings matcher: each document's score and the term's positions in it. A
query then adds those scores up: a term scores as its table says, an Or as the sum of what
matches, a phrase as the sum of its words' scores where they stand side by side, a
Require(..., game) as its first part within the game. That is what Whoosh computes; the tests
check that every player and table question ranks exactly as Whoosh's own search ranks it, and
bench/search_latency.py times both.
"""
from __future__ import annotations

from whoosh import query as wq

from .queries import TEXT_FIELDS, game_terms


class HeldScores:
    """Every (field, term)'s scores and positions, read from the index once."""

    def __init__(self, searcher, terms, game_of):
        self.scores_of = {}  # (field, term) -> {game or None for all: {docnum: score}}
        self.positions = {}  # (field, term) -> {docnum: positions}
        for fieldname, words in terms.items():
            for word in words:
                self._read(searcher, fieldname, word, game_of)

    def _read(self, searcher, fieldname, word, game_of):
        positional = fieldname in TEXT_FIELDS
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
            allowed = set().union(*(game_docs.get(t.text, ()) for t in game_terms(query.b)))
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
