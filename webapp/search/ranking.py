"""Ranking: a few named features of an entry for a question, one table of weights, one sort key.

Every entry that matches a part of the question (reading.py) gets each feature's value, a
number from 0 to 1; its rank is the weighted sum, best first (ties: the entry the content gives
first). One feature, meaning (meaning.py), is worked out only for the MEANING_POOL entries the
others rank first, which are then ranked again with it. The weights are below, in one table;
``python bench/search_quality.py --ablate`` turns each feature off in turn and prints what the
held-back questions score without it.

A part's share of the question is its rarity (a word few entries hold says more), and an
entry's match of a part is counted against the best match of that part in the entry's game.
How players ask is not written here: it is in the content, in the questions each entry lists as
``asked`` and in the player vocabulary.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .analysis import key_of, stems
from .meaning import nearness, unpacked

WEIGHTS = {
    "rules": 1.5,  # the share of the question the entry's own words match: title, aliases, body, the titles it sits in
    "asked": 1.8,  # the share of the question that the questions asked of it match, each part where any one does
    "score": 0.3,  # its Whoosh (BM25F) score in its own words, against the best entry's
    "every_part": 0.5,  # it matches every part of the question
    "title": 0.3,  # the question says all of its title: how much of the question that title is
    "definition": 2.0,  # a glossary entry that a term asked alone names ("combat", "what is combat")
    "term_for_question": -0.6,  # a glossary entry, for a question (the rule answers it)
    "section_for_question": -0.3,  # a whole section, for a question
    "calculator_asked": 1.0,  # a calculator the question asks for (odds, score)
    "sequence_asked": 1.0,  # a section walking a turn, round or fight, for a question asking the order of one
    "game_fit": 0.5,  # without a game filter: how well the entry's game answers the question
    "meaning": 0.5,  # of the MEANING_POOL best by the rest: how near the question comes to it in meaning
}
MEANING_POOL = 30  # entries ranked again with their meaning (meaning.py): those best by the other features
NEAREST_FLOOR = 0.6  # a question no rule's words match is answered by the entries at least this near in meaning
NEAREST_MOST = 5  # and by this many of them at most: a guess, said as one, is kept short
RARITY = 0.5  # 0 would weigh all words alike, 1 by their full inverse document frequency
CORRECTED = 0.5  # a corrected word is a guess: its share of the question counts this much


@dataclass
class Match:
    """What one part of a question finds: {docnum: Whoosh score} of the entries in their own words
    and of the questions asked of them, the entries it finds either way, and its share of the question."""

    rules: dict
    asked: dict
    corrected: bool = False  # the part is a word corrected to the rules' closest: a guess
    sentence: int = 0  # the sentence of the question it is in
    found: frozenset = frozenset()
    share: float = 0.0


def shares(matches, population):
    """Each match's share of the question: its rarity, log(1 + entries / entries it finds) ** RARITY."""
    weights = [math.log(1 + population / len(m.found)) ** RARITY * (CORRECTED if m.corrected else 1.0) for m in matches]
    total = sum(weights)
    for match, weight in zip(matches, weights):
        match.share = weight / total


def credit(scores, game_of):
    """{docnum: its score against the best score in its game}: the best match in a game counts in full."""
    best = {}
    for docnum, value in scores.items():
        if value > best.get(game_of[docnum], 0.0):
            best[game_of[docnum]] = value
    return {docnum: value / best[game_of[docnum]] for docnum, value in scores.items()}


def coverage(matches, scores_of, game_of):
    """{docnum: the share of the question it matches}, each part's scores (``scores_of(match)``)
    counted against the best match of that part in the entry's game."""
    found = {}
    for match in matches:
        for docnum, value in credit(scores_of(match), game_of).items():
            found[docnum] = found.get(docnum, 0.0) + match.share * value
    return found


def by_entry(scores, entry_of):
    """{docnum of an entry: the best score of the questions asked of it}: a part counts for an
    entry where any one of its questions matches it, so one can say "army" and another "run away"."""
    best = {}
    for question, value in scores.items():
        entry = entry_of[question]
        if value > best.get(entry, 0.0):
            best[entry] = value
    return best


def total_score(matches):
    """{docnum: its Whoosh score for the whole question in its own words, against the best entry's}."""
    found = {}
    for match in matches:
        for docnum, value in match.rules.items():
            found[docnum] = found.get(docnum, 0.0) + value
    best = max(found.values(), default=0.0)
    return {docnum: value / best for docnum, value in found.items()}


def every_part(matches):
    """{docnum: 1} for the entries that match every part."""
    common = frozenset.intersection(*(m.found for m in matches))
    return dict.fromkeys(common, 1.0)


def game_fit(matches, game_of):
    """{game: how well its entries answer the question}: each part's share, times its best match
    in the game against its best match anywhere."""
    fit = {}
    for match in matches:
        best = {}
        for scores in (match.rules, match.asked):
            for docnum, value in scores.items():
                game = game_of[docnum]
                best[game] = max(best.get(game, 0.0), value)
        top = max(best.values())
        for game, value in best.items():
            fit[game] = fit.get(game, 0.0) + match.share * value / top
    return fit


def rank(features, weights, candidates):
    """``candidates`` best first: the weighted sum of their features, ties in content order."""
    totals = dict.fromkeys(candidates, 0.0)
    for name, weight in weights.items():  # feature by feature, in the table's order: the same sums, term by term
        if weight:
            for docnum, value in features[name].items():
                if docnum in totals:
                    totals[docnum] += weight * value
    return sorted(candidates, key=lambda docnum: (-round(totals[docnum], 9), docnum))


