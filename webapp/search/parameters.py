"""What a search is asked: its words (q), its game (game) and how many answers (limit), read from
a request's query string one way for the search page and the API alike. A question of any length
is taken: search reads up to MAX_QUERY_CHARS of it and says so."""
from __future__ import annotations

from dataclasses import dataclass

from ..content import GAME_IDS
from ..errors import ParameterError

LIMIT_MAX = 50
API_LIMIT, PAGE_LIMIT = 10, 20  # answers when a request does not say how many
SEARCH_PARAMETERS = ("q", "game", "limit")


@dataclass(frozen=True)
class SearchInput:
    text: str  # as typed; "" on a search page opened without words
    game: str | None  # None: every game
    limit: int  # how many answers, 1 to LIMIT_MAX


class SearchInputError(ParameterError):
    """A search parameter with a value search does not take: ``field`` names it, ``allowed`` says
    what it takes, and ``typed`` keeps what was asked so that a page can show it again."""

    def __init__(self, field, allowed, typed):
        super().__init__(f"{field}: {allowed}")
        self.field = field
        self.allowed = allowed
        self.typed = typed


def read_search_input(args, default_limit, required=True) -> SearchInput:
    """The search asked for by query-string ``args``; raise SearchInputError naming the first
    parameter at fault. Without ``required``, no words is a search page not yet asked anything.
    A blank limit is the default; each parameter is given at most once."""
    text = args.get("q", "").replace("\x00", " ")  # a NUL separates words, as a space does
    game = args.get("game") or None
    typed = SearchInput(text=text, game=game, limit=default_limit)
    for name in SEARCH_PARAMETERS:
        if len(args.getlist(name)) > 1:
            raise SearchInputError(name, "give it only once", typed)
    if not text.strip() and required:
        raise SearchInputError("q", "required, the words to search for", typed)
    if game is not None and game not in GAME_IDS:
        raise SearchInputError("game", f"must be one of {', '.join(GAME_IDS)}", typed)
    limit = args.get("limit", "").strip()
    if not limit:
        return typed
    if not (limit.isascii() and limit.isdigit() and len(limit) <= len(str(LIMIT_MAX)) and 1 <= int(limit) <= LIMIT_MAX):
        raise SearchInputError("limit", f"must be a whole number from 1 to {LIMIT_MAX}", typed)
    return SearchInput(text=text, game=game, limit=int(limit))
