"""A glossary in A–Z order, grouped under each term's first letter."""
import unicodedata
from itertools import groupby


def sort_key(term):
    """How a term files: accents and case ignored, a leading "The" skipped (The Free Council under F)."""
    title = term.title
    if title.lower().startswith("the "):
        title = title[4:]
    plain = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return plain.casefold(), term.title


def by_letter(terms):
    """[(letter, [terms...]), ...] in alphabetical order; non-letters file under "#"."""
    ordered = sorted(terms, key=sort_key)

    def letter(term):
        first = sort_key(term)[0][:1].upper()
        return first if "A" <= first <= "Z" else "#"

    return [(key, list(group)) for key, group in groupby(ordered, key=letter)]