class Ranker:
    """The features of the entries a question finds, and their order."""

    def __init__(self, entries, named_terms, vectors=None, entry_vectors=None, weights=None):
        self.entries = entries  # index.Entries
        self.named_terms = named_terms  # stemmed term or alias -> docnums of the glossary entries it names
        self.vectors = vectors  # meaning.WordVectors (None: no meaning feature)
        self.entry_vectors = {docnum: unpacked(packed, vectors.dimensions)
                              for docnum, packed in (entry_vectors or {}).items()} if vectors else {}
        self.weights = dict(WEIGHTS if weights is None else weights)

    def rank(self, reading, matches, game):
        """The docnums ``matches`` found, best first: by every feature but meaning, then the first
        MEANING_POOL again with it too."""
        return self.ranked_with_features(reading, matches, game)[0]

    def ranked_with_features(self, reading, matches, game):
        """(``rank``'s docnums, {feature name: {docnum: value}} they were ranked by)."""
        shares(matches, self.entries.count.get(game, 0))
        candidates = frozenset().union(*(m.found for m in matches))
        features = self.features(reading, matches, game, candidates)
        ranked = rank(features, self.weights, candidates)
        if not self.weights.get("meaning") or self.vectors is None:
            return ranked, features
        pool = ranked[:MEANING_POOL]
        features["meaning"] = self.nearness_in_pool(reading, pool)
        return rank(features, self.weights, pool) + ranked[MEANING_POOL:], features

    def nearness_in_pool(self, reading, pool):
        """{docnum: how near the question comes to it in meaning, from 0 (the farthest of the pool) to
        1 (the nearest)}. The question's vector is of its words as the player typed them
        (``reading.said``), not as the speller corrected them: the vectors know many words the
        rules never use. For a question, a glossary entry gets 0, as the farthest does: the rule
        answers it, and a term's few words, all about the term, come near any question naming it."""
        question = self.vectors.vector(reading.said)
        if question is None:
            return {}
        kind = self.entries.kind
        near = {docnum: nearness(question, self.entry_vectors.get(docnum, ())) for docnum in pool
                if reading.lone or kind[docnum] != "term"}
        low, high = min(near.values(), default=0.0), max(near.values(), default=0.0)
        return {docnum: (value - low) / (high - low) for docnum, value in near.items()} if high > low else {}

    def nearest(self, reading, game):
        """For a question no entry's words match in one game: the docnums of the NEAREST_MOST entries
        of ``game`` nearest to it in meaning, none under NEAREST_FLOOR ("combat" in a game whose
        rules say battle and attack finds them; "dice" in a game without dice finds nothing).
        Every entry of the game is looked at (a few milliseconds), but only for a question that
        found none; with no game, none (every game's entries would take four times as long, and a
        word no game's rules use is seldom a game's own)."""
        question = self.vectors.vector(reading.said) if self.vectors is not None and game else None
        if question is None:
            return []
        game_of = self.entries.game
        near = [(nearness(question, vectors), docnum) for docnum, vectors in self.entry_vectors.items()
                if game_of[docnum] == game]
        near = sorted((item for item in near if item[0] >= NEAREST_FLOOR), key=lambda item: (-item[0], item[1]))
        return [docnum for _, docnum in near[:NEAREST_MOST]]

    def features(self, reading, matches, game, candidates):
        """{feature name: {docnum: value}} (a docnum left out has 0)."""
        entries = self.entries
        kind_of = entries.kind
        asks_a_rule = not reading.lone  # neither a term alone nor a "what is" question: the rule answers it
        fit = game_fit(matches, entries.game) if game is None else {}
        return {
            "rules": coverage(matches, lambda match: match.rules, entries.game),
            "asked": coverage(matches, lambda match: by_entry(match.asked, entries.entry_of), entries.game),
            "score": total_score(matches),
            "every_part": every_part(matches),
            "title": self.title_said(reading, candidates),
            "definition": self.named(reading) if reading.term_alone else {},
            "term_for_question": {d: 1.0 for d in candidates if asks_a_rule and kind_of[d] == "term"},
            "section_for_question": {d: 1.0 for d in candidates if asks_a_rule and kind_of[d] == "section"},
            "calculator_asked": dict.fromkeys(reading_calculators(reading, entries) & candidates, 1.0),
            "sequence_asked": dict.fromkeys(entries.sequences & candidates, 1.0) if reading.sequence else {},
            "game_fit": {d: fit.get(entries.game[d], 0.0) for d in candidates} if fit else {},
            "meaning": {},  # worked out for the pool only (see rank)
        }

    def title_said(self, reading, candidates):
        """{docnum: how much of the question its title is} for the entries whose whole title it says."""
        said = self.entries.title_words_of(
            [s for part in reading.parts for s in (*part.key.split(), *(t for r in part.rules for t in stems(r)))])
        if not said:
            return {}
        counts = {}
        for word in said:
            for docnum in self.entries.titles_with.get(word, ()):
                counts[docnum] = counts.get(docnum, 0) + 1
        title_words = self.entries.title_words
        return {d: n / len(said) for d, n in counts.items() if n == len(title_words[d]) and d in candidates}

    def named(self, reading):
        """{docnum: 1} for the glossary entries a term asked alone names (or, for a player's word, the
        entry of the rules' word for it: "epidemic" is Skies Darken)."""
        found = set()
        for part in reading.parts:
            for key in (part.key, *(key_of(r) for r in part.rules)):
                found |= self.named_terms.get(key, set())
        return dict.fromkeys(found, 1.0)


def reading_calculators(reading, entries):
    """The docnums of the calculators the question asks for."""
    return {entries.docnum[i] for i in reading.calculators if i in entries.docnum}
