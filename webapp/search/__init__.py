"""Search: the rules that answer a question in the player's own words, best first.

The package, in the order a question passes through it:

- ``parameters``: what a request asks (q, game, limit), read alike for the page and the API;
- ``reading``: the question's meaningful words and phrases, in the rules' words too (``words``:
  glossary synonyms and the player vocabulary; ``spelling``: typos; ``analysis``: stems);
- ``index``: the in-memory Whoosh index of the content (``documents``), each entry's own words
  and the questions players ask of it (``asked``) scored apart; ``held_scores``, its fast path;
- ``ranking``: the named features, their one table of weights and the one sort key; ``meaning``,
  the feature that relates everyday words to the rules' by their word vectors
  (``make_word_vectors`` makes the vectors' file);
- ``snippets`` and ``results``: what a player sees of each entry found.
"""
from ..state import get_search_index
from .analysis import stems
from .index import SearchIndex
from .parameters import API_LIMIT, LIMIT_MAX, PAGE_LIMIT, SEARCH_PARAMETERS, SearchInputError, read_search_input
from .ranking import WEIGHTS
from .reading import MAX_QUERY_CHARS
from .results import Hit, PlayerWords, Results

__all__ = ["API_LIMIT", "LIMIT_MAX", "MAX_QUERY_CHARS", "PAGE_LIMIT", "WEIGHTS", "Hit", "PlayerWords", "Results",
           "SEARCH_PARAMETERS", "SearchIndex", "SearchInputError", "read_search_input", "search", "stems"]


def search(text, game=None, limit=10, fuzzy=True) -> Results:
    """The rules that answer ``text``, best first (the public way to ask; /healthz uses it too)."""
    return get_search_index().search(text, game=game, limit=limit, fuzzy=fuzzy)
