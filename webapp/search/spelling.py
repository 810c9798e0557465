"""Typos corrected to the rules' own words: "corupption" is corruption, "skys" skies, not says.

A word the rules never use, and players do not use either, is replaced by the closest word the
rules do use: one edit away for short words, two for long ones, and two for a word of four
letters or more when the correction makes, with a neighbouring word, a pair the rules use
("serch dice": search dice), or is a word of the rules' titles and names with the same first and
last letters ("skys": skies; "plugh" is no slip of "plus", so it finds nothing). A short word
one slip from a little word is that word ("meny": many, not merry), so no rules word stands in
for it. Of corrections as near, a doubled letter typed once comes first ("aplied": applied, not
allied). A common English word the rules never use is taken as meant, not as a slip two edits
from a rules word ("hunters" is no typo of enters). Candidates come from a table of deletions
built once, so the cost of a correction is bounded whatever is typed.
"""
from __future__ import annotations

MAX_EDITS = 2
MAX_WORD = 30
LONG_WORD = 7  # a word this long may be two edits from the rules' word it means
SLIP_WORD = 6  # an unknown word this long at most may be a little word ("wich": which) mistyped
MAX_SWAPPED = 3  # the likeliest rules words close to a word looked at for its letters swapped


class Speller:
    """Corrections drawn from the rules' vocabulary, preferring its names and the pairs it uses."""

    def __init__(self, counts, names, pairs, filler, player_words, player_pairs, key_of, asked_words=frozenset()):
        self.counts = counts  # word -> how much the rules use it (titles and names count more)
        self.names = names  # words of titles, names and aliases
        self.pairs = pairs | player_pairs  # pairs of words the rules (or players) use together
        self.filler = filler  # never a correction: "skys" is not "says"
        self.player_words = player_words  # words (and their stems) players use on their own
        self.player_pairs = player_pairs
        self.key_of = key_of  # a word's stems, as the player vocabulary is keyed
        self.asked_words = asked_words  # the words of the questions players ask of the rules, as written
        self.english = frozenset()  # common English words (the word vectors' commonest): one edit at most is a slip
        self.deletions, self.filler_deletions = {}, {}
        for word in filler:
            for deletion in _deletions(word, 1):
                self.filler_deletions.setdefault(deletion, []).append(word)
        for word in counts:
            if 3 <= len(word) <= MAX_WORD and not word.isdigit():
                for deletion in _deletions(word, MAX_EDITS):
                    self.deletions.setdefault(deletion, []).append(word)

    def singular(self, word):
        """The rules' singular of a plural they never print ("bonuses": bonus, "6s": 6), or None."""
        if word in self.counts or not word.endswith("s"):
            return None
        if word[:-1].isdigit():
            return word[:-1]
        for singular in (word[:-3] + "y", word[:-2], word[:-1]):
            if singular in self.counts and len(singular) > 2:
                return singular
        return None

    def familiar(self, word, neighbours):
        """Whether a typed word needs no correction: the rules or players use it, or it is a number."""
        before, after = neighbours
        return (word in self.counts or word in self.filler or word.isdigit() or len(word) < 3
                or word in self.player_words or word in self.asked_words or self.key_of(word) in self.player_words
                or (before, word) in self.player_pairs or (word, after) in self.player_pairs)

    def slip(self, word, close=()):
        """The little word an unknown short word is, but for one slip ("meny": many, "thee": the,
        "wat": what, "dose": does): a letter left out, added or swapped, or a vowel or a key beside
        it for one of its letters, its first letter kept. None when the word's letters swapped make
        one of the rules words ``close`` to it ("hadn": hand, not had), or it is no slip of a little
        word: then a rules word is likelier ("cad": card)."""
        if len(word) > SLIP_WORD:
            return None
        slips = [little for deletion in _deletions(word, 1) for little in self.filler_deletions.get(deletion, ())
                 if little[0] == word[0] and _keyed_near(word, little) and edit_distance(word, little, 1) <= 1]
        if not slips or any(sorted(candidate) == sorted(word) for candidate in close[:MAX_SWAPPED]):
            return None
        return min(slips)

    def close_words(self, word, neighbours=(None, None)):
        """Rules words within the allowed edits of ``word``, likeliest first."""
        if len(word) < 3 or len(word) > MAX_WORD:
            return []
        before, after = neighbours
        candidates = set()
        for deletion in _deletions(word, MAX_EDITS):
            candidates.update(self.deletions.get(deletion, ()))
        scored = []
        for candidate in candidates - self.filler:
            paired = (before, candidate) in self.pairs or (candidate, after) in self.pairs
            named = candidate in self.names
            limit = self.edits_allowed(word, candidate, paired, named)
            if abs(len(candidate) - len(word)) > limit or not _keyed_near(word, candidate):
                continue
            distance = edit_distance(word, candidate, limit)
            if distance <= limit:
                scored.append((not paired, distance, not _doubled_once(word, candidate), not named,
                               -self.counts.get(candidate, 0), candidate))
        scored.sort()
        return [candidate for *_, candidate in scored]

    def __getstate__(self):
        """What a saved index keeps: all but the common English words, which the word vectors hold."""
        return {**self.__dict__, "english": frozenset()}

    def edits_allowed(self, word, candidate, paired, named):
        """How many edits may part ``word`` from the rules word ``candidate``: two for a long word, or a
        word of four letters or more that makes a pair the rules use or a name with the same ends;
        one for a common English word (it is likelier meant) and any other."""
        if word in self.english:
            return 1
        if len(word) >= LONG_WORD or len(word) > 3 and (paired or named and _same_ends(word, candidate)):
            return MAX_EDITS
        return 1

    def correct(self, words, keep, alternatives=3, most=None):
        """(the words with unfamiliar ones corrected, {position: the likeliest corrections}).

        ``keep(position, word)`` says a word stays as typed (a prefix being typed, say); at most
        ``most`` unfamiliar words are looked at (None: all), the rest stay as typed.
        """
        out = list(words)
        found = {}
        budget = len(words) if most is None else most
        for i, word in enumerate(words):
            neighbours = (out[i - 1] if i else None, words[i + 1] if i + 1 < len(words) else None)
            if budget <= 0 or self.familiar(word, neighbours) or keep(i, word):
                continue
            budget -= 1
            close = self.close_words(word, neighbours)
            slip = self.slip(word, close)
            if slip:
                out[i] = slip
            elif close:
                out[i] = close[0]
                found[i] = close[:alternatives]
        return out, found

    def suggest(self, words):
        """The words with each unfamiliar one replaced by its likeliest correction (one with nothing
        close stays as typed); None if none changed."""
        out = []
        for i, word in enumerate(words):
            neighbours = (out[i - 1] if i else None, words[i + 1] if i + 1 < len(words) else None)
            if self.familiar(word, neighbours):
                out.append(word)
                continue
            close = self.close_words(word, neighbours)
            slip = self.slip(word, close)
            out.append(slip or (close[0] if close else word))
        return " ".join(out) if out != list(words) else None


