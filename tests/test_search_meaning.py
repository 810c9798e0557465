"""Meaning: the word vectors, what a text means to search, and the ranking feature made of them."""
import re
from math import isclose
from operator import mul

import pytest

from bench.search_quality import load_questions, measure
from webapp.search.analysis import folded_words
from webapp.search.meaning import VECTORS_FILE, WordVectors, nearness, packed, unpacked
from webapp.search.ranking import MEANING_POOL
from webapp.state import state_of


@pytest.fixture(scope="module")
def vectors(app):
    return WordVectors.load(skip=state_of(app).search.words.filler)


def cosine(one, other):
    return sum(map(mul, one, other))


def meaning(vectors, text):
    return vectors.vector(folded_words(text))


def test_the_vectors_know_the_contents_words(content_dir, vectors):
    words = {w for path in content_dir.rglob("*.yaml") for w in folded_words(path.read_text(encoding="utf-8"))
             if len(w) > 2 and not re.search(r"\d", w)}
    unknown = sorted(w for w in words if not vectors.rows_of_word(w) and w not in vectors.skip)
    # names the vectors never saw (Edoras, Imladris) are all that should be missing
    assert len(unknown) <= 0.05 * len(words), unknown[:40]


@pytest.mark.parametrize("word, alike, unlike", [
    ("castle", "fortress", "card"),
    ("monsters", "creatures", "hand"),
    ("soldiers", "troops", "dice"),
    ("swap", "exchange", "army"),
])
def test_words_used_alike_are_nearer_than_words_that_are_not(vectors, word, alike, unlike):
    assert cosine(meaning(vectors, word), meaning(vectors, alike)) > cosine(meaning(vectors, word), meaning(vectors, unlike)) + 0.2


def test_a_hyphenated_word_means_its_joined_form_and_case_and_repeats_change_nothing(vectors):
    assert meaning(vectors, "re-roll") == meaning(vectors, "reroll") is not None
    assert meaning(vectors, "Castle castle CASTLE") == meaning(vectors, "castle")


def test_filler_unknown_words_and_the_pieces_of_numbers_mean_nothing(vectors):
    assert meaning(vectors, "the and of it") is None
    assert meaning(vectors, "zzxqv qqwyt") is None
    assert meaning(vectors, "the castle zzxqv") == meaning(vectors, "castle")
    assert meaning(vectors, "2nd 4th 1st castle") == meaning(vectors, "castle")


def test_accents_quotes_and_signs_are_read_as_a_player_means_them(app, vectors):
    assert meaning(vectors, "Naïve") == meaning(vectors, "naive") is not None
    assert meaning(vectors, "+1") == meaning(vectors, "plus 1") is not None
    index = state_of(app).search
    with app.app_context():
        quoted = index.read('"Trolls" attack', "wotr")
        plain = index.read("trolls attack", "wotr")
    assert vectors.vector(quoted.said) == vectors.vector(plain.said) is not None


def test_a_text_means_a_unit_vector_and_packs_into_a_byte_a_number(vectors):
    found = meaning(vectors, "the defender retreats into its stronghold")
    assert len(found) == vectors.dimensions and isclose(cosine(found, found), 1.0)
    d = vectors.dimensions
    assert isclose(nearness(found, unpacked(packed(found), d)), 1.0, abs_tol=0.01)
    # an entry is as near as the nearest of its meanings
    both = unpacked(packed(meaning(vectors, "dice")) + packed(found), d)
    assert len(both) == 2 and nearness(found, both) == nearness(found, both[1:]) > nearness(found, both[:1])
    assert packed(None) == b"" and nearness(found, ()) == 0.0


@pytest.mark.parametrize("cut", [10, 100_000, -1])
def test_a_broken_vectors_file_names_itself(tmp_path, cut):
    broken = tmp_path / "word_vectors.bin"
    broken.write_bytes(VECTORS_FILE.read_bytes()[:cut])
    with pytest.raises(ValueError, match="word_vectors.bin"):
        WordVectors.load(broken)


def test_every_entry_has_a_vector_for_itself_and_each_question_asked_of_it(app, library, vectors):
    index = state_of(app).search
    entries, dimensions = index.entries, vectors.dimensions
    for section in library.sections():
        for entry in (section, *section.walk()):
            docnum = entries.docnum[f"{section.game}:{entry.id}"]
            # a question of no word the vectors know ("+1 +1 = +2 wotr?") has none
            meant = [q for q in entry.asked if meaning(vectors, q) is not None]
            assert len(meant) >= len(entry.asked) - 1, entry.id
            assert len(index.tables.entry_vectors[docnum]) == dimensions * (1 + len(meant)), entry.id


def test_meaning_reranks_only_the_pool_and_a_question_gives_the_glossary_nothing(app):
    index = state_of(app).search
    ranker = index.ranker
    weights = dict(ranker.weights)
    try:
        with app.app_context():
            for text, lone in (("how does a strike work when my character is wounded", False), ("combat", True)):
                reading = index.read(text)
                with_meaning, _ = index.rank(reading)
                ranker.weights = {**weights, "meaning": 0.0}
                without, _ = index.rank(reading)
                ranker.weights = weights
                assert len(without) > MEANING_POOL
                # the pool is the first MEANING_POOL without meaning, in another order; the rest is left as it was
                assert set(with_meaning[:MEANING_POOL]) == set(without[:MEANING_POOL])
                assert with_meaning[MEANING_POOL:] == without[MEANING_POOL:]
                near = ranker.nearness_in_pool(reading, without[:MEANING_POOL])
                kinds = {index.entries.kind[docnum] for docnum, value in near.items() if value > 0}
                assert ("term" in kinds) == lone, kinds
    finally:
        ranker.weights = weights


def test_meaning_raises_the_held_back_questions(app):
    """Off (weight 0), the questions never tuned on rank their answers lower: it earns its place."""
    from webapp.search import search

    index = state_of(app).search
    held = [q for q in load_questions() if q.held_out]
    weights = dict(index.ranker.weights)
    try:
        with app.app_context():
            on = measure(search, held, True)
            index.ranker.weights = {**weights, "meaning": 0.0}
            index.forget_answers()
            off = measure(search, held, True)
    finally:
        index.ranker.weights = weights
        index.forget_answers()
    assert on.mrr > off.mrr and on.top3 > off.top3, (on.mrr, off.mrr, on.top3, off.top3)
