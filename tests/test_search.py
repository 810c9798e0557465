"""Search behaves as players need, checked with real queries against the real content."""
import re
import threading
from pathlib import Path

import pytest
import yaml

from webapp import default_config
from webapp.content import GAME_IDS
from webapp.content_store import read_library
from webapp.search import build_index, fold, get_search_index, index_link, search

QUESTIONS = sorted(Path(__file__).parent.glob("search_questions/*.yaml"))


def top(app, text, game=None, limit=3):
    with app.app_context():
        return search(text, game=game, limit=limit)


def top_ids(app, text, game=None, limit=3):
    return [hit.id for hit in top(app, text, game, limit).hits]


def question_cases():
    for path in QUESTIONS:
        game = path.stem
        for item in yaml.safe_load(path.read_text()):
            yield pytest.param(game, item["q"], item["expect"], id=f"{game}:{item['q']}")


def test_every_game_has_table_questions():
    assert {p.stem for p in QUESTIONS} == set(GAME_IDS)
    assert sum(len(yaml.safe_load(p.read_text())) for p in QUESTIONS) >= 30


@pytest.mark.parametrize("game, text, expect", list(question_cases()))
def test_table_question_finds_its_answer_in_top_3(app, game, text, expect):
    ids = top_ids(app, text, game=game)
    assert any(f"{game}:{e}" in ids for e in expect), (text, ids)


def glossary_cases():
    library = read_library(default_config()["CONTENT_DIR"])  # parameters are collected before fixtures exist
    for game in library.games.values():
        for section in game.sections.values():
            if section.kind != "glossary":
                continue
            for term in section.entries:
                for name in (term.title, *term.aliases):
                    yield pytest.param(game.id, term.id, name, id=f"{game.id}:{term.id}:{name}")


@pytest.mark.parametrize("game, term_id, name", list(glossary_cases()))
def test_glossary_term_found_by_name_and_alias(app, game, term_id, name):
    ids = top_ids(app, name, game=game, limit=10)
    assert f"{game}:{term_id}" in ids, (name, ids)


def test_accents_are_folded(app):
    plain, accented = top_ids(app, "nazgul", "wotr", 5), top_ids(app, "Nazgûl", "wotr", 5)
    assert plain and plain == accented
    assert "Nazgûl" in top(app, "nazgul", "wotr").hits[0].title


def test_stems_match(app, library):
    hits = top(app, "retreating", "wotr", 5).hits
    assert hits and any("retreat" in hit.title.lower() for hit in hits[:3])


def test_one_letter_typo_is_corrected(app):
    results = top(app, "corupption check", "meccg")
    assert results.hits and "corruption" in results.hits[0].title.lower()
    assert results.suggestion == "corruption check"


def test_hyphenated_and_joined_forms_match(app):
    assert top_ids(app, "re-roll", "wotr")[:1] == top_ids(app, "reroll", "wotr")[:1] != []


@pytest.mark.parametrize("alias, meaning, game", [
    ("MP", "marshalling points", "meccg"),
    ("DI", "direct influence", "meccg"),
    ("CS", "combat strength", "wotr"),
])
def test_glossary_abbreviations_are_synonyms(app, alias, meaning, game):
    by_alias = top_ids(app, alias, game, 10)
    by_meaning = top_ids(app, meaning, game, 10)
    assert by_alias and set(by_alias[:3]) & set(by_meaning)


def test_phrase_query_matches_words_in_order(app, library):
    results = top(app, '"two hits"', "wotr", 20)
    assert results.hits
    for hit in results.hits:
        game, entry_id = hit.id.split(":")
        entry = library.games[game].lookup(entry_id)
        text = fold(f"{entry.title} {getattr(entry, 'text', '')} {' '.join(getattr(entry, 'aliases', ()))}")
        assert re.search(r"\btwo\W+hits?\b", text), hit.id
    loose = top(app, "two hits", "wotr", 50)
    assert loose.total >= results.total


def test_game_filter_keeps_to_one_game(app):
    for game in GAME_IDS:
        results = top(app, "turn", game, 20)
        assert results.hits, game
        assert {hit.game for hit in results.hits} == {game}