KEYBOARD = ("qwertyuiop", "asdfghjkl", "zxcvbnm")  # each row sits half a key right of the one above


def _keyboard_neighbours():
    """Each letter's neighbours on the keyboard: beside it, and the keys touching it above and below."""
    found = {}
    for r, row in enumerate(KEYBOARD):
        for i, letter in enumerate(row):
            near = {row[j] for j in (i - 1, i + 1) if 0 <= j < len(row)}
            if r > 0:
                near |= {KEYBOARD[r - 1][j] for j in (i, i + 1)}
            if r + 1 < len(KEYBOARD):
                near |= {KEYBOARD[r + 1][j] for j in (i - 1, i) if 0 <= j < len(KEYBOARD[r + 1])}
            found[letter] = near
    return found


NEIGHBOURS = _keyboard_neighbours()
VOWELS = frozenset("aeiouy")


def _keyed_near(typed, candidate):
    """Whether a short word that differs from a rules word of its length by wrong letters could be
    a slip: each wrong letter a neighbour on the keyboard ("strikr": strike) or a vowel for a vowel
    ("warriars"), or two letters swapped. Another letter makes another word ("night" is no slip of
    "eight", "cold" none of "card")."""
    if len(typed) >= LONG_WORD or len(typed) != len(candidate):
        return True
    differ = [(i, a, b) for i, (a, b) in enumerate(zip(typed, candidate)) if a != b]
    if len(differ) == 2 and differ[1][0] == differ[0][0] + 1 and (differ[0][1], differ[0][2]) == (differ[1][2], differ[1][1]):
        return True  # two letters swapped
    return all(b in NEIGHBOURS.get(a, ()) or a in VOWELS and b in VOWELS for _, a, b in differ)


def _doubled_once(typed, candidate):
    """Whether ``typed`` is ``candidate`` with a doubled letter typed once ("aplied": applied), the
    commonest slip of all."""
    return len(candidate) == len(typed) + 1 and any(
        candidate[i] == candidate[i + 1] and candidate[:i] + candidate[i + 1:] == typed for i in range(len(candidate) - 1))


def _same_ends(typed, candidate):
    """Whether a short word two edits from a rules word keeps its first and last letters: a slip
    inside the word ("skys": skies), not another word ("plugh" is not "plus")."""
    return typed[0] == candidate[0] and typed[-1] == candidate[-1]


def _deletions(word, depth):
    """``word`` and every string made by deleting up to ``depth`` letters from it."""
    found = {word}
    frontier = {word}
    for _ in range(depth):
        frontier = {w[:i] + w[i + 1:] for w in frontier for i in range(len(w))}
        found |= frontier
    return found


def edit_distance(typed, candidate, limit):
    """Levenshtein distance from ``typed`` to ``candidate``, a swap of two neighbouring letters
    counting as one edit; gives up (``limit`` + 1) once it is sure to exceed ``limit``."""
    previous = list(range(len(candidate) + 1))
    before = None
    for i, typed_letter in enumerate(typed, 1):
        current = [i]
        row_min = i
        for j, candidate_letter in enumerate(candidate, 1):
            cost = 0 if typed_letter == candidate_letter else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if (before is not None and i > 1 and j > 1 and typed_letter == candidate[j - 2]
                    and typed[i - 2] == candidate_letter):
                value = min(value, before[j - 2] + 1)
            current.append(value)
            row_min = min(row_min, value)
        if row_min > limit:
            return limit + 1
        before, previous = previous, current
    return previous[-1]
