"""Every page renders from the real content; errors are pages or JSON, never tracebacks."""
import json
import re

import pytest

from webapp import default_config
from webapp.content import GAME_IDS
from webapp.library import read_library

# the parameters are collected before any fixture exists, so the content is read once here
SECTION_URLS = [section.url for section in read_library(default_config()["CONTENT_DIR"]).sections()]


def test_home_lists_every_game_and_a_search_box(client, library):
    html = client.get("/").get_data(as_text=True)
    for game in library.games.values():
        assert f'href="{game.url}"' in html
    assert 'name="q"' in html and 'role="search"' in html


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_game_overview_links_sections_checklist_print_and_calculators(client, game_id, library):
    response = client.get(f"/{game_id}/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    game = library.games[game_id]
    for section in game.sections.values():
        assert f'href="{section.url}"' in html
    assert f'href="/{game_id}/turn"' in html and f'href="/{game_id}/print"' in html
    for calc_id in game.calculators():
        assert f"/{game_id}/calc/" in html or calc_id.split("-")[0] != game_id


@pytest.mark.parametrize("url", SECTION_URLS)
def test_section_page_has_an_anchor_for_every_entry(client, url, library):
    response = client.get(url)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    game_id, section_id = url.strip("/").split("/")
    section = library.games[game_id].sections[section_id]
    for entry in section.walk():
        assert f'id="{entry.id}"' in html, entry.id
    assert 'aria-label="Breadcrumb"' in html


def test_cross_references_render_as_links(client, library):
    game = library.games["meq"]
    linked = [e for s in game.sections.values() for e in s.walk() if e.see]
    assert linked
    entry = linked[0]
    html = client.get(f"/meq/{entry.section}").get_data(as_text=True)
    for ref in entry.see:
        assert f'href="{ref.url}"' in html


def test_rules_link_to_their_calculators(client):
    html = client.get("/wotr/combat-dice").get_data(as_text=True)
    assert 'href="/wotr/calc/roll"' in html
    # a score is no chance: the link says to work it out, not to work out the odds
    dominance = client.get("/meq/dominance").get_data(as_text=True)
    assert '<a href="/meq/calc/dominance">Work it out: Dominance</a>' in dominance
    assert "Work out the odds" not in dominance


def test_an_answer_links_down_to_the_rules_it_follows(client):
    answered = client.get("/meq/calc/dominance?hero_to_finale=5&sauron_to_finale=4&sauron_to_finale=6"
                          "&sauron_to_finale=8&sauron_to_shadow_falls=3&sauron_to_shadow_falls=4"
                          "&sauron_to_shadow_falls=5").get_data(as_text=True)
    assert '<a href="#rules-used">The rules this answer follows</a>' in answered
    assert '<section class="rules-used" id="rules-used">' in answered and 'href="/meq/dominance#' in answered
    assert 'href="#rules-used"' not in client.get("/meq/calc/dominance").get_data(as_text=True)  # no answer yet


def test_search_page_shows_hits_with_deep_links(client):
    html = client.get("/search?q=leader+reroll&game=wotr").get_data(as_text=True)
    assert 'href="/wotr/combat-dice#leader-reroll"' in html


def test_search_page_offers_more_results_than_it_shows_first(client):
    from webapp.search import LIMIT_MAX, PAGE_LIMIT

    html = client.get("/search?q=who+goes+first+in+a+battle&game=meq").get_data(as_text=True)
    total = int(re.search(r'class="result-count">(\d+) results, the best (\d+) here<', html).group(1))
    assert total > LIMIT_MAX and html.count('class="hit-title"') == PAGE_LIMIT
    more = re.search(r'class="more-results"><a href="([^"]+)">Show the best (\d+)</a>', html)
    assert int(more.group(2)) == LIMIT_MAX
    longer = client.get(more.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert longer.count('class="hit-title"') == LIMIT_MAX and 'class="more-results"' not in longer
    few = client.get("/search?q=sideboard&game=meccg").get_data(as_text=True)  # fewer than a page: all shown
    total = int(re.search(r'class="result-count">(\d+) results<', few).group(1))
    assert total == few.count('class="hit-title"') < PAGE_LIMIT and 'class="more-results"' not in few


def test_search_page_with_unknown_game_says_so(client):
    response = client.get("/search?q=hope&game=narnia")
    assert response.status_code == 400  # as a calculator's page answers input it cannot take
    assert '<p class="field-error" id="e-game" role="alert">Game: must be one of wotr,' in response.get_data(as_text=True)


def test_search_page_escapes_the_query(client):
    html = client.get("/search", query_string={"q": "<script>alert(1)</script>"}).get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html


@pytest.mark.parametrize("url", ["/narnia/", "/wotr/no-such-section", "/nothing/here/at/all", "/wotr/../../etc/passwd"])
def test_unknown_pages_are_404_pages(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert "Traceback" not in response.get_data(as_text=True)


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}


def test_api_search_shape(client):
    body = client.get("/api/search?q=corruption+check&game=meccg&limit=5").get_json()
    assert set(body) == {"query", "total", "results", "suggestion", "rewrites", "note", "by_meaning"}
    assert 1 <= len(body["results"]) <= 5
    hit = body["results"][0]
    assert set(hit) >= {"id", "game", "section", "title", "url", "snippet"}
    assert hit["game"] == "meccg" and hit["url"].startswith("/meccg/")


def test_api_search_keys_come_in_the_documented_order(client):
    text = client.get("/api/search?q=combat").get_data(as_text=True)
    assert list(json.loads(text)) == ["query", "total", "results", "suggestion", "rewrites", "note", "by_meaning"]
    assert list(json.loads(text)["results"][0])[:3] == ["id", "game", "section"]


@pytest.mark.parametrize("query, parameter", [
    ("", "q"), ("q=", "q"), ("q=%20", "q"), ("q=hope&game=narnia", "game"), ("q=hope&limit=0", "limit"),
    ("q=hope&limit=51", "limit"), ("q=hope&limit=ten", "limit"),
])
def test_api_search_bad_parameters_are_400_naming_the_parameter(client, query, parameter):
    response = client.get(f"/api/search?{query}")
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(f"{parameter}:")


@pytest.mark.parametrize("method, url", [("GET", "/api/nothing"), ("POST", "/api/nothing"), ("GET", "/api/wotr/nothing")])
def test_unknown_api_paths_are_json_404(client, method, url):
    response = client.open(url, method=method)
    assert response.status_code == 404
    assert response.get_json() == {"error": "Not Found"}


def test_wrong_method_on_api_is_json_405(client):
    response = client.post("/api/search?q=hope")
    assert response.status_code == 405
    assert "error" in response.get_json()


@pytest.mark.parametrize("url", ["/", "/wotr/combat-round", "/api/search?q=hope", "/nope", "/api/nope", "/static/style.css"])
def test_security_headers_on_every_response(client, url):
    with client.get(url) as response:
        headers = response.headers
        csp = headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"]


def test_pages_have_no_inline_script_or_style(client):
    for url in ["/", "/wotr/", "/wotr/combat-round", "/meccg/turn", "/fotf/print", "/wotr/calc/battle", "/search?q=hope"]:
        html = client.get(url).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
        assert "<style" not in html and " style=" not in html, url


def test_static_assets_are_fingerprinted_and_cached_long(client):
    html = client.get("/").get_data(as_text=True)
    match = re.search(r'href="(/static/style\.css\?v=[0-9a-f]+)"', html)
    assert match
    with client.get(match.group(1)) as asset:
        assert asset.status_code == 200 and "immutable" in asset.headers["Cache-Control"]
    page_cache = client.get("/").headers["Cache-Control"]
    assert "immutable" not in page_cache and "max-age=0" in page_cache


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_glossary_is_a_to_z_with_a_letter_index_and_a_topic_view(client, game_id, library):
    terms = library.games[game_id].sections["glossary"].entries
    html = client.get(f"/{game_id}/glossary").get_data(as_text=True)
    shown = re.findall(r'<section class="entry entry-term[^"]*" id="([a-z0-9-]+)"', html)
    assert sorted(shown) == sorted(t.id for t in terms)
    letters = re.findall(r'<a href="#letter-([A-Zother]+)">', html)
    assert letters and letters == sorted(letters)
    for letter in letters:
        assert f'id="letter-{letter}"' in html
    topics = client.get(f"/{game_id}/glossary?view=topics").get_data(as_text=True)
    assert re.findall(r'<section class="entry entry-term[^"]*" id="([a-z0-9-]+)"', topics) == [t.id for t in terms]
    assert "letter-index" not in topics and 'href="/%s/glossary?view=topics" aria-current="page"' % game_id in topics
    again = client.get(f"/{game_id}/glossary").get_data(as_text=True)
    assert "letter-index" in again, "the A-Z view is cached apart from the topic view"


def test_glossary_view_must_be_a_to_z_or_topics(client):
    response = client.get("/meq/glossary", query_string={"view": "<b>sideways</b>"})
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert "view: choose a-z or topics" in body and "<b>sideways" not in body


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_wrong_glossary_view_offers_the_views_there_are(client, game_id):
    response = client.get(f"/{game_id}/glossary?view=zzz")
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    main = body[body.index("<main"):body.index("</main>")]
    assert "view: choose a-z or topics" in main
    offered = re.findall(r'<a href="([^"]+)">(A–Z|By topic) \((a-z|topics)\)</a>', main)
    assert [(label, name) for _, label, name in offered] == [("A–Z", "a-z"), ("By topic", "topics")]
    for url, _, name in offered:
        page = client.get(url.replace("&amp;", "&"))
        assert page.status_code == 200
        assert ("letter-index" in page.get_data(as_text=True)) == (name == "a-z")


def test_a_wrong_view_on_a_missing_section_is_not_found(client):
    assert client.get("/meq/no-such-section?view=zzz").status_code == 404