def test_did_you_mean_when_nothing_matches(app):
    results = top(app, "corrupshon", "meccg")
    assert results.suggestion
    assert top(app, results.suggestion, "meccg").hits


def test_nonsense_has_no_suggestion(app):
    results = top(app, "qqqqzzzz", None)
    assert results.hits == [] and results.suggestion is None


def test_snippets_contain_only_mark_tags(app):
    for text in ("<script>alert(1)</script> combat", "hits <b>bold</b>", "\"<img src=x onerror=alert(1)>\""):
        for hit in top(app, text, None, 10).hits:
            tags = re.findall(r"</?([a-zA-Z]+)", str(hit.snippet))
            assert set(tags) <= {"mark"}, hit.snippet


@pytest.mark.parametrize("text", [
    '"unbalanced quote', "(((", "title:combat", "game:meq", "*", "comb*", "?", "a" * 10_000,
    "NOT AND OR", "\x00\x01", "💍 ring", "))) OR (((", "'",
])
def test_malformed_queries_never_fail(client, text):
    response = client.get("/api/search", query_string={"q": text})
    assert response.status_code in (200, 400)
    body = response.get_json()
    assert ("results" in body) if response.status_code == 200 else ("error" in body)
    page = client.get("/search", query_string={"q": text})
    assert page.status_code == 200


def test_index_is_built_into_the_instance_folder(app):
    link = index_link(app.instance_path)
    assert link.is_symlink()
    assert (link / "stamp").read_text().endswith(app.extensions["redbook.library"].fingerprint)


def test_rebuild_is_atomic_while_searching(app):
    errors, counts = [], []
    stop = threading.Event()

    def searcher():
        while not stop.is_set():
            try:
                counts.append(len(top(app, "combat roll", "wotr", 5).hits))
            except Exception as exc:  # any failure at all is what this test looks for
                errors.append(repr(exc))

    threads = [threading.Thread(target=searcher) for _ in range(3)]
    for thread in threads:
        thread.start()
    try:
        with app.app_context():
            for _ in range(4):
                build_index(force=True)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert errors == []
    assert counts and min(counts) > 0


def test_index_rebuilt_when_content_changes(content_copy, tmp_path):
    from webapp import create_app

    instance = tmp_path / "instance"
    app = create_app({"CONTENT_DIR": str(content_copy), "INSTANCE_PATH": str(instance)})
    first = index_link(instance).resolve()
    with app.app_context():
        assert search("mirkwoodzz", game="wotr").hits == []
    game = yaml.safe_load((content_copy / "wotr" / "game.yaml").read_text())
    path = content_copy / "wotr" / f"{game['turn'][0]['section']}.yaml"
    data = yaml.safe_load(path.read_text())
    data["entries"][0]["body"] = data["entries"][0].get("body", "") + "\n\nMirkwoodzz marker."
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    app = create_app({"CONTENT_DIR": str(content_copy), "INSTANCE_PATH": str(instance)})
    assert index_link(instance).resolve() != first
    with app.app_context():
        assert search("mirkwoodzz", game="wotr").hits


def test_unchanged_content_keeps_the_index(app):
    before = index_link(app.instance_path).resolve()
    with app.app_context():
        path, seconds = build_index()
    assert seconds is None and path == before


def test_build_index_command(runner):
    result = runner.invoke(args=["build-index", "--force"])
    assert result.exit_code == 0, result.output
    assert "index built in" in result.output


def test_postings_held_in_memory_rank_exactly_as_whoosh_reads_them(app):
    questions = [item["q"] for path in QUESTIONS for item in yaml.safe_load(path.read_text())]
    with app.app_context():
        index = get_search_index()
        index.current()
        held = [index._search(q, None, 10, True).as_json() for q in questions]
        searcher = index.searcher
        keep = searcher.held_postings
        del searcher.held_postings
        try:
            read = [index._search(q, None, 10, True).as_json() for q in questions]
        finally:
            searcher.held_postings = keep
    assert len(held) >= 30 and any(h["results"] for h in held)
    assert held == read
