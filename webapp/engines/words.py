"""Counts and lists in words, as the working and the answers say them."""


def noun(count, word, plural=""):
    """The word as a count of it takes it, singular for 1: 'strike', 'strikes' (``plural`` for a word
    that does not just add an s). Pages use it where the number stands apart, in large type."""
    return word if count == 1 else plural or word + "s"


def counted(count, word, plural=""):
    """A count and its word, singular for 1: '1 strike', '0 strikes', '2 dice'."""
    return f"{count} {noun(count, word, plural)}"


def and_list(words) -> str:
    """'1', '1 and 3', '1, 2 and 3'."""
    words = [str(word) for word in words]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
