"""The Whoosh queries search builds, and the fields they look in.

Every part of a question is one query over every text field; ``only`` cuts it down to some of
them, so that the rules' own words and the questions players ask (``asked``) are scored apart.
"""
from __future__ import annotations

from whoosh import query as wq

RULES_FIELDS = ("title", "aliases", "body", "context")  # an entry's own words
ASKED_FIELD = "asked"  # the questions players ask that it answers
TEXT_FIELDS = (*RULES_FIELDS, ASKED_FIELD)
CONCEPTS_FIELD = "concepts"  # the glossary groups whose names an entry's own words use


def boosted(queries, boost):
    """Any of ``queries``, scores multiplied by ``boost`` (Whoosh ignores the boost of an Or of one)."""
    if len(queries) > 1:
        return wq.Or(queries, boost=boost)
    query = queries[0]
    if type(query) is wq.Term:
        return wq.Term(query.fieldname, query.text, boost=query.boost * boost)
    if type(query) is wq.Phrase:
        return wq.Phrase(query.fieldname, query.words, boost=query.boost * boost)
    return boosted(query.subqueries, query.boost * boost)


def any_of(queries):
    """One query for any of ``queries`` (None if there are none)."""
    queries = [q for q in queries if q is not None]
    if not queries:
        return None
    return queries[0] if len(queries) == 1 else wq.Or(queries)


def game_terms(query):
    """The games a Require(..., game) query keeps to: its Term, or each Term of its Or."""
    return [query] if type(query) is wq.Term else list(query.subqueries)


def only(query, fields):
    """``query`` with every term and phrase outside ``fields`` left out; None if nothing is left."""
    kind = type(query)
    if kind in (wq.Term, wq.Phrase):
        return query if query.fieldname in fields else None
    if kind is wq.Require:
        kept = only(query.a, fields)
        return None if kept is None else wq.Require(kept, query.b)
    kept = [q for q in (only(sub, fields) for sub in query.subqueries) if q is not None]
    if not kept:
        return None
    return wq.Or(kept, boost=query.boost) if len(kept) > 1 or query.boost == 1.0 else boosted(kept, query.boost)


class QueryMaker:
    """The query for a word or a phrase of stems, in the fields of the index that hold them."""

    def __init__(self, terms, concepts):
        self.terms = terms  # field -> the terms it holds
        self.concepts = concepts  # stemmed glossary phrase -> ids of the glossary groups it names

    def known(self, token):
        """Whether any text field holds ``token``."""
        return any(token in self.terms[name] for name in TEXT_FIELDS)

    def term(self, token, boost=1.0):
        """One stem in any text field; only the fields that hold it (another would match nothing anyway)."""
        names = [name for name in TEXT_FIELDS if token in self.terms[name]] or ["body"]
        if len(names) == 1:
            return wq.Term(names[0], token, boost=boost)
        return wq.Or([wq.Term(name, token, boost=boost) for name in names])

    def phrase(self, words):
        """Stems in order, in any text field; one stem is a term query."""
        if len(words) == 1:
            return self.term(words[0])
        return wq.Or([wq.Phrase(name, list(words)) for name in TEXT_FIELDS])

    def concept(self, key):
        """A glossary term or alias: any phrase of its group, the typed words in a title scoring highest."""
        words = key.split()
        alternatives = [wq.Term(CONCEPTS_FIELD, group) for group in self.concepts[key]]
        alternatives += [wq.Phrase(name, words) if len(words) > 1 else wq.Term(name, key)
                         for name in ("title", "aliases", "context", ASKED_FIELD)]
        return wq.Or(alternatives)

    def rules_words(self, key):
        """The rules' words for a player's (their stems): their glossary group, or the words themselves."""
        if not key:
            return None
        return self.concept(key) if key in self.concepts else self.phrase(key.split())
