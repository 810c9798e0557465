"""The search index saved ahead of time (the offline bundle carries it, built by its build) answers
exactly as the index built anew, and an index saved by another build is never read."""
from dataclasses import replace

import pytest

from bench.search_quality import load_questions
from webapp.search import SearchIndex
from webapp.search import index as search_index
from webapp.state import state_of

# Questions beyond the players': typos, a word the rules never use, one left unfinished, a
# definition, a quoted phrase, an empty one, one over the length read, a game's name
ODD_QUESTIONS = ("corupption chek", "xyzzy plugh", "how do i retre", "what is a stronghold", '"free council"', "",
                 "siege " * 300, "meccg corruption", "skys darken")


@pytest.fixture(scope="module")
def built(app):
    return state_of(app).search


@pytest.fixture(scope="module")
def saved(app, built):
    return built.saved(state_of(app).build)


@pytest.fixture(scope="module")
def loaded(app, saved):
    index = SearchIndex.load(saved, state_of(app).build)
    assert index is not None
    return index


def test_a_saved_index_answers_every_player_question_as_the_index_built_anew(built, loaded):
    questions = load_questions()
    assert len(questions) >= 350
    for question in questions:
        for game in (None, question.game):
            assert loaded.search(question.text, game=game) == built.search(question.text, game=game), (question, game)


@pytest.mark.parametrize("text", ODD_QUESTIONS)
def test_a_saved_index_reads_and_corrects_odd_questions_as_the_index_built_anew(built, loaded, text):
    assert loaded.search(text) == built.search(text)
    assert loaded.search(text, fuzzy=False, limit=50) == built.search(text, fuzzy=False, limit=50)
    assert seen(loaded.read(text)) == seen(built.read(text))


def seen(reading):
    """A reading, each part without the function that made its query (a new one each time)."""
    return replace(reading, parts=[replace(part, make=None) for part in reading.parts])


def test_a_saved_index_leaves_out_whoosh_s_files_the_held_scores_make_unneeded(built, loaded):
    assert built.held is not None and built.tables.files and built.searcher is not None
    assert loaded.held is not None, "held scores answer every query"
    assert loaded.tables.files is None and loaded.searcher is None


def test_an_index_saved_by_another_build_or_whoosh_is_never_read(app, saved, monkeypatch):
    build = state_of(app).build
    assert SearchIndex.load(saved, "another build") is None
    assert SearchIndex.load(b"not an index", build) is None
    assert SearchIndex.load(b"", build) is None
    monkeypatch.setattr(search_index.whoosh, "versionstring", lambda: "0.0.0")
    assert SearchIndex.load(saved, build) is None


@pytest.mark.parametrize("key, written", [("the app's build", True), ("another build", True), ("the app's build", False)])
def test_the_app_reads_the_saved_index_only_when_its_own_build_saved_it(app, built, tmp_path, key, written):
    state = state_of(app)
    path = tmp_path / "search-index.pickle"
    if written:
        path.write_bytes(built.saved(state.build if key == "the app's build" else key))
    index = SearchIndex.saved_or_built(state.library, state.calculators, str(path), state.build)
    read = key == "the app's build" and written
    assert (index.searcher is None) == read, "read from the file, or built anew"
    assert index.search("can my leader reroll misses") == built.search("can my leader reroll misses")
